"""strict_arguments on a toy tool: what it changes in the schema, how it words refusals."""

from __future__ import annotations

import json
from typing import Annotated, Any

import anyio
import pytest
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import AfterValidator, Field, ValidationError

from lexicon_server.arguments import ArgumentError
from lexicon_server.sdk import strict_arguments


def _even(value: int) -> int:
    if value % 2:
        raise ValueError("must be even")
    return value


def toy(
    word: Annotated[str, Field(min_length=1, max_length=5, description="a short word")],
    count: Annotated[int, Field(ge=0, le=9, description="how many")] = 1,
    even: Annotated[int, AfterValidator(_even)] = 0,
    tags: list[str] | None = None,
) -> str:
    return f"{word}{count}"


def _server() -> MCPServer[Any]:
    server: MCPServer[Any] = MCPServer("toy")
    server.add_tool(toy)
    return server


def _refusal(server: MCPServer[Any], args: dict[str, Any]) -> ArgumentError:
    tool = server._tool_manager.get_tool("toy")
    assert tool is not None
    with pytest.raises(ArgumentError) as caught:
        tool.fn_metadata.validate_arguments(args)
    return caught.value


def _untitled(node: Any) -> Any:
    if isinstance(node, dict):
        return {
            k: _untitled(v) for k, v in node.items() if not (k == "title" and isinstance(v, str))
        }
    return [_untitled(v) for v in node] if isinstance(node, list) else node


def test_the_schema_only_gains_additional_properties_false_and_loses_titles() -> None:
    server = _server()
    tool = server._tool_manager.get_tool("toy")
    assert tool is not None
    before = dict(tool.parameters)
    assert "'title'" in repr(before)  # pydantic's, derived from the names
    strict_arguments(server, ["toy"])
    strict_arguments(server, ["toy"])  # a second call changes nothing
    untitled = _untitled(before)
    # ... and a parameter whose default is null loses the null branch and that default
    tags = {"items": {"type": "string"}, "type": "array"}
    assert untitled["properties"]["tags"] == {"anyOf": [tags, {"type": "null"}], "default": None}
    properties = {**untitled["properties"], "tags": tags}
    expected = {**untitled, "properties": properties, "additionalProperties": False}
    assert tool.parameters == expected
    assert "'title'" not in repr(tool.parameters)
    # null is still accepted, as leaving the parameter out is
    validate = tool.fn_metadata.validate_arguments
    assert validate({"word": "ab", "tags": None})["tags"] is None


def test_an_unregistered_name_is_a_bug() -> None:
    with pytest.raises(KeyError, match="toy2"):
        strict_arguments(_server(), ["toy2"])


def test_refusals_keep_pydantic_line_errors_for_the_log() -> None:
    server = _server()
    strict_arguments(server, ["toy"])
    error = _refusal(server, {"word": "toolong", "count": True, "tags": ["a", 1], "x": 0})
    assert isinstance(error, ValidationError)
    assert [e["loc"] for e in error.errors()] == [("word",), ("count",), ("tags", 1), ("x",)]
    assert error.message.splitlines() == [
        "invalid word='toolong': word must be a string of 1 to 5 characters",
        "invalid count=True: count must be an integer from 0 to 9",
        "invalid tags[1]=1: tags[1] must be a valid string",
        "unknown argument x=0: the parameters are word, count, even, tags",
    ]


def test_a_validator_refusal_says_why() -> None:
    server = _server()
    strict_arguments(server, ["toy"])
    assert _refusal(server, {"word": "a", "even": 3}).message == (
        "invalid even=3: even must be an integer (value error, must be even)"
    )


def test_whole_floats_are_integers_and_others_are_not() -> None:
    server = _server()
    strict_arguments(server, ["toy"])
    tool = server._tool_manager.get_tool("toy")
    assert tool is not None
    assert tool.fn_metadata.validate_arguments({"word": "a", "count": 3.0})["count"] == 3
    assert _refusal(server, {"word": "a", "count": 3.5}).message == (
        "invalid count=3.5: count must be an integer from 0 to 9"
    )
    # the retry reports what is still wrong once the whole number is accepted
    assert _refusal(server, {"word": "", "count": 3.0}).message == (
        "invalid word='': word must be a string of 1 to 5 characters"
    )


def test_the_sdk_sends_the_house_form_after_its_prefix() -> None:
    server = _server()
    strict_arguments(server, ["toy"])
    with pytest.raises(ToolError) as caught:
        anyio.run(server.call_tool, "toy", {"word": "a", "cuont": 2})
    prefix = "Error executing tool toy: "
    assert str(caught.value).startswith(prefix)
    assert json.loads(str(caught.value).removeprefix(prefix)) == {
        "error": {
            "reason": "invalid_argument",
            "message": "unknown argument cuont=2: the parameters are word, count, even, tags "
            "(did you mean count?)",
        }
    }


def test_many_bad_arguments_are_cut_to_ten_lines() -> None:
    server = _server()
    strict_arguments(server, ["toy"])
    lines = _refusal(server, {"word": "a", **{f"x{i}": i for i in range(12)}}).message.splitlines()
    assert len(lines) == 11 and lines[-1] == "... and 2 more"
