"""Meanings from the project glossary (JSONL lines of {"term": ..., "description": ...}).

The glossary tool group owns that file and may rewrite it at any time, so it is read
again whenever its size or modification time changes. A term matches when it equals the
phrase after the glossary's own normalization (trim, lowercase, `,.;` as spaces, German
letters spelled out, whitespace collapsed).
"""

from __future__ import annotations

import json
import threading
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from lexicon_server.slang.definitions import Definition
from lexicon_server.slang.errors import MeaningSourceError

__all__ = ["ProjectGlossary"]

_TRANSLATE = str.maketrans(
    {",": " ", ".": " ", ";": " ", "ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"}
)


def _normalize(text: str) -> str:
    lowered = unicodedata.normalize("NFC", text).lower()
    return " ".join(lowered.translate(_TRANSLATE).split())


def _read_entries(path: Path) -> list[tuple[str, str]]:
    """(term, description) pairs; a minimal strict reader of the glossary file format."""
    entries: list[tuple[str, str]] = []
    data = path.read_bytes()
    for number, raw in enumerate(data.splitlines(), start=1):
        line = raw.decode("utf-8-sig" if number == 1 else "utf-8").strip()
        if not line:
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"line {number} is not valid JSON ({exc.msg})") from None
        if not isinstance(value, dict):
            raise ValueError(f"line {number} is not a JSON object")
        term, description = value.get("term"), value.get("description")
        if not isinstance(term, str) or not term.strip():
            raise ValueError(f"line {number} has no non-empty string 'term'")
        if not isinstance(description, str) or not description.strip():
            raise ValueError(f"line {number} has no non-empty string 'description'")
        entries.append((term, description))
    return entries


@dataclass
class ProjectGlossary:
    """A project glossary file, re-read when it changes on disk."""

    path: Path

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._stamp: tuple[int, int] | None = None
        self._index: dict[str, list[tuple[str, str]]] = {}

    def _load(self) -> dict[str, list[tuple[str, str]]]:
        try:
            stat = self.path.stat()
        except FileNotFoundError:
            return {}  # the glossary group creates the file on its first write
        except OSError as exc:
            raise MeaningSourceError("glossary", f"cannot read {self.path}: {exc}") from exc
        stamp = (stat.st_mtime_ns, stat.st_size)
        with self._lock:
            if stamp != self._stamp:
                try:
                    entries = _read_entries(self.path)
                except (OSError, UnicodeDecodeError, ValueError) as exc:
                    raise MeaningSourceError(
                        "glossary",
                        f"{self.path}: {exc}; fix that line of the file",
                    ) from exc
                index: dict[str, list[tuple[str, str]]] = {}
                for term, description in entries:
                    index.setdefault(_normalize(term), []).append((term, description))
                self._index, self._stamp = index, stamp
            return self._index

    def definitions(self, phrase: str, limit: int) -> list[Definition]:
        """The glossary's description(s) of `phrase`, if it defines it."""
        hits = self._load().get(_normalize(phrase), [])
        return [
            Definition(
                text=description,
                origin="glossary",
                source=self.path.name,
                trust="project",
                headword=term,
                slang=False,
            )
            for term, description in hits[:limit]
        ]
