"""The judged-sample script's score arithmetic: counts, shares, wrong classes, blanks."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[2] / "bench" / "translation_judged.py"
_SPEC = importlib.util.spec_from_file_location("translation_judged", _PATH)
assert _SPEC is not None and _SPEC.loader is not None
judged = importlib.util.module_from_spec(_SPEC)
sys.modules[_SPEC.name] = judged  # its dataclasses look their module up
_SPEC.loader.exec_module(judged)


def _row(word: str, judgement: str, cls: str = "") -> dict[str, str]:
    return {"word": word, "judgement": judgement, "class": cls}


def test_tally_counts_shares_and_classes() -> None:
    rows = [
        _row("a", "correct"),
        _row("b", "Correct "),
        _row("c", "acceptable"),
        _row("d", "wrong", "rare sense"),
        _row("e", "wrong", "rare sense"),
        _row("f", "wrong"),
        _row("g", "empty"),
        _row("h", ""),
    ]
    t = judged.tally(rows)
    assert t.judged == 7 and t.unjudged == 1
    assert t.counts["correct"] == 2
    assert t.share("correct") == pytest.approx(2 / 7)
    assert t.share("wrong", "empty") == pytest.approx(4 / 7)
    assert dict(t.classes) == {"rare sense": 2, "unclassed": 1}


def test_tally_counts_repeats_in_first_five() -> None:
    rows = [
        {"word": "a", "judgement": "correct", "first": "Haus", "next_four": "Heim | haus"},
        {"word": "b", "judgement": "correct", "first": "Hund", "next_four": "Rüde | Köter"},
        {"word": "c", "judgement": "empty", "first": "", "next_four": ""},
    ]
    assert judged.tally(rows).repeats == 1


def test_tally_rejects_unknown_judgement() -> None:
    with pytest.raises(ValueError, match="maybe"):
        judged.tally([_row("a", "maybe")])


def test_tsv_round_trip_keeps_blank_cells(tmp_path: Path) -> None:
    path = tmp_path / "de.tsv"
    judged.write_tsv(path, judged.COLUMNS, [("run", "verb", "laufen", "a | b", "", "", "")])
    (row,) = judged.read_tsv(path)
    assert row["first"] == "laufen" and row["next_four"] == "a | b" and row["judgement"] == ""
    assert judged.tally([row]).unjudged == 1
