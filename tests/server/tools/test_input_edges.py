"""The issue's small edges: C1 controls and bounded language tags."""

from __future__ import annotations

import pytest

from lexicon_server.errors import InvalidArgument
from lexicon_server.query.common import MAX_LANGUAGE_TAG_CHARS, check_language, check_text


@pytest.mark.parametrize(
    "value",
    ["dog\u0085", "\u0085dog", "dog\u009b", "dog\u001f", "\u001cdog", "dog\u0080", "dog\x00"],
)
def test_c1_and_c0_controls_at_either_end_are_refused(value: str) -> None:
    with pytest.raises(InvalidArgument, match="without control characters"):
        check_text("word", value)


@pytest.mark.parametrize("value", [" dog ", "dog\t", "dog\n", "\u00a0dog\u3000", "dog\u2029"])
def test_ordinary_whitespace_is_still_stripped(value: str) -> None:
    assert check_text("word", value) == "dog"


def test_language_tags_are_bounded() -> None:
    issue_tag = "-".join(["en"] + ["abcdefgh"] * 29)  # 30 subtags, like the issue's
    assert len(issue_tag) > 250
    with pytest.raises(InvalidArgument, match="at most 6 subtags and 35 characters"):
        check_language("language", issue_tag)
    with pytest.raises(InvalidArgument):
        check_language("language", "en-ab-cd-ef-gh-ij-kl")  # 7 subtags
    longest = "zh-" + "-".join(["abcdefgh"] * 4)[: MAX_LANGUAGE_TAG_CHARS - 3]
    assert len(longest) <= MAX_LANGUAGE_TAG_CHARS
    assert check_language("language", longest) == longest
    assert check_language("language", "zh-min-nan") == "zh-min-nan"
