"""Read deadlines for every HTTP connection: headers, then body, each within its time.

uvicorn has no timeout on receiving a request: `timeout_keep_alive` covers only the idle
time between requests and is reset by every byte received, and a connection that sends
nothing at all is never closed. A client that sends half a header (or one byte a
minute) holds a connection, and a task, for ever — before any ASGI middleware, the
bearer-token check included, sees the request. ASGI cannot help: the app is called only
once the headers are complete.

`ReadDeadlineH11` is uvicorn's h11 protocol with two absolute deadlines per request:
the headers must be complete within `header_timeout` seconds of the connection opening
(or of the first byte of a later request on a kept-alive connection), and the body
within `body_timeout` seconds of the headers. A connection that misses either gets
`408 Request Timeout` and is closed. Once a request is received, nothing is timed:
answers (an SSE stream included) take what they take. The deadlines are read from the
uvicorn config (`ReadTimeouts`, set by `configure`), which uvicorn hands to each worker
process too.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = [
    "DEFAULT_BODY_TIMEOUT",
    "DEFAULT_HEADER_TIMEOUT",
    "PROTOCOL",
    "ReadDeadlineH11",
    "ReadTimeouts",
    "configure",
]

# Documented in docs/deploying.md ("Read timeouts").
DEFAULT_HEADER_TIMEOUT = 10.0
DEFAULT_BODY_TIMEOUT = 30.0
# The import string uvicorn's `http` setting takes (it also works in worker processes).
PROTOCOL = "lexicon_server.http_deadlines:ReadDeadlineH11"
_ATTRIBUTE = "lexicon_read_timeouts"
_BODY = b"the request did not arrive within its time\n"
_TIMED_OUT = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain\r\nconnection: close\r\n"
    + f"content-length: {len(_BODY)}\r\n\r\n".encode("ascii")
    + _BODY
)


@dataclass(frozen=True)
class ReadTimeouts:
    """Seconds a request's headers, then its body, may take to arrive."""

    header: float = DEFAULT_HEADER_TIMEOUT
    body: float = DEFAULT_BODY_TIMEOUT


def configure(config: Any, timeouts: ReadTimeouts) -> None:
    """Make the uvicorn `config` serve with `ReadDeadlineH11` under `timeouts`."""
    config.http = PROTOCOL
    setattr(config, _ATTRIBUTE, timeouts)


class ReadDeadlineH11(H11Protocol):
    """uvicorn's h11 protocol, closing connections whose request does not arrive in time."""

    def __init__(self, config: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)
        self._timeouts: ReadTimeouts = getattr(config, _ATTRIBUTE, ReadTimeouts())
        self._phase: str | None = None  # "headers", "body" or None (nothing timed)
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._enter("headers")

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._track()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._track()

    def connection_lost(self, exc: Exception | None) -> None:
        self._enter(None)
        super().connection_lost(exc)

    def _track(self) -> None:
        """Time what the client is sending now: headers of a request begun, or a body."""
        state = self.conn.their_state
        if state is h11.SEND_BODY:
            self._enter("body")
        elif state is h11.IDLE and (self._phase == "headers" or self.conn.trailing_data[0]):
            self._enter("headers")
        else:
            self._enter(None)

    def _enter(self, phase: str | None) -> None:
        if phase == self._phase:
            return  # a deadline runs from the start of its phase, not from the last byte
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self._phase = phase
        if phase is not None and not self.transport.is_closing():
            seconds = self._timeouts.header if phase == "headers" else self._timeouts.body
            self._deadline = self.loop.call_later(seconds, self._expired)

    def _expired(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        if self.cycle is None or not self.cycle.response_started:
            self.transport.write(_TIMED_OUT)
        self.transport.close()
