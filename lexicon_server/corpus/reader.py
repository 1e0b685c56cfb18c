"""Open the active selection's component files read-only, once, for the tools.

The server never writes: every SQLite database is opened with `mode=ro` and
`PRAGMA query_only`; vector files are opened on first use and read, not mapped (see
`corpus/vectors.py`). One `Corpus` can move from selection to selection while it serves
(see `corpus/live.py`): each call runs on one selection's handles from start to end.
"""

from __future__ import annotations

import shlex
import sqlite3
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from lexicon_server.corpus.connection import Connection
from lexicon_server.errors import LexiconServerError
from lexicon_store.selection import default_data_dir

if TYPE_CHECKING:
    from lexicon_store.selection import ActiveSelection

__all__ = [
    "READABLE_VERSIONS",
    "SCHEMA_VERSIONS",
    "CapabilityUnavailable",
    "Corpus",
    "DamagedComponent",
    "Follower",
    "Releasable",
    "SchemaMismatch",
    "check_sizes",
    "data_dir_value",
    "find_damage",
    "is_damage",
    "release_source",
    "schema_sql",
    "store_command",
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
# GCIDE's senses (GPL-2+) are English lexical data kept in a component of their own.
GCIDE_FILE = "en/gcide.sqlite"

_DB_FILES = {
    "lexical": "{lang}/lexical.sqlite",
    "wordplay": "{lang}/wordplay.sqlite",
    "semantic": "{lang}/semantic.sqlite",
}


def schema_sql(name: str) -> str:
    """The DDL of one shipped schema (`lexical`, `wordplay`, `semantic` or `slang`); a
    language component's begins with the `meta` and `sources` tables of `common.sql`."""
    folder = resources.files("lexicon_server.corpus").joinpath("schema")
    own = folder.joinpath(f"{name}.sql").read_text()
    if name == "slang":  # the shared slang data has its own `sources` (with `trust`)
        return own
    return folder.joinpath("common.sql").read_text() + "\n" + own


class CapabilityUnavailable(LexiconServerError, LookupError):
    """A language/capability the active selection cannot serve, with one of the four reasons."""

    def __init__(self, language: str, capability: str, reason: str) -> None:
        self.language = language
        self.capability = capability
        self.reason = reason
        super().__init__(f"{capability} data for language {language!r} is unavailable: {reason}")


class SchemaMismatch(LexiconServerError, RuntimeError):
    """A component database has a schema version this server does not read."""


class Releasable(Protocol):
    """A reader lease (lexicon_store.leases.Lease)."""

    def release(self) -> None: ...


class Follower(Protocol):
    """Watches the data dir's active selection (see lexicon_server.corpus.live)."""

    def changed(self) -> bool: ...

    def open(self) -> tuple[ActiveSelection, Releasable | None] | None: ...


class DamagedComponent(LexiconServerError, OSError):
    """A component file of the active selection is missing, truncated or unreadable.

    Fails the one call that met it; the message names the component and the commands that
    find and fix the damage. `str()` is the local form (object paths included, for the log
    and stdio); `remote_message` names files only relative to the data dir (HTTP)."""

    def __init__(self, selection: ActiveSelection, relative: str, detail: str) -> None:
        self.relative = relative
        self.component = selection.components.get(relative, (relative, -1))[0]
        self.object_path = selection.files.get(relative)
        self.detail = detail
        self.verify_command = store_command(selection, "verify")
        self.repair_command = store_command(selection, "repair", with_source=True)
        self.remote_message = (
            f"damaged data: component {self.component} ({relative}) "
            f"{_without_paths(detail, selection.data_dir)}. On the server, find the damage "
            f"with: {store_command(selection, 'verify', local=False)} ; fix it with: "
            f"{store_command(selection, 'repair', with_source=True, local=False)}{_AFTERWARDS}"
        )
        super().__init__(
            f"damaged data: component {self.component} ({relative}, object "
            f"{self.object_path}) {detail}. Find the damage with: {self.verify_command} ; "
            f"fix it with: {self.repair_command}{_AFTERWARDS}"
        )


_AFTERWARDS = (
    " (a server started with --no-follow needs a restart afterwards; others pick up the "
    "repaired files by themselves)"
)


def _without_paths(text: str, data_dir: Path) -> str:
    """`text` with the data dir's absolute path replaced by a placeholder."""
    for root in {str(data_dir), str(data_dir.resolve())}:
        text = text.replace(root, "<data dir>")
    return text


def store_command(
    selection: ActiveSelection, command: str, *, with_source: bool = False, local: bool = True
) -> str:
    """`lexicon-data [--data-dir DIR] COMMAND [--from SOURCE]` for the selection's data dir.

    `--data-dir` is given unless it is the default one; `--from` (when asked for) is the
    release source the install used, when the activation record says so, else a
    placeholder naming the release. `local=False` leaves the server's paths out."""
    parts = ["lexicon-data"]
    data_dir = data_dir_value(selection, local=local)
    if data_dir is not None:
        parts.append(f"--data-dir {data_dir}")
    parts.append(command)
    if with_source:
        parts.append("--from " + release_source(selection, local=local))
    text = " ".join(parts)
    if data_dir == "DIR":
        text += " (DIR: the server's data dir)"
    return text


def data_dir_value(selection: ActiveSelection, *, local: bool = True) -> str | None:
    """The `--data-dir` value a printed command needs: None for the default data dir,
    else its path (shell-quoted), or `DIR` when the path is not to be shown (`local=False`)."""
    if selection.data_dir == default_data_dir():
        return None
    return shlex.quote(str(selection.data_dir)) if local else "DIR"


def release_source(selection: ActiveSelection, *, local: bool = True) -> str:
    """The `--from` value that reaches the selection's release: the source the install
    used when the activation record carries it, else a placeholder naming the release."""
    # Records written before the store kept the source have none.
    source = selection.source
    if isinstance(source, str) and source and (local or "://" in source):
        return shlex.quote(source)
    return f"<directory or URL of the {selection.dataset_version} release>"


# Primary SQLite result codes that mean the file, not the query, is at fault.
_DAMAGE_CODES = frozenset(
    getattr(sqlite3, name)
    for name in (
        "SQLITE_CORRUPT",
        "SQLITE_NOTADB",
        "SQLITE_IOERR",
        "SQLITE_CANTOPEN",
        "SQLITE_FORMAT",
        "SQLITE_PERM",
        "SQLITE_AUTH",
    )
)


def is_damage(exc: sqlite3.Error) -> bool:
    """Whether an SQLite error says the database file is damaged or unreadable (rather
    than that a statement is wrong)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF in _DAMAGE_CODES:
        return True
    if type(exc) is sqlite3.DatabaseError:  # "file is not a database", "malformed", ...
        return True
    text = str(exc)
    # Text that does not decode comes from a damaged page; the module raises it without
    # an SQLite code.
    return "malformed" in text or "not a database" in text or "decode to UTF-8" in text


def find_damage(selection: ActiveSelection) -> dict[str, DamagedComponent]:
    """Every component file that is missing or whose size differs from the activation
    record, by dataset-relative path (a stat per file, whatever the data's size)."""
    damaged: dict[str, DamagedComponent] = {}
    for relative, path in sorted(selection.files.items()):
        expected = selection.components.get(relative, ("", -1))[1]
        try:
            size = path.stat().st_size
        except FileNotFoundError:
            damaged[relative] = DamagedComponent(selection, relative, "is missing")
            continue
        except OSError as exc:
            damaged[relative] = DamagedComponent(selection, relative, f"cannot be read ({exc})")
            continue
        if expected >= 0 and size != expected:
            damaged[relative] = DamagedComponent(
                selection, relative, f"is {size} bytes, the activation record says {expected}"
            )
    return damaged


def check_sizes(selection: ActiveSelection) -> None:
    """Raise DamagedComponent for the first component file that `find_damage` reports."""
    for damage in find_damage(selection).values():
        raise damage


class _Generation:
    """One selection's open handles, and how many calls are using them right now."""

    def __init__(self, selection: ActiveSelection, lease: Releasable | None) -> None:
        self.selection = selection
        self.lease = lease
        # Files found missing or of the wrong size when the selection was opened: the
        # calls that need them fail with this damage, every other call is served.
        self.damaged = find_damage(selection)
        self.connections: dict[str, Connection] = {}
        self.caches: dict[str, dict[str, Any]] = {}
        self.users = 0
        self.retired = False

    def close(self) -> None:
        for conn in self.connections.values():
            conn.close()
        self.connections.clear()
        for cache in self.caches.values():
            for value in cache.values():
                closer = getattr(value, "close", None)
                if callable(closer):
                    closer()
        self.caches.clear()
        if self.lease is not None:
            self.lease.release()
            self.lease = None


class Corpus:
    """Read-only handles on the active selection, opened once per selection.

    With a ``follower`` (see ``corpus.live``), a call that starts after the data dir's
    ``current`` pointer moved opens the new selection; calls already running keep the one
    they started on, whose handles and lease are released when the last of them ends.
    """

    def __init__(
        self,
        selection: ActiveSelection,
        *,
        lease: Releasable | None = None,
        follower: Follower | None = None,
    ) -> None:
        self._latest = _Generation(selection, lease)
        self._follower = follower
        # Whether answers go to clients on other machines (HTTP): error answers then name
        # files relative to the data dir, never by the server's paths.
        self.remote_clients = False
        self._lock = threading.Lock()
        self._pinned: ContextVar[_Generation | None] = ContextVar(
            "lexicon_generation", default=None
        )

    def _generation(self) -> _Generation:
        return self._pinned.get() or self._latest

    @property
    def selection(self) -> ActiveSelection:
        return self._generation().selection

    @property
    def dataset_version(self) -> str:
        return self.selection.dataset_version

    @property
    def damaged(self) -> Mapping[str, DamagedComponent]:
        """The component files found damaged when the selection in use was opened."""
        return self._generation().damaged

    @contextmanager
    def pinned(self) -> Iterator[ActiveSelection]:
        """Run one call on one selection: the newest, switching to a new one first when the
        follower reports that the active selection changed."""
        if self._pinned.get() is not None:  # nested: already pinned by the caller
            yield self.selection
            return
        if self._follower is not None and self._follower.changed():
            self._switch()
        with self._lock:
            generation = self._latest
            generation.users += 1
        token = self._pinned.set(generation)
        try:
            yield generation.selection
        finally:
            self._pinned.reset(token)
            with self._lock:
                generation.users -= 1
                done = generation.retired and generation.users == 0
            if done:
                generation.close()

    def _switch(self) -> None:
        assert self._follower is not None
        opened = self._follower.open()
        if opened is None:
            return
        selection, lease = opened
        fresh = _Generation(selection, lease)
        with self._lock:
            old, self._latest = self._latest, fresh
            old.retired = True
            done = old.users == 0
        if done:
            old.close()

    def cache(self, name: str) -> dict[str, Any]:
        """A dict that lives and dies with the current selection's handles (values with a
        ``close()`` are closed with them)."""
        generation = self._generation()
        with self._lock:
            return generation.caches.setdefault(name, {})

    def require(self, language: str, capability: str) -> None:
        """Raise CapabilityUnavailable unless `capability` is installed for `language`."""
        reason = self.selection.availability(language, capability)
        if reason is not None:
            raise CapabilityUnavailable(language, capability, reason)

    def path(self, relative: str) -> Path:
        """Absolute path of a dataset-relative file of the active selection; raises its
        DamagedComponent if it was found damaged."""
        generation = self._generation()
        damage = generation.damaged.get(relative)
        if damage is not None:
            raise damage
        return generation.selection.files[relative]

    def db(self, language: str, capability: str) -> Connection:
        """A read-only, query-only connection to one component database (cached), with the
        facts and memos kept for it (`corpus.connection`)."""
        self.require(language, capability)
        relative = _DB_FILES[capability].format(lang=language)
        return self._connection(self._generation(), relative, capability)

    def extra_db(self, relative: str, schema: str) -> sqlite3.Connection | None:
        """A connection to a component the selection may or may not hold beside its
        capability's main file (a language's MyThes thesaurus, `de/thesaurus.sqlite`;
        GCIDE's senses, `en/gcide.sqlite`); None when it holds none."""
        generation = self._generation()
        if relative not in generation.selection.files:
            return None
        return self._connection(generation, relative, schema)

    def _connection(self, generation: _Generation, relative: str, schema: str) -> Connection:
        """The generation's cached connection to `relative`, opened on first use."""
        with self._lock:
            conn = generation.connections.get(relative)
            if conn is None:
                conn = _open_component(generation, relative, schema)
                generation.connections[relative] = conn
            return conn

    def forget(self) -> None:
        """Drop every fact and memo kept for the open connections of the selection in use
        (for measuring cold look-ups; pages SQLite cached stay)."""
        generation = self._generation()
        with self._lock:
            connections = list(generation.connections.values())
        for conn in connections:
            conn.forget()

    def damage(self) -> DamagedComponent | None:
        """The first damaged component file of the selection in use, if any (sizes
        checked again now)."""
        for damage in find_damage(self.selection).values():
            return damage
        return None

    def close(self) -> None:
        with self._lock:
            generation = self._latest
        generation.close()


def _open_component(generation: _Generation, relative: str, schema: str) -> Connection:
    selection = generation.selection
    damage = generation.damaged.get(relative)
    if damage is not None:
        raise damage

    def failed(exc: sqlite3.DatabaseError) -> BaseException:
        if is_damage(exc):
            return DamagedComponent(selection, relative, f"cannot be read ({exc})")
        return exc

    try:
        conn = _open_readonly(selection.files[relative], schema, relative)
    except sqlite3.DatabaseError as exc:
        raise DamagedComponent(selection, relative, f"cannot be opened ({exc})") from None
    conn.failed = failed
    return conn


def _open_readonly(path: Path, schema: str, name: str) -> Connection:
    # immutable=1: objects are read-only and never change under us, so SQLite can skip locking.
    conn = sqlite3.connect(
        f"{path.resolve().as_uri()}?mode=ro&immutable=1",
        uri=True,
        check_same_thread=False,
        factory=Connection,
    )
    try:
        conn.execute("PRAGMA query_only = ON")
        # Objects never change once installed, so mapping them would be safe; see
        # _MMAP_BYTES for why it is off.
        conn.execute(f"PRAGMA mmap_size = {_MMAP_BYTES}")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.DatabaseError:
        conn.close()  # a file that is no database: the caller reports the damage
        raise
    readable = READABLE_VERSIONS[schema]
    if version not in readable:
        conn.close()
        raise SchemaMismatch(
            f"{name} has {schema} schema version {version}, this server reads version "
            f"{' or '.join(map(str, readable))}; install the matching data release with "
            "`lexicon-data install`"
        )
    return conn
