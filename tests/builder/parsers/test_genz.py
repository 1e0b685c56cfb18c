"""Gen-Z slang reader and its filter, on a slice of the real base_slang.json (pyass-genz 2025.1.0).

The slice holds the file's 145 hand-written objects and every 100th object after them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lexicon_server.builder.parsers._io import ParseError
from lexicon_server.builder.parsers.genz import is_hand_written, iter_entries


@pytest.fixture(scope="module")
def path(fixtures: Path) -> Path:
    return fixtures / "genz" / "base_slang.json"


def test_filter_keeps_the_hand_written_entries(path: Path) -> None:
    kept = list(iter_entries(path))
    assert len(kept) == 145
    assert kept[0].term == "rizz" and kept[0].definition == "Charisma, especially in flirting."
    assert all("mutated" not in e.definition and "_" not in e.term for e in kept)
    assert len({e.definition for e in kept}) == 145
    hygge = [e.definition for e in kept if e.term == "hygge"]
    assert hygge == ["Cozy Scandinavian lifestyle.", "Danish coziness."]  # 'hygge_405' folded


def test_what_is_dropped(path: Path) -> None:
    everything = list(iter_entries(path, hand_written_only=False))
    dropped = everything[145:]
    assert len(everything) == 193 and dropped
    assert all(e.definition.endswith("variant)") for e in dropped)
    kept_definitions = {e.definition for e in iter_entries(path)}
    # Every generated object repeats a hand-written definition with the marker appended.
    for entry in dropped:
        base = entry.definition.rsplit(" (mutated", 1)[0]
        assert base in kept_definitions


def test_is_hand_written_reads_only_the_definition() -> None:
    assert is_hand_written({"term": "cap", "definition": "A lie."})
    assert not is_hand_written(
        {"term": "cap 2.0_534", "definition": "A lie. (mutated 2021Q3 variant)"}
    )


@pytest.mark.parametrize(
    ("document", "what"),
    [
        ({"term": "x"}, "expected a JSON array"),
        ([{"term": "cap"}], "object 1 lacks a 'term' or 'definition'"),
    ],
)
def test_malformed_files(tmp_path: Path, document: object, what: str) -> None:
    bad = tmp_path / "base_slang.json"
    bad.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(ParseError, match=f"base_slang\\.json:\\d+: {what}"):
        list(iter_entries(bad))


def test_truncated_file(path: Path, tmp_path: Path) -> None:
    cut = tmp_path / "base_slang.json"
    cut.write_text(path.read_text(encoding="utf-8")[:5000], encoding="utf-8")
    with pytest.raises(ParseError, match=r"base_slang\.json:\d+: not valid JSON"):
        list(iter_entries(cut))
