"""interpret/lookup on corpora made by the real builder from the committed real slices.

The WordNet 3.1 slice (tests/fixtures/wordnet31) has "cat" in the Caterpillar synset
with WordNet's usage-domain pointer to "slang", and "queen" in its offensive sense
pointing at {disparagement}; the hand-written Wiktextract sample labels senses of "lit"
and "dog" `slang`. `built_corpus` writes them with the builder's own parsers and
LexicalWriter; `sample_data_dir` (root conftest, when it exists) is the whole sample
dataset built, packaged, installed and activated through lexicon_store.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from _support.built import english_lexical_selection
from mcp import Client

from lexicon_server.config import load_config
from lexicon_server.corpus.reader import Corpus
from lexicon_server.server import build_server
from lexicon_server.slang import interpret, lookup, open_corpus

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.fixture(scope="module")
def built_corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Corpus]:
    from lexicon_server.builder.lexical_writer import LexicalWriter, SourceRow
    from lexicon_server.builder.parsers import kaikki, wndb

    out = tmp_path_factory.mktemp("built") / "en" / "lexical.sqlite"
    writer = LexicalWriter(
        out,
        language="en",
        dataset_version="slang-test",
        sources=[
            SourceRow("wordnet-3.1", "WordNet 3.1 slice", "3.1", "WordNet", "fixture"),
            SourceRow("wiktextract", "Wiktextract sample (hand-written)", "0", "CC-BY-SA", "-"),
        ],
    )
    for record in wndb.iter_synsets(FIXTURES / "wordnet31", prefix="wn31"):
        writer.synset(record, "wordnet-3.1")
    writer.sense_ranks(wndb.iter_sense_index(FIXTURES / "wordnet31" / "index.sense", prefix="wn31"))
    for e in kaikki.iter_entries(FIXTURES / "kaikki" / "kaikki-sample.jsonl", languages=["en"]):
        entry = writer.entry(writer.term(e.word), e.pos, "wiktextract")
        for rank, sense in enumerate(e.senses):
            writer.sense(entry, sense.gloss, "wiktextract", rank=rank, tags=sense.tags)
    writer.finish()
    selection = english_lexical_selection(
        out.parent.parent, out, activation_id="built", dataset_version="slang-test"
    )
    corpus = Corpus(selection)
    yield corpus
    corpus.close()


def test_builder_made_corpus_wordnet_usage_domains(built_corpus: Corpus) -> None:
    cat = lookup("cat", corpus=built_corpus, limit=10).definitions
    slang = [d for d in cat if d.slang]
    assert slang and slang[0] is cat[0]
    assert "tracked vehicle" in cat[0].text and "usage:slang" in cat[0].tags
    assert any("feline" in d.text and not d.slang for d in cat)
    caterpillar = lookup("Caterpillar", corpus=built_corpus, limit=10).definitions
    assert caterpillar and not any("usage:slang" in d.tags for d in caterpillar)
    queen = lookup("queen", corpus=built_corpus, limit=10).definitions
    assert queen[0].slang and "usage:disparagement" in queen[0].tags
    assert "offensive" in queen[0].text


def test_builder_made_corpus_wiktionary_tags(built_corpus: Corpus) -> None:
    lit = lookup("lit", corpus=built_corpus, limit=10).definitions
    assert lit and all(d.slang for d in lit[:2])
    assert {d.source for d in lit} >= {"wiktextract"}
    result = interpret("That party was lit, no cap.", ["lit", "no cap"], corpus=built_corpus)
    lit_entry, no_cap = result.entries
    assert lit_entry.status == "found" and lit_entry.definitions[0].slang
    assert no_cap.status == "not_found"
    dog = lookup("dog", corpus=built_corpus, limit=1).definitions
    assert dog[0].tags[:2] == ("slang", "derogatory")


def _data_dir(request: pytest.FixtureRequest, name: str) -> Path:
    return Path(request.getfixturevalue(name))


def test_usage_domain_slang_sense_comes_first(request: pytest.FixtureRequest) -> None:
    corpus = open_corpus(_data_dir(request, "sample_data_dir"))
    try:
        found = lookup("cat", corpus=corpus, limit=10).definitions
        assert found, "the WordNet slice has senses of 'cat'"
        assert found[0].slang and "usage:slang" in found[0].tags
        assert "tracked vehicle" in found[0].text
        assert any(not d.slang for d in found)  # the feline senses follow
        assert all(d.origin == "corpus" and d.source for d in found)
        queen = lookup("queen", corpus=corpus, limit=10).definitions
        assert queen[0].slang and "usage:disparagement" in queen[0].tags
    finally:
        corpus.close()


def test_interpret_over_the_sample_server(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    data_dir = _data_dir(request, "sample_data_dir")
    glossary = tmp_path / "glossary.jsonl"
    glossary.write_text('{"term": "fr", "description": "for real"}\n', encoding="utf-8")
    config = load_config({"LEXICON_SLANG": "1", "LEXICON_GLOSSARY": str(glossary)})
    server = build_server(open_corpus(data_dir), config)
    text = "That cat is fr a queen 🐈"

    async def go() -> dict[str, object]:
        async with Client(server) as client:
            result = await client.call_tool(
                "slang_interpret", {"text": text, "terms": ["cat", "fr", "yeet"]}
            )
            assert result.structured_content is not None
            return result.structured_content

    out = anyio.run(go)
    entries = {e["term"]: e for e in out["entries"]}  # type: ignore[union-attr]
    assert entries["cat"]["status"] == "found"
    assert entries["cat"]["definitions"][0]["slang"] is True
    # 'fr' is in the Gen-Z list, so it is marked as slang: that meaning comes first, the
    # project glossary's after it.
    assert [d["origin"] for d in entries["fr"]["definitions"]] == ["corpus", "glossary"]
    assert entries["fr"]["definitions"][0]["source"] == "genz-slang"
    assert entries["yeet"]["status"] == "not_in_text"
    assert out["has_errors"] is False


def test_library_matches_tool_on_the_sample(request: pytest.FixtureRequest) -> None:
    corpus = open_corpus(_data_dir(request, "sample_data_dir"))
    try:
        result = interpret("cats and a cat", ["cat"], corpus=corpus)
        (entry,) = result.entries
        assert [o.text for o in entry.occurrences] == ["cat"]  # "cats" is not a whole match
        assert entry.status == "found"
    finally:
        corpus.close()


def test_starter_corpus_marks_wordnet_slang(request: pytest.FixtureRequest) -> None:
    # WordNet 3.1 points {heist, rip-off} and {dekko} at its {slang, argot, ...} synset.
    corpus = open_corpus(_data_dir(request, "starter_data_dir"))
    try:
        result = interpret("Take a dekko at the heist.", ["dekko", "heist"], corpus=corpus)
        dekko, heist = result.entries
        for entry in (dekko, heist):
            assert entry.status == "found"
            assert entry.definitions[0].slang
            assert "usage:slang" in entry.definitions[0].tags
            assert entry.definitions[0].source == "wordnet-3.1"
    finally:
        corpus.close()
