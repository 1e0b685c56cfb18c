"""Open the active selection for a long-running server, hold its reader lease, follow it.

`open_serving` loads the active selection, takes a reader lease on it (so `prune` keeps
what it serves; see lexicon_store/leases.py) and checks every component file's size
against the activation record: a damaged file fails only the calls that need it
(`Corpus.damaged`). `ActiveFollower` then watches the data dir's `current`
pointer (one `stat` per tool call): when `activate`, `install` or `repair` replaces it,
the next call opens the new selection under a new lease, and the corpus releases the
old one once the calls still running on it have finished.
"""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path

from lexicon_server.corpus.reader import Corpus, DamagedComponent, check_sizes
from lexicon_store.leases import Lease, hold_lease
from lexicon_store.selection import (
    ActiveSelection,
    NoActiveSelection,
    default_data_dir,
    load_active,
)

__all__ = ["ActiveFollower", "acquire", "open_serving"]

_log = logging.getLogger(__name__)
_PROGRAM = "lexicon-mcp"
_Stamp = tuple[int, int, int] | None


def _stamp(data_dir: Path) -> _Stamp:
    try:
        st = os.stat(data_dir / "current")
    except OSError:
        return None
    # The pointer is only ever replaced (a new inode), never rewritten in place.
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def acquire(
    data_dir: Path | None, program: str = _PROGRAM, *, strict: bool = True
) -> tuple[ActiveSelection, Lease | None]:
    """The active selection, leased and (when `strict`) size-checked.

    Raises NoActiveSelection, or (when `strict`) DamagedComponent naming the first damaged
    file. The lease
    is taken before the check, and the pointer read again after it: a prune that planned
    before the lease existed can only have deleted objects of a selection that was no
    longer current, and then we start over on the current one.
    """
    for _attempt in range(5):
        selection = load_active(data_dir)
        lease: Lease | None
        try:
            lease = hold_lease(selection, program)
        except OSError as exc:
            # A read-only data dir (a shared system install): serve without a lease.
            _log.warning(
                "cannot take a reader lease in %s (%s); `lexicon-data prune` will not know "
                "this server uses activation %s",
                selection.data_dir,
                exc,
                selection.activation_id,
            )
            lease = None
        try:
            if load_active(data_dir).activation_id != selection.activation_id:
                continue
            if strict:
                check_sizes(selection)
        except BaseException:
            if lease is not None:
                lease.release()
            raise
        return selection, lease
    raise NoActiveSelection(
        Path(data_dir) if data_dir is not None else Path("."),
        "the active selection kept changing while the server started",
    )


class ActiveFollower:
    """Tells the corpus when the active selection changed, and opens the new one."""

    def __init__(self, data_dir: Path, seen: _Stamp, program: str = _PROGRAM) -> None:
        self.data_dir = data_dir
        self._program = program
        self._seen = seen  # the pointer as it was just before the open selection was read
        self._lock = threading.Lock()

    def changed(self) -> bool:
        return _stamp(self.data_dir) != self._seen

    def open(self) -> tuple[ActiveSelection, Lease | None] | None:
        with self._lock:
            stamp = _stamp(self.data_dir)
            if stamp == self._seen:
                return None  # another call switched first
            # Whatever happens, this pointer state is dealt with: a broken new selection
            # is reported once, and the server keeps serving the one it has.
            self._seen = stamp
            try:
                selection, lease = acquire(self.data_dir, self._program)
            except (NoActiveSelection, DamagedComponent) as exc:
                _log.error("keeping the selection already open: the new one fails: %s", exc)
                return None
            _log.warning(
                "now serving activation %s (%s)", selection.activation_id, selection.dataset_version
            )
            return selection, lease


def open_serving(data_dir: Path | None, *, follow: bool = True) -> Corpus:
    """A corpus over the active selection, under a reader lease, following the pointer.

    A damaged component file does not stop it: the corpus serves what is sound, and
    `Corpus.damaged` says what is not (the calls that need it fail with that damage).
    A new selection the follower finds damaged is not switched to: the sound one stays."""
    root = Path(data_dir) if data_dir is not None else default_data_dir()
    seen = _stamp(root)
    selection, lease = acquire(root, strict=False)
    follower = ActiveFollower(root, seen) if follow else None
    return Corpus(selection, lease=lease, follower=follower)
