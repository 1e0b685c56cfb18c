"""The builder's one exception base, with messages that name the fix."""

from __future__ import annotations

from lexicon_server.errors import LexiconServerError

__all__ = ["BuildError", "NoRowReader", "SourceMismatch", "SourceUnavailable", "UnknownSource"]


class BuildError(LexiconServerError, RuntimeError):
    """Something the corpus builder could not do; the message says what and how to fix it."""


class SourceUnavailable(BuildError):
    """A source could not be fetched or found locally."""


class SourceMismatch(BuildError):
    """A local source file differs from what `sources.lock.json` pins."""

    def __init__(self, name: str, field: str, expected: object, actual: object, path: str) -> None:
        self.name = name
        self.field = field
        self.expected = expected
        self.actual = actual
        self.path = path
        super().__init__(
            f"source {name!r} ({path}): {field} is {actual!r}, the lock pins {expected!r}; "
            "delete the file and run `lexicon-build fetch-sources` to fetch the pinned one"
        )


class UnknownSource(BuildError, KeyError):
    """A source name the catalogue does not know (for example a typo in --source)."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class NoRowReader(BuildError, KeyError):
    """A source without a row reader (MultiWordNet): its lock pins its bytes only."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""
