"""One component database connection and everything read once for it.

`Corpus.db()` returns a `Connection`: an `sqlite3.Connection` that also keeps the facts
of its database (the sources table, which indexes and columns a release has...) and the
answers kept across calls (synset members, whether a word has an entry...). Installed
objects never change, so nothing kept goes stale; it lives and dies with the connection,
and `forget()` empties all of it at once (for measuring cold look-ups).

Every read error of the database passes through one place, `Connection.failed`: the reader
sets it to turn an error that means a damaged file ("database disk image is malformed",
"file is not a database") into `DamagedComponent`, whichever query met it.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Any, Generic, TypeVar, cast

__all__ = ["Connection", "Cursor", "Memo", "kept"]

_K = TypeVar("_K")
_V = TypeVar("_V")
_T = TypeVar("_T")
_MISSING = object()


class Memo(Generic[_K, _V]):
    """Answers kept for one connection, at most `size` (oldest out first)."""

    __slots__ = ("_answers", "_lock", "size")

    def __init__(self, size: int, lock: threading.Lock) -> None:
        self.size = size
        self._lock = lock
        self._answers: dict[_K, _V] = {}

    def get(self, key: _K) -> _V | None:
        return self._answers.get(key)

    def split(self, keys: Iterable[_K]) -> tuple[dict[_K, _V], list[_K]]:
        """The kept answers among `keys`, and the keys still to be read."""
        answers = self._answers
        found: dict[_K, _V] = {}
        missing: list[_K] = []
        for key in keys:
            value = answers.get(key)
            if value is None:
                missing.append(key)
            else:
                found[key] = value
        return found, missing

    def keep(self, fresh: Mapping[_K, _V]) -> None:
        answers = self._answers
        with self._lock:
            answers.update(fresh)
            # Dicts keep insertion order: drop the oldest (FIFO, no bookkeeping on hits).
            while len(answers) > self.size:
                del answers[next(iter(answers))]

    def __len__(self) -> int:
        return len(self._answers)


def _through_failed(read: Callable[..., _T]) -> Callable[..., _T]:
    """The `sqlite3.Cursor` method `read` with its database errors passed to the
    connection's `failed` (if it has one): raised as they are, or as the damage they mean."""

    def method(self: sqlite3.Cursor, *args: Any) -> _T:
        try:
            return read(self, *args)
        except sqlite3.DatabaseError as exc:
            failed = getattr(self.connection, "failed", None)
            raised = exc if failed is None else failed(exc)
            if raised is exc:
                raise
            raise raised from exc

    return method


class Cursor(sqlite3.Cursor):
    """A cursor whose every read goes through `_through_failed`."""

    __slots__ = ()

    execute = _through_failed(sqlite3.Cursor.execute)
    fetchone = _through_failed(sqlite3.Cursor.fetchone)
    fetchmany = _through_failed(sqlite3.Cursor.fetchmany)
    fetchall = _through_failed(sqlite3.Cursor.fetchall)
    __next__ = _through_failed(sqlite3.Cursor.__next__)


class Connection(sqlite3.Connection):
    """A read-only component connection (open it with `factory=Connection`) that keeps
    the facts and memos of its database, keyed by whoever asks, and reads through
    `Cursor`, so that every read error meets `failed`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._kept: dict[Hashable, Any] = {}
        self._kept_lock = threading.Lock()
        # What a read error becomes (the reader sets it): the error itself, or the
        # damage it reveals.
        self.failed: Callable[[sqlite3.DatabaseError], BaseException] | None = None

    def execute(self, sql: str, parameters: Any = (), /) -> Cursor:
        # Through cursor(), not Cursor(self): sqlite3 keeps a weak reference to every
        # cursor of a connection and drops the dead ones only in cursor(), every 200th
        # call, so cursors made directly grew that list by ~90 bytes a read, forever
        # (a server's RSS rose ~12 MiB a minute under load: issue 28's soak).
        return cast(Cursor, self.cursor().execute(sql, parameters))

    def cursor(self, factory: Any = None) -> Any:
        return super().cursor(Cursor if factory is None else factory)

    def fact(self, key: Hashable, read: Callable[[], _T]) -> _T:
        """The fact `key`, read once by `read()` and kept while the connection lives."""
        value = self._kept.get(key, _MISSING)
        if value is _MISSING:
            value = read()
            with self._kept_lock:
                value = self._kept.setdefault(key, value)
        return cast(_T, value)

    def memo(self, key: Hashable, size: int) -> Memo[Any, Any]:
        """The bounded memo `key` of this connection (made empty on first use)."""
        memo = self._kept.get(key)
        if memo is None:
            with self._kept_lock:
                memo = self._kept.setdefault(key, Memo(size, self._kept_lock))
        return cast(Memo[Any, Any], memo)

    def forget(self) -> None:
        """Drop every fact and memo kept for this connection."""
        with self._kept_lock:
            self._kept.clear()

    def close(self) -> None:
        self.forget()  # what is kept may refer back to the connection
        super().close()


def kept(conn: sqlite3.Connection) -> Connection:
    """`conn` as the connection that keeps its facts; only `Corpus.db()` makes those."""
    if not isinstance(conn, Connection):
        raise TypeError(
            "query functions read component databases opened by Corpus.db() "
            f"(lexicon_server.corpus.connection.Connection), not {type(conn).__name__}"
        )
    return conn
