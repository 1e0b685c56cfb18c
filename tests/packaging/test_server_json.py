"""server.json (the MCP registry's description of Lexicon) is valid and agrees with the code."""

from __future__ import annotations

import copy
import hashlib
import json
import re
import tomllib
from pathlib import Path
from typing import Any

from jsonschema import Draft7Validator

from lexicon_server.config import load_config

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).parent
# The committed copy (see server.schema.NOTICE.md); a change to it must be deliberate.
SCHEMA_SHA256 = "961367942c3b30194be0b55ce0ed6af8a9594aaff07480f9cbdae88ca5695a97"


def _schema() -> dict[str, Any]:
    raw = (HERE / "server.schema.json").read_bytes()
    assert hashlib.sha256(raw).hexdigest() == SCHEMA_SHA256
    schema: dict[str, Any] = json.loads(raw)
    return schema


def _server() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((ROOT / "server.json").read_text(encoding="utf-8"))
    return data


def _errors(doc: dict[str, Any]) -> list[str]:
    validator = Draft7Validator(_schema(), format_checker=Draft7Validator.FORMAT_CHECKER)
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(doc)
    ]


def test_server_json_is_valid_against_the_published_schema() -> None:
    doc = _server()
    assert _errors(doc) == []
    assert doc["$schema"] == _schema()["$id"]


def test_the_schema_copy_really_rejects() -> None:
    """The validator is live: the registry's own rules (no `latest`, one slash) bite."""
    doc = _server()
    latest = copy.deepcopy(doc)
    latest["packages"][0]["version"] = "latest"
    assert _errors(latest)
    no_slash = dict(doc, name="lexicon")
    assert _errors(no_slash)


def test_package_matches_pyproject() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    doc = _server()
    assert doc["version"] == project["version"]
    [package] = doc["packages"]
    assert package["registryType"] == "pypi"
    assert package["identifier"] == project["name"] == "lexicon-mcp"
    assert package["version"] == project["version"]
    assert package["transport"] == {"type": "stdio"}
    # `uvx lexicon-mcp` runs the console script of the same name.
    assert project["scripts"]["lexicon-mcp"] == "lexicon_server.cli:main"


def test_environment_variables_are_those_the_server_reads() -> None:
    source = (ROOT / "lexicon_server" / "config.py").read_text(encoding="utf-8")
    read = set(re.findall(r"""env\.get\(\s*["']([A-Z_]+)["']""", source))
    assert read, "config.py reads no variables? the pattern is out of date"
    [package] = _server()["packages"]
    declared = {v["name"]: v for v in package["environmentVariables"]}
    assert set(declared) == read
    defaults = load_config({})
    assert declared["URBAN_DICTIONARY_API_BASE"]["default"] == defaults.urban_dictionary_base
    timeout = declared["URBAN_DICTIONARY_TIMEOUT_MS"]["default"]
    assert int(timeout) == defaults.urban_dictionary_timeout_ms


def test_readme_carries_the_registry_ownership_marker() -> None:
    """The registry checks that the PyPI package's description names the server."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"mcp-name: {_server()['name']}" in readme
