"""The glossary package's exceptions: one base, each naming what failed and how to fix it."""

from __future__ import annotations

from pathlib import Path

from lexicon_server.errors import LexiconServerError
from lexicon_server.glossary.model import Entry

__all__ = [
    "GlossaryError",
    "GlossaryFormatError",
    "GlossaryReadOnly",
    "InvalidInput",
    "TermExists",
    "TermNotFound",
]


class GlossaryError(LexiconServerError):
    """Base of every error raised by lexicon_server.glossary."""


class GlossaryFormatError(GlossaryError, ValueError):
    """The file breaks the format; `line` is 1-based, 0 when the whole file is at fault."""

    def __init__(self, path: Path, line: int, reason: str) -> None:
        self.path = path
        self.line = line
        self.reason = reason
        where = f"{path}:{line}" if line else str(path)
        super().__init__(
            f"invalid glossary file {where}: {reason}; fix the file, then run "
            f"`lexicon-glossary --file {path} check`"
        )


class GlossaryReadOnly(GlossaryError, PermissionError):
    """The glossary file is read-only; a write is refused before anything is written.

    Marking a file read-only (`chmod a-w`) says "do not change this", so the atomic
    rename that could replace it anyway (the directory is writable) is not attempted.
    """

    def __init__(self, path: Path, mode: int) -> None:
        self.path = path
        self.mode = mode
        message = (
            f"the glossary file {path} is read-only (mode {mode:04o}); nothing was written. "
            f"To allow changes, run `chmod u+w {path}` and try again"
        )
        super().__init__(message)

    def __str__(self) -> str:  # OSError would otherwise format its own errno message
        return str(self.args[0])


class InvalidInput(GlossaryError, ValueError):
    """A caller-supplied value (term, description, query, limit) is out of range."""

    def __init__(self, parameter: str, problem: str) -> None:
        self.parameter = parameter
        self.problem = problem
        super().__init__(f"{parameter}: {problem}")


class TermExists(GlossaryError):
    """`add` found an entry with the same normalized term; nothing was written."""

    def __init__(self, existing: Entry) -> None:
        self.existing = existing
        super().__init__(f"exists already: {existing.term!r}; use edit to replace its description")


class TermNotFound(GlossaryError, LookupError):
    """`edit` or `delete` named a term that no entry has after normalization."""

    def __init__(self, term: str) -> None:
        self.term = term
        super().__init__(f"term not found: {term!r}")

    def __str__(self) -> str:  # LookupError would otherwise quote the whole message
        return str(self.args[0])
