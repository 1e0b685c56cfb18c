"""Command-line arguments the store tests repeat."""

from __future__ import annotations

from typing import Any

__all__ = ["install_argv"]


def install_argv(release: Any, languages: str, *more: str) -> list[str]:
    """`install --from <release dir> --languages L --manifest-digest D` plus `more`."""
    return [
        "install",
        "--from",
        str(release.dir),
        "--languages",
        languages,
        "--manifest-digest",
        release.digest,
        *more,
    ]
