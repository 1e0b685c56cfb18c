"""Argument checks shared by every query: `check_text` and `check_language`."""

from __future__ import annotations

import sys
import unicodedata

import pytest

from lexicon_server.corpus.rows.terms import term_order, term_order_args
from lexicon_server.errors import InvalidArgument
from lexicon_server.query.arguments import MAX_TEXT_CHARS, check_language, check_text
from lexicon_server.query.headwords import best_first

_STRIPPED = " \t\n\r\x0b\x0c" + "".join(
    chr(c)
    for c in range(0x80, sys.maxunicode + 1)
    if chr(c).isspace() and unicodedata.category(chr(c)) != "Cc"
)


def _reference_check_text(value: str, max_chars: int = MAX_TEXT_CHARS) -> str | None:
    """The rule written plainly (one category look-up per character): the text stripped of
    whitespace other than controls (ASCII whitespace excepted), or None when it is refused."""
    stripped = value.strip(_STRIPPED)
    if not stripped or len(stripped) > max_chars:
        return None
    if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in stripped):
        return None
    return stripped


def _ours(value: str, max_chars: int = MAX_TEXT_CHARS) -> str | None:
    try:
        return check_text("word", value, max_chars)
    except InvalidArgument:
        return None


def test_every_code_point_alone_and_inside_a_word() -> None:
    differ = []
    for point in range(sys.maxunicode + 1):
        ch = chr(point)
        for text in (ch, f"a{ch}b", f"{ch}word"):
            if _ours(text) != _reference_check_text(text):
                differ.append((hex(point), text))
    assert differ == []


@pytest.mark.parametrize(
    "text",
    [
        "dog",
        "  dog  ",
        "ice cream",
        "ice\tcream",
        "\tdog\n",
        "dog\x00",
        "do\x7fg",
        "do\x85g",
        "do\u0085g",
        "café",
        "naïve",
        "Straße",
        "non\u00a0breaking",
        "\u00a0dog\u00a0",
        "zero\u200bwidth",
        "soft\u00adhyphen",
        "rtl\u200fmark",
        "line\u2028sep",
        "para\u2029sep",
        "ideo\u3000space",
        "private\ue000use",
        "unassigned\u0378",
        "lone\ud800surrogate",
        "\udfff",
        "pair\ud83d\ude00",
        "emoji 😀",
        "family 👨\u200d👩\u200d👧",
        "flag 🇫🇷",
        "日本語",
        "한국어",
        "Ελληνικά",
        "",
        " ",
        "\t\n",
        "\u00a0",
        "x" * MAX_TEXT_CHARS,
        "x" * (MAX_TEXT_CHARS + 1),
        " " + "x" * MAX_TEXT_CHARS + " ",
    ],
)
def test_same_answer_as_the_per_character_rule(text: str) -> None:
    assert _ours(text) == _reference_check_text(text)


@pytest.mark.parametrize(
    ("text", "accepted"),
    [
        ("dog", True),
        ("ice\tcream", False),
        ("lone\ud800surrogate", False),
        ("non\u00a0breaking", True),
        ("zero\u200bwidth", True),
        ("emoji 😀", True),
    ],
)
def test_control_characters_and_surrogates_are_refused(text: str, accepted: bool) -> None:
    assert (_ours(text) is not None) is accepted


def test_refusal_names_the_parameter_and_the_value() -> None:
    with pytest.raises(InvalidArgument) as info:
        check_text("word", "bad\x00word")
    assert info.value.parameter == "word"


@pytest.mark.parametrize(
    ("value", "tag"),
    [("en", "en"), (" EN ", "en"), ("pt_BR", "pt-br"), ("zh-min-nan", "zh-min-nan")],
)
def test_language_tags_are_normalised_and_stay_so_when_asked_again(value: str, tag: str) -> None:
    assert check_language("language", value) == tag
    assert check_language("language", value) == tag


@pytest.mark.parametrize("value", ["", "e", "english", "en-", "??", "12", "en us"])
def test_bad_language_tags_are_refused_every_time(value: str) -> None:
    for _ in range(2):
        with pytest.raises(InvalidArgument):
            check_language("language", value)


@pytest.mark.parametrize(
    ("word", "terms", "first"),
    [
        ("be", [(1, "Be"), (2, "be")], 2),  # the same spelling first
        ("Be", [(1, "Be"), (2, "be")], 1),
        ("in", [(1, "IN"), (2, "In"), (3, "in")], 3),
        ("day", [(1, "Day"), (2, "day")], 2),
        ("DAY", [(1, "Day"), (2, "day")], 2),  # no same spelling: the lower-case term
        ("cat", [(1, "cat")], 1),
        ("paris", [(1, "Paris"), (2, "PARIS")], 1),  # nothing in lower case: ids
    ],
)
def test_the_term_spelled_as_asked_comes_first(
    word: str, terms: list[tuple[int, str]], first: int
) -> None:
    ordered = best_first(terms, word)
    assert ordered[0][0] == first
    # the others keep their id order
    assert [t[0] for t in ordered[1:]] == sorted(t[0] for t in terms if t[0] != first)
    assert term_order_args([t[0] for t in ordered]) == ((first,) if len(terms) > 1 else ())
    assert term_order("e.term_id", len(terms)) == ("e.term_id <> ?, " if len(terms) > 1 else "")
