"""The real starter release passes every acceptance gate of its shipped profile."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from lexicon_server.release.accept import accept_release
from lexicon_server.release.acceptance_profile import load_profile


@pytest.mark.starter
def test_the_starter_release_is_accepted(starter_dataset: Path, tmp_path: Path) -> None:
    from lexicon_server.builder.config import load_build_config
    from lexicon_server.release.start import package_starter, starter_session

    config = load_build_config()
    with starter_session(config):
        release, digest = package_starter(starter_dataset, config, lambda _m: None)
        wordnet = next(
            p.parent for p in sorted(config.cache_dir.rglob("index.sense"))
            if (p.parent / "data.noun").exists()
        )  # fmt: skip
        profile = replace(load_profile(None, "starter"), wordnet_dir=wordnet)
        report = accept_release(release, profile, tmp_path / "report.json")
    failed = {g["name"]: g["detail"] for g in report["gates"] if not g["passed"]}
    assert report["manifest_digest"] == digest
    assert not failed and report["passed"]
