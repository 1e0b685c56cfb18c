"""Meanings from the project glossary, read through the glossary group's own library.

The glossary tool group owns the file and may rewrite it at any time; its `Glossary`
re-reads the file when it changes and matches terms after the glossary's normalization
(trim, lowercase, `,.;` as spaces, German letters spelled out, whitespace collapsed), so
a phrase means here exactly what `find`/`map` in that group would take it to mean.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from lexicon_server.glossary import Glossary, GlossaryError
from lexicon_server.slang.definitions import Definition
from lexicon_server.slang.errors import MeaningSourceError

__all__ = ["ProjectGlossary"]


@dataclass
class ProjectGlossary:
    """A project glossary file as a meaning source."""

    path: Path
    _glossary: Glossary = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.path = Path(self.path)
        self._glossary = Glossary(self.path)

    def definitions(self, phrase: str, limit: int) -> list[Definition]:
        """The glossary's description of `phrase`, if it defines it (terms are unique)."""
        try:
            entry = self._glossary.load().get(phrase)
        except (GlossaryError, OSError) as exc:
            raise MeaningSourceError("glossary", str(exc)) from exc
        if entry is None or limit < 1:
            return []
        return [
            Definition(
                text=entry.description,
                origin="glossary",
                source=self.path.name,
                trust="project",
                headword=entry.term,
                slang=False,
                kind="glossary",
            )
        ]
