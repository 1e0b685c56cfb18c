"""Lean answers keep every fact: each answer, with the fields it leaves out put back
(`expand.expanded`), equals the answer the server gave before answers were made lean.

`data/answers-before-lean.json.gz` holds the answers of the code before that change
(commit a40841c) to every dictionary tool for 65 words of the sample corpus, and the
sample release's manifest digest they were made from (a later change to the release's
metadata changes that digest without changing an answer, so it is not compared). Should
the sample corpus's content change, the comparison below fails naming the tool and word,
and this snapshot has then served its purpose.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from lexicon_server.config import load_config
from lexicon_server.corpus.reader import Corpus
from lexicon_server.expand import expanded
from lexicon_server.server import build_server

BEFORE = Path(__file__).parents[1] / "data" / "answers-before-lean.json.gz"
CALLS = {
    "dictionary_lookup": lambda w: {"word": w},
    "dictionary_synonyms": lambda w: {"word": w},
    "dictionary_translate": lambda w: {"word": w, "target_language": "fr"},
    "dictionary_relations": lambda w: {"word": w, "relation": "hypernym", "max_depth": 2},
    "dictionary_semantic_neighbors": lambda w: {"word": w},
    "rhymes": lambda w: {"word": w},
    "rhymes near": lambda w: {"word": w, "mode": "near"},
    "wordplay": lambda w: {"text": w, "kind": "anagram"},
}


@pytest.fixture(scope="module")
def before() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(gzip.decompress(BEFORE.read_bytes()))
    return loaded


def _answers(corpus: Corpus, words: list[str]) -> dict[str, dict[str, Any]]:
    server = build_server(corpus, load_config({}))
    out: dict[str, dict[str, Any]] = {}

    async def main() -> None:
        async with Client(server) as client:
            for label, args in CALLS.items():
                tool = label.split()[0]
                for word in words:
                    result = await client.call_tool(tool, args(word))
                    lean = None if result.is_error else result.structured_content
                    out.setdefault(label, {})[word] = lean

    anyio.run(main)
    return out


def _said(node: Any) -> Any:
    """`node` without the details that say nothing (null, [] or {}), which answers leave
    out before and after alike."""
    if isinstance(node, dict):
        kept = {key: _said(value) for key, value in node.items()}
        return {key: value for key, value in kept.items() if value not in (None, [], {})}
    if isinstance(node, list):
        return [_said(item) for item in node]
    return node


# Sources and vectors added to the sample by issue 17: answers that use them hold facts the
# snapshot predates (sense-tied Italian translations, simplemma resolutions, derived French
# neighbours), so they are left out of both comparisons; every other answer is compared.
_NEWER = ("multiwordnet-", "simplemma")


def _uses_newer_data(answer: Any) -> bool:
    if not isinstance(answer, dict):
        return False
    if any(name.startswith(_NEWER) for name in answer.get("sources", {})):
        return True
    return answer.get("searched_languages", ["en"]) != ["en"]


def test_every_fact_of_the_old_answers_is_still_there(
    before: dict[str, Any], sample_corpus: Corpus
) -> None:
    now = _answers(sample_corpus, before["words"])
    compared = 0
    for label, answers in before["answers"].items():
        tool = label.split()[0]
        for word, old in answers.items():
            lean = now[label][word]
            assert (lean is None) == (old is None), (label, word)
            if old is None or _uses_newer_data(lean):
                continue
            assert _said(expanded(tool, lean)) == _said(old), (label, word)
            compared += 1
    assert compared > 300


def test_lean_answers_are_smaller(before: dict[str, Any], sample_corpus: Corpus) -> None:
    now = _answers(sample_corpus, before["words"])
    for label, answers in before["answers"].items():
        same = [
            w for w, a in answers.items() if a is not None and not _uses_newer_data(now[label][w])
        ]
        if not same:
            continue
        old = sum(len(json.dumps(answers[w])) for w in same)
        new = sum(len(json.dumps(now[label][w])) for w in same)
        assert new < old, label
