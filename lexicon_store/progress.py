"""The progress callback the library reports through; the CLI turns it into tqdm bars."""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["Progress", "no_progress"]

# progress(task, advanced, total): ``advanced`` units (bytes) were done since the last
# call for ``task``; ``total`` is the task's whole size (0 when unknown). Called from the
# thread doing the work; it must be cheap and must not raise.
Progress = Callable[[str, int, int], None]


def no_progress(task: str, advanced: int, total: int) -> None:
    """The default: report nothing."""
