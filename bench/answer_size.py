"""What an agent pays per answer: bytes of every tool's answer, the size of `tools/list`, and
the round trip through the MCP Python SDK's default client with its schema check on.

    uv run python bench/answer_size.py [--data-dir DIR] [--words 500] [--rounds 300]

Over the most frequent English words of the installed corpus (the starter), each tool is
called as an agent calls it (default arguments; translate into French, hypernyms at
depth 1 and 2, perfect and near rhymes, anagrams). Bytes are those of the answer's text
content (the same JSON as its structured content), as the server sends it.

The round trips go through stdio to this server and to a trivial one-tool MCP server
(bench/server_trivial.py), in pairs: each call to a tool is followed at once by one to the
trivial tool, so both meet the same moment's load. The client is the SDK's default
`ClientSession`, checking each structured result against the tool's outputSchema as every
client built on the SDK does; a second pass switches that check off. The ratio to the
trivial tool's p50 is the figure to compare across machines.
"""

from __future__ import annotations

import argparse
import json
import os
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


def answer_bytes(corpus: Any, words: list[str]) -> tuple[dict[str, list[int]], dict[str, int]]:
    """Bytes of each call's answer over `words`, and the sizes of `tools/list`."""
    from mcp import Client

    from lexicon_server.config import load_config
    from lexicon_server.server import build_server

    server = build_server(corpus, load_config({}))
    sizes: dict[str, list[int]] = {}

    async def main() -> dict[str, int]:
        async with Client(server) as client:
            listed = await client.list_tools()
            tools = [
                t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in listed.tools
            ]
            for word in words:
                for name, args in CALLS:
                    result = await client.call_tool(name, args(word))
                    text = "".join(getattr(c, "text", "") for c in result.content)
                    sizes.setdefault(_label(name, args(word)), []).append(len(text.encode()))
        compact = {"separators": (",", ":"), "ensure_ascii": False}
        return {
            "tools/list": len(json.dumps({"tools": tools}, **compact).encode()),  # type: ignore[arg-type]
            "output schemas": sum(
                len(json.dumps(t.get("outputSchema", {}), **compact).encode())  # type: ignore[arg-type]
                for t in tools
            ),
        }

    listing = anyio.run(main)
    return sizes, listing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--words", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=300, help="stdio rounds (0 to skip)")
    options = parser.parse_args()

    corpus = open_corpus(options.data_dir)
    words = sample_words(corpus, options.words)
    version = corpus.dataset_version
    corpus.close()
    # The round trips first, in a client process with nothing else loaded: a corpus and
    # thousands of answers kept in this process would put its garbage collector's pauses
    # into the timings.
    runs = {}
    if options.rounds > 0:
        server = [sys.executable, "-m", "lexicon_server.cli"]
        if options.data_dir is not None:
            server += ["--data-dir", str(options.data_dir)]
        trivial = [sys.executable, str(HERE / "server_trivial.py")]
        runs = paired_round_trips(server, trivial, words, options.rounds)

    sizes, listing = answer_bytes(open_corpus(options.data_dir), words)
    print(f"dataset {version}; {len(words)} words\n")
    print(
        f"tools/list: {listing['tools/list']:,} bytes, of which output schemas "
        f"{listing['output schemas']:,}\n"
    )
    print("| tool | median bytes | mean bytes | p90 bytes |")
    print("| --- | ---: | ---: | ---: |")
    for label, values in sizes.items():
        ordered = sorted(values)
        p90 = ordered[int(0.9 * (len(ordered) - 1))]
        print(
            f"| {label} | {statistics.median(values):,.0f} | {statistics.mean(values):,.0f} "
            f"| {p90:,} |"
        )
    if not runs:
        return
    print(f"\nstdio round trips, {options.rounds} rounds, each call paired with the trivial tool\n")
    header = "| tool | p50, check on | trivial | x trivial | p50, check off | trivial | x trivial |"
    print(header)
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for label, ((on, on_floor), (off, off_floor)) in runs.items():
        print(
            f"| {label} | {pct(on, 50) * 1e3:.2f} ms | {pct(on_floor, 50) * 1e3:.2f} ms "
            f"| {pct(on, 50) / pct(on_floor, 50):.2f} | {pct(off, 50) * 1e3:.2f} ms "
            f"| {pct(off_floor, 50) * 1e3:.2f} ms | {pct(off, 50) / pct(off_floor, 50):.2f} |"
        )


Timings = tuple[list[float], list[float]]  # a tool's round trips, the trivial tool's beside them


def paired_round_trips(
    server: list[str], trivial: list[str], words: list[str], rounds: int
) -> dict[str, tuple[Timings, Timings]]:
    """Per call: (schema check on, check off), each as (tool's times, trivial's times)."""
    from mcp import Client, StdioServerParameters
    from mcp.client.session import ClientSession

    original = ClientSession.validate_tool_result

    async def skip(self: ClientSession, name: str, result: Any) -> None:
        return None

    def params(cmd: list[str]) -> StdioServerParameters:
        return StdioServerParameters(command=cmd[0], args=cmd[1:], env=dict(os.environ))

    async def main() -> dict[str, tuple[Timings, Timings]]:
        out: dict[str, list[Timings]] = {}
        async with Client(params(server)) as ours, Client(params(trivial)) as floor:
            for word in words[-20:]:  # warm-up, on words the rounds do not start with
                for name, args in CALLS:
                    await ours.call_tool(name, args(word))
                await floor.call_tool("echo", {"text": word})
            for check in (True, False):
                ClientSession.validate_tool_result = original if check else skip  # type: ignore[method-assign]
                for name, args in CALLS:
                    label = _label(name, args(words[0]))
                    mine: list[float] = []
                    base: list[float] = []
                    for round_ in range(rounds):
                        word = words[round_ % len(words)]
                        t = time.perf_counter()
                        result = await ours.call_tool(name, args(word))
                        mine.append(time.perf_counter() - t)
                        assert not result.is_error, (name, word, result.content)
                        t = time.perf_counter()
                        await floor.call_tool("echo", {"text": word})
                        base.append(time.perf_counter() - t)
                    out.setdefault(label, []).append((mine, base))
        return {label: (both[0], both[1]) for label, both in out.items()}

    try:
        return anyio.run(main)
    finally:
        ClientSession.validate_tool_result = original  # type: ignore[method-assign]


if __name__ == "__main__":
    main()
