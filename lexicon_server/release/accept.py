"""``lexicon-build accept RELEASE_DIR``: run every gate with the network denied, write the report.

How the network is denied: an audit hook in this process refuses (and logs) every socket
connect, name resolution and datagram send while the gates run, and every process the
gates start (lexicon-mcp, NLTK's reader) runs under the same hook from its first line
(``lexicon_server.release.netguard``). The ``offline`` gate passes only if the log stays
empty. The install reads the release from disk only, so it never builds an HTTP client.

The report (format 1) names the manifest digest, the code version, each gate with its
figures, and ``passed`` (true only when every required gate passed). ``publish`` accepts
nothing else.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from lexicon_server.builder.errors import BuildError
from lexicon_server.release.acceptance_profile import GateProfile
from lexicon_server.release.gates import (
    Gate,
    anchors_gate,
    bench_gate,
    clean_install_gate,
    cycles_gate,
    python_version,
    recall_gate,
)
from lexicon_server.release.netguard import attempts, denied

__all__ = ["REPORT_FORMAT", "REQUIRED_GATES", "accept_release", "code_version"]

REPORT_FORMAT = 1
REQUIRED_GATES = (
    "clean_install",
    "anchors",
    "ann_recall",
    "bench_ratios",
    "restart_cycles",
    "offline",
)
Say = Callable[[str], None]


def code_version() -> dict[str, Any]:
    """The package version and, in a git checkout, the commit and whether it is clean."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        package = version("lexicon")
    except PackageNotFoundError:
        package = "unknown"
    root = Path(__file__).resolve().parents[2]
    info: dict[str, Any] = {"package": package, "python": python_version()}
    try:
        commit = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True
        )
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
        )
    except OSError:
        return info
    if commit.returncode == 0:
        info["commit"] = commit.stdout.strip()
        info["clean"] = dirty.returncode == 0 and not dirty.stdout.strip()
    return info


def accept_release(
    release_dir: Path,
    profile: GateProfile,
    report_path: Path,
    say: Say = lambda _m: None,
    work_dir: Path | None = None,
) -> dict[str, Any]:
    """Run the gates on ``release_dir``; write and return the report."""
    from lexicon_store.digests import digest_bytes

    manifest = release_dir / "manifest.json"
    if not manifest.is_file():
        raise BuildError(f"{release_dir} has no manifest.json; package it first")
    manifest_bytes = manifest.read_bytes()
    digest = digest_bytes(manifest_bytes)
    body = json.loads(manifest_bytes)
    started = datetime.now(UTC)
    gates: list[Gate] = []
    with tempfile.TemporaryDirectory(prefix="lexicon-accept-", dir=work_dir) as scratch:
        data_dir = Path(scratch) / "data"
        log = Path(scratch) / "network-attempts.log"
        with denied(log):
            say(f"accepting {body.get('dataset_version')} ({digest}), network denied")
            gate = clean_install_gate(release_dir, digest, data_dir)
            gates.append(gate)
            say(f"  {gate.name}: {'passed' if gate.passed else 'FAILED'} ({gate.detail})")
            if gate.passed:
                gates += _corpus_gates(data_dir, profile, log, say)
            offline = attempts(log)
        gates.append(
            Gate(
                "offline",
                not offline,
                "no network attempt by the gates or any process they started"
                if not offline
                else f"{len(offline)} network attempts refused: {offline[:3]}",
                {"attempts": offline, "guard": "audit hook, in-process and in every child"},
            )
        )
    by_name = {g.name: g for g in gates}
    missing = [name for name in REQUIRED_GATES if name not in by_name]
    report = {
        "format": REPORT_FORMAT,
        "dataset_version": body.get("dataset_version"),
        "profile": body.get("profile"),
        "manifest_digest": digest,
        "acceptance_profile": profile.name,
        "code": code_version(),
        "started": started.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "finished": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "gates": [asdict(g) for g in gates],
        "not_run": missing,
        "passed": not missing and all(g.passed for g in gates),
    }
    report_path.parent.mkdir(parents=True, exist_ok=True)
    report_path.write_text(json.dumps(report, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return report


def _corpus_gates(data_dir: Path, profile: GateProfile, log: Path, say: Say) -> list[Gate]:
    from lexicon_server.corpus.reader import Corpus
    from lexicon_store.selection import load_active

    out: list[Gate] = []
    corpus = Corpus(load_active(data_dir))
    try:
        runs: list[Callable[[], Gate]] = [
            lambda: anchors_gate(corpus, profile),
            lambda: recall_gate(corpus, profile),
            lambda: bench_gate(corpus, profile, log),
        ]
        for run in runs:
            gate = run()
            out.append(gate)
            say(f"  {gate.name}: {'passed' if gate.passed else 'FAILED'} ({gate.detail})")
    finally:
        corpus.close()
    gate = cycles_gate(data_dir, profile, log)
    out.append(gate)
    say(f"  {gate.name}: {'passed' if gate.passed else 'FAILED'} ({gate.detail})")
    return out
