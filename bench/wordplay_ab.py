"""Before/after for `rhymes`: an earlier revision's query module on its own database against
the working tree's on the current one, interleaved word by word in one process.

    uv run python bench/wordplay_ab.py --old-rev REV --old-db FILE --new-db FILE [--words N]

The machine is shared, so two separate benchmark runs minutes apart can differ by more
than the change being measured; interleaving the calls puts both under the same load.
The two answers are also compared for every word, mode (perfect, near) and syllable filter
(none, 2) with the dataset version left out: a speed-up must not change a result.
Prints a Markdown table (on-CPU time per call): `rhymes_data` (what the tool calls) when
both revisions have it, else the typed `rhymes`. The cases alternate in order from word to
word, since a call right after another for the same word finds warmer caches.

The old module is loaded against the working tree's package, so `--old-rev` must be at or
after a92aa1e (where results started citing sources by key with one `sources` map).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import wordplay_latency as wl  # noqa: E402  (the sibling script: corpus and sample helpers)


def old_module(rev: str, workdir: Path) -> ModuleType:
    """`lexicon_server/query/rhymes.py` as of `rev`, imported under another name."""
    source = subprocess.run(
        ["git", "show", f"{rev}:lexicon_server/query/rhymes.py"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    path = workdir / "rhymes_old.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("rhymes_old", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["rhymes_old"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def answer(module: Any, corpus: Any, word: str, mode: str, syllables: int | None) -> object:
    dumped = module.rhymes(corpus, word, mode, syllables=syllables).model_dump()
    dumped.pop("dataset_version")
    return dumped


def timed(module: Any, other: Any) -> Any:
    """The function to time: `rhymes_data` if both revisions have it, else `rhymes`."""
    both = hasattr(module, "rhymes_data") and hasattr(other, "rhymes_data")
    return module.rhymes_data if both else module.rhymes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--old-rev", required=True)
    parser.add_argument("--old-db", type=Path, required=True)
    parser.add_argument("--new-db", type=Path, required=True)
    parser.add_argument("--words", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    from lexicon_server.query import rhymes as new

    with tempfile.TemporaryDirectory() as tmp:
        old = old_module(args.old_rev, Path(tmp))
    old_corpus = wl.corpus_over(args.old_db)
    new_corpus = wl.corpus_over(args.new_db)
    entries = wl.read_cmudict()
    rng = random.Random(20261130)
    plain = sorted(w for w in entries if w.isalpha() and len(w) > 2)
    sample = ["cat", "orange", "table", "understand", "go", "knight", "listen"]
    sample += rng.sample(plain, args.words)

    differ = [
        f"{word} {mode} {syllables}"
        for word in sample
        for mode in ("perfect", "near")
        for syllables in (None, 2)
        if answer(old, old_corpus, word, mode, syllables)
        != answer(new, new_corpus, word, mode, syllables)
    ]
    old_fn, new_fn = timed(old, new), timed(new, old)
    cases = [
        (f"{args.old_rev} perfect", old_fn, old_corpus, "perfect"),
        ("working tree perfect", new_fn, new_corpus, "perfect"),
        (f"{args.old_rev} near", old_fn, old_corpus, "near"),
        ("working tree near", new_fn, new_corpus, "near"),
    ]
    cpu: dict[str, list[float]] = {label: [] for label, *_ in cases}
    for _ in range(args.rounds):
        for n, word in enumerate(sample):
            for label, fn, corpus, mode in cases if n % 2 else cases[::-1]:
                start = time.thread_time()
                fn(corpus, word, mode)
                cpu[label].append(time.thread_time() - start)

    load = os.getloadavg()[0]
    print(f"{len(sample)} words x {args.rounds}, interleaved; load average {load:.1f}")
    print(f"answers compared: {len(sample) * 4}, differing: {len(differ)} {differ[:5]}")
    print()
    print(f"| {new_fn.__name__} (limit 20) | p50 on-CPU | p99 on-CPU |")
    print("| --- | ---: | ---: |")
    for label, samples in cpu.items():
        print(f"| {label} | {wl.fmt(wl.pct(samples, 0.5))} | {wl.fmt(wl.pct(samples, 0.99))} |")


if __name__ == "__main__":
    main()
