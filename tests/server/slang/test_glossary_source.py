"""The project glossary as a meaning source: normalization, live edits, missing file."""

from __future__ import annotations

import json
from pathlib import Path

from lexicon_server.glossary import Glossary
from lexicon_server.slang import ProjectGlossary, interpret, lookup


def test_terms_match_after_glossary_normalization(project_glossary: Path) -> None:
    source = ProjectGlossary(project_glossary)
    for spelling in ("Batch Release", "batch   release", "BATCH RELEASE;"):
        (found,) = source.definitions(spelling, 3)
        assert found.headword == "Batch Release"
        assert found.text == "Formal approval of a production batch."
    assert source.definitions("batch", 3) == []  # whole terms only, no partial match


def test_edits_by_the_glossary_group_are_seen(project_glossary: Path) -> None:
    source = ProjectGlossary(project_glossary)
    assert source.definitions("ngl", 1) == []
    Glossary(project_glossary).add("ngl", "not gonna lie: frankly")
    (found,) = source.definitions("NGL", 1)
    assert found.text == "not gonna lie: frankly"
    assert interpret("ngl, fr", ["ngl"], glossary=source).entries[0].status == "found"


def test_missing_file_means_no_meanings_not_an_error(tmp_path: Path) -> None:
    result = interpret("fr", ["fr"], glossary=tmp_path / "nothing-yet.jsonl")
    assert result.entries[0].status == "not_found"
    assert not result.has_errors


def test_glossary_meaning_follows_corpus_meanings(tmp_path: Path, corpus) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "glossary.jsonl"
    path.write_text(json.dumps({"term": "cap", "description": "our release cap"}) + "\n")
    found = lookup("cap", corpus=corpus, glossary=path, limit=1).definitions
    assert [d.origin for d in found] == ["corpus", "glossary"]
