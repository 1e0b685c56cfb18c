"""The file is the truth: outside changes are seen and kept; a broken file is reported."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from lexicon_server.glossary import Glossary, GlossaryFormatError

from .conftest import glossary_server, outcome, run


def _session_calls(path: Path, steps: list[Any]) -> list[tuple[bool, Any, str]]:
    """Run tool calls in one client session, with plain-Python file edits in between."""
    server = glossary_server(path)
    out: list[tuple[bool, Any, str]] = []

    async def go() -> None:
        async with Client(server) as client:
            for step in steps:
                if callable(step):
                    step()
                    continue
                name, arguments = step
                result = await client.call_tool(name, arguments)
                out.append(outcome(result))

    run(go)
    return out


def _append(path: Path, line: str) -> None:
    with path.open("a", encoding="utf-8") as handle:
        handle.write(line + "\n")


def test_change_between_calls_is_seen(gpath: Path) -> None:
    results = _session_calls(
        gpath,
        [
            ("glossary_find", {"query": "kanban"}),
            lambda: _append(gpath, '{"term":"Kanban","description":"Pull signal."}'),
            ("glossary_find", {"query": "kanban"}),
            ("glossary_map", {"term": "kanban"}),
        ],
    )
    assert results[0][1] == {"results": []}
    assert results[1][1]["results"][0]["entry"]["term"] == "Kanban"
    assert results[2][1] == {"terms": [{"term": "Kanban", "mentionedIn": []}]}


def test_outside_edit_is_never_overwritten(gpath: Path) -> None:
    results = _session_calls(
        gpath,
        [
            ("glossary_find", {"query": "batch"}),  # the server has read and cached the file
            lambda: _append(gpath, '{"term":"Kanban","description":"Pull signal."}'),
            ("glossary_add", {"term": "Takt", "description": "Rhythm of production."}),
            lambda: _append(gpath, '{"term":"Andon","description":"Stop signal."}'),
            ("glossary_edit", {"term": "kanban", "description": "Pull signal card."}),
            ("glossary_add", {"term": "andon", "description": "dup"}),
        ],
    )
    assert results[1][1] == {"totalEntries": 6}
    assert results[2][1] == {"totalEntries": 7}
    assert results[3][0] and results[3][1]["existingEntry"]["term"] == "Andon"
    terms = [e.term for e in Glossary(gpath).entries()]
    assert terms[-3:] == ["Kanban", "Takt", "Andon"]
    assert Glossary(gpath).entries()[-3].description == "Pull signal card."


def test_same_size_rewrite_with_same_mtime_is_seen(gpath: Path) -> None:
    glossary = Glossary(gpath)
    assert glossary.entries()[0].description.startswith("Formal")
    before = os.stat(gpath)
    data = gpath.read_bytes().replace(b"Formal", b"FORMAL")
    with gpath.open("r+b") as handle:  # in place, like some editors: same inode, same size
        handle.write(data)
    os.utime(gpath, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert glossary.entries()[0].description.startswith("FORMAL")


def test_file_turned_invalid_is_reported_and_not_rewritten(gpath: Path) -> None:
    broken = gpath.read_text(encoding="utf-8") + '{"term":"Oops","description":""}\n'

    def break_file() -> None:
        gpath.write_text(broken, encoding="utf-8")

    def fix_file() -> None:
        gpath.write_text(broken.replace('"description":""', '"description":"Fixed."'), "utf-8")

    on_disk: list[str] = []
    results = _session_calls(
        gpath,
        [
            ("glossary_find", {"query": "batch"}),
            break_file,
            ("glossary_find", {"query": "batch"}),
            ("glossary_map", {}),
            ("glossary_add", {"term": "New", "description": "x"}),
            ("glossary_edit", {"term": "Batch Release", "description": "x"}),
            ("glossary_delete", {"term": "Batch Release"}),
            lambda: on_disk.append(gpath.read_text(encoding="utf-8")),
            fix_file,
            ("glossary_delete", {"term": "oops"}),
        ],
    )
    assert not results[0][0]
    for is_error, body, text in results[1:6]:
        assert is_error and body["error"]["reason"] == "glossary_error"
        assert f"{gpath}:5: empty description" in text
    assert on_disk == [broken]  # no write touched the broken file
    assert results[6][1]["deletedEntry"] == {"term": "Oops", "description": "Fixed."}


def test_library_reports_invalid_file_on_next_call(gpath: Path) -> None:
    glossary = Glossary(gpath)
    glossary.find("batch")
    gpath.write_text('{"term":"A","description":"a"}\nnot json\n', encoding="utf-8")
    with pytest.raises(GlossaryFormatError) as caught:
        glossary.add("B", "b")
    assert caught.value.line == 2
    assert gpath.read_text(encoding="utf-8").endswith("not json\n")


def test_deleted_file_is_an_empty_glossary_again(gpath: Path) -> None:
    glossary = Glossary(gpath)
    assert len(glossary.entries()) == 4
    gpath.unlink()
    assert glossary.entries() == []
    assert glossary.add("Fresh", "Start.").total_entries == 1
    assert gpath.read_text(encoding="utf-8") == '{"term":"Fresh","description":"Start."}\n'


def test_unreadable_file_is_a_tool_error(gpath: Path) -> None:
    def replace_with_directory() -> None:
        gpath.unlink()
        gpath.mkdir()

    results = _session_calls(
        gpath,
        [
            replace_with_directory,
            ("glossary_find", {"query": "batch"}),
            ("glossary_add", {"term": "New", "description": "x"}),
        ],
    )
    for is_error, body, text in results:
        assert is_error and body["error"]["reason"] == "glossary_unreadable"
        assert f"cannot access the glossary file {gpath}" in text
