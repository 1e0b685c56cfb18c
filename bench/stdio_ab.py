"""A/B of two builds of lexicon-mcp through stdio, call by call in one run.

Separate runs of bench/server_latency.py differ by ±100 µs on this shared machine, more
than most server changes; this script starts both builds (and the trivial server) side by
side and alternates them call by call, so a busy phase slows both alike.

    git worktree add /tmp/base <commit>
    uv run python bench/stdio_ab.py --base /tmp/base --repeat 500

Each build runs from its own checkout (`python -m` puts the working directory first on
`sys.path`) against the same active corpus. The SDK client's jsonschema check is off, as
in the "no check" columns of bench/server_latency.py.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import anyio
from server_latency import Call, open_corpus, sample_words

ROOT = Path(__file__).resolve().parent.parent

CALLS: dict[str, Call] = {
    "lookup": ("dictionary_lookup", lambda w: {"word": w}),
    "synonyms": ("dictionary_synonyms", lambda w: {"word": w}),
    "translate": ("dictionary_translate", lambda w: {"word": w, "target_language": "fr"}),
    "relations": (
        "dictionary_relations",
        lambda w: {"word": w, "relation": "hypernym", "max_depth": 2},
    ),
    "semantic": ("dictionary_semantic_neighbors", lambda w: {"word": w}),
    "rhymes": ("rhymes", lambda w: {"word": w}),
    "anagram": ("wordplay", lambda w: {"text": w, "kind": "anagram"}),
}


def _server(checkout: Path) -> Any:
    from mcp import StdioServerParameters

    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "lexicon_server.cli"],
        env={**os.environ, "PYTHONPATH": str(checkout)},
        cwd=str(checkout),
    )


def compare(
    base: Path, calls: list[Call], words: list[str], repeat: int
) -> tuple[dict[str, list[list[float]]], list[float]]:
    """Round trips per build and tool, and the trivial server's, in seconds."""
    from mcp import Client, StdioServerParameters
    from mcp.client.session import ClientSession

    async def skip(self: ClientSession, name: str, result: Any) -> None:
        return None

    ClientSession.validate_tool_result = skip  # type: ignore[method-assign]
    trivial = StdioServerParameters(
        command=sys.executable, args=[str(ROOT / "bench" / "server_trivial.py")]
    )
    times: dict[str, list[list[float]]] = {"base": [[] for _ in calls], "this": [[] for _ in calls]}
    floor: list[float] = []

    async def main() -> None:
        async with (
            Client(_server(base)) as old,
            Client(_server(ROOT)) as new,
            Client(trivial) as echo,
        ):
            for word in words[-20:]:  # warm-up on other words than the first measured
                for name, args in calls:
                    await old.call_tool(name, args(word))
                    await new.call_tool(name, args(word))
            for round_ in range(repeat):
                word = words[round_ % len(words)]
                # Alternate which build goes first, so neither always follows the other.
                order = [("base", old), ("this", new)]
                if round_ % 2:
                    order.reverse()
                for i, (name, args) in enumerate(calls):
                    for label, client in order:
                        start = time.perf_counter()
                        result = await client.call_tool(name, args(word))
                        times[label][i].append(time.perf_counter() - start)
                        assert not result.is_error, (label, name, word, result.content)
                start = time.perf_counter()
                await echo.call_tool("echo", {"text": word})
                floor.append(time.perf_counter() - start)

    anyio.run(main)
    return times, floor


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, required=True, help="checkout of the other build")
    parser.add_argument("--repeat", type=int, default=500)
    parser.add_argument("--words", type=int, default=100, help="most frequent headwords asked")
    parser.add_argument(
        "--tools", default=",".join(CALLS), help="comma-separated, of: " + ", ".join(CALLS)
    )
    opts = parser.parse_args()
    names = [n.strip() for n in opts.tools.split(",") if n.strip()]
    unknown = [n for n in names if n not in CALLS]
    if unknown:
        parser.error(f"unknown tool {', '.join(unknown)}; choose from {', '.join(CALLS)}")
    if not (opts.base / "lexicon_server").is_dir():
        parser.error(f"--base {opts.base} is not a checkout (no lexicon_server/ in it)")
    words = sample_words(open_corpus(None), 500)[: opts.words]
    calls = [CALLS[n] for n in names]
    times, floor = compare(opts.base, calls, words, opts.repeat)
    trivial = statistics.median(floor)
    print(
        f"p50 above the trivial tool's round trip ({trivial * 1e6:,.0f} µs), {opts.repeat} rounds"
    )
    print(f"{'tool':10} {'base':>8} {'this':>8} {'this - base':>12}")
    for i, name in enumerate(names):
        old = statistics.median(times["base"][i])
        new = statistics.median(times["this"][i])
        print(
            f"{name:10} {(old - trivial) * 1e6:8,.0f} {(new - trivial) * 1e6:8,.0f} "
            f"{(new - old) * 1e6:12,.0f}"
        )


if __name__ == "__main__":
    main()
