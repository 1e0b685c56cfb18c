"""Moby Thesaurus in dictionary_synonyms, on the sample build of the committed slices.

The sample build reads `tests/fixtures/moby/words.txt` (26 real Moby lines) beside the
WordNet 3.1 slice, so `house`, `dog` and `cat` have Moby terms both unsensed and tied to
one of their WordNet senses (docs/thesauri.md).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from _support.provenance import assert_sources_complete
from mcp import Client

from lexicon_server.config import load_config
from lexicon_server.corpus.reader import Corpus
from lexicon_server.query.lookup import lookup
from lexicon_server.query.synonyms import UNSENSED_DEFAULT, synonyms
from lexicon_server.server import build_server
from lexicon_store.selection import load_active


def _moby_words(root: str) -> list[str]:
    path = Path(__file__).parents[2] / "fixtures" / "moby" / "words.txt"
    for line in path.read_text(encoding="ascii").splitlines():
        fields = line.split(",")
        if fields[0] == root:
            return [f for f in fields[1:] if f]
    raise AssertionError(root)


def _sense_keys(corpus: Corpus, word: str) -> dict[str, str]:
    """Each sense id of `word` -> WordNet's sense key (a synonyms answer names a sense by
    its id; the look-up gives the source's id on request)."""
    senses = lookup(corpus, word, limit=100, source_ids=True).senses
    return {s.id: s.external_id for s in senses if s.external_id}


def test_moby_terms_are_tied_to_the_sense_they_fit(sample_corpus: Corpus) -> None:
    result = synonyms(sample_corpus, "house", limit=100, max_senses=100, unsensed_limit=0)
    keys = _sense_keys(sample_corpus, "house")
    by_key = {keys[g.sense.id]: g for g in result.groups if g.sense is not None}
    building = set(by_key["house%1:06:00::"].candidates)
    assert {"abode", "domicile", "dwelling"} <= building
    # Moby's candidates fill the group: their source, relation and scope are the group's
    # (issue 28: said once), and 'abode' says none of its own.
    group = by_key["house%1:06:00::"]
    assert (group.source, group.relation, group.candidate_scope) == ("moby", "synonym", "sense")
    assert "abode" not in group.details
    family = set(by_key["house%1:14:00::"].candidates)
    assert {"folk", "sept"} <= family and "abode" not in family
    firm = set(by_key["house%1:14:01::"].candidates)
    assert {"business", "concern"} <= firm
    # Every Moby candidate shown is one of Moby's own terms for the root.
    listed = set(_moby_words("house"))
    for group in result.groups:
        for c in group.candidates:
            own = group.details.get(c)
            if (own.source if own and own.source else group.source) == "moby":
                assert c in listed
    assert "moby" in result.sources
    assert_sources_complete(result.model_dump(mode="json"))


def test_unsensed_moby_group_has_its_default_allocation(sample_corpus: Corpus) -> None:
    result = synonyms(sample_corpus, "cat")
    assert result.unsensed_limit == UNSENSED_DEFAULT
    unsensed = [g for g in result.groups if g.sense_scope == "unsensed"]
    assert len(unsensed) == 1
    texts = list(unsensed[0].candidates)
    assert len(texts) == UNSENSED_DEFAULT and unsensed[0].truncated
    assert unsensed[0].source == "moby"  # said once, for every term that names none
    assert {d.source or unsensed[0].source for d in unsensed[0].details.values()} <= {
        "moby",
        "conceptnet",
    }
    assert set(texts) <= set(_moby_words("cat")) | _conceptnet_targets(sample_corpus, "cat")
    # A term shown in a sense group is not repeated unsensed.
    sensed = {c for g in result.groups if g.sense is not None for c in g.candidates}
    assert not sensed & set(texts)
    assert synonyms(sample_corpus, "cat", unsensed_limit=0).unsensed_returned == 0


def _conceptnet_targets(corpus: Corpus, word: str) -> set[str]:
    conn = corpus.db("en", "lexical")
    rows = conn.execute(
        "SELECT r.dst_text FROM relations r JOIN terms t ON t.id = r.src_term_id "
        "JOIN sources s ON s.id = r.source_id WHERE t.text = ? AND s.name = 'conceptnet'",
        (word,),
    )
    return {row[0] for row in rows}


def test_unsensed_moby_terms_come_best_weight_first(sample_data_dir: Path) -> None:
    built = load_active(sample_data_dir)
    conn = sqlite3.connect(f"file:{built.files['en/lexical.sqlite']}?mode=ro", uri=True)
    rows = conn.execute(
        "SELECT r.weight, r.dst_text FROM relations r JOIN terms t ON t.id = r.src_term_id "
        "JOIN sources s ON s.id = r.source_id "
        "WHERE t.text = 'dog' AND s.name = 'moby' ORDER BY r.id"
    ).fetchall()
    conn.close()
    weights = [w for w, _ in rows]
    assert len(rows) == len(set(_moby_words("dog")) - {"dog"})
    assert weights == sorted(weights, reverse=True)
    assert all(text is None for _, text in rows)  # the term row carries the text


@pytest.fixture
def client_calls(sample_data_dir: Path) -> Iterator[Any]:
    corpus = Corpus(load_active(sample_data_dir))
    server = build_server(corpus, load_config({}))

    def call(name: str, args: dict[str, Any]) -> dict[str, Any]:
        async def main() -> dict[str, Any]:
            async with Client(server) as client:
                result = await client.call_tool(name, args)
                assert not result.is_error, result.content
                assert result.structured_content is not None
                return result.structured_content

        return anyio.run(main)

    yield call
    corpus.close()


def test_moby_through_the_mcp_client(client_calls: Any) -> None:
    # every sense, and room in them for the terms tied to dog's verb senses
    args = {"word": "dog", "limit": 40, "max_senses": 100, "unsensed_limit": 10}
    answer = client_calls("dictionary_synonyms", args)
    assert_sources_complete(answer)
    looked_up = client_calls("dictionary_lookup", {"word": "dog", "limit": 100, "source_ids": True})
    keys = {s["id"]: s.get("external_id") for s in looked_up["senses"]}
    moby = [
        (keys.get(g.get("sense", {}).get("id")), c)
        for g in answer["groups"]
        for c in g["candidates"]
        if g.get("details", {}).get(c, {}).get("source", g.get("source")) == "moby"
    ]
    assert ("dog%2:38:00::", "follow") in moby
    assert any(key is None for key, _ in moby)  # the unsensed group
    assert answer["sources"]["moby"].startswith("public domain")
    assert answer["unsensed_limit"] == 10
    default = client_calls("dictionary_synonyms", {"word": "dog"})
    assert default["unsensed_limit"] == UNSENSED_DEFAULT and default["max_senses"] == 2
