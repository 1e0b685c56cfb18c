"""interpret: every status, dedupe, no look-up for absent phrases, partial failures kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from lexicon_server.corpus.reader import Corpus
from lexicon_server.slang import (
    MeaningSources,
    ProjectGlossary,
    SlangError,
    UrbanDictionary,
    interpret,
)

TEXT = "No cap, this works fr! Capping is lame."


def test_statuses_found_not_found_not_in_text(corpus: Corpus, project_glossary: Path) -> None:
    result = interpret(
        TEXT, ["no cap", "fr", "works", "yeet"], 3, corpus=corpus, glossary=project_glossary
    )
    by_term = {e.term: e for e in result.entries}
    assert by_term["no cap"].status == "found"
    assert by_term["no cap"].definitions[0].text == "honestly; without exaggeration"
    assert by_term["fr"].status == "found"
    assert by_term["fr"].definitions[0].origin == "glossary"
    assert by_term["works"].status == "not_found"  # in the text, in no source
    assert by_term["works"].definitions == ()
    assert by_term["yeet"].status == "not_in_text"
    assert by_term["yeet"].occurrences == ()
    assert all(e.error is None for e in result.entries)
    assert result.has_errors is False
    assert result.sources == ("corpus", "glossary")
    assert result.text == TEXT


def test_each_meaning_names_its_origin(corpus: Corpus, project_glossary: Path) -> None:
    result = interpret(TEXT, ["no cap", "fr"], corpus=corpus, glossary=project_glossary)
    no_cap, fr = result.entries
    assert {(d.origin, d.source, d.trust) for d in no_cap.definitions} == {
        ("corpus", "slang-fixture", "curated")
    }
    assert no_cap.definitions[0].licence == "CC0-1.0"
    assert no_cap.definitions[0].tags == ("slang", "Internet")
    assert no_cap.definitions[0].example == "no cap, it works"
    (g,) = fr.definitions
    assert (g.origin, g.source, g.trust, g.headword) == (
        "glossary",
        "glossary.jsonl",
        "project",
        "fr",
    )


def test_slang_senses_come_first_then_any_sense(corpus: Corpus) -> None:
    result = interpret("That is cap.", ["cap"], 10, corpus=corpus)
    glosses = [d.text for d in result.entries[0].definitions]
    assert glosses == ["a lie or an exaggeration", "to lie", "a tight-fitting headdress"]
    assert [d.slang for d in result.entries[0].definitions] == [True, True, False]


def test_limit_keeps_the_slang_senses(corpus: Corpus) -> None:
    result = interpret("dope", ["dope"], 1, corpus=corpus)
    assert [d.text for d in result.entries[0].definitions] == ["excellent, very good"]


def test_inflected_form_reaches_its_lemma(corpus: Corpus) -> None:
    result = interpret(TEXT, ["capping"], corpus=corpus)
    assert result.entries[0].status == "found"
    assert result.entries[0].definitions[0].headword == "cap"


def test_repeats_ignoring_case_are_one_entry_and_one_lookup(fake_ud) -> None:  # type: ignore[no-untyped-def]
    provider = UrbanDictionary.from_config(fake_ud.config())
    result = interpret(
        "No cap, no cap, NO CAP fr", ["no cap", "No Cap", "NO CAP", "fr"], online=provider
    )
    assert [e.term for e in result.entries] == ["no cap", "fr"]
    assert len(result.entries[0].occurrences) == 3
    assert fake_ud.terms_asked() == ["no cap", "fr"]


def test_absent_phrases_trigger_no_lookup(fake_ud) -> None:  # type: ignore[no-untyped-def]
    provider = UrbanDictionary.from_config(fake_ud.config())
    result = interpret("nothing slangy here", ["yeet", "no cap"], online=provider)
    assert [e.status for e in result.entries] == ["not_in_text", "not_in_text"]
    assert fake_ud.requests == []


def test_partial_failure_keeps_other_results(corpus: Corpus, fake_ud) -> None:  # type: ignore[no-untyped-def]
    provider = UrbanDictionary.from_config(fake_ud.config())
    text = "broken, no cap, yeet"
    result = interpret(text, ["broken", "no cap", "yeet"], 2, corpus=corpus, online=provider)
    broken, no_cap, yeet = result.entries
    assert broken.status == "error"
    assert broken.error is not None and "HTTP 500" in broken.error
    assert no_cap.status == "found"
    assert {d.origin for d in no_cap.definitions} == {"corpus", "urban_dictionary"}
    assert yeet.status == "found"
    assert [d.defid for d in yeet.definitions] == [11, 12]
    assert result.has_errors is True


def test_error_entry_keeps_meanings_from_sources_that_answered(tmp_path: Path, fake_ud) -> None:  # type: ignore[no-untyped-def]
    glossary = tmp_path / "g.jsonl"
    glossary.write_text('{"term": "broken", "description": "our word for a failed build"}\n')
    provider = UrbanDictionary.from_config(fake_ud.config())
    (entry,) = interpret(
        "the build is broken", ["broken"], glossary=glossary, online=provider
    ).entries
    assert entry.status == "error"
    assert [d.text for d in entry.definitions] == ["our word for a failed build"]


def test_uninstalled_corpus_is_an_error_status_with_the_reason(
    tmp_path: Path, corpus_factory
) -> None:  # type: ignore[no-untyped-def]
    corpus = corpus_factory(tmp_path, installed=False)
    (entry,) = interpret("cap", ["cap"], corpus=corpus).entries
    assert entry.status == "error"
    assert entry.error is not None and "language_not_installed" in entry.error


def test_broken_project_glossary_is_an_error_status(tmp_path: Path) -> None:
    bad = tmp_path / "g.jsonl"
    bad.write_text('{"term": "fr", "description": "for real"}\n{not json\n')
    result = interpret("fr", ["fr"], glossary=bad)
    assert result.entries[0].status == "error"
    error = result.entries[0].error or ""
    assert "g.jsonl:2: invalid JSON" in error
    assert "lexicon-glossary" in error  # the glossary group's own fix-it command
    assert result.has_errors


def test_no_source_at_all_is_refused() -> None:
    with pytest.raises(SlangError, match="no meaning source"):
        interpret("fr", ["fr"])


def test_sources_object_can_be_reused(project_glossary: Path) -> None:
    sources = MeaningSources(glossary=ProjectGlossary(project_glossary))
    assert interpret("fr", ["fr"], sources=sources).entries[0].status == "found"
    assert interpret("FR", ["fr"], sources=sources).entries[0].occurrences[0].text == "FR"
