"""add, edit, delete: exact semantics, atomic replacement, untouched lines kept byte for byte."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from lexicon_server.glossary import Entry, Glossary, InvalidInput, TermExists, TermNotFound

from .conftest import call

# Hand-written formatting that a rewrite-everything implementation would normalize away.
HAND_WRITTEN = (
    '{ "term": "Alpha",  "description": "First \\u00e4." }\n'
    "\n"
    '{"description":"Second.","term":"Beta"}\n'
    "   \n"
    '{"term":"Gamma","description":"Third."}\n'
)


@pytest.fixture
def hand(tmp_path: Path) -> Path:
    path = tmp_path / "glossary.jsonl"
    path.write_bytes(HAND_WRITTEN.encode())
    return path


def test_add_appends_and_keeps_every_other_byte(hand: Path) -> None:
    result = Glossary(hand).add("Delta", "Fourth.")
    assert result.total_entries == 4
    assert (
        hand.read_bytes() == (HAND_WRITTEN + '{"term":"Delta","description":"Fourth."}\n').encode()
    )


def test_add_duplicate_returns_existing_and_writes_nothing(hand: Path) -> None:
    before = hand.read_bytes()
    with pytest.raises(TermExists) as caught:
        Glossary(hand).add("  beta ", "Other.")
    assert caught.value.existing == Entry("Beta", "Second.")
    assert hand.read_bytes() == before


def test_edit_replaces_only_that_line_and_keeps_spelling(hand: Path) -> None:
    result = Glossary(hand).edit("BETA", "Second, sharper.")
    assert result.total_entries == 3 and result.changed
    assert (
        hand.read_bytes()
        == HAND_WRITTEN.replace(
            '{"description":"Second.","term":"Beta"}',
            '{"term":"Beta","description":"Second, sharper."}',
        ).encode()
    )


def test_edit_with_same_description_writes_nothing(hand: Path) -> None:
    before = os.stat(hand)
    result = Glossary(hand).edit("gamma", "Third.")
    assert not result.changed and result.total_entries == 3
    assert os.stat(hand).st_ino == before.st_ino  # not even replaced


def test_edit_unknown_term(hand: Path) -> None:
    before = hand.read_bytes()
    with pytest.raises(TermNotFound):
        Glossary(hand).edit("Alph", "x")  # no fuzzy or prefix matching
    assert hand.read_bytes() == before


def test_delete_removes_exactly_one_line(hand: Path) -> None:
    result = Glossary(hand).delete("alpha")
    assert result.total_entries == 2
    assert result.deleted == Entry("Alpha", "First ä.")
    assert hand.read_bytes() == HAND_WRITTEN.split("\n", 1)[1].encode()


def test_delete_is_not_fuzzy(hand: Path) -> None:
    before = hand.read_bytes()
    for near_miss in ("alph", "alphas", "Alpha Beta", "a"):
        with pytest.raises(TermNotFound):
            Glossary(hand).delete(near_miss)
    assert hand.read_bytes() == before


def test_crlf_file_stays_crlf_and_no_final_newline_is_fixed(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_bytes(b'{"term":"A","description":"a"}\r\n{"term":"B","description":"b"}')
    Glossary(path).add("C", "c")
    assert path.read_bytes() == (
        b'{"term":"A","description":"a"}\r\n{"term":"B","description":"b"}\r\n'
        b'{"term":"C","description":"c"}\r\n'
    )
    Glossary(path).edit("b", "bb")
    assert b'{"term":"B","description":"bb"}\r\n' in path.read_bytes()


def test_write_keeps_permissions_and_leaves_no_temp_files(hand: Path) -> None:
    os.chmod(hand, 0o640)
    Glossary(hand).add("Delta", "x")
    Glossary(hand).delete("Delta")
    assert stat.S_IMODE(os.stat(hand).st_mode) == 0o640
    assert sorted(p.name for p in hand.parent.iterdir()) == ["glossary.jsonl"]


def test_write_through_a_symlink_keeps_the_link(tmp_path: Path, hand: Path) -> None:
    link = tmp_path / "link.jsonl"
    link.symlink_to(hand)
    Glossary(link).add("Delta", "x")
    assert link.is_symlink()
    assert b"Delta" in hand.read_bytes()


def test_failed_write_leaves_the_file_as_it_was(hand: Path) -> None:
    # A file size limit makes writing the temp file fail half way (works even as root).
    before = hand.read_bytes()
    script = f"""
import resource, signal, sys
from pathlib import Path
from lexicon_server.glossary import Glossary
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, ({len(before) + 20}, {len(before) + 20}))
try:
    Glossary(Path({str(hand)!r})).add("Delta", "x" * 5000)
except OSError as exc:
    print("failed:", exc.errno)
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.startswith("failed:"), done.stdout + done.stderr
    assert hand.read_bytes() == before
    assert sorted(p.name for p in hand.parent.iterdir()) == ["glossary.jsonl"]


@pytest.mark.parametrize(
    ("term", "description", "parameter"),
    [
        ("", "x", "term"),
        (" ;. ", "x", "term"),
        ("T" * 201, "x", "term"),
        ("Ok", "  ", "description"),
        ("Ok", "x" * 10_001, "description"),
    ],
)
def test_bad_input_is_refused(hand: Path, term: str, description: str, parameter: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        Glossary(hand).add(term, description)
    assert caught.value.parameter == parameter


def test_writes_through_the_client(hand: Path) -> None:
    assert call(hand, "glossary_add", {"term": " Delta ", "description": "Fourth."}) == (
        False,
        {"totalEntries": 4},
        '{"totalEntries":4}',  # compact, as every tool's text content
    )
    is_error, body, _ = call(hand, "glossary_add", {"term": "delta", "description": "Again."})
    assert is_error
    assert body == {
        "existingEntry": {"term": "Delta", "description": "Fourth."},
        "error": {"reason": "term_exists", "message": "exists already"},
    }
    assert call(hand, "glossary_edit", {"term": "DELTA", "description": "New."})[:2] == (
        False,
        {"totalEntries": 4},
    )
    assert call(hand, "glossary_edit", {"term": "Epsilon", "description": "New."})[:2] == (
        True,
        {"error": {"reason": "term_not_found", "message": "term not found"}},
    )
    assert call(hand, "glossary_delete", {"term": "delta"})[:2] == (
        False,
        {"totalEntries": 3, "deletedEntry": {"term": "Delta", "description": "New."}},
    )
    assert call(hand, "glossary_delete", {"term": "delta"})[:2] == (
        True,
        {"error": {"reason": "term_not_found", "message": "term not found"}},
    )
    assert hand.read_bytes() == HAND_WRITTEN.encode()


def test_bad_write_input_is_a_tool_error(hand: Path) -> None:
    is_error, body, text = call(hand, "glossary_add", {"term": "  ", "description": "x"})
    assert is_error and body["error"]["reason"] == "invalid_argument" and "term" in text
    is_error, _, text = call(hand, "glossary_edit", {"term": "Alpha", "description": ""})
    assert is_error and "description" in text
