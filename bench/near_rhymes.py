"""How many of the near rhymes a songwriter would want come first.

    uv run python bench/near_rhymes.py [--data-dir DIR | --built DIR] [--top 10] [--show]

Reads `bench/devsets/near_rhymes/dev.tsv` (hand-written, see its README) and asks each
word's near rhymes (`rhymes`, mode='near', default arguments otherwise). Prints how many
listed words are among the first `--top` (recall), the mean reciprocal rank of the first
listed word, and with `--show` each word's first `--top` answers (listed ones starred).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from msimlex import open_corpus

DEV = Path(__file__).resolve().parent / "devsets" / "near_rhymes" / "dev.tsv"


def read_dev(path: Path) -> list[tuple[str, set[str]]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            word, wanted = line.split("\t")
            rows.append((word, set(wanted.split(","))))
    return rows


def main() -> None:
    from lexicon_server.query.rhymes import rhymes

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data-dir", type=Path)
    parser.add_argument("--built", type=Path)
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--show", action="store_true")
    args = parser.parse_args()
    corpus = open_corpus(args.built, args.data_dir)
    hits = wanted_total = 0
    reciprocal = 0.0
    dev = read_dev(DEV)
    for word, wanted in dev:
        answer = rhymes(corpus, word, mode="near", limit=args.top)
        shown = [result.word for result in answer.results]
        found = [w for w in shown if w in wanted]
        hits += len(found)
        wanted_total += min(len(wanted), args.top)
        first = next((rank for rank, w in enumerate(shown, 1) if w in wanted), None)
        reciprocal += 1 / first if first else 0.0
        if args.show:
            marked = ", ".join(f"{w}*" if w in wanted else w for w in shown)
            print(f"{word}: {marked}")
    print(
        f"{len(dev)} words: listed near rhymes in the first {args.top} "
        f"{hits}/{wanted_total} ({100 * hits / wanted_total:.1f} %), "
        f"MRR of the first listed {reciprocal / len(dev):.3f}"
    )


if __name__ == "__main__":
    main()
