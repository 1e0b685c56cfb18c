"""Where the bytes of `tools/list` go: per tool and part, and per schema keyword.

    uv run python bench/tool_list_bytes.py [--data-dir DIR] [--json FILE]

Lists the tools of a server on the installed corpus (or --data-dir) through the SDK's
own client, and prints, in compact JSON bytes as the server sends them: each tool's
name, description, input schema, output schema and annotations; then, over all tools'
input and then output schemas, what leaving out every occurrence of one keyword would
save (`type`, `required`, `enum`, `description`, `default`, ...), and the bytes of
property names. A keyword's figure is measured by removing it and counting again, so it
includes its commas and quotes. Nothing is timed: the figures do not depend on load.
`--json FILE` also writes the listing itself, for a diff between two branches.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

import anyio

PARTS = ("name", "description", "inputSchema", "outputSchema", "annotations")


def size(value: Any) -> int:
    """Bytes of `value` as compact JSON (the wire form)."""
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())


def listed_tools(data_dir: Path | None) -> list[dict[str, Any]]:
    """`tools/list` of a default server on `data_dir`'s active corpus, as JSON data."""
    from mcp import Client
    from server_latency import open_corpus

    from lexicon_server.config import load_config
    from lexicon_server.server import build_server

    server = build_server(open_corpus(data_dir), load_config({}))

    async def main() -> list[dict[str, Any]]:
        async with Client(server) as client:
            listed = await client.list_tools()
        return [t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in listed.tools]

    return anyio.run(main)


def _without(node: Any, keyword: str) -> Any:
    """`node` with every `keyword` entry of every schema object removed (property names
    that happen to equal `keyword` are kept: they are not keywords)."""
    if isinstance(node, list):
        return [_without(item, keyword) for item in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key == keyword:
            continue
        if key in ("properties", "$defs"):
            out[key] = {name: _without(sub, keyword) for name, sub in value.items()}
        else:
            out[key] = _without(value, keyword)
    return out


def _keywords(node: Any, found: Counter[str], names: list[str]) -> None:
    if isinstance(node, list):
        for item in node:
            _keywords(item, found, names)
    elif isinstance(node, dict):
        for key, value in node.items():
            found[key] += 1
            if key in ("properties", "$defs"):
                names.extend(value)
                for sub in value.values():
                    _keywords(sub, found, names)
            else:
                _keywords(value, found, names)


def keyword_bytes(schemas: list[Any]) -> list[tuple[str, int, int]]:
    """(keyword, occurrences, bytes saved without it) over `schemas`, largest first, and
    the property names' own bytes (quotes and colon included) as `<property names>`."""
    found: Counter[str] = Counter()
    names: list[str] = []
    _keywords(schemas, found, names)
    whole = size(schemas)
    rows = [(key, count, whole - size(_without(schemas, key))) for key, count in found.items()]
    rows.append(("<property names>", len(names), sum(len(n.encode()) + 3 for n in names)))
    return sorted(rows, key=lambda row: -row[2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None, help="write the listing here")
    options = parser.parse_args()
    tools = listed_tools(options.data_dir)
    if options.json is not None:
        options.json.write_text(json.dumps({"tools": tools}, indent=1, ensure_ascii=False))
    print(f"tools/list: {size({'tools': tools}):,} bytes (compact JSON)\n")
    print("| tool | total | " + " | ".join(PARTS) + " |")
    print("| --- |" + " ---: |" * (len(PARTS) + 1))
    totals = dict.fromkeys(PARTS, 0)
    for tool in tools:
        parts = {p: size(tool[p]) if p in tool else 0 for p in PARTS}
        totals = {p: totals[p] + parts[p] for p in PARTS}
        cells = [f"{parts[p]:,}" for p in PARTS]
        print(f"| {tool['name']} | {size(tool):,} | " + " | ".join(cells) + " |")
    cells = [f"{totals[p]:,}" for p in PARTS]
    print(f"| all tools | {size({'tools': tools}):,} | " + " | ".join(cells) + " |")
    for part in ("inputSchema", "outputSchema"):
        print(f"\n{part}s: what leaving out each keyword would save\n")
        print("| keyword | occurrences | bytes |")
        print("| --- | ---: | ---: |")
        for key, count, saved in keyword_bytes([t[part] for t in tools if part in t]):
            print(f"| `{key}` | {count} | {saved:,} |")


if __name__ == "__main__":
    main()
