"""rhymes and wordplay in the whole server, on the sample corpus the real builder makes from
the fixture slices, installed and activated through lexicon_store (root `sample_data_dir`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from mcp import Client

from lexicon_server.config import load_config
from lexicon_server.corpus.reader import Corpus
from lexicon_server.server import build_server


@pytest.fixture
def sample_corpus(request: pytest.FixtureRequest) -> Iterator[Corpus]:
    from lexicon_store.selection import load_active

    data_dir = request.getfixturevalue("sample_data_dir")
    corpus = Corpus(load_active(data_dir))
    yield corpus
    corpus.close()


def _calls(corpus: Corpus, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    server = build_server(corpus, load_config({}))

    async def main() -> list[Any]:
        async with Client(server) as client:
            return [await client.call_tool(name, args) for name, args in calls]

    return anyio.run(main)


def test_rhymes_and_wordplay_in_the_whole_server(sample_corpus: Corpus) -> None:
    results = _calls(
        sample_corpus,
        [
            ("rhymes", {"word": "cat"}),
            ("wordplay", {"text": "listen", "kind": "anagram"}),
            ("wordplay", {"text": "knight", "kind": "pun"}),
        ],
    )
    assert not any(r.is_error for r in results), [r.content for r in results]
    rhymes, anagrams, puns = (r.structured_content for r in results)
    assert "hat" in [r["word"] for r in rhymes["results"]]
    assert rhymes["dataset_version"] == sample_corpus.dataset_version
    assert "silent" in [a["word"] for a in anagrams["results"]]
    assert "night" in [p["word"] for p in puns["results"]]
