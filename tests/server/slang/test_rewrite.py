"""Offline rewrite: the brief's example both ways, matching rules and replacement rules."""

from __future__ import annotations

import pytest

from lexicon_server.slang import GlossaryPair, rewrite

GLOSSARY = [{"slang": "no cap", "plain": "honestly"}, {"slang": "fr", "plain": "for real"}]


def test_brief_example_to_plain() -> None:
    result = rewrite("No cap, this works fr!", GLOSSARY)
    assert result.direction == "to_plain"
    assert result.text == "No cap, this works fr!"
    assert result.output == "honestly, this works for real!"
    assert [(r.start, r.end, r.text, r.replacement) for r in result.replacements] == [
        (0, 6, "No cap", "honestly"),
        (19, 21, "fr", "for real"),
    ]


def test_brief_example_back_to_slang() -> None:
    result = rewrite("honestly, this works for real!", GLOSSARY, direction="to_slang")
    assert result.output == "no cap, this works fr!"
    assert [(r.start, r.end, r.text) for r in result.replacements] == [
        (0, 8, "honestly"),
        (21, 29, "for real"),
    ]


def test_default_direction_is_to_plain() -> None:
    assert rewrite("fr", GLOSSARY).direction == "to_plain"


def test_replacement_uses_glossary_spelling_whatever_the_case_matched() -> None:
    result = rewrite("FR? Fr. fR!", [("fr", "For Real")])
    assert result.output == "For Real? For Real. For Real!"
    assert [r.text for r in result.replacements] == ["FR", "Fr", "fR"]


@pytest.mark.parametrize(
    "text",
    ["afr", "fra", "fr_", "_fr", "fr2", "2fr", "fré", "fr\u0301", "éfr", "франfr"],
)
def test_phrase_glued_to_letter_number_mark_or_underscore_does_not_match(text: str) -> None:
    assert rewrite(text, [("fr", "for real")]).replacements == ()


@pytest.mark.parametrize("text", ["fr", "(fr)", "fr.", "-fr-", "«fr»", "fr😀", "'fr'", "fr\n"])
def test_phrase_next_to_punctuation_space_or_emoji_matches(text: str) -> None:
    result = rewrite(text, [("fr", "for real")])
    assert len(result.replacements) == 1
    assert "for real" in result.output


def test_whitespace_inside_a_phrase_is_literal() -> None:
    pairs = [("no cap", "honestly")]
    assert rewrite("no  cap", pairs).replacements == ()
    assert rewrite("no\tcap", pairs).replacements == ()
    assert rewrite("no\ncap", pairs).replacements == ()
    assert rewrite("no cap", pairs).output == "honestly"


def test_longest_phrase_wins_at_the_same_position() -> None:
    pairs = [("fr", "for real"), ("fr fr", "truly, for real")]
    assert rewrite("fr fr, I mean it", pairs).output == "truly, for real, I mean it"
    # The order of the pairs does not matter.
    assert rewrite("fr fr, I mean it", pairs[::-1]).output == "truly, for real, I mean it"


def test_earliest_match_wins_over_a_longer_later_one() -> None:
    # "big mood" starts before "mood swing" and overlaps it: the earlier match is taken.
    pairs = [("big mood", "very relatable"), ("mood swing", "sudden change of feeling")]
    result = rewrite("big mood swing", pairs)
    assert result.output == "very relatable swing"
    assert [r.text for r in result.replacements] == ["big mood"]


def test_match_after_an_overlapping_one_is_still_found() -> None:
    # "a a" overlaps "x a" at index 2 but its next match at 4 starts after it.
    result = rewrite("x a a a", [("x a", "X"), ("a a", "B")])
    assert result.output == "X B"
    assert [(r.start, r.end) for r in result.replacements] == [(0, 3), (4, 7)]


def test_replacements_are_never_rewritten() -> None:
    # "fr" -> "for real" and "real" -> "legit": the inserted "real" must stay.
    result = rewrite("fr", [("fr", "for real"), ("real", "legit")])
    assert result.output == "for real"
    # A chain a -> b, b -> c applies once, not transitively.
    chained = rewrite("sus and mid", [("sus", "mid"), ("mid", "mediocre")])
    assert chained.output == "mid and mediocre"


def test_to_slang_swaps_and_keeps_longest_rule() -> None:
    pairs = [
        GlossaryPair("fr", "for real"),
        GlossaryPair("ong", "on god"),
        GlossaryPair("deadass", "for real though"),
    ]
    result = rewrite("For real though, for real.", pairs, "to_slang")
    assert result.output == "deadass, fr."


def test_unmatched_text_is_unchanged() -> None:
    text = "Nothing to see here, 100% plain."
    result = rewrite(text, GLOSSARY)
    assert result.output == text
    assert result.replacements == ()


def test_accepts_pairs_as_tuples_mappings_or_records() -> None:
    forms = [
        [("fr", "for real")],
        [{"slang": "fr", "plain": "for real"}],
        [GlossaryPair("fr", "for real")],
    ]
    assert {rewrite("fr!", f).output for f in forms} == {"for real!"}


def test_case_insensitive_matching_beyond_ascii() -> None:
    result = rewrite("ÇA VA, straße", [("ça va", "fine"), ("STRASSE", "street")])
    # Case folding is per character: ß does not expand to "ss", so only ÇA VA matches.
    assert result.output == "fine, straße"
