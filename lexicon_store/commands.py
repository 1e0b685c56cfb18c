"""The ``lexicon-data`` commands that store errors print as fixes, runnable as printed."""

from __future__ import annotations

import shlex
from pathlib import Path

__all__ = ["repair_command", "store_command"]


def store_command(data_dir: Path, *args: str) -> str:
    """``lexicon-data --data-dir DIR ARGS...``, quoted for a POSIX shell.

    The data dir is always named: the reader may run it from another shell, where
    ``$LEXICON_DATA_DIR`` is not what it was here.
    """
    return shlex.join(["lexicon-data", "--data-dir", str(data_dir), *args])


def repair_command(data_dir: Path, source: str | None, version: str) -> str:
    """The repair command for ``data_dir``, from the source the install used if known."""
    if source is None:
        return store_command(data_dir, "repair", "--from") + f" <the {version} release>"
    return store_command(data_dir, "repair", "--from", source)
