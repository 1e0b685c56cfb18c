"""CLDR annotations (npm cldr-annotations-full 48.2.0) and Emojibase emoticons (npm
emojibase-data 17.0.0), on slices of their real JSON files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lexicon_server.builder.parsers._io import ParseError
from lexicon_server.builder.parsers.emoji import iter_annotations, iter_emoticons


def _annotations(fixtures: Path, locale: str) -> dict[str, tuple[str | None, tuple[str, ...]]]:
    path = fixtures / "cldr" / "annotations" / locale / "annotations.json"
    return {a.emoji: (a.name, a.keywords) for a in iter_annotations(path)}


def test_names_and_keywords(fixtures: Path) -> None:
    en = _annotations(fixtures, "en")
    name, keywords = en["😂"]
    assert name == "face with tears of joy" and "lol" in keywords
    assert en["🐱"] == ("cat face", ("animal", "cat", "face", "kitten", "kitty", "pet"))
    assert en["{"][0] == "open curly bracket"  # symbols are annotated too
    de = _annotations(fixtures, "de")
    assert de["🐱"][0] == "Katzengesicht"


def test_locale_comes_from_identity(fixtures: Path) -> None:
    path = fixtures / "cldr" / "annotations" / "en-GB" / "annotations.json"
    assert {a.locale for a in iter_annotations(path)} == {"en-GB"}


def test_locale_without_annotations_yields_nothing(fixtures: Path) -> None:
    assert _annotations(fixtures, "frr") == {}


def test_every_annotation_of_the_slice_is_read(fixtures: Path) -> None:
    path = fixtures / "cldr" / "annotations" / "en" / "annotations.json"
    raw = json.loads(path.read_text(encoding="utf-8"))["annotations"]["annotations"]
    parsed = list(iter_annotations(path))
    assert [a.emoji for a in parsed] == list(raw)
    assert all(a.keywords == tuple(raw[a.emoji].get("default", [])) for a in parsed)


def test_emoticons(fixtures: Path) -> None:
    rows = list(iter_emoticons(fixtures / "emojibase" / "en" / "data.json"))
    by_emoticon = {r.emoticon: r for r in rows}
    assert by_emoticon[":')"].emoji == "😂" and by_emoticon[":')"].hexcode == "1F602"
    assert by_emoticon["xD"].emoji == by_emoticon["XD"].emoji == "😆"  # a list in the source
    assert by_emoticon["<3"].label == "red heart"
    assert len(rows) == len(by_emoticon) == 64  # the release's 49 emoji, some with several


@pytest.mark.parametrize(
    ("text", "what"),
    [
        ('{"annotations": {"identity": {"language": "en"}, "annotations": {"a": 3}}}', "not an"),
        ('{"annotations": {"annotations": {}}}', "expected {'annotations'"),
        ('{"annotations": {"identity": {"language": "en"}, "annotations": {"a": {"tts": 5}}}}',
         "expected a string"),
        ('{"annotations": {"identity": {"language": "en"}', "not valid JSON"),
    ],
)  # fmt: skip
def test_malformed_cldr_files(tmp_path: Path, text: str, what: str) -> None:
    bad = tmp_path / "annotations.json"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(ParseError, match=f"annotations\\.json:\\d+: .*{what}"):
        list(iter_annotations(bad))


def test_truncated_emojibase_file(fixtures: Path, tmp_path: Path) -> None:
    cut = tmp_path / "data.json"
    data = (fixtures / "emojibase" / "en" / "data.json").read_bytes()
    cut.write_bytes(data[: data.index(b"}") + 1])  # ends inside the array
    with pytest.raises(ParseError, match=r"data\.json:1: not valid JSON"):
        list(iter_emoticons(cut))
