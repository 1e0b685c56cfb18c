"""Non-blocking exclusive locks on an open file (stdlib only: the reader imports it)."""

from __future__ import annotations

import errno
import fcntl

__all__ = ["try_exclusive"]

_BUSY = (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES)


def try_exclusive(fd: int) -> bool:
    """Take an exclusive flock on `fd` if nobody holds one; False when it is held.

    The lock dies with the descriptor (or the process), which is what makes a killed
    holder's lock free again.
    """
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno not in _BUSY:
            raise
        return False
    return True
