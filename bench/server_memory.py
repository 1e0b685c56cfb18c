"""Server memory: resident set of `lexicon-mcp` after every tool ran once, and where it sits.

    uv run python bench/server_memory.py [--data-dir DIR] [--word bank] [--runs 3] [--maps 12]

Spawns `lexicon-mcp` over stdio with the SDK's own client, calls every default tool once
(the calls of bench/server_latency.py's stdio rounds: look-up, synonyms, translate to
French, hypernyms to depth 2, a global semantic search, perfect and near rhymes, an
anagram), then reads the server's /proc: RSS, its anonymous and file-backed parts, and the
largest mappings from smaps grouped by file (anonymous memory as `[anon]`). NLTK's WordNet
reader alone, in its own process, is the comparison bench/server_latency.py prints.

`--profile` also runs the same calls in this process under tracemalloc and prints the
Python allocations still held afterwards, by file: what the heap part of the RSS is.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def calls(word: str) -> list[tuple[str, dict[str, Any]]]:
    """One call of every default tool (global semantic search: no target_language)."""
    return [
        ("dictionary_lookup", {"word": word}),
        ("dictionary_synonyms", {"word": word}),
        ("dictionary_translate", {"word": word, "target_language": "fr"}),
        ("dictionary_relations", {"word": word, "relation": "hypernym", "max_depth": 2}),
        ("dictionary_semantic_neighbors", {"word": word}),
        ("rhymes", {"word": word}),
        ("rhymes", {"word": word, "mode": "near"}),
        ("wordplay", {"text": word, "kind": "anagram"}),
    ]


def smaps(pid: int) -> dict[str, int]:
    """Resident bytes per mapped file (anonymous mappings, heap and stack as `[anon]`)."""
    out: dict[str, int] = defaultdict(int)
    name = "[anon]"
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        head = line.split()
        if not head:
            continue
        if "-" in head[0] and len(head) >= 5 and not head[0].endswith(":"):
            name = head[5] if len(head) > 5 and head[5].startswith("/") else "[anon]"
        elif head[0] == "Rss:":
            out[name] += int(head[1]) * 1024
    return dict(out)


def status(pid: int) -> dict[str, int]:
    out: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "RssAnon", "RssFile", "RssShmem"):
            out[key] = int(value.split()[0]) * 1024
    return out


def measure(data_dir: Path | None, word: str) -> tuple[dict[str, int], dict[str, int]]:
    """Spawn the server, call every tool once, read its /proc."""
    import anyio
    import psutil
    from mcp import Client, StdioServerParameters

    command = [sys.executable, "-m", "lexicon_server.cli"]
    if data_dir is not None:
        command += ["--data-dir", str(data_dir)]
    params = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))

    async def run() -> tuple[dict[str, int], dict[str, int]]:
        async with Client(params) as client:
            for name, args in calls(word):
                result = await client.call_tool(name, args)
                if result.is_error:
                    raise RuntimeError(f"{name} {args}: {result.content}")
            children = psutil.Process().children(recursive=True)
            pid = max(children, key=lambda c: c.memory_info().rss).pid
            return status(pid), smaps(pid)

    return anyio.run(run)


def profile(data_dir: Path | None, word: str, top: int) -> None:
    """The same calls in this process under tracemalloc: Python memory held afterwards."""
    import tracemalloc

    tracemalloc.start()
    from lexicon_server.corpus.reader import Corpus
    from lexicon_server.query.semantic import VectorStore
    from lexicon_server.tool_table import DICTIONARY
    from lexicon_store.selection import load_active

    corpus = Corpus(load_active(data_dir))
    sources = {"corpus": corpus, "vectors": VectorStore(corpus)}
    run = {spec.name: (spec.query, sources[spec.reads]) for spec in DICTIONARY}
    for name, args in calls(word):
        query, source = run[name]
        query(source, **args)
    snapshot = tracemalloc.take_snapshot()
    stats = snapshot.statistics("filename")
    total = sum(s.size for s in stats)
    print(f"\nPython allocations held after every call (tracemalloc): {total / 2**20:.1f} MiB")
    print("| file | MiB |\n| --- | ---: |")
    for stat in stats[:top]:
        name = stat.traceback[0].filename.replace(str(ROOT) + "/", "")
        print(f"| {name.split('site-packages/')[-1]} | {stat.size / 2**20:.1f} |")
    opened = sorted(corpus.cache("vectors"))
    print(f"\nvector indexes loaded: {len(opened)} ({', '.join(opened)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--word", default="bank")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--maps", type=int, default=12, help="largest mappings to list")
    parser.add_argument("--profile", action="store_true")
    opts = parser.parse_args()
    results = [measure(opts.data_dir, opts.word) for _ in range(opts.runs)]
    mib = lambda n: n / 2**20  # noqa: E731
    print(f"{len(calls(opts.word))} calls with {opts.word!r}, {opts.runs} fresh servers")
    print("| run | RSS MiB | anonymous | file-backed |\n| --- | ---: | ---: | ---: |")
    for k, (st, _maps) in enumerate(results, 1):
        print(
            f"| {k} | {mib(st['VmRSS']):.1f} | {mib(st['RssAnon']):.1f} "
            f"| {mib(st['RssFile']):.1f} |"
        )
    print(f"median RSS: {statistics.median(mib(st['VmRSS']) for st, _ in results):.1f} MiB")
    maps = results[-1][1]
    print("\nlargest resident mappings (last run):\n| mapping | MiB |\n| --- | ---: |")
    for name, size in sorted(maps.items(), key=lambda item: -item[1])[: opts.maps]:
        print(f"| {name.split('site-packages/')[-1]} | {mib(size):.1f} |")
    if opts.profile:
        profile(opts.data_dir, opts.word, opts.maps)


if __name__ == "__main__":
    main()
