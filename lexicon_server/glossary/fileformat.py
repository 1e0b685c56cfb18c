"""The glossary file format: strict JSONL, parsed with line numbers, rendered line by line.

A parsed file keeps every physical line as it was read (including blank lines and the
line ending) so a write can change exactly the lines it means to and leave the rest,
byte for byte, as the last person wrote them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lexicon_server.glossary.errors import GlossaryError, GlossaryFormatError
from lexicon_server.glossary.model import Entry
from lexicon_server.glossary.normalize import normalize

__all__ = [
    "MAX_DESCRIPTION_CHARS",
    "MAX_LINE_BYTES",
    "MAX_TERM_CHARS",
    "ParsedFile",
    "ParsedLine",
    "parse",
    "render_entry",
    "text_problem",
]

MAX_TERM_CHARS = 200
MAX_DESCRIPTION_CHARS = 10_000
# The longest entry within the limits above, every character written as a JSON escape
# (12 characters for a surrogate pair), is about 125 KB: a longer line is not an entry.
MAX_LINE_BYTES = 1 << 20

_BOM = b"\xef\xbb\xbf"
_FIELDS = frozenset({"term", "description"})
_SURROGATE = re.compile("[\ud800-\udfff]")


def text_problem(text: str) -> str | None:
    """Why `text` cannot be stored or sent as UTF-8 (a lone surrogate), or None if it can.

    JSON lets a file spell half of a surrogate pair (`"\\ud800"`), and Python keeps bytes
    that are not UTF-8 in command-line arguments as lone surrogates; neither is a
    character, so neither can be written to the file or put in an answer.
    """
    found = _SURROGATE.search(text)
    if found is None:
        return None
    return (
        f"has an unpaired surrogate \\u{ord(found.group()):04x} at character "
        f"{found.start() + 1}, which is not a Unicode character (a JSON escape of half a "
        "pair, or bytes that are not UTF-8)"
    )


@dataclass(frozen=True)
class ParsedLine:
    """One physical line: `raw` includes its line ending; `entry` is None for a blank line."""

    raw: str
    entry: Entry | None


@dataclass(frozen=True)
class ParsedFile:
    lines: tuple[ParsedLine, ...]
    newline: str  # the ending new lines get: the file's own ("\r\n" or "\n")

    @property
    def entries(self) -> list[Entry]:
        return [line.entry for line in self.lines if line.entry is not None]

    @property
    def text(self) -> str:
        return "".join(line.raw for line in self.lines)


def parse(data: bytes, path: Path) -> ParsedFile:
    """Parse the bytes of a glossary file; raise GlossaryFormatError naming the first bad line."""
    if data.startswith(_BOM):
        raise GlossaryFormatError(
            path, 1, "the file starts with a UTF-8 byte order mark; save it as UTF-8 without BOM"
        )
    lines: list[ParsedLine] = []
    seen: dict[str, int] = {}
    newline = "\n"
    for number, raw_bytes in enumerate(data.splitlines(keepends=True), start=1):
        try:
            raw = raw_bytes.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise GlossaryFormatError(
                path, number, f"not valid UTF-8 (byte {exc.start + 1} of the line)"
            ) from None
        if len(raw_bytes) > MAX_LINE_BYTES:
            raise GlossaryFormatError(
                path,
                number,
                f"the line is {len(raw_bytes):,} bytes, over the {MAX_LINE_BYTES:,}-byte limit "
                f"of an entry (a term has at most {MAX_TERM_CHARS} characters, a description "
                f"at most {MAX_DESCRIPTION_CHARS:,}); split or shorten it",
            )
        if number == 1 and raw.endswith("\r\n"):
            newline = "\r\n"
        text = raw.strip()
        if not text:
            lines.append(ParsedLine(raw, None))
            continue
        entry = _parse_entry(text, path, number)
        key = normalize(entry.term)
        if key in seen:
            raise GlossaryFormatError(
                path,
                number,
                f"duplicate term {entry.term!r}: after normalization it is the same term as line "
                f"{seen[key]}",
            )
        seen[key] = number
        lines.append(ParsedLine(raw, entry))
    return ParsedFile(tuple(lines), newline)


def _parse_entry(text: str, path: Path, number: int) -> Entry:
    try:
        value = json.loads(text, object_pairs_hook=_unique_keys)
    except _DuplicateKey as exc:
        raise GlossaryFormatError(
            path, number, f"field {exc.key!r} appears twice; an entry has each field once"
        ) from None
    except json.JSONDecodeError as exc:
        raise GlossaryFormatError(
            path, number, f"invalid JSON: {exc.msg} at column {exc.colno}"
        ) from None
    except RecursionError:
        raise GlossaryFormatError(
            path, number, "JSON nested too deeply; an entry is one flat object of two strings"
        ) from None
    except ValueError as exc:  # e.g. an integer longer than Python converts
        raise GlossaryFormatError(path, number, f"invalid JSON: {exc}") from None
    if not isinstance(value, dict):
        raise GlossaryFormatError(
            path, number, f"expected a JSON object, found {type(value).__name__}"
        )
    unknown = sorted(set(value) - _FIELDS)
    if unknown:
        raise GlossaryFormatError(
            path,
            number,
            f"unknown field(s) {', '.join(map(_shown, unknown))}; an entry has only term and "
            "description",
        )
    term = value.get("term")
    description = value.get("description")
    if not isinstance(term, str):
        raise GlossaryFormatError(path, number, "term is missing or not a string")
    if not isinstance(description, str):
        raise GlossaryFormatError(path, number, "description is missing or not a string")
    for field, field_text in (("term", term), ("description", description)):
        problem = text_problem(field_text)
        if problem is not None:
            raise GlossaryFormatError(
                path, number, f"the {field} {problem}; write the character itself"
            )
    if not normalize(term):
        raise GlossaryFormatError(path, number, "empty term")
    if len(term.strip()) > MAX_TERM_CHARS:
        raise GlossaryFormatError(
            path,
            number,
            f"the term is {len(term.strip()):,} characters, over the limit of {MAX_TERM_CHARS}; "
            "shorten it",
        )
    if not description.strip():
        raise GlossaryFormatError(path, number, "empty description")
    if len(description) > MAX_DESCRIPTION_CHARS:
        raise GlossaryFormatError(
            path,
            number,
            f"the description is {len(description):,} characters, over the limit of "
            f"{MAX_DESCRIPTION_CHARS:,}; shorten it",
        )
    return Entry(term, description)


def _shown(name: str) -> str:
    """A field name as a message shows it: escaped when it has unprintable characters."""
    return name if name.isprintable() else ascii(name)


class _DuplicateKey(GlossaryError):  # an internal signal; it never leaves this module
    def __init__(self, key: str) -> None:
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """json's object hook: a key given twice is an error (json.loads keeps the last)."""
    value: dict[str, Any] = {}
    for key, item in pairs:
        if key in value:
            raise _DuplicateKey(key)
        value[key] = item
    return value


def render_entry(entry: Entry, newline: str) -> str:
    """One entry as a compact JSON line; non-ASCII text stays readable in diffs."""
    body = json.dumps(
        {"term": entry.term, "description": entry.description},
        ensure_ascii=False,
        separators=(",", ":"),
    )
    # Line and paragraph separators are legal raw in JSON but split lines in many JSONL readers.
    return body.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029") + newline
