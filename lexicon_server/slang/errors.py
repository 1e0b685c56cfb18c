"""The one exception family of the slang tool group."""

from __future__ import annotations

from lexicon_server.errors import LexiconServerError

__all__ = [
    "MeaningSourceError",
    "ProviderError",
    "SlangError",
    "SlangInputError",
]


class SlangError(LexiconServerError):
    """Base of every error the slang package raises on purpose."""


class SlangInputError(SlangError, ValueError):
    """A caller-supplied argument broke a rule; `parameter` names the argument."""

    def __init__(self, parameter: str, message: str) -> None:
        self.parameter = parameter
        super().__init__(f"{parameter}: {message}")


class MeaningSourceError(SlangError):
    """A local meaning source (corpus or project glossary) could not be read."""

    def __init__(self, source: str, message: str) -> None:
        self.source = source
        super().__init__(f"{source}: {message}")


class ProviderError(MeaningSourceError):
    """The online Urban Dictionary provider failed (network, timeout, HTTP status, bad JSON)."""

    def __init__(self, message: str, *, url: str | None = None, status: int | None = None) -> None:
        self.url = url
        self.status = status
        super().__init__("urban_dictionary", message)
