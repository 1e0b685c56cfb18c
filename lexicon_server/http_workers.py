"""`--workers N`: uvicorn's supervisor, each worker accepting on a socket of its own.

With one listening socket shared by every worker, every worker's event loop wakes when
connections arrive and the first one to run accepts all that are queued (asyncio accepts
up to the backlog per wake-up, 2,048 with uvicorn), so a burst of clients lands on one
worker and stays there on keep-alive: in 3 of 5 benchmark drives all 32 connections did
(issue 28). On Linux each worker here accepts on its own socket, all bound to the port
with SO_REUSEPORT, and the kernel hands each new connection to one of them by a hash of
its addresses and ports. The supervisor binds and listens on every socket before it
starts a worker, so connections are spread from the first one on, and keeps them open: a
worker that dies is replaced on the same socket, so the connections the kernel sent to
it meanwhile wait in its queue rather than being refused.

Elsewhere (no SO_REUSEPORT, or one that does not spread connections: macOS and the BSDs
give them all to one socket) the workers share one socket, as uvicorn's own workers do.
"""

from __future__ import annotations

import errno
import logging
import socket
import sys

from uvicorn.config import STARTUP_FAILURE, Config
from uvicorn.supervisors.multiprocess import Multiprocess, Process

__all__ = ["PerWorkerSockets", "balances", "listening_sockets", "supervisor"]

logger = logging.getLogger("uvicorn.error")


def balances() -> bool:
    """Whether this kernel spreads connections across sockets bound with SO_REUSEPORT."""
    return sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT")


def _bound(host: str, port: int, reuse_port: bool) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # Made with IPPROTO_TCP, not protocol 0: asyncio turns TCP_NODELAY on only for sockets
    # whose protocol is IPPROTO_TCP, and without it each answer waited ~40 ms for a delayed
    # ACK (Nagle). uvicorn's own binding uses protocol 0.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def listening_sockets(
    host: str, port: int, count: int, backlog: int
) -> tuple[list[socket.socket], bool]:
    """(`count` sockets listening on (host, port) with SO_REUSEPORT, one per worker, True);
    where the kernel does not spread connections across such sockets, ([one socket, bound
    and not yet listening, as uvicorn's supervisor has it], False). OSError when the port
    is taken."""
    # Taken by anyone, a process of this user listening with SO_REUSEPORT included: that
    # one would otherwise join our sockets' group and be handed some of our clients.
    _bound(host, port, reuse_port=False).close()
    if not balances():
        return [_bound(host, port, reuse_port=False)], False
    sockets: list[socket.socket] = []
    try:
        for _ in range(count):
            sock = _bound(host, port, reuse_port=True)
            sockets.append(sock)
            sock.listen(backlog)
    except OSError as exc:
        for sock in sockets:
            sock.close()
        if exc.errno in (errno.ENOPROTOOPT, errno.EINVAL) and not sockets:
            return [_bound(host, port, reuse_port=False)], False  # SO_REUSEPORT refused
        raise
    return sockets, True


class PerWorkerSockets(Multiprocess):
    """uvicorn's supervisor (a dead worker replaced, SIGINT/SIGTERM stop all, SIGHUP
    replaces each in turn), with worker k always accepting on `sockets[k]`."""

    def __init__(self, config: Config, sockets: list[socket.socket]) -> None:
        super().__init__(config, sockets)
        self.slots = sockets

    def _start(self, slot: int) -> Process:
        process = Process(self.config, [self.slots[slot]])
        process.start()
        return process

    def init_processes(self) -> None:
        self.processes = [self._start(slot) for slot in range(self.processes_num)]

    def keep_subprocess_alive(self) -> None:
        # uvicorn 0.54's own loop, but the replacement takes its predecessor's socket.
        if self.should_exit.is_set():
            return
        for slot, process in enumerate(self.processes):
            if process.is_alive(timeout=self.config.timeout_worker_healthcheck):
                continue
            process.kill()  # hung, or already gone
            process.join()
            if process.exitcode == STARTUP_FAILURE:
                # It failed before serving: every restart would fail the same way.
                logger.error(f"Child process [{process.pid}] failed to start, stopping.")
                self.should_exit.set()
                return
            if self.should_exit.is_set():
                return
            logger.info(f"Child process [{process.pid}] died")
            self.processes[slot] = self._start(slot)

    def restart_all(self) -> None:
        """SIGHUP: replace each worker in turn, the new one serving before the old stops."""
        for slot, old in enumerate(self.processes):
            if self.should_exit.is_set():
                return
            new = self._start(slot)
            if not new.wait_until_ready(self.config.timeout_worker_healthcheck, self.should_exit):
                new.kill()
                new.join()
                logger.error(f"New child process [{new.pid}] was not ready; restart stopped.")
                return
            old.terminate()
            old.join()
            self.processes[slot] = new

    def handle_ttin(self) -> None:
        logger.warning("SIGTTIN ignored: the number of workers is fixed by --workers")

    def handle_ttou(self) -> None:
        logger.warning("SIGTTOU ignored: the number of workers is fixed by --workers")


def supervisor(config: Config) -> Multiprocess:
    """The supervisor of `config.workers` processes on `config.host:config.port`: one
    socket per worker where the kernel spreads connections, else one shared socket (and
    a note on stderr). OSError when the port is taken."""
    sockets, spread = listening_sockets(config.host, config.port, config.workers, config.backlog)
    if not spread:
        print(
            f"lexicon-mcp: the {config.workers} workers share one listening socket (no "
            "SO_REUSEPORT that spreads connections here): one worker may take most clients",
            file=sys.stderr,
        )
        return Multiprocess(config, sockets=sockets)
    return PerWorkerSockets(config, sockets)
