"""The issue's check on the real starter corpus: slang meanings for `lit`, `no cap`, 😂."""

from __future__ import annotations

from pathlib import Path

from _support.slang import TERMS, TEXT, interpret_over_mcp

from lexicon_server.slang import interpret, open_corpus


def test_issue_sentence_on_the_starter(starter_data_dir: Path) -> None:
    corpus = open_corpus(starter_data_dir)
    try:
        result = interpret(TEXT, TERMS, corpus=corpus)
        by_slang = interpret(TEXT, ["lit"], corpus=corpus, order="slang")
    finally:
        corpus.close()
    entries = {e.term: e for e in result.entries}
    no_cap, emoji, lit = entries["no cap"], entries["😂"], entries["lit"]
    assert no_cap.marked_as_slang and emoji.marked_as_slang
    assert (no_cap.definitions[0].source, no_cap.definitions[0].trust) == (
        "genz-slang",
        "unreviewed",
    )
    assert no_cap.definitions[0].text == "No lie, for real."
    assert emoji.definitions[0].text.startswith("face with tears of joy")
    assert emoji.definitions[0].licence == "Unicode-3.0"
    # No offline source defines lit's slang sense: WordNet first, CLDR's 🔥 keyword after.
    assert not lit.marked_as_slang
    assert lit.definitions[0].source == "wordnet-3.1" and not lit.definitions[0].slang
    fire = [d for d in lit.definitions if d.slang]
    assert [d.emoji for d in fire][:1] == ["🔥"] and fire[0].source == "cldr-annotations"
    assert by_slang.entries[0].definitions[0].emoji == "🔥"


def test_issue_sentence_through_the_mcp_client(starter_data_dir: Path) -> None:
    out = interpret_over_mcp(starter_data_dir)
    assert out["has_errors"] is False
    for entry in out["entries"]:  # type: ignore[union-attr]
        slang = [d for d in entry["definitions"] if d["slang"]]
        assert slang, entry["term"]
        assert all(d["source"] and d["licence"] and d["trust"] for d in slang)
