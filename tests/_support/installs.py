"""Install a packaged release into a data dir through the store, whole or narrowed."""

from __future__ import annotations

from pathlib import Path

from lexicon_store import ops
from lexicon_store.selection import load_active

__all__ = ["install_english_lexical", "install_release"]


def install_release(release: Path, digest: str, data_dir: Path) -> Path:
    """Every language of `release` (pinned to `digest`) installed and active in `data_dir`."""
    ops.install(data_dir=data_dir, source=str(release), all_languages=True, manifest_digest=digest)
    return data_dir


def install_english_lexical(release: Path, digest: str, data_dir: Path) -> str:
    """Narrow (or install) `data_dir` to English lexical data only; the new activation id."""
    ops.install(
        data_dir=data_dir,
        source=str(release),
        languages=["en"],
        capabilities=["lexical"],
        manifest_digest=digest,
    )
    return load_active(data_dir).activation_id
