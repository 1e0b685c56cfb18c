"""Run one of the project's command lines in a fresh process, as users do."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Mapping

__all__ = ["environ_without", "run_module"]


def environ_without(drop: Callable[[str], bool]) -> dict[str, str]:
    """This process's environment less the variables `drop` names (so the caller's own
    LEXICON_* settings do not leak into the process under test)."""
    return {k: v for k, v in os.environ.items() if not drop(k)}


def run_module(
    module: str,
    *args: str,
    env: Mapping[str, str] | None = None,
    timeout: float,
    check: bool = False,
) -> subprocess.CompletedProcess[str]:
    """`python -m MODULE ARGS` in `env` (else this environment), its text output captured."""
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        capture_output=True,
        text=True,
        env=None if env is None else dict(env),
        check=check,
        timeout=timeout,
    )
