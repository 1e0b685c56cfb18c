"""glossary_find and glossary_map latency on a 10,000-entry glossary, against a naive baseline.

Same run, same file, same queries:

- lexicon (library):  ``Glossary.find`` / ``Glossary.map`` (stat-checked cache, joined-text
                      scans, numpy-assisted full map cached per file version).
- lexicon (MCP):      the same through ``glossary_find`` / ``glossary_map`` and the SDK's
                      in-memory client (argument validation, pydantic output, the client's
                      output-schema check).
- naive:              what a straightforward implementation of the glossary brief does on
                      every call: re-read and parse the JSONL file, normalize every entry,
                      rank by a linear scan with ``in``; map by testing every term against
                      every description. Its results are checked equal to ours.
- grep:               ``grep -iF QUERY FILE`` per query: what people do without a tool
                      (substring lines only, no ranking, no word matching).

The glossary is synthetic (seeded): random words with English letter frequencies,
1-3-word terms, 8-30-word descriptions drawn Zipf-like, some mentioning other terms.

    uv run python bench/glossary_bench.py [--entries 10000] [--queries 400]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp.server.mcpserver import MCPServer

from lexicon_server.glossary import Glossary, normalize
from lexicon_server.glossary.tools import register

LETTERS = "abcdefghijklmnopqrstuvwxyz"
# English letter frequencies (percent), a to z.
WEIGHTS = [8, 1.5, 2.8, 4.3, 12.7, 2.2, 2, 6.1, 7, 0.2, 0.8, 4, 2.4, 6.7, 7.5, 1.9, 0.1, 6, 6.3]
WEIGHTS += [9.1, 2.8, 1, 2.4, 0.2, 2, 0.1]


def make_glossary(entries: int, seed: int = 7) -> tuple[str, list[str], list[str]]:
    rng = random.Random(seed)
    vocab: set[str] = set()
    while len(vocab) < 30_000:
        vocab.add("".join(rng.choices(LETTERS, WEIGHTS, k=rng.randint(2, 11))))
    words = sorted(vocab)
    rng.shuffle(words)
    zipf = [1 / (i + 1) for i in range(len(words))]
    terms: list[str] = []
    seen: set[str] = set()
    while len(terms) < entries:
        picked = [
            words[rng.randint(200, len(words) - 1)] for _ in range(rng.choice((1, 1, 2, 2, 3)))
        ]
        term = " ".join(w.capitalize() for w in picked)
        if normalize(term) not in seen:
            seen.add(normalize(term))
            terms.append(term)
    lines = []
    for term in terms:
        body = rng.choices(words, zipf, k=rng.randint(8, 30))
        for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
            body.insert(rng.randrange(len(body)), rng.choice(terms))
        description = " ".join(body).capitalize() + "."
        lines.append(json.dumps({"term": term, "description": description}) + "\n")
    return "".join(lines), terms, words


def make_queries(terms: list[str], words: list[str], count: int) -> list[str]:
    rng = random.Random(11)
    queries = []
    for i in range(count):
        kind = i % 4
        if kind == 0:  # a known term, in another case
            queries.append(rng.choice(terms).upper())
        elif kind == 1:  # one word, common or rare
            queries.append(rng.choice(words[:50] if rng.random() < 0.3 else words))
        elif kind == 2:  # a phrase of two words
            queries.append(f"{rng.choice(words)} {rng.choice(words[:2000])}")
        else:  # a miss
            queries.append("zq" + "".join(rng.choices(LETTERS, k=6)))
    return queries


# --- the naive baseline -------------------------------------------------------------


def _naive_load(path: Path) -> list[tuple[str, str, str, str]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            item = json.loads(line)
            rows.append(
                (
                    item["term"],
                    item["description"],
                    normalize(item["term"]),
                    normalize(item["description"]),
                )
            )
    return rows


def naive_find(path: Path, query: str, limit: int = 10) -> list[tuple[str, int]]:
    rows = _naive_load(path)
    whole = normalize(query)
    words = list(dict.fromkeys(whole.split()))

    def kind(needle: str, term: str, desc: str) -> int:
        if term == needle:
            return 4
        if needle in term:
            return 3
        if desc == needle:
            return 2
        return 1 if needle in desc else 0

    scored = []
    for index, (term, _, tnorm, dnorm) in enumerate(rows):
        whole_kind = kind(whole, tnorm, dnorm)
        matched = [k for k in (kind(w, tnorm, dnorm) for w in words) if k]
        if whole_kind or matched:
            score = whole_kind * 1_000_000 + len(matched) * 1_000 + sum(matched)
            scored.append((-score, index, term, score))
    scored.sort()
    return [(term, score) for _, _, term, score in scored[:limit]]


def naive_map_one(path: Path, term: str) -> list[str]:
    rows = _naive_load(path)
    key = normalize(term)
    return [t for t, _, tn, dn in rows if tn != key and key in dn]


def naive_map_all(path: Path, limit_terms: int | None = None) -> int:
    rows = _naive_load(path)
    found = 0
    for tnorm in [r[2] for r in rows][:limit_terms]:
        found += sum(1 for _, _, other, dnorm in rows if other != tnorm and tnorm in dnorm)
    return found


# --- timing ---------------------------------------------------------------------------


def timed(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def pct(samples: Sequence[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def row(name: str, samples: Sequence[float]) -> str:
    return (
        f"| {name} | {len(samples)} | {pct(samples, 0.5):.2f} | {pct(samples, 0.99):.2f} | "
        f"{statistics.fmean(samples):.2f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=400)
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="glossary-bench-"))
    try:
        path = work / "glossary.jsonl"
        text, terms, words = make_glossary(args.entries)
        path.write_text(text, encoding="utf-8")
        queries = make_queries(terms, words, args.queries)
        map_terms = random.Random(5).sample(terms, min(len(terms), args.queries // 2))
        print(
            f"glossary: {args.entries} entries, {path.stat().st_size / 1e6:.1f} MB; "
            f"{len(queries)} find queries, {len(map_terms)} map terms\n"
        )

        glossary = Glossary(path)
        load_ms = timed(glossary.load)
        for q in queries[:20]:
            assert [(h.entry.term, h.score) for h in glossary.find(q)] == naive_find(path, q), q
        for t in map_terms[:20]:
            assert list(glossary.map(t)[0].mentioned_in) == naive_map_one(path, t), t

        lib_find = [timed(partial(glossary.find, q)) for q in queries]
        lib_map_one = [timed(partial(glossary.map, t)) for t in map_terms]
        cold_map_all = timed(glossary.map)  # includes importing numpy
        fresh_map_all = []
        for _ in range(3):  # a new file version: the mentions are computed again
            fresh = Glossary(path)
            fresh.load()
            fresh_map_all.append(timed(fresh.map))
        warm_map_all = [timed(glossary.map) for _ in range(20)]

        naive_find_ms = [timed(partial(naive_find, path, q)) for q in queries[:100]]
        naive_map_one_ms = [timed(partial(naive_map_one, path, t)) for t in map_terms[:100]]
        part = max(1, args.entries // 20)
        naive_map_all_ms = timed(lambda: naive_map_all(path, part)) * (args.entries / part)

        grep = shutil.which("grep")
        grep_ms = (
            [
                timed(partial(subprocess.run, [grep, "-iF", q, str(path)], capture_output=True))
                for q in queries[:100]
            ]
            if grep
            else []
        )

        # Writes: each takes the lock, re-reads, writes a temp file, fsyncs and renames.
        writes: list[float] = []
        find_after_write: list[float] = []
        for i in range(20):
            writes.append(timed(partial(glossary.add, f"Bench Term {i}", "first")))
            find_after_write.append(timed(partial(glossary.find, queries[i])))
            writes.append(timed(partial(glossary.edit, f"bench term {i}", "second")))
            writes.append(timed(partial(glossary.delete, f"BENCH TERM {i}")))

        server: MCPServer[Any] = MCPServer("bench")
        register(server, path, None)
        mcp_find: list[float] = []
        mcp_map_one: list[float] = []
        mcp_map_all: list[float] = []

        async def over_mcp() -> None:
            async with Client(server) as client:
                await client.call_tool("glossary_find", {"query": "warm up"})
                for q in queries:
                    start = time.perf_counter()
                    await client.call_tool("glossary_find", {"query": q})
                    mcp_find.append((time.perf_counter() - start) * 1000)
                for t in map_terms:
                    start = time.perf_counter()
                    await client.call_tool("glossary_map", {"term": t})
                    mcp_map_one.append((time.perf_counter() - start) * 1000)
                for _ in range(10):
                    start = time.perf_counter()
                    await client.call_tool("glossary_map", {})
                    mcp_map_all.append((time.perf_counter() - start) * 1000)

        anyio.run(over_mcp)

        # The server's share of a call (validation, tool, output conversion), no client.
        srv_find: list[float] = []
        srv_map_all: list[float] = []

        async def server_side() -> None:
            for q in queries:
                start = time.perf_counter()
                await server.call_tool("glossary_find", {"query": q})
                srv_find.append((time.perf_counter() - start) * 1000)
            for _ in range(10):
                start = time.perf_counter()
                await server.call_tool("glossary_map", {})
                srv_map_all.append((time.perf_counter() - start) * 1000)

        anyio.run(server_side)

        print(f"start-up load and validation of the file: {load_ms:.0f} ms\n")
        print("| operation | calls | p50 ms | p99 ms | mean ms |")
        print("| --- | ---: | ---: | ---: | ---: |")
        print(row("find, lexicon library", lib_find))
        print(row("find, lexicon via MCP client", mcp_find))
        print(row("find, lexicon MCPServer.call_tool (server side only)", srv_find))
        print(row("find, naive (re-read + linear scan)", naive_find_ms))
        if grep_ms:
            print(row("find, `grep -iF` per query (no ranking)", grep_ms))
        print(row("map one term, lexicon library", lib_map_one))
        print(row("map one term, lexicon via MCP client", mcp_map_one))
        print(row("map one term, naive", naive_map_one_ms))
        print(row("map all terms, lexicon library, first call in the process", [cold_map_all]))
        print(row("map all terms, lexicon library, first call per file version", fresh_map_all))
        print(row("map all terms, lexicon library, repeated", warm_map_all))
        print(row("map all terms, lexicon via MCP client, repeated", mcp_map_all))
        print(row("map all terms, lexicon MCPServer.call_tool, repeated", srv_map_all))
        print(row("add/edit/delete, lexicon library (fsync included)", writes))
        print(row("first find after a write (search structures rebuilt)", find_after_write))
        print(row(f"map all terms, naive (extrapolated from {part} terms)", [naive_map_all_ms]))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
