"""The glossary operations: find, map, add, edit, delete, check over one JSONL file."""

from __future__ import annotations

from pathlib import Path

from lexicon_server.glossary.errors import InvalidInput, TermExists, TermNotFound
from lexicon_server.glossary.fileformat import (
    MAX_DESCRIPTION_CHARS,
    MAX_TERM_CHARS,
    ParsedFile,
    ParsedLine,
    render_entry,
    text_problem,
)
from lexicon_server.glossary.index import Snapshot
from lexicon_server.glossary.model import Entry, FindHit, MapItem, WriteResult
from lexicon_server.glossary.normalize import normalize
from lexicon_server.glossary.storage import GlossaryFile

__all__ = [
    "DEFAULT_MAX_RESULTS",
    "MAX_DESCRIPTION_CHARS",
    "MAX_QUERY_CHARS",
    "MAX_RESULTS",
    "MAX_TERM_CHARS",
    "Glossary",
]

DEFAULT_MAX_RESULTS = 10
MAX_RESULTS = 100
MAX_QUERY_CHARS = 1_000


class Glossary:
    """A project glossary kept in a JSONL file; every method sees the file as it is now."""

    def __init__(self, path: Path) -> None:
        self.file = GlossaryFile(path)

    @property
    def path(self) -> Path:
        return self.file.path

    def load(self) -> Snapshot:
        """Read (or re-read if changed) and validate the file; raises GlossaryFormatError."""
        return self.file.snapshot()

    def entries(self) -> list[Entry]:
        return list(self.load().entries)

    def find(self, query: str, max_results: int = DEFAULT_MAX_RESULTS) -> list[FindHit]:
        """Entries matching the query or its words, best first (see docs/glossary.md)."""
        if not isinstance(max_results, int) or not 1 <= max_results <= MAX_RESULTS:
            raise InvalidInput(
                "maxResults", f"must be between 1 and {MAX_RESULTS}, got {max_results!r}"
            )
        _check_text("query", query)
        if len(query) > MAX_QUERY_CHARS:
            raise InvalidInput(
                "query", f"must be at most {MAX_QUERY_CHARS} characters, got {len(query)}"
            )
        if not normalize(query):
            raise InvalidInput("query", "must contain at least one letter or digit")
        return self.load().find(query, max_results)

    def map(self, term: str | None = None) -> list[MapItem]:
        """Every term (or one) with the other terms whose descriptions mention it."""
        if term is not None:
            _check_text("term", term)
        items = self.load().map(term)
        if items is None:
            raise TermNotFound(term or "")
        return items

    def add(self, term: str, description: str) -> WriteResult:
        """Append a new entry; raise TermExists (nothing written) if the term is already there."""
        term = _check_term(term)
        _check_description(description)

        def change(current: Snapshot) -> tuple[ParsedFile | None, WriteResult]:
            existing = current.get(term)
            if existing is not None:
                raise TermExists(existing)
            parsed = current.parsed
            entry = Entry(term, description)
            lines = [*_terminated(parsed.lines, parsed.newline)]
            lines.append(ParsedLine(render_entry(entry, parsed.newline), entry))
            return ParsedFile(tuple(lines), parsed.newline), WriteResult(len(current) + 1)

        return self.file.update(change)

    def edit(self, term: str, description: str) -> WriteResult:
        """Replace the whole description of an existing term; its spelling stays as written."""
        key = _check_term(term)
        _check_description(description)

        def change(current: Snapshot) -> tuple[ParsedFile | None, WriteResult]:
            position = _line_of(current, key)
            old = current.parsed.lines[position]
            assert old.entry is not None
            if old.entry.description == description:
                return None, WriteResult(total_entries=len(current), changed=False)
            entry = Entry(old.entry.term, description)
            lines = list(current.parsed.lines)
            lines[position] = ParsedLine(render_entry(entry, _ending(old.raw)), entry)
            return ParsedFile(tuple(lines), current.parsed.newline), WriteResult(len(current))

        return self.file.update(change)

    def delete(self, term: str) -> WriteResult:
        """Remove the one entry whose normalized term matches exactly; no fuzzy matching."""
        key = _check_term(term)

        def change(current: Snapshot) -> tuple[ParsedFile | None, WriteResult]:
            position = _line_of(current, key)
            parsed = current.parsed
            deleted = parsed.lines[position].entry
            # The other lines stay exactly as they are, a last line without an ending too.
            new = ParsedFile(parsed.lines[:position] + parsed.lines[position + 1 :], parsed.newline)
            return new, WriteResult(total_entries=len(current) - 1, deleted=deleted)

        return self.file.update(change)

    def check(self) -> int:
        """Validate the file as a server would at start-up; return the number of entries."""
        return len(self.load())


def _check_text(parameter: str, text: object) -> None:
    if not isinstance(text, str):
        raise InvalidInput(parameter, f"must be a string, got {type(text).__name__}")
    problem = text_problem(text)
    if problem is not None:
        raise InvalidInput(parameter, f"{problem}; give it as UTF-8 text")


def _check_term(term: str) -> str:
    _check_text("term", term)
    term = term.strip()
    if len(term) > MAX_TERM_CHARS:
        raise InvalidInput("term", f"must be at most {MAX_TERM_CHARS} characters, got {len(term)}")
    if not normalize(term):
        raise InvalidInput("term", "must not be empty (after normalization it has no characters)")
    return term


def _check_description(description: str) -> None:
    _check_text("description", description)
    if len(description) > MAX_DESCRIPTION_CHARS:
        raise InvalidInput(
            "description",
            f"must be at most {MAX_DESCRIPTION_CHARS} characters, got {len(description)}",
        )
    if not description.strip():
        raise InvalidInput("description", "must not be empty")


def _line_of(current: Snapshot, term: str) -> int:
    """Position in the file's lines of the entry whose term is `term` after normalization."""
    index = current.by_term.get(normalize(term))
    if index is None:
        raise TermNotFound(term)
    return current.entry_lines[index]


def _ending(raw: str) -> str:
    if raw.endswith("\r\n"):
        return "\r\n"
    return "\n" if raw.endswith(("\n", "\r")) else ""


def _terminated(lines: tuple[ParsedLine, ...], newline: str) -> tuple[ParsedLine, ...]:
    """The lines as they were, with a line ending added to the last one if it had none."""
    if lines and not _ending(lines[-1].raw):
        last = lines[-1]
        return (*lines[:-1], ParsedLine(last.raw + newline, last.entry))
    return lines
