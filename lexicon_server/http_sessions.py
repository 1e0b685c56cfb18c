"""The SDK's session manager, with room made at the session limit instead of 503s.

At `max_sessions` the SDK refuses every new client with 503 until some session ends, and
abandoned sessions end only at their idle timeout. Here, a new client at the limit
closes the least recently active session that has no request in flight; its client's
next request gets 404 and it opens a new session, as the protocol asks clients to do.
Only when every session is busy is a new client refused (503).

This relies on three attributes of the SDK 2.3 manager and transport
(`_server_instances`, `_session_owners`, `idle_scope`); tests/server/transport/test_http_options.py
fails if they change.
"""

from __future__ import annotations

import logging
import math
from typing import TYPE_CHECKING, Any

from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

if TYPE_CHECKING:
    from mcp.server.streamable_http import StreamableHTTPServerTransport

__all__ = ["EvictingSessionManager"]

_log = logging.getLogger(__name__)


class EvictingSessionManager(StreamableHTTPSessionManager):
    evicted = 0  # sessions closed to make room (per process), for tests and logs

    def _admit_session(self, requestor: Any) -> StreamableHTTPServerTransport | None:
        if self.max_sessions is not None and len(self._server_instances) >= self.max_sessions:
            self._evict_idlest()
        return super()._admit_session(requestor)

    def _evict_idlest(self) -> None:
        best_id: str | None = None
        best_deadline = math.inf
        for session_id, transport in self._server_instances.items():
            scope = transport.idle_scope
            # An idle session's deadline is its last activity plus the idle timeout; a
            # session serving a request has an infinite one and is never chosen.
            if scope is not None and not scope.cancel_called and scope.deadline < best_deadline:
                best_id, best_deadline = session_id, scope.deadline
        if best_id is None:
            return
        transport = self._server_instances.pop(best_id)
        self._session_owners.pop(best_id, None)
        assert transport.idle_scope is not None
        transport.idle_scope.cancel()  # its server task ends and terminates the transport
        type(self).evicted += 1
        _log.info("session limit reached: closed the idlest session %s", best_id[:8])
