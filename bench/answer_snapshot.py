"""Every tool's answers on the most frequent words, written down to compare two versions.

    uv run python bench/answer_snapshot.py --out BEFORE.jsonl [--data-dir DIR] [--words 500]
    uv run python bench/answer_snapshot.py --out AFTER.jsonl --compare BEFORE.jsonl

Starts `lexicon-mcp` (with the slang tools and a small glossary switched on) over stdio
and calls each tool as an agent does, with its variants (a budget, a depth, a mode, a
kind, an unknown language, a word not found), on the `--words` most frequent English
headwords.
Each line of `--out` is one call: tool, arguments, whether it was an error, and the
answer's text and structured content exactly as the client received them. `--compare`
prints the calls whose answers differ and exits 1 when any does: a refactor that claims
to change no behaviour must print nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
from server_latency import open_corpus, sample_words

Args = Callable[[str], dict[str, Any]]

CALLS: list[tuple[str, Args]] = [
    ("dictionary_lookup", lambda w: {"word": w}),
    ("dictionary_lookup", lambda w: {"word": w, "limit": 2, "translations_limit": 0}),
    ("dictionary_lookup", lambda w: {"word": w, "language": "xx"}),
    ("dictionary_lookup", lambda w: {"word": w + "q", "language": "de"}),
    ("dictionary_synonyms", lambda w: {"word": w}),
    ("dictionary_translate", lambda w: {"word": w, "target_language": "fr"}),
    ("dictionary_translate", lambda w: {"word": w, "target_language": "de", "limit": 5}),
    ("dictionary_relations", lambda w: {"word": w, "relation": "hypernym"}),
    ("dictionary_relations", lambda w: {"word": w, "relation": "hypernym", "max_depth": 2}),
    ("dictionary_relations", lambda w: {"word": w, "relation": "antonym"}),
    ("dictionary_semantic_neighbors", lambda w: {"word": w}),
    ("rhymes", lambda w: {"word": w}),
    ("rhymes", lambda w: {"word": w, "mode": "near"}),
    ("wordplay", lambda w: {"text": w, "kind": "anagram"}),
    ("wordplay", lambda w: {"text": w, "kind": "pun"}),
    ("wordplay", lambda w: {"text": w, "kind": "palindrome", "limit": 3}),
    ("wordplay", lambda w: {"text": f"{w} jeans", "kind": "spoonerism"}),
    ("wordplay", lambda w: {"text": f"{w[0]}*{w[-1]}", "kind": "pattern", "limit": 5}),
    ("wordplay", lambda w: {"text": w, "kind": "sounds_like", "limit": 5}),
    ("slang_interpret", lambda w: {"text": f"that {w} is lit, no cap", "terms": [w, "lit"]}),
    (
        "slang_rewrite",
        lambda w: {"text": f"the {w} run was lit", "glossary": [{"slang": "lit", "plain": w}]},
    ),
    ("glossary_find", lambda w: {"query": w}),
    ("glossary_find", lambda w: {"query": w, "dictionary": True}),
    ("glossary_map", lambda w: {"term": "Bank"}),
]

GLOSSARY_LINES = [
    {"term": "Bank", "description": "The company's ledger service."},
    {"term": "Run", "description": "One execution of the nightly pipeline."},
]


def _known_tools(tools: list[Any]) -> set[str]:
    return {t.name for t in tools}


async def _snapshot(words: list[str], data_dir: Path | None, out: Path) -> int:
    from mcp import Client, StdioServerParameters

    with tempfile.TemporaryDirectory() as tmp:
        glossary = Path(tmp) / "glossary.jsonl"
        glossary.write_text(
            "".join(json.dumps(line) + "\n" for line in GLOSSARY_LINES), encoding="utf-8"
        )
        cmd = [sys.executable, "-m", "lexicon_server.cli", "--slang", "--glossary", str(glossary)]
        if data_dir is not None:
            cmd += ["--data-dir", str(data_dir)]
        params = StdioServerParameters(command=cmd[0], args=cmd[1:], env=dict(os.environ))
        count = 0
        async with Client(params) as client:
            known = _known_tools((await client.list_tools()).tools)
            with out.open("w", encoding="utf-8") as sink:
                for word in words:
                    for name, args in CALLS:
                        if name not in known:
                            continue
                        arguments = args(word)
                        result = await client.call_tool(name, arguments)
                        record = {
                            "tool": name,
                            "arguments": arguments,
                            "is_error": bool(result.is_error),
                            "text": [getattr(c, "text", None) for c in result.content],
                            "structured": result.structured_content,
                        }
                        sink.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
                        count += 1
        return count


def _compare(old: Path, new: Path) -> int:
    def key(line: str) -> tuple[str, str]:
        record = json.loads(line)
        return record["tool"], json.dumps(record["arguments"], sort_keys=True)

    before = {key(line): line for line in old.read_text(encoding="utf-8").splitlines()}
    after = {key(line): line for line in new.read_text(encoding="utf-8").splitlines()}
    differ = [k for k in before.keys() | after.keys() if before.get(k) != after.get(k)]
    for tool, arguments in sorted(differ)[:50]:
        print(f"differs: {tool} {arguments}")
    print(f"{len(before)} calls before, {len(after)} after, {len(differ)} differ")
    return 1 if differ else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path)
    parser.add_argument("--words", type=int, default=500)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--compare", type=Path)
    options = parser.parse_args()
    corpus = open_corpus(options.data_dir)
    words = sample_words(corpus, options.words)
    corpus.close()
    count = anyio.run(_snapshot, words, options.data_dir, options.out)
    print(f"{count} calls on {len(words)} words written to {options.out}")
    if options.compare is not None:
        sys.exit(_compare(options.compare, options.out))


if __name__ == "__main__":
    main()
