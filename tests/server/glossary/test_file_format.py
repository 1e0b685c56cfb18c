"""The file format: a bad file fails at start-up naming file, line and reason."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from mcp.server.mcpserver import MCPServer

from lexicon_server.glossary import Glossary, GlossaryFormatError
from lexicon_server.glossary.tools import register

GOOD = '{"term":"Alpha","description":"First."}\n'

BAD_FILES = [
    ("invalid_json", GOOD + '{"term":"Beta","description":"x"\n', 2, "invalid JSON"),
    ("empty_term", GOOD + "\n" + '{"term":"","description":"x"}\n', 3, "empty term"),
    ("blank_term", GOOD + '{"term":"  ;. ","description":"x"}\n', 2, "empty term"),
    ("empty_description", GOOD + '{"term":"Beta","description":""}\n', 2, "empty description"),
    ("blank_description", GOOD + '{"term":"Beta","description":" \\n "}\n', 2, "empty description"),
    (
        "duplicate",
        GOOD + '{"term":"Beta","description":"x"}\n{"term":" ALPHA ","description":"y"}\n',
        3,
        "line 1",
    ),
    (
        "duplicate_umlaut",
        '{"term":"Größe","description":"x"}\n{"term":"groesse","description":"y"}\n',
        2,
        "duplicate term",
    ),
    ("not_an_object", GOOD + '["Beta","x"]\n', 2, "expected a JSON object"),
    ("missing_description", GOOD + '{"term":"Beta"}\n', 2, "description is missing"),
    (
        "term_not_string",
        GOOD + '{"term":3,"description":"x"}\n',
        2,
        "term is missing or not a string",
    ),
    (
        "unknown_field",
        GOOD + '{"term":"Beta","description":"x","tags":[]}\n',
        2,
        "unknown field(s) tags",
    ),
]


def _write(tmp_path: Path, content: str | bytes) -> Path:
    path = tmp_path / "glossary.jsonl"
    if isinstance(content, str):
        content = content.encode("utf-8")
    path.write_bytes(content)
    return path


@pytest.mark.parametrize(
    ("name", "content", "line", "reason"), BAD_FILES, ids=[b[0] for b in BAD_FILES]
)
def test_bad_file_fails_with_line(
    tmp_path: Path, name: str, content: str, line: int, reason: str
) -> None:
    path = _write(tmp_path, content)
    with pytest.raises(GlossaryFormatError) as caught:
        Glossary(path).load()
    error = caught.value
    assert error.line == line
    assert reason in error.reason
    assert f"{path}:{line}" in str(error)
    assert "lexicon-glossary" in str(error)  # says how to re-check after fixing


@pytest.mark.parametrize(
    ("name", "content", "line", "reason"), BAD_FILES, ids=[b[0] for b in BAD_FILES]
)
def test_register_refuses_bad_file_at_startup(
    tmp_path: Path, name: str, content: str, line: int, reason: str
) -> None:
    path = _write(tmp_path, content)
    server: MCPServer = MCPServer("t")
    with pytest.raises(GlossaryFormatError, match=rf"{path.name}:{line}: "):
        register(server, path, None)


def test_bom_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, b"\xef\xbb\xbf" + GOOD.encode())
    with pytest.raises(GlossaryFormatError, match="byte order mark") as caught:
        Glossary(path).load()
    assert caught.value.line == 1


def test_invalid_utf8_is_refused_with_line(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD.encode() + b'{"term":"B\xe4r","description":"x"}\n')
    with pytest.raises(GlossaryFormatError, match="not valid UTF-8") as caught:
        Glossary(path).load()
    assert caught.value.line == 2


def test_blank_lines_and_crlf_are_accepted(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "\r\n"
        + GOOD.replace("\n", "\r\n")
        + "   \r\n\r\n"
        + '{"term":"Beta","description":"Second."}',
    )
    entries = Glossary(path).entries()
    assert [e.term for e in entries] == ["Alpha", "Beta"]


def test_missing_file_is_an_empty_glossary_created_on_first_write(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "glossary.jsonl"
    glossary = Glossary(path)
    assert glossary.entries() == []
    assert glossary.find("anything") == []
    assert glossary.map() == []
    assert not path.exists()
    glossary.add("Alpha", "First.")
    assert path.read_text(encoding="utf-8") == GOOD


def test_written_file_is_utf8_without_bom_one_object_per_line(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    glossary = Glossary(path)
    glossary.add("Größe", "Maß der Dinge.\nZweite Zeile\u2028.")
    data = path.read_bytes()
    assert not data.startswith(b"\xef\xbb\xbf")
    assert "Größe".encode() in data  # readable in diffs, not \\u-escaped
    lines = data.decode("utf-8").splitlines()  # str.splitlines also splits on U+2028
    assert len(lines) == 1
    assert json.loads(lines[0])["description"] == "Maß der Dinge.\nZweite Zeile\u2028."


def test_check_command_reports_line(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD + '{"term":"","description":"x"}\n')
    done = subprocess.run(
        [sys.executable, "-m", "lexicon_server.glossary", "--file", str(path), "check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert f"{path}:2: empty term" in done.stderr


def test_missing_file_and_blank_lines_through_the_client(tmp_path: Path) -> None:
    from .conftest import call, glossary_server

    path = tmp_path / "new" / "glossary.jsonl"
    server = glossary_server(path)  # no file yet: starts as an empty glossary
    assert call(server, "glossary_find", {"query": "alpha"})[1] == {"results": []}
    assert call(server, "glossary_map", {})[1] == {"terms": []}
    assert not path.exists()
    description = "  Keeps  its Ä, spacing; and CASE.  "
    assert call(server, "glossary_add", {"term": "Alpha", "description": description})[1] == {
        "totalEntries": 1
    }
    assert json.loads(path.read_text(encoding="utf-8"))["description"] == description
    path.write_text("\n  \n" + path.read_text(encoding="utf-8") + "\n\n", encoding="utf-8")
    _, body, _ = call(server, "glossary_find", {"query": "ALPHA"})
    assert body["results"][0]["entry"] == {"term": "Alpha", "description": description}
