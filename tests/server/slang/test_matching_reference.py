"""The one-pass matcher against a brute-force reading of the rules, on generated text."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from lexicon_server.slang import rewrite
from lexicon_server.slang.phrases import find_occurrences


def glued(ch: str) -> bool:
    return ch == "_" or unicodedata.category(ch)[0] in "LNM"


def reference(text: str, phrases: list[str]) -> list[tuple[int, int, str]]:
    """Position by position: the longest phrase equal (ignoring ASCII case) and bounded."""
    found, i = [], 0
    while i < len(text):
        best = None
        for p in phrases:
            j = i + len(p)
            if text[i:j].lower() != p.lower():
                continue
            if (i > 0 and glued(text[i - 1])) or (j < len(text) and glued(text[j])):
                continue
            if best is None or len(p) > len(best):
                best = p
        if best is None:
            i += 1
        else:
            found.append((i, i + len(best), best))
            i += len(best)
    return found


CHARS = ["a", "b", "A", " ", "\u0301", "_", "1", "-", "😀"]
text_st = st.lists(st.sampled_from(CHARS), max_size=30).map("".join)
phrase_st = st.lists(st.sampled_from(["a", "b", " ", "-", "😀", "1"]), min_size=1, max_size=4).map(
    "".join
)


@settings(max_examples=300, deadline=None)
@given(text_st, st.lists(phrase_st, min_size=1, max_size=5))
def test_rewrite_agrees_with_the_reference(text: str, phrases: list[str]) -> None:
    unique: dict[str, str] = {}
    for p in phrases:
        if p.strip() == p and p.lower() not in unique:
            unique[p.lower()] = p
    if not unique:
        return
    pairs = [(p, f"<{i}>") for i, p in enumerate(unique.values())]
    result = rewrite(text, pairs)
    got = [(r.code_point_start, r.code_point_end, r.text.lower()) for r in result.replacements]
    want = [(s, e, p.lower()) for s, e, p in reference(text, list(unique.values()))]
    assert got == want


@settings(max_examples=200, deadline=None)
@given(text_st, phrase_st)
def test_occurrences_agree_with_the_reference(text: str, phrase: str) -> None:
    if phrase.strip() != phrase:
        return
    got = [(o.code_point_start, o.code_point_end) for o in find_occurrences(text, phrase)]
    assert got == [(s, e) for s, e, _ in reference(text, [phrase])]


def test_shorter_phrase_fits_where_the_longer_touches_a_mark() -> None:
    result = rewrite("no cap\u0301 here", [("no cap", "honestly"), ("no", "nope")])
    assert result.output == "nope cap\u0301 here"


def test_mark_before_the_start_blocks_every_phrase() -> None:
    assert rewrite("e\u0301fr", [("fr", "for real")]).replacements == ()
    assert rewrite("\u0301fr", [("fr", "for real"), ("f", "F")]).replacements == ()
