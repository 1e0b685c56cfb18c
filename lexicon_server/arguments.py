"""Strict tool arguments, refused in the house form of `InvalidArgument`.

The SDK validates a call's arguments with a pydantic model built from the tool
function's signature: in lax mode (`true` and `"5"` pass as integers), ignoring unknown
keys (a misspelt `limt` silently means the default), and reporting a refusal as
pydantic's multi-line dump with a documentation URL. `strict_arguments` makes the named
tools' models strict and closed, and words each refusal like the query layer's errors:
`invalid limit=0: limit must be an integer from 1 to 100`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, cast, get_args

from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
from pydantic import ConfigDict, PrivateAttr, ValidationError
from pydantic_core import PydanticCustomError
from pydantic_core.core_schema import ErrorType

from lexicon_server.answers import error_body
from lexicon_server.errors import InvalidArgument, LexiconServerError, shown_value

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer
    from pydantic_core import ErrorDetails, InitErrorDetails

__all__ = ["ArgumentError", "strict_arguments"]

# A refusal lists at most this many bad arguments, then says how many more there are.
_MAX_LINES = 10
_STRICT = ConfigDict(strict=True, extra="forbid")
_PYDANTIC_ERRORS = frozenset(get_args(ErrorType))


class ArgumentError(ValidationError, LexiconServerError):
    """Arguments a tool refuses, whose text is the house-form message.

    A ValidationError because `Tool.run` reports exactly that with its text (anything
    else but an MCPError becomes an opaque crash). It carries pydantic's own line errors,
    so the server's log of the rejected fields still works.
    """

    message: str

    def __str__(self) -> str:
        # The SDK words an argument refusal as this text; AnswerContract reads it back.
        return json.dumps(
            error_body("invalid_argument", self.message), ensure_ascii=False, separators=(",", ":")
        )


def strict_arguments(server: MCPServer[Any], names: Iterable[str]) -> None:
    """Make the arguments of the named (registered) tools strict and closed.

    JSON types are respected (a boolean or a string is not an integer; 5.0 is, as JSON
    Schema counts it), an unknown argument is refused, and every refusal names the
    argument, what was given and what is allowed. The SDK has no option for this, and
    its tool manager is the only way to reach a registered tool. The published input
    schema gains `additionalProperties: false`; nothing else in it changes.
    """
    manager = server._tool_manager
    for name in names:
        tool = manager.get_tool(name)
        if tool is None:
            raise KeyError(f"no tool {name!r} is registered")
        if isinstance(tool.fn_metadata, _StrictMetadata):
            continue  # a tool registered twice keeps its first, already strict, registration
        tool.fn_metadata = _StrictMetadata.of(tool.fn_metadata, tool.parameters)
        tool.parameters = {**_untitled(tool.parameters), "additionalProperties": False}


def _untitled(schema: Any) -> Any:
    """`schema` without the titles pydantic derives from each name ("Word" for `word`):
    bytes every client reads in `tools/list`, saying nothing the name does not."""
    if isinstance(schema, list):
        return [_untitled(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    return {k: _untitled(v) for k, v in schema.items() if not (k == "title" and isinstance(v, str))}


class _StrictMetadata(FuncMetadata):
    """The SDK's argument handling with a strict, closed model and house-form refusals."""

    _parameters: tuple[str, ...] = PrivateAttr(default=())
    _allowed: dict[str, str] = PrivateAttr(default_factory=dict)

    @classmethod
    def of(cls, metadata: FuncMetadata, schema: Mapping[str, Any]) -> _StrictMetadata:
        """`metadata` with a strict subclass of its argument model; `schema` is the
        tool's published input schema, which says what each parameter allows."""
        fields = {name: getattr(metadata, name) for name in FuncMetadata.model_fields}
        strict = cls(**{**fields, "arg_model": _strict_model(metadata.arg_model)})
        properties: Mapping[str, Any] = schema.get("properties", {})
        strict._parameters = tuple(properties)
        strict._allowed = {name: _rule(prop) for name, prop in properties.items()}
        return strict

    def validate_arguments(self, arguments_to_validate: dict[str, Any]) -> dict[str, Any]:
        try:
            return super().validate_arguments(arguments_to_validate)
        except ValidationError as exc:
            error = exc
        # Only a refused call gets here, so accepting 5.0 costs a valid call nothing.
        whole = _whole_numbers(arguments_to_validate, error)
        if whole is not None:
            try:
                return super().validate_arguments(whole)
            except ValidationError as exc:
                error = exc
        raise self._refusal(error)

    def _refusal(self, error: ValidationError) -> ArgumentError:
        details = error.errors(include_url=False)
        refusal = ArgumentError.from_exception_data(error.title, [_init(d) for d in details])
        refusal.message = "\n".join(_lines(details, self._parameters, self._allowed))
        return refusal


def _strict_model(model: type[ArgModelBase]) -> type[ArgModelBase]:
    # A subclass keeps the fields, defaults and schema; pydantic merges in the config.
    namespace = {"model_config": _STRICT, "__module__": model.__module__}
    return cast("type[ArgModelBase]", type(model.__name__, (model,), namespace))


def _whole_numbers(arguments: dict[str, Any], error: ValidationError) -> dict[str, Any] | None:
    """`arguments` with each whole float refused as an integer (5.0) made an int, or
    None if there is none."""
    fixed = {}
    for detail in error.errors(include_url=False):
        loc, got = detail["loc"], detail["input"]
        whole = isinstance(got, float) and got.is_integer()
        if whole and detail["type"] == "int_type" and len(loc) == 1:
            fixed[str(loc[0])] = int(got)
    return {**arguments, **fixed} if fixed else None


def _init(detail: ErrorDetails) -> InitErrorDetails:
    """`detail` as `from_exception_data` rebuilds it: pydantic's own error types from
    their context, any other (a validator's custom error) from its message."""
    kind = detail["type"]
    if kind not in _PYDANTIC_ERRORS:
        return {
            "type": PydanticCustomError(kind, detail["msg"]),
            "loc": detail["loc"],
            "input": detail["input"],
        }
    init: InitErrorDetails = {"type": kind, "loc": detail["loc"], "input": detail["input"]}
    if "ctx" in detail:
        init["ctx"] = detail["ctx"]
    return init


def _lines(
    details: list[ErrorDetails], parameters: tuple[str, ...], allowed: Mapping[str, str]
) -> list[str]:
    """One line per bad argument (the first thing wrong with it)."""
    lines: dict[str, str] = {}
    for detail in details:
        path = _path(detail["loc"])
        if path not in lines:
            lines[path] = _line(detail, path, parameters, allowed)
    shown = list(lines.values())
    if len(shown) > _MAX_LINES:
        shown[_MAX_LINES:] = [f"... and {len(shown) - _MAX_LINES} more"]
    return shown


def _line(
    detail: ErrorDetails, path: str, parameters: tuple[str, ...], allowed: Mapping[str, str]
) -> str:
    kind, got = detail["type"], detail["input"]
    nested = len(detail["loc"]) > 1
    if kind == "extra_forbidden" and not nested:
        line = f"unknown argument {path}={shown_value(got)}: the parameters are "
        line += ", ".join(parameters)
        return line + _suggestion(path, parameters)
    # A nested value (an item of a list argument) is described by pydantic's own words.
    rule = _pydantic_rule(detail["msg"]) if nested else allowed.get(path, "valid")
    if not nested and (kind not in _PYDANTIC_ERRORS or kind in ("value_error", "assertion_error")):
        # A validator's refusal: the schema alone does not say what it wanted.
        rule += f" ({_lower_first(detail['msg'])})"
    if kind == "missing":
        return f"missing {path}: {path} is required" + ("" if nested else f" and must be {rule}")
    return str(InvalidArgument(path, rule, got))


def _suggestion(unknown: str, parameters: tuple[str, ...]) -> str:
    """' (did you mean limit?)' for a misspelling ('limt') or an abbreviation ('dir')."""
    import difflib  # only a refused call needs it: kept out of the server's start-up

    close = [p for p in parameters if len(unknown) > 2 and p.startswith(unknown)]
    close = close or difflib.get_close_matches(unknown, parameters, n=1)
    return f" (did you mean {close[0]}?)" if close else ""


def _path(loc: tuple[int | str, ...]) -> str:
    """`('glossary', 0, 'slang')` as `glossary[0].slang`."""
    text = str(loc[0]) if loc else "arguments"
    for part in loc[1:]:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text


def _pydantic_rule(message: str) -> str:
    prefix = "Input should be "
    if message.startswith(prefix):
        return message.removeprefix(prefix)
    return f"valid ({_lower_first(message)})"


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _rule(schema: Mapping[str, Any]) -> str:
    """What a parameter's JSON schema allows, in words: 'an integer from 1 to 100'."""
    options = schema.get("anyOf")
    if options is not None:
        rules = [_rule(option) for option in options if option.get("type") != "null"]
        text = " or ".join(rules)
        return f"{text}, or null" if len(rules) < len(options) else text
    if "enum" in schema:
        return "one of " + ", ".join(repr(value) for value in schema["enum"])
    if "const" in schema:
        return repr(schema["const"])
    kind = schema.get("type")
    if kind in ("integer", "number"):
        low, high = schema.get("minimum"), schema.get("maximum")
        noun = "an integer" if kind == "integer" else "a number"
        if low is not None and high is not None:
            return f"{noun} from {low} to {high}"
        if low is not None or high is not None:
            return f"{noun} of " + (f"at least {low}" if high is None else f"at most {high}")
        return noun
    if kind == "string":
        length = _count(schema.get("minLength"), schema.get("maxLength"), "character")
        return "a string" + (f" of {length}" if length else "")
    if kind == "boolean":
        return "true or false"
    if kind == "array":
        item = schema.get("items", {}).get("type")
        noun = item if item in ("string", "integer", "number", "boolean") else "object"
        count = _count(schema.get("minItems"), schema.get("maxItems"), noun)
        return f"an array of {count or noun + 's'}"
    return "an object"


def _count(low: int | None, high: int | None, noun: str) -> str:
    """'1 to 100 characters', 'at most 512 characters', 'at least 1 character', or ''."""
    if high is not None:
        nouns = noun if high == 1 else f"{noun}s"
        return f"{low} to {high} {nouns}" if low is not None else f"at most {high} {nouns}"
    if low is not None:
        return f"at least {low} {noun if low == 1 else noun + 's'}"
    return ""
