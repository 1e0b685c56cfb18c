"""The glossary file format: strict JSONL, parsed with line numbers, rendered line by line.

A parsed file keeps every physical line as it was read (including blank lines and the
line ending) so a write can change exactly the lines it means to and leave the rest,
byte for byte, as the last person wrote them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from lexicon_server.glossary.errors import GlossaryFormatError
from lexicon_server.glossary.model import Entry
from lexicon_server.glossary.normalize import normalize

__all__ = ["ParsedFile", "ParsedLine", "parse", "render_entry"]

_BOM = b"\xef\xbb\xbf"
_FIELDS = frozenset({"term", "description"})


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
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise GlossaryFormatError(
            path, number, f"invalid JSON: {exc.msg} at column {exc.colno}"
        ) from None
    if not isinstance(value, dict):
        raise GlossaryFormatError(
            path, number, f"expected a JSON object, found {type(value).__name__}"
        )
    unknown = sorted(set(value) - _FIELDS)
    if unknown:
        raise GlossaryFormatError(
            path,
            number,
            f"unknown field(s) {', '.join(unknown)}; an entry has only term and description",
        )
    term = value.get("term")
    description = value.get("description")
    if not isinstance(term, str):
        raise GlossaryFormatError(path, number, "term is missing or not a string")
    if not normalize(term):
        raise GlossaryFormatError(path, number, "empty term")
    if not isinstance(description, str):
        raise GlossaryFormatError(path, number, "description is missing or not a string")
    if not description.strip():
        raise GlossaryFormatError(path, number, "empty description")
    return Entry(term, description)


def render_entry(entry: Entry, newline: str) -> str:
    """One entry as a compact JSON line; non-ASCII text stays readable in diffs."""
    body = json.dumps(
        {"term": entry.term, "description": entry.description},
        ensure_ascii=False,
        separators=(",", ":"),
    )
    # Line and paragraph separators are legal raw in JSON but split lines in many JSONL readers.
    return body.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029") + newline
