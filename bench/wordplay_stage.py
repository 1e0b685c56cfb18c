"""Run the en.wordplay stage alone, with and without ISLEX, and time it.

    LEXICON_BUILD_CACHE=<a private copy of the build cache> \\
        uv run python bench/wordplay_stage.py OUT [--no-islex]

Resolves `wordnet-3.1`, `cmudict`, `wordfreq` (and `islex`) from the cache without
fetching, writes `OUT/en/wordplay.sqlite` with this checkout's stage and prints its build
report and the wall and CPU seconds it took. Copy a built starter's `dataset.json` into
OUT to read the result with `--built OUT` (bench/rhyme_words.py). Never point it at the
shared cache while a starter build may be running.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path


def main() -> None:
    from lexicon_server.builder import stages
    from lexicon_server.builder.config import load_build_config
    from lexicon_server.builder.context import BuildContext
    from lexicon_server.builder.inputs import resolve_inputs
    from lexicon_server.builder.sources import read_lock

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--no-islex", action="store_true")
    parser.add_argument("--dataset-version", default="starter-2026.11.0")
    args = parser.parse_args()
    (args.out / "en").mkdir(parents=True, exist_ok=True)
    names = ["wordnet-3.1", "cmudict", "wordfreq", *([] if args.no_islex else ["islex"])]
    inputs = resolve_inputs(names, {}, load_build_config(), read_lock(None), fetch=False)
    ctx = BuildContext(args.out, inputs, "starter", args.dataset_version, print)
    wall, cpu = time.perf_counter(), time.process_time()
    print(stages.english_wordplay(ctx))
    print(f"wall {time.perf_counter() - wall:.1f} s, cpu {time.process_time() - cpu:.1f} s")


if __name__ == "__main__":
    main()
