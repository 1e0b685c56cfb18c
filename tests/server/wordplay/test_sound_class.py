"""The sound classes that rank near rhymes (docs/wordplay.md)."""

from __future__ import annotations

import pytest

from lexicon_server.corpus.rhyme_walk import SOUND_CLASSES, sound_class

SUB, INS, DEL = 1, 2, 3


@pytest.mark.parametrize(
    ("query", "rhyme", "edit", "expected"),
    [
        ("AE1 T", "AE1 P", SUB, "vowel_kept"),  # cat -> cap
        ("AE1 T", "AE1 B", SUB, "vowel_kept"),  # cat -> cab
        ("AE1 T", "AE1 CH", SUB, "vowel_kept"),  # cat -> catch
        ("AE1 T", "AE1 T S", INS, "vowel_kept"),  # cat -> cats
        ("AE1 T", "AE1", DEL, "vowel_kept"),  # cat -> yeah
        ("AE1 T", "AH1 T", SUB, "stressed_vowel_changed"),  # cat -> cut
        ("AE1 T", "AE2 T", SUB, "stressed_vowel_changed"),  # the stress of that vowel
        ("EY1 T OW2", "EY1 T AH0", SUB, "unstressed_vowel_changed"),  # tomato -> potato-ish
        ("EY1 T OW2", "EY1 T OW0", SUB, "unstressed_vowel_changed"),  # stress only
        ("EY1 T", "EY1 T AH0", INS, "unstressed_vowel_changed"),  # an added vowel
        ("EY1 T AH0 D", "EY1 T D", DEL, "unstressed_vowel_changed"),  # a dropped vowel
        ("AE1 T T", "AE1 T", DEL, "vowel_kept"),  # a repeated consonant dropped
    ],
)
def test_classes(query: str, rhyme: str, edit: int, expected: str) -> None:
    assert SOUND_CLASSES[sound_class(query, rhyme, edit)] == expected


def test_perfect_is_class_zero() -> None:
    assert SOUND_CLASSES[sound_class("AE1 T", "AE1 T", 0)] == "perfect"
