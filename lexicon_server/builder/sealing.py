"""Building a database in a temporary file and finishing it over its published path."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["seal", "sealed"]


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


@contextmanager
def sealed(path: Path) -> Iterator[sqlite3.Connection]:
    """A connection (autocommit) to a new database in a temporary file beside `path`,
    sealed over `path` when the block ends; if the block fails the file is removed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    conn = sqlite3.connect(tmp, isolation_level=None)
    try:
        yield conn
        seal(conn, tmp, path)
    except BaseException:
        conn.close()
        tmp.unlink(missing_ok=True)
        raise
