"""Reads through a component connection hold no memory once their rows are taken: sqlite3
keeps a weak reference to each cursor of a connection and drops the dead ones only when
cursors are made with `cursor()`. Cursors made directly (`Cursor(conn)`) grew that list by
about 90 bytes a read for the life of the server (issue 28's HTTP soak: +12 MiB a minute)."""

from __future__ import annotations

import sqlite3
import tracemalloc

from lexicon_server.corpus.connection import Connection, Cursor


def _held_after(reads: int) -> int:
    conn = sqlite3.connect(":memory:", factory=Connection)
    try:
        for _ in range(300):  # past the first clean-up of sqlite3's list
            conn.execute("SELECT 1").fetchall()
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            for _ in range(reads):
                cursor = conn.execute("SELECT 1")
                assert isinstance(cursor, Cursor)  # reads still meet the damage check
                cursor.fetchall()
            return tracemalloc.get_traced_memory()[0] - before
        finally:
            tracemalloc.stop()
    finally:
        conn.close()


def test_memory_held_does_not_grow_with_reads() -> None:
    # 5,000 reads leaked about 450 kB before; a bounded list holds at most 200 weak
    # references (about 20 kB) whatever the number of reads.
    assert _held_after(5_000) < 64_000
    assert _held_after(20_000) < 64_000
