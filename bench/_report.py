"""Writing a benchmark page whose written analysis follows the generated tables."""

from __future__ import annotations

from pathlib import Path

__all__ = ["write_keeping_notes"]


def write_keeping_notes(path: Path, text: str, notes_heading: str) -> None:
    """Write the generated `text` to `path`, then the part of the page already there from
    the line `notes_heading` on (the written notes), so a rerun refreshes the tables only."""
    path.parent.mkdir(parents=True, exist_ok=True)
    marker = "\n" + notes_heading + "\n"
    kept = path.read_text(encoding="utf-8") if path.exists() else ""
    if marker in kept:
        text = text.rstrip("\n") + "\n" + kept[kept.index(marker) :]
    path.write_text(text, encoding="utf-8")
