"""The maintainer's side of a data release: stage it, then publish it behind its report.

``stage``: the store's transport (``lexicon_store.publish``) writes the release to the
target and reads every asset back. ``publish``: refuses unless the acceptance report is
for exactly this manifest digest and records every required gate passed; then the store
verifies the staged assets again and writes the release index last. It returns the line
that the code release adds to ``lexicon_store/pins.py``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lexicon_server.builder.errors import BuildError
from lexicon_server.release.accept import REPORT_FORMAT, REQUIRED_GATES

__all__ = ["Published", "check_report", "pin_line", "publish", "stage"]


@dataclass(frozen=True)
class Published:
    entry: dict[str, Any]
    pin: str


def _manifest_digest(release_dir: Path) -> str:
    from lexicon_store.digests import digest_bytes

    path = release_dir / "manifest.json"
    if not path.is_file():
        raise BuildError(f"{release_dir} has no manifest.json; package it first")
    return digest_bytes(path.read_bytes())


def check_report(report_path: Path, manifest_digest: str) -> bytes:
    """The report's bytes if it accepts exactly ``manifest_digest`` with every gate passed;
    otherwise a BuildError naming what is missing."""
    try:
        data = report_path.read_bytes()
        report = json.loads(data)
    except (OSError, ValueError) as exc:
        raise BuildError(f"cannot read the acceptance report {report_path}: {exc}") from None
    if not isinstance(report, dict) or report.get("format") != REPORT_FORMAT:
        raise BuildError(f"{report_path} is not a format {REPORT_FORMAT} acceptance report")
    if report.get("manifest_digest") != manifest_digest:
        raise BuildError(
            f"{report_path} accepts manifest {report.get('manifest_digest')}, not this release's "
            f"{manifest_digest}; run `lexicon-build accept RELEASE_DIR` on this release"
        )
    gates = {g.get("name"): g for g in report.get("gates", []) if isinstance(g, dict)}
    for name in REQUIRED_GATES:
        gate = gates.get(name)
        if gate is None:
            raise BuildError(f"{report_path} records no {name!r} gate; accept the release again")
        if gate.get("passed") is not True:
            raise BuildError(
                f"{report_path}: gate {name!r} did not pass ({gate.get('detail')}); "
                "fix it and accept the release again"
            )
    if report.get("passed") is not True:
        raise BuildError(f"{report_path} does not record the release as passed")
    return data


def pin_line(dataset_version: str, manifest_digest: str) -> str:
    return f'    "{dataset_version}": "{manifest_digest}",'


def _reader(target: Any, public_url: str | None) -> Any:
    from lexicon_store.targets import HttpReader

    return HttpReader(public_url) if public_url else target.reader()


def stage(release_dir: Path, to: str, public_url: str | None) -> Any:
    """Stage ``release_dir`` to ``to``; returns the store's StageResult."""
    from lexicon_store.publish import stage_release
    from lexicon_store.targets import open_target

    target = open_target(to)
    reader = _reader(target, public_url)
    try:
        return stage_release(release_dir, target, reader)
    finally:
        reader.close()
        target.close()


def publish(release_dir: Path, to: str, public_url: str | None, report_path: Path) -> Published:
    """Check the report, verify the staged release, write the index; returns the pin."""
    from lexicon_store.publish import publish_release
    from lexicon_store.targets import open_target

    digest = _manifest_digest(release_dir)
    report = check_report(report_path, digest)
    target = open_target(to)
    reader = _reader(target, public_url)
    try:
        entry = publish_release(release_dir, target, reader, report)
    finally:
        reader.close()
        target.close()
    return Published(entry, pin_line(entry["dataset_version"], digest))
