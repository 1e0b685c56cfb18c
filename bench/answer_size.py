"""What an agent pays per answer: bytes of every tool's answer, the size of `tools/list`, and
the round trip through the MCP Python SDK's default client with its schema check on.

    uv run python bench/answer_size.py [--data-dir DIR] [--words 500] [--rounds 400] [--runs 3]

Over the most frequent English words of the installed corpus (the starter), each tool is
called as an agent calls it (default arguments; translate into French, hypernyms at
depth 1 and 2, perfect and near rhymes, anagrams). Bytes are those of the answer's text
content (a compact rendering of the answer) and of its structured content (compact
JSON), as the server sends them; "read" is the two together, what a model reads when its
client shows it both.

The round trips go through stdio to this server and to a trivial one-tool MCP server
(bench/server_trivial.py), side by side: each round calls every tool once and the trivial
tool once, in a random order drawn for that round, so the load of a shared machine falls
on all of them alike. The client is the SDK's default `ClientSession`, checking each
structured result against the tool's outputSchema as every client built on the SDK does.
The ratio of a tool's p50 to the trivial tool's p50 in the same run is the figure to
compare across machines; `--runs` repeats the whole measurement to show its spread.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import anyio
from server_latency import Call, open_corpus, pct, sample_words

HERE = Path(__file__).resolve().parent

CALLS: list[Call] = [
    ("dictionary_lookup", lambda w: {"word": w}),
    ("dictionary_synonyms", lambda w: {"word": w}),
    ("dictionary_translate", lambda w: {"word": w, "target_language": "fr"}),
    ("dictionary_relations", lambda w: {"word": w, "relation": "hypernym"}),
    ("dictionary_relations", lambda w: {"word": w, "relation": "hypernym", "max_depth": 2}),
    ("dictionary_semantic_neighbors", lambda w: {"word": w}),
    ("rhymes", lambda w: {"word": w}),
    ("rhymes", lambda w: {"word": w, "mode": "near"}),
    ("wordplay", lambda w: {"text": w, "kind": "anagram"}),
]


def _label(name: str, args: dict[str, Any]) -> str:
    if args.get("mode") == "near":
        return f"{name} (near)"
    return f"{name} (depth 2)" if args.get("max_depth") == 2 else name


def answer_bytes(
    corpus: Any, words: list[str]
) -> tuple[dict[str, list[tuple[int, int]]], dict[str, int], dict[str, list[float]]]:
    """Bytes of each call's answer over `words`, the sizes of `tools/list`, and what the
    SDK client's schema check of each answer costs in process (the compiled validator,
    as `ClientSession` keeps it, over the answer's structured content)."""
    from jsonschema.exceptions import best_match
    from jsonschema.validators import validator_for
    from mcp import Client

    from lexicon_server.config import load_config
    from lexicon_server.server import build_server

    server = build_server(corpus, load_config({}))
    sizes: dict[str, list[tuple[int, int]]] = {}  # (text, structured) bytes per call
    checks: dict[str, list[float]] = {}

    async def main() -> dict[str, int]:
        async with Client(server) as client:
            listed = await client.list_tools()
            tools = [
                t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in listed.tools
            ]
            validators = {
                t["name"]: validator_for(t["outputSchema"])(t["outputSchema"])
                for t in tools
                if "outputSchema" in t
            }
            for word in words:
                for name, args in CALLS:
                    result = await client.call_tool(name, args(word))
                    text = "".join(getattr(c, "text", "") for c in result.content)
                    label = _label(name, args(word))
                    structured = json.dumps(
                        result.structured_content, separators=(",", ":"), ensure_ascii=False
                    )
                    sizes.setdefault(label, []).append(
                        (len(text.encode()), len(structured.encode()))
                    )
                    t = time.perf_counter()
                    assert (
                        best_match(validators[name].iter_errors(result.structured_content)) is None
                    )
                    checks.setdefault(label, []).append(time.perf_counter() - t)
        compact = {"separators": (",", ":"), "ensure_ascii": False}
        return {
            "tools/list": len(json.dumps({"tools": tools}, **compact).encode()),  # type: ignore[arg-type]
            "output schemas": sum(
                len(json.dumps(t.get("outputSchema", {}), **compact).encode())  # type: ignore[arg-type]
                for t in tools
            ),
        }

    listing = anyio.run(main)
    return sizes, listing, checks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--words", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=400, help="rounds per run (0 to skip)")
    parser.add_argument("--runs", type=int, default=3, help="repeated runs, for the spread")
    parser.add_argument("--seed", type=int, default=16)
    options = parser.parse_args()

    corpus = open_corpus(options.data_dir)
    words = sample_words(corpus, options.words)
    version = corpus.dataset_version
    corpus.close()
    # The round trips first, in a client process with nothing else loaded: a corpus and
    # thousands of answers kept in this process would put its garbage collector's pauses
    # into the timings.
    runs: list[dict[str, list[float]]] = []
    if options.rounds > 0:
        server = [sys.executable, "-m", "lexicon_server.cli"]
        if options.data_dir is not None:
            server += ["--data-dir", str(options.data_dir)]
        trivial = [sys.executable, str(HERE / "server_trivial.py")]
        runs = interleaved_round_trips(
            server, trivial, words, options.rounds, options.runs, options.seed
        )

    sizes, listing, checks = answer_bytes(open_corpus(options.data_dir), words)
    print(f"dataset {version}; {len(words)} words\n")
    print(
        f"tools/list: {listing['tools/list']:,} bytes, of which output schemas "
        f"{listing['output schemas']:,}\n"
    )
    print(
        "| tool | median text | median structured | median read (both) | mean read "
        "| p90 read | schema check p50 |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for label, pairs in sizes.items():
        read = sorted(text + structured for text, structured in pairs)
        p90 = read[int(0.9 * (len(read) - 1))]
        text_median = statistics.median(text for text, _ in pairs)
        structured_median = statistics.median(structured for _, structured in pairs)
        print(
            f"| {label} | {text_median:,.0f} | {structured_median:,.0f} "
            f"| {statistics.median(read):,.0f} | {statistics.mean(read):,.0f} | {p90:,} "
            f"| {pct(checks[label], 0.5) * 1e6:,.0f} µs |"
        )
    if runs:
        print_round_trips(runs, options.rounds)


TRIVIAL = "trivial tool (echo)"


def print_round_trips(runs: list[dict[str, list[float]]], rounds: int) -> None:
    """Per tool: its p50 and the trivial tool's in each run, and the ratio of the two."""
    print(
        f"\nstdio round trips, default ClientSession (schema check on): {len(runs)} runs of "
        f"{rounds} rounds, every tool and the trivial tool once per round, in random order\n"
    )
    header = ["tool", *[f"run {n + 1} p50 (x trivial)" for n in range(len(runs))]]
    print("| " + " | ".join([*header, "x trivial, median of runs", "spread"]) + " |")
    print("| --- |" + " ---: |" * (len(header) + 1))
    for label in runs[0]:
        cells = []
        ratios = []
        for run in runs:
            p50 = pct(run[label], 0.5)
            ratio = p50 / pct(run[TRIVIAL], 0.5)
            ratios.append(ratio)
            cells.append(f"{p50 * 1e3:.2f} ms ({ratio:.2f})")
        spread = f"{min(ratios):.2f}-{max(ratios):.2f}"
        print(f"| {label} | {' | '.join(cells)} | {statistics.median(ratios):.2f} | {spread} |")


def interleaved_round_trips(
    server: list[str], trivial: list[str], words: list[str], rounds: int, runs: int, seed: int
) -> list[dict[str, list[float]]]:
    """Round-trip times per call label (and the trivial tool's), one dict per run.

    Each round calls every tool once and the trivial tool once, in an order drawn afresh
    for the round, so a burst of load on the shared machine falls on all of them alike
    instead of on whichever tool happened to be measured then."""
    from mcp import Client, StdioServerParameters

    def params(cmd: list[str]) -> StdioServerParameters:
        return StdioServerParameters(command=cmd[0], args=cmd[1:], env=dict(os.environ))

    order = random.Random(seed)

    async def main() -> list[dict[str, list[float]]]:
        out: list[dict[str, list[float]]] = []
        async with Client(params(server)) as ours, Client(params(trivial)) as floor:
            for word in words[-20:]:  # warm-up, on words the rounds do not start with
                for name, args in CALLS:
                    await ours.call_tool(name, args(word))
                await floor.call_tool("echo", {"text": word})
            for _ in range(runs):
                times: dict[str, list[float]] = {_label(n, a(words[0])): [] for n, a in CALLS}
                times[TRIVIAL] = []
                for round_ in range(rounds):
                    word = words[round_ % len(words)]
                    calls: list[tuple[str, Any, str, dict[str, Any]]] = [
                        (_label(name, args(word)), ours, name, args(word)) for name, args in CALLS
                    ]
                    calls.append((TRIVIAL, floor, "echo", {"text": word}))
                    order.shuffle(calls)
                    for label, client, name, arguments in calls:
                        t = time.perf_counter()
                        result = await client.call_tool(name, arguments)
                        times[label].append(time.perf_counter() - t)
                        assert not result.is_error, (name, word, result.content)
                out.append(times)
        return out

    return anyio.run(main)


if __name__ == "__main__":
    main()
