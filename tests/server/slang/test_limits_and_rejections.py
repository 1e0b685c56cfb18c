"""Every input limit and every glossary rejection, with the message naming the parameter."""

from __future__ import annotations

import pytest

from lexicon_server.slang import (
    MAX_PHRASE_UNITS,
    MAX_PHRASES,
    MAX_TEXT_UNITS,
    ProjectGlossary,
    SlangInputError,
    interpret,
    rewrite,
)

PAIR = [("fr", "for real")]


def test_text_limit_counts_utf16_units() -> None:
    rewrite("a" * MAX_TEXT_UNITS, PAIR)  # exactly at the limit: accepted
    with pytest.raises(SlangInputError, match=r"text: is 10001 UTF-16 code units.*limit is 10000"):
        rewrite("a" * (MAX_TEXT_UNITS + 1), PAIR)
    # 5,000 emoji are 5,000 code points but 10,000 UTF-16 units: still fine; one more is not.
    rewrite("😀" * (MAX_TEXT_UNITS // 2), PAIR)
    with pytest.raises(SlangInputError, match="text: is 10002 UTF-16"):
        rewrite("😀" * (MAX_TEXT_UNITS // 2 + 1), PAIR)


def test_glossary_pair_limit() -> None:
    pairs = [(f"s{i}", f"p{i}") for i in range(MAX_PHRASES)]
    rewrite("s1", pairs)
    with pytest.raises(SlangInputError, match=r"glossary: has 21 pairs; the limit is 20"):
        rewrite("s1", [*pairs, ("s20", "p20")])


def test_phrase_length_limit_on_both_sides() -> None:
    ok = "x" * MAX_PHRASE_UNITS
    rewrite("text", [(ok, "plain")])
    with pytest.raises(SlangInputError, match=r"glossary\[0\]\.slang: is 101 UTF-16"):
        rewrite("text", [(ok + "x", "plain")])
    with pytest.raises(SlangInputError, match=r"glossary\[1\]\.plain: is 102 UTF-16"):
        rewrite("text", [("a", "b"), ("slang", "😀" * 51)])


def test_interpret_limits(tmp_path) -> None:  # type: ignore[no-untyped-def]
    glossary = ProjectGlossary(tmp_path / "absent.jsonl")
    with pytest.raises(SlangInputError, match="text: is 10001"):
        interpret("a" * (MAX_TEXT_UNITS + 1), ["a"], glossary=glossary)
    with pytest.raises(SlangInputError, match="terms: has 21 phrases; the limit is 20"):
        interpret("a", [f"t{i}" for i in range(21)], glossary=glossary)
    with pytest.raises(SlangInputError, match=r"terms\[0\]: is 101 UTF-16"):
        interpret("a", ["y" * 101], glossary=glossary)
    with pytest.raises(SlangInputError, match="limit: must be a whole number from 1 to 10"):
        interpret("a", ["a"], 0, glossary=glossary)
    with pytest.raises(SlangInputError, match="limit: must be a whole number from 1 to 10"):
        interpret("a", ["a"], 11, glossary=glossary)
    with pytest.raises(SlangInputError, match="terms: must name at least one"):
        interpret("a", [], glossary=glossary)
    with pytest.raises(SlangInputError, match="terms: must be a list"):
        interpret("a", "fr", glossary=glossary)


def test_duplicate_slang_phrases_ignoring_case_are_rejected() -> None:
    with pytest.raises(SlangInputError, match=r"glossary\[1\]\.slang: 'FR' repeats glossary\[0\]"):
        rewrite("fr", [("fr", "for real"), ("FR", "from")])


def test_duplicate_check_applies_to_the_side_being_matched() -> None:
    # The rule is about the phrases being matched: in to_slang that is the plain side,
    # so two slang spellings of different meanings do not clash there.
    pairs = [("fr", "for real"), ("Fr", "from")]
    with pytest.raises(SlangInputError):
        rewrite("x", pairs, "to_plain")
    assert rewrite("from here", pairs, "to_slang").output == "Fr here"


def test_ambiguous_reverse_is_rejected_but_forward_is_fine() -> None:
    pairs = [("fr", "for real"), ("deadass", "For Real")]
    assert rewrite("fr and deadass", pairs).output == "for real and For Real"
    with pytest.raises(
        SlangInputError,
        match=r"glossary\[1\]\.plain: .*could not choose between 'fr' and 'deadass'",
    ):
        rewrite("for real", pairs, "to_slang")


@pytest.mark.parametrize(
    ("pair", "message"),
    [
        (("", "x"), r"glossary\[0\]\.slang: must not be empty"),
        (("   ", "x"), r"glossary\[0\]\.slang: must not be empty"),
        (("fr", ""), r"glossary\[0\]\.plain: must not be empty"),
        ((" fr", "x"), r"must not start or end with whitespace"),
        (("fr", 3), r"glossary\[0\]\.plain: must be a string, got int"),
        ({"slang": "fr"}, r"glossary\[0\]: needs the keys 'slang' and 'plain'"),
        ("fr", r"glossary\[0\]: must be"),
    ],
)
def test_malformed_pairs(pair: object, message: str) -> None:
    with pytest.raises(SlangInputError, match=message):
        rewrite("fr", [pair])  # type: ignore[list-item]


def test_empty_glossary_wrong_direction_and_wrong_text() -> None:
    with pytest.raises(SlangInputError, match="glossary: must hold at least one"):
        rewrite("fr", [])
    with pytest.raises(SlangInputError, match="direction: must be 'to_plain' or 'to_slang'"):
        rewrite("fr", PAIR, "sideways")  # type: ignore[arg-type]
    with pytest.raises(SlangInputError, match="text: must be a string"):
        rewrite(None, PAIR)  # type: ignore[arg-type]
    with pytest.raises(SlangInputError, match="glossary: must be a list"):
        rewrite("fr", {"slang": "fr", "plain": "for real"})  # type: ignore[arg-type]


def test_input_errors_are_value_errors() -> None:
    # Callers that only know the builtin still catch bad input.
    with pytest.raises(ValueError):
        rewrite("fr", [])
