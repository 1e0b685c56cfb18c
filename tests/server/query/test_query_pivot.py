"""dictionary_translate between two non-English languages: through English (query/pivot.py)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from _support.provenance import assert_sources_complete

from lexicon_server.corpus.reader import Corpus
from lexicon_server.query.translate import translate

# maison's French entry translates into English 'house', then 'dog' (a test's choice: two
# English words whose German translations the mini corpus holds).
_MAISON_INTO_ENGLISH = (
    "INSERT INTO translations (term_id, sense_id, target_language, target_text, target_norm, "
    "source_id) SELECT t.id, NULL, 'en', w, w, 3 FROM terms t, "
    "(SELECT 'house' AS w UNION ALL SELECT 'dog') WHERE t.norm = 'maison' ORDER BY w = 'dog'"
)


def _texts(result) -> list[str]:  # type: ignore[no-untyped-def]
    return [c.text for g in result.groups for c in g.candidates]


def test_a_word_reaches_a_third_language_through_english(
    mini_variant: Callable[[str, str, str], Corpus],
) -> None:
    corpus = mini_variant("pivot", "fr/lexical.sqlite", _MAISON_INTO_ENGLISH)
    result = translate(corpus, "maison", "de", "fr", limit=10)
    assert result.found and result.note is None
    # house's German first (its first English word), then dog's; each path weighed by
    # both ranks: Haus 1, Gebäude 1/2, Hund 1/2, Köter 1/4.
    assert _texts(result) == ["Haus", "Gebäude", "Hund", "Köter"]
    group = result.groups[-1]
    assert group.sense_scope == "pivot" and group.sense is None
    assert [c.via for c in group.candidates] == [["house"], ["house"], ["dog"], ["dog"]]
    assert all(c.sense_scope == "pivot" for c in group.candidates)
    assert result.target_language_status == "language_not_installed"
    assert_sources_complete(result.model_dump(mode="json"))


def test_two_paths_that_agree_outrank_one(
    mini_variant: Callable[[str, str, str], Corpus], tmp_path: Path
) -> None:
    corpus = mini_variant("agree", "fr/lexical.sqlite", _MAISON_INTO_ENGLISH)
    with sqlite3.connect(tmp_path / "agree" / "en" / "lexical.sqlite") as en:
        # dog's first German word is now Gebäude too (the lowest id): two paths reach it.
        en.execute(
            "INSERT INTO translations (id, term_id, sense_id, target_language, target_text, "
            "target_norm, source_id) SELECT -1, id, NULL, 'de', 'Gebäude', 'gebäude', 3 "
            "FROM terms WHERE norm = 'dog'"
        )
    result = translate(corpus, "maison", "de", "fr", limit=3)
    first = result.groups[-1].candidates[0]
    assert (first.text, first.via) == ("Gebäude", ["house", "dog"])
    assert _texts(result)[1] == "Haus"
    assert result.groups[-1].truncated


def test_english_on_one_side_never_pivots(corpus: Corpus) -> None:
    result = translate(corpus, "run", "fr")
    assert all(g.sense_scope != "pivot" for g in result.groups)
    assert result.found and not result.groups
    assert result.note is not None and "no translation into fr" in result.note


def test_nothing_links_says_so(mini_variant: Callable[[str, str, str], Corpus]) -> None:
    corpus = mini_variant("nolink", "fr/lexical.sqlite", "DELETE FROM translations")
    result = translate(corpus, "maison", "de", "fr")
    assert result.found and result.groups == []
    assert result.note is not None and "nothing links" in result.note
