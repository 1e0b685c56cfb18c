"""The activation record keeps the release source the install used, so that the fix
commands printed by errors (`repair --from`, `add-language --from`) run as printed."""

from __future__ import annotations

from pathlib import Path

from lexicon_server.corpus.reader import release_source
from lexicon_store import ops
from lexicon_store.selection import load_active

from .conftest import Release


def test_install_records_its_source_and_fixes_name_it(release: Release, tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    ops.install(
        data_dir=data_dir,
        source=str(release.dir),
        all_languages=True,
        manifest_digest=release.digest,
    )
    selection = load_active(data_dir)
    assert selection.source == str(release.dir.resolve())
    assert release_source(selection) == str(release.dir.resolve())
    # A local directory means nothing to a client on another machine.
    assert "release" in release_source(selection, local=False)
    assert str(release.dir) not in release_source(selection, local=False)
