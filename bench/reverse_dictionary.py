"""Reverse dictionary: top-1 / top-10 on the description dev set, and in-process speed.

    uv run python bench/reverse_dictionary.py [--data-dir DIR]
        [--lexical FILE --gcide FILE] [--split dev,dev2,dev3,heldout,heldout2,heldout3,heldout4|all]
        [--show N] [--repeat N]

Asks `dictionary_semantic_neighbors` (the query function, in process, `limit` 10) with each
description of `devsets/reverse_dictionary/descriptions.tsv` and scores the rule of its
README: a description is answered when its word, casefolded, is among the results (top-10)
or is the first (top-1). `--lexical` / `--gcide` put other files (for example copies of the
installed ones with the gloss index added by `lexicon_server.builder.gloss_index`) in place
of the installed `en/lexical.sqlite` and `en/gcide.sqlite`; without them the installed
selection is scored as it is (a release without the index answers a phrase as before).
Speed: every description asked `--repeat` times after one warm-up pass; p50 and p99 of
one call. `--show N` prints N misses per split with the first five results.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from pathlib import Path
from types import MappingProxyType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEVSET = ROOT / "bench" / "devsets" / "reverse_dictionary" / "descriptions.tsv"
# Tuning looks at dev, dev2 and dev3 only; the held-out splits are scored to report.
SPLITS = ("dev", "dev2", "dev3", "heldout", "heldout2", "heldout3", "heldout4")


def read_devset(path: Path = DEVSET) -> list[tuple[str, str, str]]:
    """(description, word, split) rows."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        if line.strip():
            description, word, split = line.split("\t")
            rows.append((description, word, split))
    return rows


def open_store(data_dir: Path | None, replace: dict[str, Path]) -> Any:
    from lexicon_server.corpus.reader import Corpus
    from lexicon_server.query.semantic import VectorStore
    from lexicon_store.selection import load_active

    selection = load_active(data_dir)
    if replace:
        files = dict(selection.files)
        components = dict(selection.components)
        for relative, path in replace.items():
            files[relative] = path
            if relative in components:
                components[relative] = (components[relative][0], path.stat().st_size)
        selection = dataclasses.replace(
            selection,
            files=MappingProxyType(files),
            components=MappingProxyType(components),
        )
    return VectorStore(Corpus(selection))


def store_from_args(args: argparse.Namespace) -> Any:
    """The store of --data-dir, with --lexical / --gcide standing in for the installed files."""
    replace = {}
    if args.lexical:
        replace["en/lexical.sqlite"] = args.lexical.resolve()
    if args.gcide:
        replace["en/gcide.sqlite"] = args.gcide.resolve()
    return open_store(args.data_dir, replace)


def ask(store: Any, description: str) -> dict[str, Any]:
    from lexicon_server.query.semantic import semantic_neighbors

    return semantic_neighbors(store, description, "en", None, 10).model_dump(mode="json")


def score(store: Any, rows: list[tuple[str, str, str]], show: int) -> dict[str, tuple[int, ...]]:
    """split -> (asked, top-1, top-10), misses printed."""
    out: dict[str, list[int]] = {}
    shown: dict[str, int] = {}
    for description, word, split in rows:
        texts = [n["text"].casefold() for n in ask(store, description)["neighbors"]]
        top1 = bool(texts) and texts[0] == word.casefold()
        top10 = word.casefold() in texts
        for key in (split, "all"):
            counts = out.setdefault(key, [0, 0, 0])
            counts[0] += 1
            counts[1] += top1
            counts[2] += top10
        if not top1 and shown.get(split, 0) < show:
            shown[split] = shown.get(split, 0) + 1
            place = texts.index(word.casefold()) + 1 if top10 else "-"
            print(f"  [{split}] {description!r} -> {word} (at {place}): {texts[:5]}")
    return {key: tuple(v) for key, v in out.items()}


def timing(store: Any, rows: list[tuple[str, str, str]], repeat: int) -> tuple[float, float]:
    """(p50, p99) of one call, in milliseconds."""
    for description, _, _ in rows:
        ask(store, description)
    times = []
    for _ in range(repeat):
        for description, _, _ in rows:
            start = time.perf_counter()
            ask(store, description)
            times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--lexical", type=Path, default=None)
    parser.add_argument("--gcide", type=Path, default=None)
    parser.add_argument(
        "--split",
        default="dev",
        help=f"one or more of {', '.join(SPLITS)} (comma-separated), or all",
    )
    parser.add_argument("--show", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    store = store_from_args(args)
    asked = SPLITS if args.split == "all" else tuple(args.split.split(","))
    unknown = [name for name in asked if name not in SPLITS]
    if unknown:
        parser.error(f"--split: unknown split {unknown[0]!r}; use {', '.join(SPLITS)} or all")
    rows = [r for r in read_devset() if r[2] in asked]
    results = score(store, rows, args.show)
    print("| split | descriptions | top-1 | top-10 |")
    print("| --- | ---: | ---: | ---: |")
    for key in (*asked, "all"):
        if key in results and (key != "all" or len(asked) > 1):
            n, one, ten = results[key]
            print(f"| {key} | {n} | {one} ({one / n:.0%}) | {ten} ({ten / n:.0%}) |")
    if args.repeat:
        p50, p99 = timing(store, rows, args.repeat)
        print(f"\nspeed: {len(rows) * args.repeat} calls, p50 {p50:.2f} ms, p99 {p99:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
