"""Kill a child process at a chosen point, the way a crash or an operator would."""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Callable
from typing import Any

__all__ = ["kill_when"]


def kill_when(proc: subprocess.Popen[Any], ready: Callable[[], bool], timeout: float = 60) -> None:
    """Wait until `ready()` holds while `proc` still runs, then SIGKILL it and reap it.

    Fails the test if the child exits first or never gets there; never leaves it running.
    """
    deadline = time.monotonic() + timeout
    try:
        while not ready():
            assert proc.poll() is None, "the child exited before reaching the kill point"
            assert time.monotonic() < deadline, "the child never reached the kill point"
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
