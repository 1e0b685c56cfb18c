"""Open the active selection's component files read-only, once, for the tools.

The server never writes: every SQLite database is opened with `mode=ro` and
`PRAGMA query_only`, and vector files are memory-mapped lazily on first use.
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from lexicon_server.errors import LexiconServerError

if TYPE_CHECKING:
    from lexicon_store.selection import ActiveSelection

__all__ = [
    "READABLE_VERSIONS",
    "SCHEMA_VERSIONS",
    "CapabilityUnavailable",
    "Corpus",
    "SchemaMismatch",
    "schema_sql",
]

# The schema versions the builder writes, and those this server reads; a database with
# another user_version is refused. Wordplay 2 has rhyme documents and no `near_first`
# table (a server reading only version 1 would fail on near rhymes); version 1 is still
# read, by walking the tables.
SCHEMA_VERSIONS = {"lexical": 1, "wordplay": 2, "semantic": 1}
READABLE_VERSIONS = {"lexical": (1,), "wordplay": (1, 2), "semantic": (1,)}

# How much of one database SQLite maps into memory. 0: read pages into SQLite's own bounded
# page cache instead. Mapping was ~15% faster per look-up, but every page fault on a mapping
# also maps the kernel's read-ahead window (8 MiB on some virtual disks), so the server's
# resident size grew with use: +62 MiB after one look-up of 'a', 258 MiB after 500 words of
# four tools, against a flat 26 MiB file-backed with reads (docs/benchmarks/server.md).
_MMAP_BYTES = 0

# Which dataset-relative file holds the database of a capability.
_DB_FILES = {
    "lexical": "{lang}/lexical.sqlite",
    "wordplay": "{lang}/wordplay.sqlite",
    "semantic": "{lang}/semantic.sqlite",
}


def schema_sql(name: str) -> str:
    """The DDL of one shipped schema file (`lexical`, `wordplay` or `semantic`)."""
    return resources.files("lexicon_server.corpus").joinpath(f"schema/{name}.sql").read_text()


class CapabilityUnavailable(LexiconServerError, LookupError):
    """A language/capability the active selection cannot serve, with one of the four reasons."""

    def __init__(self, language: str, capability: str, reason: str) -> None:
        self.language = language
        self.capability = capability
        self.reason = reason
        super().__init__(f"{capability} data for language {language!r} is unavailable: {reason}")


class SchemaMismatch(LexiconServerError, RuntimeError):
    """A component database has a schema version this server does not read."""


@dataclass
class Corpus:
    """Read-only handles on the active selection, opened once per server process."""

    selection: ActiveSelection
    _connections: dict[str, sqlite3.Connection] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def dataset_version(self) -> str:
        return self.selection.dataset_version

    def require(self, language: str, capability: str) -> None:
        """Raise CapabilityUnavailable unless `capability` is installed for `language`."""
        reason = self.selection.availability(language, capability)
        if reason is not None:
            raise CapabilityUnavailable(language, capability, reason)

    def path(self, relative: str) -> Path:
        """Absolute path of a dataset-relative file of the active selection."""
        return self.selection.files[relative]

    def db(self, language: str, capability: str) -> sqlite3.Connection:
        """A read-only, query-only connection to one component database (cached)."""
        self.require(language, capability)
        relative = _DB_FILES[capability].format(lang=language)
        with self._lock:
            conn = self._connections.get(relative)
            if conn is None:
                conn = _open_readonly(self.path(relative), capability)
                self._connections[relative] = conn
            return conn

    def close(self) -> None:
        with self._lock:
            for conn in self._connections.values():
                conn.close()
            self._connections.clear()


def _open_readonly(path: Path, schema: str) -> sqlite3.Connection:
    # immutable=1: objects are read-only and never change under us, so SQLite can skip locking.
    conn = sqlite3.connect(
        f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True, check_same_thread=False
    )
    conn.execute("PRAGMA query_only = ON")
    # Objects never change once installed, so mapping them would be safe; see _MMAP_BYTES
    # for why it is off.
    conn.execute(f"PRAGMA mmap_size = {_MMAP_BYTES}")
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    readable = READABLE_VERSIONS[schema]
    if version not in readable:
        conn.close()
        raise SchemaMismatch(
            f"{path} has {schema} schema version {version}, this server reads version "
            f"{' or '.join(map(str, readable))}; install the matching data release with "
            "`lexicon-data install`"
        )
    return conn
