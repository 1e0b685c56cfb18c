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
    # GCIDE labels a sense of "lit" [slang] ("drunk"): that marks the phrase, and the
    # labelled sense comes first, from its own GPL-2+ component; CLDR's 🔥 keyword follows.
    assert lit.marked_as_slang
    first = lit.definitions[0]
    assert (first.source, first.licence, first.trust, first.slang) == (
        "gcide",
        "GPL-2+",
        "curated",
        True,
    )
    assert first.text.startswith("Under the influence of alcohol") and "slang" in first.tags
    fire = [d for d in lit.definitions if d.kind == "emoji_keyword"]
    assert [d.emoji for d in fire][:1] == ["🔥"] and fire[0].source == "cldr-annotations"
    # A marked phrase is already read slang first: order="slang" changes nothing.
    assert by_slang.entries[0].definitions == lit.definitions


def test_issue_sentence_through_the_mcp_client(starter_data_dir: Path) -> None:
    out = interpret_over_mcp(starter_data_dir)
    assert out["has_errors"] is False
    for entry in out["entries"]:  # type: ignore[union-attr]
        slang = [d for d in entry["definitions"] if d["slang"]]
        assert slang, entry["term"]
        assert all(d["source"] and d["licence"] and d["trust"] for d in slang)
