"""On-CPU time of `rhymes` (default arguments) for the most frequent English words.

    uv run python bench/rhymes_frequent.py [--data-dir DIR | --built DIR] [--words 300]
        [--rounds 3]

Warm (each word asked once before timing), perfect and near. Run it from two checkouts in
turn, alternating, to compare code on the same machine (docs/benchmarks/patterns.md).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from msimlex import open_corpus
from rhyme_words import frequent_words


def main() -> None:
    from lexicon_server.query.rhymes import rhymes

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data-dir", type=Path)
    parser.add_argument("--built", type=Path)
    parser.add_argument("--words", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    corpus = open_corpus(args.built, args.data_dir)
    words = frequent_words(corpus, None, args.words)
    for mode in ("perfect", "near"):
        for word in words:
            rhymes(corpus, word, mode=mode)
        times: list[float] = []
        for _ in range(args.rounds):
            for word in words:
                start = time.thread_time()
                rhymes(corpus, word, mode=mode)
                times.append(time.thread_time() - start)
        times.sort()
        p90, p99 = times[int(0.9 * len(times))], times[int(0.99 * len(times))]
        print(
            f"{mode}: p50 {1e6 * statistics.median(times):.0f} µs, p90 {1e6 * p90:.0f} µs, "
            f"p99 {1e6 * p99:.0f} µs"
        )


if __name__ == "__main__":
    main()
