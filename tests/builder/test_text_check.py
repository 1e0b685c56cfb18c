"""The leftover-markup checker (lexicon-build check-text): each kind on real rows seen in
the starter build before the entry-grammar rules, and a clean built corpus."""

from __future__ import annotations

import pytest

from lexicon_server.builder.text_check import KINDS, leftovers


@pytest.mark.parametrize(
    ("text", "language", "kind"),
    [
        ("departure from sth.", "en", "placeholder"),
        ("etw. ankündigen", "de", "placeholder"),
        ("Straße Str.", "de", "glued_abbreviation"),
        ("figure fig.", "en", "glued_abbreviation"),
        ("all of ( )", "en", "empty_brackets"),
        ("Algen…", "de", "ellipsis"),
        ("…", "en", "ellipsis"),
        ("Abessĳn", "nl", "ligature"),
        ("PSEUDOGAP!", "it", "gap_marker"),
        ("the Amazon (:the :Amazon)", "pl", "pattern_markup"),
        ("uncharred]]", "en", "unbalanced_brackets"),
    ],
)
def test_each_kind_is_found(text: str, language: str, kind: str) -> None:
    assert kind in KINDS
    assert kind in leftovers(text, language)


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Straße", "de"),
        ("take sth. into account", "en"),  # a placeholder inside a phrase is its grammar
        ("Wie aus … ersichtlich ist", "de"),
        ("(über eine Lautsprecheranlage) durchsagen", "de"),
        ("ijs", "nl"),
        ("Ivan IV", "en"),
    ],
)
def test_clean_text_passes(text: str, language: str) -> None:
    assert leftovers(text, language, headword=text == "Ivan IV") == []


def test_gcide_markup() -> None:
    assert "gcide_entity" in leftovers("AS. [eth][=e], a later form", "en", gcide=True)
    assert "gcide_markup" in leftovers(
        'Abannition \\Ab`an*nition\\ (ab`an*nish"un), n.', "en", gcide=True
    )
    assert leftovers("Obsolete. [Obs.]", "en", gcide=True) == []
    assert leftovers("AS. ðē, a later form", "en", gcide=True) == []
