"""The project glossary: a strict JSONL file of terms and descriptions, kept under git.

The library (`Glossary`) is what the MCP tools (`tools.register`) and the
`lexicon-glossary` command both call.
"""

from __future__ import annotations

from lexicon_server.glossary.errors import (
    GlossaryError,
    GlossaryFormatError,
    InvalidInput,
    TermExists,
    TermNotFound,
)
from lexicon_server.glossary.glossary import Glossary
from lexicon_server.glossary.index import Snapshot
from lexicon_server.glossary.model import Entry, FindHit, MapItem, WriteResult
from lexicon_server.glossary.normalize import normalize

__all__ = [
    "Entry",
    "FindHit",
    "Glossary",
    "GlossaryError",
    "GlossaryFormatError",
    "InvalidInput",
    "MapItem",
    "Snapshot",
    "TermExists",
    "TermNotFound",
    "WriteResult",
    "normalize",
]
