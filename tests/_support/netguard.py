"""Run `lexicon-mcp` with every network attempt recorded and refused.

An audit hook sees each socket connect / name resolution in this process; it appends
the event to $LEXICON_NETGUARD_LOG and raises, so an attempt fails the run instead of
passing unnoticed. With $LEXICON_NETGUARD_PROBE set, the script first tries a
connection itself, to prove the guard fires. Used by the server and slang stdio tests.
"""

from __future__ import annotations

import os
import sys
from typing import Any

# The same events the release gates deny, so both guards watch one list.
from lexicon_server.release.netguard import EVENTS as _EVENTS


def _hook(event: str, args: tuple[Any, ...]) -> None:
    if event in _EVENTS:
        with open(os.environ["LEXICON_NETGUARD_LOG"], "a", encoding="utf-8") as log:
            log.write(f"{event} {args!r}\n")
        raise RuntimeError(f"network access attempted at run time: {event}")


sys.addaudithook(_hook)

if os.environ.get("LEXICON_NETGUARD_PROBE"):
    import socket

    socket.create_connection(("127.0.0.1", 9), timeout=1)

from lexicon_server.cli import main  # noqa: E402

main()
