"""Fill `translations.target_entry` once every lexical component of a build is written.

Whether a translation's target word has its own entry is a fact about the release, so the
builder answers it once instead of the server probing another database per look-up. Each
component is copied, updated with one set-based statement per target language (the target
database attached read-only, probed through its `terms_norm` and `entries_term` indexes)
and renamed into place. The term documents (lexicon_server/corpus/term_docs.py) carry the
same flags, so the ones that changed are rewritten in the same transaction.

The result depends only on the databases' rows, never on how often a component was
linked before (a resumed or incremental build relinks components a previous run already
linked): records keep their size whatever the answer (NULL, 0 and 1 take no payload bytes
in SQLite's record format, so every cell is overwritten in place and no page moves), and the
header's change counters, the one thing the history leaves behind, are set to fixed values.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import struct
from collections.abc import Mapping
from pathlib import Path

from lexicon_server.builder.config import crash_point
from lexicon_server.builder.term_docs import refresh_term_docs

__all__ = ["link_target_entries"]

# SQLite header: file change counter at byte 24, version-valid-for number at byte 92. They
# must be equal for the in-header page count to be trusted; 1 is what a fresh file has.
_CHANGE_COUNTER = 24
_VERSION_VALID_FOR = 92
_LINKED_COUNTER = 1

_LINK_SQL = "UPDATE translations SET target_entry = {value} WHERE target_language = :language"
# One indexed probe per row: `terms_norm`, then `entries_term` of the target database.
_HAS_ENTRY = (
    "EXISTS (SELECT 1 FROM {schema}.terms t JOIN {schema}.entries e ON e.term_id = t.id"
    " WHERE t.norm = translations.target_norm)"
)


def link_target_entries(components: Mapping[str, Path]) -> dict[str, int]:
    """Set `target_entry` in every component of `components` (language -> lexical.sqlite).

    Returns how many translations point at a word with an entry, at one without, and
    into a language the build has no lexical component for, and how many term documents
    were rewritten.
    """
    totals = {"with_entry": 0, "without_entry": 0, "no_component": 0, "term_docs_rewritten": 0}
    for language in sorted(components):
        counts = _link_one(components[language], language, components)
        for key, value in counts.items():
            totals[key] += value
    return totals


def _link_one(path: Path, language: str, components: Mapping[str, Path]) -> dict[str, int]:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    shutil.copyfile(path, tmp)
    try:
        conn = sqlite3.connect(tmp.resolve().as_uri(), uri=True, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode = OFF")
            conn.execute("PRAGMA synchronous = OFF")
            conn.execute("PRAGMA cache_size = -65536")  # as the writer: 64 MiB
            targets = [
                row[0]
                for row in conn.execute(
                    "SELECT DISTINCT target_language FROM translations ORDER BY 1"
                )
            ]
            conn.execute("BEGIN")
            for target in targets:
                if target == language:
                    value = _HAS_ENTRY.format(schema="main")
                elif target in components:
                    uri = components[target].resolve().as_uri() + "?mode=ro"
                    conn.execute("ATTACH DATABASE ? AS target", (uri,))
                    value = _HAS_ENTRY.format(schema="target")
                else:
                    value = "NULL"
                conn.execute(_LINK_SQL.format(value=value), {"language": target})
                if target != language and target in components:
                    # DETACH is refused inside a transaction; commit the language first.
                    conn.execute("COMMIT")
                    conn.execute("DETACH DATABASE target")
                    conn.execute("BEGIN")
            rewritten = refresh_term_docs(conn)
            conn.execute("COMMIT")
            row = conn.execute(
                "SELECT count(*) FILTER (WHERE target_entry = 1),"
                " count(*) FILTER (WHERE target_entry = 0),"
                " count(*) FILTER (WHERE target_entry IS NULL) FROM translations"
            ).fetchone()
        finally:
            conn.close()
        _settle_header(tmp)
        crash_point(f"target-entries:{language}:before-rename")
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return {
        "with_entry": row[0],
        "without_entry": row[1],
        "no_component": row[2],
        "term_docs_rewritten": rewritten,
    }


def _settle_header(path: Path) -> None:
    """Give the change counters fixed values and flush the file to disk."""
    counter = struct.pack(">I", _LINKED_COUNTER)
    with open(path, "r+b") as handle:
        handle.seek(_CHANGE_COUNTER)
        handle.write(counter)
        handle.seek(_VERSION_VALID_FOR)
        handle.write(counter)
        handle.flush()
        os.fsync(handle.fileno())
