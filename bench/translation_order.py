"""How often a word's first translation into a language translates back to the word.

    uv run python bench/translation_order.py --before OLD_EN_LEXICAL.sqlite [--words N]

For the N most frequent English headwords and each language with an installed lexical
component, takes the first unsensed translation in the active release's English
component and in an earlier build's (`--before`, e.g. one in FreeDict's order), and
checks whether the target language's own component lists the English word among that
translation's translations ('to run' counts as 'run'). Prints a Markdown table.

It measures agreement between two dictionaries, not correctness: a release that puts
back-translating words first scores higher by construction. Read the changed words too
(`--show K` prints K of them per language).
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_latency import open_corpus, sample_words

_FIRST = (
    "SELECT tr.target_norm, tr.target_text FROM translations tr JOIN terms t "
    "ON t.id = tr.term_id WHERE t.norm = ? AND tr.target_language = ? "
    "AND tr.sense_id IS NULL ORDER BY tr.id LIMIT 1"
)
_BACK = (
    "SELECT 1 FROM translations tr JOIN terms t ON t.id = tr.term_id "
    "WHERE t.norm = ? AND tr.target_norm IN (?, ?) LIMIT 1"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--words", type=int, default=400)
    parser.add_argument("--show", type=int, default=0)
    opts = parser.parse_args()
    corpus = open_corpus(opts.data_dir)
    words = sample_words(corpus, opts.words)
    now = corpus.db("en", "lexical")
    before = sqlite3.connect(f"file:{opts.before}?mode=ro", uri=True)
    languages = sorted(
        lang
        for lang in corpus.selection.installed
        if lang != "en" and corpus.selection.availability(lang, "lexical") is None
    )
    print("| language | words | first changed | translates back, before | now |")
    print("| --- | ---: | ---: | ---: | ---: |")
    totals = [0, 0, 0, 0]
    for lang in languages:
        other = corpus.db(lang, "lexical")
        counts = [0, 0, 0, 0]
        shown: list[str] = []
        for word in words:
            old = before.execute(_FIRST, (word, lang)).fetchone()
            new = now.execute(_FIRST, (word, lang)).fetchone()
            if old is None or new is None:
                continue
            counts[0] += 1
            counts[1] += old[0] != new[0]
            for k, (target, _) in ((2, old), (3, new)):
                back = other.execute(_BACK, (target, word, "to " + word)).fetchone()
                counts[k] += back is not None
            if old[0] != new[0] and len(shown) < opts.show:
                shown.append(f"{word}: {old[1]} -> {new[1]}")
        totals = [a + b for a, b in zip(totals, counts, strict=True)]
        print(f"| {lang} | {' | '.join(str(c) for c in counts)} |")
        for line in shown:
            print(f"|  | {line} | | | |")
    print(f"| all | {' | '.join(str(c) for c in totals)} |")


if __name__ == "__main__":
    main()
