"""The offline slang component (slang.sqlite) built from the committed real slices.

The sample dataset (root conftest) is built by the real pipeline from the CLDR, Emojibase,
Jargon File and Gen-Z slices beside WordNet and the Wiktextract sample, packaged and
installed through lexicon_store; these tests read it as the server does.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from _support.slang import TERMS, TEXT, interpret_over_mcp

from lexicon_server.corpus.slang_data import slang_key
from lexicon_server.slang import interpret, lookup, open_corpus


def test_component_is_in_the_dataset_with_its_sources(sample_dataset: Path) -> None:
    described = json.loads((sample_dataset / "dataset.json").read_text(encoding="utf-8"))
    (component,) = [c for c in described["components"] if c["id"] == "shared.slang"]
    assert component == {
        "id": "shared.slang",
        "language": None,
        "capability": "shared",
        "path": "slang.sqlite",
    }
    conn = sqlite3.connect(sample_dataset / "slang.sqlite")
    sources = {row[0]: row[1:] for row in conn.execute("SELECT name, licence, trust FROM sources")}
    assert sources == {
        "genz-slang": ("MIT", "unreviewed"),
        "jargon": ("public domain", "curated"),
        "emojibase-emoticons": ("MIT", "curated"),
        "cldr-annotations": ("Unicode-3.0", "curated"),
    }
    kinds = dict(conn.execute("SELECT kind, count(*) FROM meanings GROUP BY kind").fetchall())
    assert kinds["slang"] == 145  # the Gen-Z filter's hand-written entries, nothing generated
    assert kinds["emoticon"] == 64
    assert not conn.execute("SELECT 1 FROM meanings WHERE gloss LIKE '%(mutated %'").fetchall()
    licences = (sample_dataset / "DATA_LICENSES.md").read_text(encoding="utf-8")
    for name in ("genz-slang", "jargon", "emojibase-emoticons", "cldr-annotations"):
        assert f"(`{name}`)" in licences
    assert "UNICODE LICENSE V3" in licences  # CLDR's own notice text
    assert "public domain" in licences.lower()


def test_keys_fold_emoji_variation_and_apostrophes() -> None:
    assert slang_key("👍🏽") == slang_key("👍")
    assert slang_key("☺️") == slang_key("☺")
    assert slang_key("I’m Deceased") == "i'm deceased"
    assert slang_key("🏻") == "🏻"  # a modifier alone stays itself


def test_the_issue_sentence_offline(sample_data_dir: Path) -> None:
    corpus = open_corpus(sample_data_dir)
    try:
        result = interpret(TEXT, TERMS, corpus=corpus)
        wide = interpret(TEXT, ["lit"], corpus=corpus, limit=10)
    finally:
        corpus.close()
    entries = {e.term: e for e in result.entries}
    assert all(e.status == "found" for e in entries.values())
    no_cap = entries["no cap"]
    assert no_cap.marked_as_slang
    first = no_cap.definitions[0]
    assert (first.text, first.source, first.licence, first.trust, first.kind) == (
        "No lie, for real.",
        "genz-slang",
        "MIT",
        "unreviewed",
        "slang",
    )
    emoji = entries["😂"].definitions[0]
    assert entries["😂"].marked_as_slang
    assert emoji.kind == "emoji" and emoji.text.startswith("face with tears of joy")
    assert (emoji.source, emoji.licence, emoji.trust) == (
        "cldr-annotations",
        "Unicode-3.0",
        "curated",
    )
    lit = entries["lit"]
    fire = [d for d in lit.definitions if d.kind == "emoji_keyword"]
    assert fire and fire[0].emoji == "🔥" and fire[0].source == "cldr-annotations"
    # The Wiktextract sample and GCIDE ('[slang]') label a sense of "lit" slang: that marks
    # the phrase, and every slang meaning comes before the literal ones.
    assert lit.marked_as_slang
    assert any(d.source == "gcide" and "slang" in d.tags for d in lit.definitions)
    flags = [d.slang for d in wide.entries[0].definitions]
    assert flags == sorted(flags, reverse=True) and not flags[-1]


def test_marked_orders_and_unmarked_keeps_dictionary_order(sample_data_dir: Path) -> None:
    corpus = open_corpus(sample_data_dir)
    try:
        # 'sign' is only an emoji keyword (of 🤘): not marked, WordNet's senses stay first.
        sign = interpret("a sign", ["sign"], corpus=corpus, limit=3).entries[0]
        assert not sign.marked_as_slang
        assert sign.definitions[0].kind == "sense" and sign.definitions[-1].emoji == "🤘"
        # The caller can mark it: order="slang" puts the emoji meaning first.
        marked = interpret("a sign", ["sign"], corpus=corpus, order="slang").entries[0]
        assert marked.definitions[0].kind == "emoji_keyword"
        assert [d.text for d in marked.definitions[1:]] == [d.text for d in sign.definitions[:-1]]
        # 'cap' is in the Gen-Z list: slang first, with the list's own definition.
        cap = lookup("cap", corpus=corpus, limit=3).definitions
        assert cap[0].slang
        assert any(d.source == "genz-slang" and d.text == "Lie." for d in cap)
        # An emoticon: Emojibase maps it to its emoji.
        (entry,) = interpret("ok :') bye", [":')"], corpus=corpus).entries
        assert entry.definitions[0].emoji == "😂" and entry.definitions[0].kind == "emoticon"
        # The Jargon File, with its part of speech.
        hacker = lookup("hacker", corpus=corpus, limit=2).definitions
        assert hacker[0].source == "jargon" and hacker[0].pos == "n."
    finally:
        corpus.close()


def test_through_the_mcp_client(sample_data_dir: Path) -> None:
    out = interpret_over_mcp(sample_data_dir)
    entries = {e["term"]: e for e in out["entries"]}  # type: ignore[union-attr]
    assert out["has_errors"] is False
    for term in TERMS:
        slang = [d for d in entries[term]["definitions"] if d["slang"]]
        assert slang, term
        assert all(d["source"] and d["licence"] and d["trust"] for d in slang)
    assert entries["no cap"]["definitions"][0]["trust"] == "unreviewed"
    assert entries["😂"]["marked_as_slang"] is True


_GUARDED = textwrap.dedent(
    """
    import json, sys
    attempts = []

    def hook(event, args):
        if event.startswith("socket.") and event not in ("socket.__new__", "socket.bind"):
            attempts.append(event)
            raise PermissionError(event)

    sys.addaudithook(hook)
    from lexicon_server.slang import interpret, open_corpus

    corpus = open_corpus()
    result = interpret(sys.argv[1], json.loads(sys.argv[2]), corpus=corpus)
    print(json.dumps({"attempts": attempts, "found": [
        [e.term, e.status, [d.source for d in e.definitions if d.slang]]
        for e in result.entries]}))
    """
)


def test_no_connection_is_attempted(sample_data_dir: Path) -> None:
    """In a fresh interpreter whose audit hook refuses every socket event."""
    done = subprocess.run(
        [sys.executable, "-c", _GUARDED, TEXT, json.dumps(TERMS)],
        capture_output=True,
        text=True,
        env={"LEXICON_DATA_DIR": str(sample_data_dir), "PATH": "/usr/bin:/bin"},
        check=True,
    )
    out = json.loads(done.stdout)
    assert out["attempts"] == []
    assert [status for _, status, _ in out["found"]] == ["found"] * 3
    assert all(sources for _, _, sources in out["found"])


@pytest.mark.parametrize("order", ["sideways", ""])
def test_bad_order_is_refused(sample_data_dir: Path, order: str) -> None:
    from lexicon_server.slang import SlangInputError

    corpus = open_corpus(sample_data_dir)
    try:
        with pytest.raises(SlangInputError, match="order"):
            interpret(TEXT, TERMS, corpus=corpus, order=order)  # type: ignore[arg-type]
    finally:
        corpus.close()
