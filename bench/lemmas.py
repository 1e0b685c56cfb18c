"""Does an inflected form find its lemma? Scored on bench/devsets/lemmas/forms.tsv.

    uv run python bench/lemmas.py --data-dir DIR

--data-dir is an installed data directory (as `lexicon-build start` makes). A form counts
as found when the headword resolution names the expected lemma (any of the resolutions).
"Without simplemma" counts the resolutions the other means give (exact headword, WordNet
exception lists, English suffix rules), "with" all of them.
"""

from __future__ import annotations

import argparse
import csv
from collections import defaultdict
from pathlib import Path

from lexicon_server.corpus.normalize import norm
from lexicon_server.corpus.reader import Corpus
from lexicon_server.query.headwords import resolve_headwords
from lexicon_store.selection import load_active

DEVSET = Path(__file__).parent / "devsets" / "lemmas" / "forms.tsv"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data-dir", type=Path, required=True)
    args = parser.parse_args()
    corpus = Corpus(load_active(args.data_dir))
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    misses: dict[str, list[str]] = defaultdict(list)
    with DEVSET.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            lang, form, lemma = row["language"], row["form"], row["lemma"]
            conn = corpus.db(lang, "lexical")
            heads = resolve_headwords(conn, form, lang)
            hits = [r for r in heads.resolutions if norm(r.lemma) == norm(lemma)]
            other = [r for r in hits if r.source != "simplemma"]
            totals[lang][0] += 1
            totals[lang][1] += bool(other)
            totals[lang][2] += bool(hits)
            if not hits:
                got = ", ".join(f"{r.lemma} ({r.via})" for r in heads.resolutions) or "-"
                misses[lang].append(f"{form} -> {got}")
    print("| language | forms | without simplemma | with simplemma |")
    print("| --- | ---: | ---: | ---: |")
    for lang, (n, before, after) in totals.items():
        print(f"| {lang} | {n} | {before} | {after} |")
    for lang, items in misses.items():
        print(f"missed ({lang}): {'; '.join(items)}")


if __name__ == "__main__":
    main()
