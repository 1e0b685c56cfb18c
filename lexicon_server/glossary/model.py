"""Plain records shared by the glossary modules."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Entry", "FindHit", "MapItem", "WriteResult"]


@dataclass(frozen=True)
class Entry:
    """One glossary entry exactly as written in the file."""

    term: str
    description: str


@dataclass(frozen=True)
class FindHit:
    """A `find` result; `score` orders results and is not meant to be stable across versions."""

    entry: Entry
    score: int


@dataclass(frozen=True)
class MapItem:
    """A term and, in file order, the other terms whose descriptions mention it."""

    term: str
    mentioned_in: tuple[str, ...]


@dataclass(frozen=True)
class WriteResult:
    """What a successful add/edit/delete left behind."""

    total_entries: int
    deleted: Entry | None = None
    changed: bool = True  # False when edit was asked to write the description already there
