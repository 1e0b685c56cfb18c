"""Run `lexicon-mcp` with every outgoing network attempt recorded and refused.

An audit hook sees each socket connect and name resolution in this process, appends it
to $SLANG_NETGUARD_LOG and raises, so an attempt fails loudly instead of passing unseen.
"""

from __future__ import annotations

import os
import sys
from typing import Any

_EVENTS = {
    "socket.connect",
    "socket.connect_ex",
    "socket.getaddrinfo",
    "socket.gethostbyname",
    "socket.gethostbyname_ex",
    "socket.sendto",
}


def _hook(event: str, args: tuple[Any, ...]) -> None:
    if event in _EVENTS:
        with open(os.environ["SLANG_NETGUARD_LOG"], "a", encoding="utf-8") as log:
            log.write(f"{event} {args!r}\n")
        raise RuntimeError(f"network access attempted: {event}")


sys.addaudithook(_hook)

if os.environ.get("SLANG_NETGUARD_PROBE"):
    import socket

    socket.create_connection(("127.0.0.1", 9), timeout=1)

from lexicon_server.cli import main  # noqa: E402

main()
