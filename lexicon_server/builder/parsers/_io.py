"""Small shared helpers: open plain or gzip-compressed text, and the parser error type."""

from __future__ import annotations

import gzip
import io
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from lexicon_server.builder.errors import BuildError

__all__ = ["ParseError", "open_text", "text_lines"]

_GZIP_MAGIC = b"\x1f\x8b"


class ParseError(BuildError, ValueError):
    """An upstream file did not have the shape its parser expects.

    The message names the file and line so the bad input can be inspected, and the
    commands that check a source against ``sources.lock.json`` and fetch it again.
    """

    def __init__(self, path: str | Path, line_no: int, what: str) -> None:
        super().__init__(
            f"{path}:{line_no}: {what}; the file is not in the format this parser reads "
            "(truncated, or not the pinned release?): check it with `lexicon-build "
            "verify-sources` and fetch it again with `lexicon-build fetch-sources`"
        )
        self.path = str(path)
        self.line_no = line_no


def open_text(path: str | Path, encoding: str = "utf-8") -> IO[str]:
    """Open ``path`` for reading text, transparently gunzipping it when it is gzip data.

    The check is on the magic bytes rather than the suffix because dictzip (``.dict.dz``)
    and ``.gz`` files are both gzip streams and some mirrors drop the suffix.
    """
    with open(path, "rb") as probe:
        compressed = probe.read(2) == _GZIP_MAGIC
    if compressed:
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding=encoding, newline="")
    return open(path, encoding=encoding, newline="")


def text_lines(path: str | Path, encoding: str = "utf-8") -> Iterator[tuple[int, str]]:
    """Yield ``(line_number, line)`` with the line ending stripped, one line at a time."""
    with open_text(path, encoding) as handle:
        for number, line in enumerate(handle, 1):
            yield number, line.rstrip("\r\n")
