"""A FreeDict dictionary is parsed once per build and read back the same by the other stage."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lexicon_server.builder import shared_parses as shared_parses_module
from lexicon_server.builder.parsers import dictd
from lexicon_server.builder.parsers._io import ParseError
from lexicon_server.builder.records import BilingualEntry
from lexicon_server.builder.shared_parses import bilingual_entries, shared_parses

FREEDICT = Path(__file__).parents[1] / "fixtures" / "freedict"


class _CountingParse:
    """The real parse of the eng-deu slice, counting how often it is asked for."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> Iterator[BilingualEntry]:
        self.calls += 1
        base = FREEDICT / "freedict-eng-deu"
        return dictd.iter_entries(f"{base}.index", f"{base}.dict.dz", ("en", "de"))


def test_the_second_reader_gets_the_same_entries_without_parsing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shared_parses_module, "_BLOCK", 7)  # several blocks from the slice
    parse = _CountingParse()
    with shared_parses(tmp_path):
        first = list(bilingual_entries("freedict-eng-deu", "sha256:a", parse))
        second = list(bilingual_entries("freedict-eng-deu", "sha256:a", parse))
    assert parse.calls == 1
    assert len(first) > 30
    assert second == first
    assert [p.suffix for p in tmp_path.iterdir()] == [".marshal"], "no temporaries left"


def test_a_changed_source_is_parsed_afresh(tmp_path: Path) -> None:
    parse = _CountingParse()
    with shared_parses(tmp_path):
        list(bilingual_entries("freedict-eng-deu", "sha256:a", parse))
        list(bilingual_entries("freedict-eng-deu", "sha256:b", parse))
    assert parse.calls == 2


def test_outside_a_build_nothing_is_kept(tmp_path: Path) -> None:
    parse = _CountingParse()
    list(bilingual_entries("freedict-eng-deu", "sha256:a", parse))
    list(bilingual_entries("freedict-eng-deu", "sha256:a", parse))
    assert parse.calls == 2


def test_a_reader_that_stops_early_leaves_no_copy(tmp_path: Path) -> None:
    parse = _CountingParse()
    with shared_parses(tmp_path):
        entries = bilingual_entries("freedict-eng-deu", "sha256:a", parse)
        next(entries)
        entries.close()
        assert list(tmp_path.iterdir()) == []
        assert len(list(bilingual_entries("freedict-eng-deu", "sha256:a", parse))) > 30
    assert parse.calls == 2


def test_a_failing_parse_keeps_nothing_and_says_where(tmp_path: Path) -> None:
    index = tmp_path / "cut.index"
    index.write_text("house\tA\tZZ\n", encoding="utf-8")  # 25 bytes at 0, in a 5-byte file
    (tmp_path / "cut.dict").write_text("house", encoding="utf-8")

    def parse() -> Iterator[BilingualEntry]:
        return dictd.iter_entries(index, tmp_path / "cut.dict", ("en", "de"))

    kept = tmp_path / "parsed"
    with shared_parses(kept), pytest.raises(ParseError, match="past the end"):
        list(bilingual_entries("freedict-cut", "sha256:a", parse))
    assert not kept.exists() or list(kept.iterdir()) == []


def test_a_build_removes_its_parsed_copies(sample_dataset: Path) -> None:
    assert not (sample_dataset / ".build" / "parsed").exists()
