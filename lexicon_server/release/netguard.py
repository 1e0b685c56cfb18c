"""Deny the network to this process, and to the children acceptance starts.

An audit hook sees every socket connect, name resolution and datagram send; while the
guard is on it appends the event to a log file and raises, so an attempt fails loudly and
is counted in the acceptance report. Children are started as
``python -m lexicon_server.release.netguard LOG MODULE [ARGS...]``: the same hook is
installed before ``MODULE`` runs as ``__main__``. (Audit hooks cannot be removed, so in
the accepting process the hook stays installed and is switched on and off.)
"""

from __future__ import annotations

import runpy
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = ["EVENTS", "attempts", "denied", "guarded_command"]

EVENTS = frozenset(
    {
        "socket.connect",
        "socket.connect_ex",
        "socket.getaddrinfo",
        "socket.gethostbyname",
        "socket.gethostbyname_ex",
        "socket.gethostbyaddr",
        "socket.sendto",
        "urllib.Request",
    }
)

_state: dict[str, Path | None] = {"log": None}
_installed = False


def _hook(event: str, args: tuple[Any, ...]) -> None:
    log = _state["log"]
    if log is None or event not in EVENTS:
        return
    with open(log, "a", encoding="utf-8") as handle:
        handle.write(f"{event} {args!r}\n")
    raise PermissionError(f"network access denied during acceptance: {event}")


def _install(log: Path) -> None:
    global _installed
    if not _installed:
        sys.addaudithook(_hook)
        _installed = True
    _state["log"] = log


@contextmanager
def denied(log: Path) -> Iterator[None]:
    """Refuse (and record in ``log``) every network attempt in this process meanwhile."""
    log.touch()
    _install(log)
    try:
        yield
    finally:
        _state["log"] = None


def attempts(log: Path) -> list[str]:
    """The attempts recorded in ``log`` (by this process or a guarded child)."""
    if not log.exists():
        return []
    return [line for line in log.read_text(encoding="utf-8").splitlines() if line]


def guarded_command(log: Path, module: str, *args: str) -> list[str]:
    """argv that runs ``python -m module args`` with the network denied from its start."""
    return [sys.executable, "-m", "lexicon_server.release.netguard", str(log), module, *args]


def _main() -> None:
    log, module, *rest = sys.argv[1:]
    _install(Path(log))
    sys.argv = [module, *rest]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    _main()
