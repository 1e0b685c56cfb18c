"""Finishing a database a writer built in a temporary file."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

__all__ = ["seal"]


def seal(conn: sqlite3.Connection, tmp: Path, path: Path) -> None:
    """Commit, ANALYZE and VACUUM the database in `tmp`, close it, make it durable and
    rename it over `path`: a reader sees the old file or the whole new one, never part."""
    conn.execute("COMMIT")
    conn.execute("ANALYZE")
    conn.execute("VACUUM")
    conn.close()
    with open(tmp, "rb") as handle:
        os.fsync(handle.fileno())
    os.replace(tmp, path)
