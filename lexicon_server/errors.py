"""The one exception root of `lexicon_server`, and the errors of the query layer.

Every exception the package defines derives from `LexiconServerError` (a test checks it),
so a caller can catch everything the server means to raise in one clause::

    LexiconServerError
     ├── InvalidArgument (ValueError)        a tool argument outside what it accepts
     ├── NoSuchSense (LookupError)           a sense_id that is not one of the word's
     ├── CapabilityUnavailable (LookupError) corpus.reader: a language or kind of data the
     │                                       selection cannot serve (one of four reasons)
     ├── SchemaMismatch (RuntimeError)       corpus.reader: a database of an unknown schema
     ├── ArgumentError (pydantic ValidationError)  arguments: a refused tool call
     ├── ToolRefusal (the SDK's ToolError)   answers: an expected failure, house-worded
     ├── GlossaryError                       glossary.errors: file format, bad input,
     │    └── ...                            term exists / not found
     ├── SlangError                          slang.errors: bad input, a meaning source or
     │    └── ...                            the online provider failed
     └── BuildError (RuntimeError)           builder.errors: the builder and the release
          ├── SourceUnavailable, SourceMismatch, UnknownSource (KeyError),
          │   NoRowReader (KeyError)
          └── ParseError (ValueError)        builder.parsers: a malformed upstream file

Expected failures of the tools become error answers whose text names the parameter (or
the language and capability) and what to do about it (`lexicon_server.answers`).
"""

from __future__ import annotations

from typing import Protocol

__all__ = [
    "REASON_TEXT",
    "InvalidArgument",
    "LexiconServerError",
    "NoSuchSense",
    "Unavailable",
    "describe_unavailable",
    "fix_command",
    "shown_value",
]


class LexiconServerError(Exception):
    """Base of every exception `lexicon_server` defines."""


class InvalidArgument(LexiconServerError, ValueError):
    """A tool argument outside what the tool accepts."""

    def __init__(self, parameter: str, allowed: str, got: object) -> None:
        self.parameter = parameter
        self.allowed = allowed
        self.got = got
        super().__init__(f"invalid {parameter}={shown_value(got)}: {parameter} must be {allowed}")


def shown_value(got: object) -> str:
    """`got` as an error message quotes it: its repr, cut to 60 characters."""
    shown = repr(got)
    return shown if len(shown) <= 60 else shown[:57] + "..."


class NoSuchSense(LexiconServerError, LookupError):
    """A `sense_id` that does not belong to the word being asked about."""

    def __init__(self, sense_id: str, word: str) -> None:
        self.sense_id = sense_id
        self.word = word
        super().__init__(
            f"sense_id {sense_id!r} is not a sense of {word!r}; "
            f"call dictionary_lookup on {word!r} to list its sense ids"
        )


# One sentence per reason; the four never collapse into "no such word".
REASON_TEXT = {
    "language_not_installed": "the corpus has this language but it is not installed here",
    "unknown_language": "the corpus has never carried this language",
    "capability_not_installed": "the language is installed, but not this kind of data",
    "not_available_upstream": "the corpus has no such data for this language at all",
}


def fix_command(
    reason: str,
    language: str,
    capability: str,
    dataset_version: str,
    *,
    data_dir: str | None = None,
    source: str | None = None,
) -> str | None:
    """The `lexicon-data` command that would make the query work, if one exists.

    `data_dir` is the `--data-dir` value to pass (None: the default data dir), `source`
    the `--from` value that reaches the release (None: a placeholder naming it)."""
    # add-language extends the active selection; it also adds a capability to a language
    # that is already installed. Both options are needed as printed: the store reads no
    # data dir but the default without --data-dir, and no release without --from.
    if reason not in ("language_not_installed", "capability_not_installed"):
        return None
    prefix = "lexicon-data" if data_dir is None else f"lexicon-data --data-dir {data_dir}"
    origin = source or f"<directory or URL of the {dataset_version} release>"
    return (
        f"{prefix} add-language --version {dataset_version} --languages {language} "
        f"--capabilities {capability} --from {origin}"
    )


class Unavailable(Protocol):
    """What a message about missing data needs (`corpus.reader.CapabilityUnavailable` has
    it): named here so that this root module imports no other module of the package."""

    reason: str
    language: str
    capability: str


def describe_unavailable(
    exc: Unavailable,
    dataset_version: str,
    *,
    data_dir: str | None = None,
    source: str | None = None,
) -> str:
    """A message for a person: the reason code first, then what it means and the fix."""
    text = REASON_TEXT.get(exc.reason, exc.reason)
    message = f"{exc.reason}: {exc.capability} data for language {exc.language!r}: {text}"
    fix = fix_command(
        exc.reason, exc.language, exc.capability, dataset_version, data_dir=data_dir, source=source
    )
    if fix is not None:
        message += f". To get it, run: {fix}"
    return message
