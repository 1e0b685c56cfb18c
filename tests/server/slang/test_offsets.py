"""Offsets in UTF-16 code units and in code points, on text with emoji and combining marks."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lexicon_server.slang import ProjectGlossary, interpret, rewrite
from lexicon_server.slang.offsets import Utf16Index, utf16_len


def js_slice(text: str, start: int, end: int) -> str:
    """What JavaScript's String.prototype.slice returns for UTF-16 offsets."""
    units = text.encode("utf-16-le")
    return units[2 * start : 2 * end].decode("utf-16-le")


# 👍🏽 is two astral code points (4 UTF-16 units); "e\u0301" is e + combining acute;
# 👨‍👩‍👧 is a ZWJ sequence of five code points and eight UTF-16 units.
TEXT = "👍🏽 no cap, cafe\u0301 fr 👨‍👩‍👧 FR!"


def test_utf16_len() -> None:
    assert utf16_len("abc") == 3
    assert utf16_len("😀") == 2
    assert utf16_len("e\u0301") == 2
    assert utf16_len(TEXT) == len(TEXT.encode("utf-16-le")) // 2


def test_rewrite_offsets_slice_back_in_both_units() -> None:
    result = rewrite(TEXT, [("no cap", "honestly"), ("fr", "for real"), ("cafe", "shop")])
    # "cafe" is followed by a combining mark, so it is not a whole word and is left alone.
    assert [r.text for r in result.replacements] == ["no cap", "fr", "FR"]
    for r in result.replacements:
        assert TEXT[r.code_point_start : r.code_point_end] == r.text
        assert js_slice(TEXT, r.start, r.end) == r.text
    first = result.replacements[0]
    assert (first.code_point_start, first.start) == (3, 5)  # 2 astral chars before it
    last = result.replacements[-1]
    assert last.start - last.code_point_start == 2 + 3  # 👍🏽 and the family's 3 astral chars
    assert result.output == "👍🏽 honestly, cafe\u0301 for real 👨‍👩‍👧 for real!"


def test_interpret_offsets_slice_back_in_both_units(tmp_path) -> None:  # type: ignore[no-untyped-def]
    result = interpret(TEXT, ["fr", "café"], glossary=ProjectGlossary(tmp_path / "g.jsonl"))
    fr, cafe = result.entries
    assert [o.text for o in fr.occurrences] == ["fr", "FR"]
    for o in fr.occurrences:
        assert TEXT[o.code_point_start : o.code_point_end] == o.text
        assert js_slice(TEXT, o.start, o.end) == o.text
    # The precomposed é (one code point) does not match e + combining acute (two).
    assert cafe.status == "not_in_text"


def test_phrase_with_combining_mark_matches_the_same_sequence() -> None:
    result = rewrite("un cafe\u0301 noir", [("cafe\u0301", "coffee")])
    (r,) = result.replacements
    assert (r.code_point_start, r.code_point_end, r.start, r.end) == (3, 8, 3, 8)
    assert result.output == "un coffee noir"


def test_index_round_trip_and_refuses_inside_surrogate_pair() -> None:
    index = Utf16Index.of("a😀b")
    assert [index.to_utf16(i) for i in range(4)] == [0, 1, 3, 4]
    assert [index.to_code_point(u) for u in (0, 1, 3, 4)] == [0, 1, 2, 3]
    with pytest.raises(IndexError):
        index.to_code_point(2)
    with pytest.raises(IndexError):
        index.to_utf16(5)


PIECES = ["a", " ", "é", "😀", "e\u0301", "b", "_", "-"]


@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join))
def test_every_replacement_slices_back(text: str) -> None:
    result = rewrite(text, [("a", "X"), ("a b", "Y"), ("😀", "smile")])
    for r in result.replacements:
        assert text[r.code_point_start : r.code_point_end] == r.text
        assert js_slice(text, r.start, r.end) == r.text
    # Reassembling from the offsets gives the output.
    pieces, cursor = [], 0
    for r in result.replacements:
        pieces += [text[cursor : r.code_point_start], r.replacement]
        cursor = r.code_point_end
    assert "".join([*pieces, text[cursor:]]) == result.output
