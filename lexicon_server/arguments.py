"""Strict tool arguments, refused in the house form of `InvalidArgument`.

The SDK validates a call's arguments with a pydantic model built from the tool
function's signature: in lax mode (`true` and `"5"` pass as integers), ignoring unknown
keys (a misspelt `limt` silently means the default), and reporting a refusal as
pydantic's multi-line dump with a documentation URL. `lexicon_server.sdk.strict_arguments`
makes the tools' models strict and closed; this module words each refusal like the query
layer's errors:
`invalid limit=0: limit must be an integer from 1 to 100`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, get_args

from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic_core import PydanticCustomError
from pydantic_core.core_schema import ErrorType

from lexicon_server.answers import error_body
from lexicon_server.errors import InvalidArgument, LexiconServerError, shown_value

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails, InitErrorDetails

__all__ = ["ArgumentError", "ToolArguments", "argument_rule", "refusal"]

# A refusal lists at most this many bad arguments, then says how many more there are.
_MAX_LINES = 10
_PYDANTIC_ERRORS = frozenset(get_args(ErrorType))


class ToolArguments(BaseModel):
    """The base of every tool's arguments model: its validator is built on first use
    (`defer_build`), not when the server imports the tool."""

    model_config = ConfigDict(defer_build=True)


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


def refusal(
    error: ValidationError, parameters: tuple[str, ...], allowed: Mapping[str, str]
) -> ArgumentError:
    """`error` (pydantic's refusal of a call's arguments) as the house-form ArgumentError:
    one line per bad argument; `parameters` are the tool's, `allowed` what each allows
    in words (`argument_rule`)."""
    details = error.errors(include_url=False)
    found = ArgumentError.from_exception_data(error.title, [_init(d) for d in details])
    found.message = "\n".join(_lines(details, parameters, allowed))
    return found


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


# Parameters renamed in a release, by old name: a caller still sending the old one is
# pointed to the new (difflib would offer translate's `target_language` for
# `source_language`, the opposite of what was meant).
_RENAMED = {"source_language": "language"}


def _suggestion(unknown: str, parameters: tuple[str, ...]) -> str:
    """' (did you mean limit?)' for a misspelling ('limt'), an abbreviation ('dir') or
    a parameter's former name (`_RENAMED`)."""
    import difflib  # only a refused call needs it: kept out of the server's start-up

    if _RENAMED.get(unknown) in parameters:
        return f" (renamed {_RENAMED[unknown]})"
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


def argument_rule(schema: Mapping[str, Any]) -> str:
    """What a parameter's JSON schema allows, in words: 'an integer from 1 to 100'."""
    options = schema.get("anyOf")
    if options is not None:
        rules = [argument_rule(option) for option in options if option.get("type") != "null"]
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
