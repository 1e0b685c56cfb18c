"""Stage, accept and publish a real (sample) release to a real nginx on loopback, then
install it over HTTP: the maintainer's flow end to end, with its failure cases."""

from __future__ import annotations

import json
import signal
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from _support.processes import environ_without, run_module

from lexicon_server.release.accept import REQUIRED_GATES, accept_release
from lexicon_server.release.acceptance_profile import load_profile
from lexicon_server.release.publish import stage
from lexicon_store import integrity
from lexicon_store.publish import release_assets, verify_staged
from lexicon_store.targets import HttpReader

HERE = Path(__file__).parent
WORDNET = HERE.parents[1] / "fixtures" / "wordnet31"


def _build_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full = environ_without(lambda name: name == "LEXICON_CRASH_AT") | (env or {})
    return run_module("lexicon_server.build_cli", *args, env=full, timeout=300)


def _data_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return run_module("lexicon_store.cli", *args, timeout=300)


@pytest.fixture(scope="module")
def accepted(
    sample_release: tuple[Path, str], tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, dict[str, Any]]:
    """The sample release accepted once (all gates, ten server starts): report path, body."""
    release, _digest = sample_release
    profile = replace(load_profile(HERE / "sample_gates.json", None), wordnet_dir=WORDNET)
    out = tmp_path_factory.mktemp("accept") / "report.json"
    return out, accept_release(release, profile, out)


# The acceptance run behind `accepted` starts the server ten times and runs every gate
# (tens of seconds): the tests that need it run in the full suite, not the quick loop.
@pytest.mark.slow
def test_the_sample_release_passes_every_gate(accepted, sample_release) -> None:
    _path, report = accepted
    _release, digest = sample_release
    assert report["manifest_digest"] == digest
    gates = {g["name"]: g for g in report["gates"]}
    assert set(gates) == set(REQUIRED_GATES)
    failed = {n: g["detail"] for n, g in gates.items() if not g["passed"]}
    assert not failed and report["passed"]
    assert len(gates["restart_cycles"]["figures"]["cycles"]) == 10
    fp = gates["restart_cycles"]["figures"]
    assert fp["fingerprint_before"] == fp["fingerprint_after"] and not fp["changed_paths"]
    assert gates["ann_recall"]["figures"]["recall"]["random"] >= 0.99
    assert gates["offline"]["figures"]["attempts"] == []
    assert report["code"]["package"] and "python" in report["code"]


@pytest.mark.slow
def test_stage_publish_then_install_over_http(
    nginx, sample_release, accepted, tmp_path: Path
) -> None:
    release, digest = sample_release
    report_path, _ = accepted
    parts, top, manifest = release_assets(release)

    staged = stage(release, nginx.dav, nginx.url)
    assert set(staged.uploaded) == {a.name for a in [*parts, top]} and not staged.reused
    puts = nginx.puts()
    assert puts[-1] == f"/dav/{top.name}"  # the manifest goes last

    done = _build_cli(
        "publish", str(release), "--to", nginx.dav, "--public-url", nginx.url,
        "--report", str(report_path),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f'"{manifest.dataset_version}": "{digest}",' in done.stdout
    index = httpx.get(nginx.url + "index.json").json()
    assert [r["manifest_digest"] for r in index["releases"]] == [digest]
    assert nginx.puts()[-1] == "/dav/index.json"  # the index goes last of all

    data_dir = tmp_path / "fresh"
    url = f"{nginx.url}{index['releases'][0]['manifest']}"
    installed = _data_cli(
        "--data-dir", str(data_dir), "install", "--from", url, "--all-languages",
        "--manifest-digest", digest,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stderr
    assert integrity.verify(data_dir).ok

    again = stage(release, nginx.dav, nginx.url)  # a rerun has nothing left to upload
    assert again.uploaded == () and len(again.reused) == len(parts) + 1


def test_interrupted_stage_resumes_with_only_the_rest(nginx, sample_release) -> None:
    release, _ = sample_release
    parts, top, _ = release_assets(release)
    killed = _build_cli(
        "stage", str(release), "--to", nginx.dav, "--public-url", nginx.url,
        env={"LEXICON_CRASH_AT": "stage.after_part:3"},
    )  # fmt: skip
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    first = [p.removeprefix("/dav/") for p in nginx.puts()]
    assert len(first) == 3 and top.name not in first
    assert httpx.get(nginx.url + top.name).status_code == 404  # no manifest: not a release yet

    resumed = stage(release, nginx.dav, nginx.url)
    assert set(resumed.reused) == set(first)
    assert set(resumed.uploaded) == {a.name for a in [*parts, top]} - set(first)


@pytest.mark.slow
def test_tampered_remote_asset_is_detected_and_publish_refuses(
    nginx, sample_release, accepted
) -> None:
    release, _ = sample_release
    report_path, _ = accepted
    stage(release, nginx.dav, nginx.url)
    parts, _top, _ = release_assets(release)
    victim = nginx.root / parts[0].name
    data = bytearray(victim.read_bytes())
    data[len(data) // 2] ^= 0xFF
    victim.write_bytes(bytes(data))

    reader = HttpReader(nginx.url)
    try:
        problems = verify_staged(release, reader)
    finally:
        reader.close()
    assert [name for name, _ in problems] == [parts[0].name]
    assert "digest" in problems[0][1]

    refused = _build_cli(
        "publish", str(release), "--to", nginx.dav, "--public-url", nginx.url,
        "--report", str(report_path),
    )  # fmt: skip
    assert refused.returncode == 5 and parts[0].name in refused.stderr
    assert httpx.get(nginx.url + "index.json").status_code == 404

    repaired = stage(release, nginx.dav, nginx.url)
    assert repaired.uploaded == (parts[0].name,)


def test_a_directory_target_read_back_over_http(nginx, sample_release, accepted) -> None:
    release, digest = sample_release
    report_path, _ = accepted
    staged = stage(release, str(nginx.root), nginx.url)  # written as files, read over HTTP
    assert staged.verified_by == nginx.url and staged.uploaded
    done = _build_cli(
        "publish", str(release), "--to", str(nginx.root), "--public-url", nginx.url,
        "--report", str(report_path),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (
        json.loads((nginx.root / "index.json").read_text())["releases"][0]["manifest_digest"]
        == digest
    )
    assert not nginx.puts()


def _with(report: dict[str, Any], path: Path, **changes: Any) -> Path:
    path.write_text(json.dumps(report | changes))
    return path


def test_publish_refuses_a_report_for_another_digest_or_a_missing_gate(
    sample_release, accepted, tmp_path: Path
) -> None:
    release, _ = sample_release
    _path, report = accepted
    target = tmp_path / "site"
    assert stage(release, str(target), None).uploaded

    other = _with(report, tmp_path / "other.json", manifest_digest="blake3:" + "0" * 64)
    done = _build_cli("publish", str(release), "--to", str(target), "--report", str(other))
    assert done.returncode == 1 and "accepts manifest blake3:000" in done.stderr

    gates = [g for g in report["gates"] if g["name"] != "ann_recall"]
    missing = _with(report, tmp_path / "missing.json", gates=gates)
    done = _build_cli("publish", str(release), "--to", str(target), "--report", str(missing))
    assert done.returncode == 1 and "'ann_recall'" in done.stderr

    failed_gates = [
        g | {"passed": False} if g["name"] == "restart_cycles" else g for g in report["gates"]
    ]
    failed = _with(report, tmp_path / "failed.json", gates=failed_gates)
    done = _build_cli("publish", str(release), "--to", str(target), "--report", str(failed))
    assert done.returncode == 1 and "'restart_cycles' did not pass" in done.stderr
    assert not (target / "index.json").exists()


def test_gates_fail_when_the_corpus_misses_its_aims(sample_data_dir: Path, tmp_path: Path) -> None:
    from lexicon_server.corpus.reader import Corpus
    from lexicon_server.release.acceptance_profile import Anchor, Expectation
    from lexicon_server.release.gates import anchors_gate, bench_gate
    from lexicon_store.selection import load_active

    profile = replace(load_profile(HERE / "sample_gates.json", None), wordnet_dir=WORDNET)
    wrong = Anchor(
        "cat rhymes with dog?", "rhymes", {"word": "cat"},
        (Expectation("results.*.word", includes=("dog",)),),
    )  # fmt: skip
    corpus = Corpus(load_active(sample_data_dir))
    try:
        gate = anchors_gate(corpus, replace(profile, anchors=(wrong,)))
        assert not gate.passed and "results.*.word lacks 'dog'" in gate.detail
        strict = bench_gate(corpus, replace(profile, lookup_ratio_max=1e-6), tmp_path / "log")
        assert not strict.passed and strict.figures["lookup_ratio"] > 1e-6
        blind = bench_gate(corpus, replace(profile, wordnet_dir=None), tmp_path / "log")
        assert not blind.passed and "--wordnet-dir" in blind.detail
    finally:
        corpus.close()


def test_the_network_guard_refuses_and_records(tmp_path: Path) -> None:
    import socket

    from lexicon_server.release.netguard import attempts, denied, guarded_command

    log = tmp_path / "net.log"
    with denied(log), pytest.raises(PermissionError, match="denied during acceptance"):
        socket.create_connection(("127.0.0.1", 9), timeout=1)
    assert len(attempts(log)) == 1
    socket.socket().close()  # off again outside the block
    # A guarded child: smtplib's own __main__ connects to localhost, and is refused.
    child = subprocess.run(
        guarded_command(log, "smtplib", "a@b", "c@d"),
        input="hello\n", capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert child.returncode != 0 and "denied during acceptance" in child.stderr
    assert len(attempts(log)) >= 2


def test_publish_killed_before_the_index_leaves_the_old_index(
    sample_release, accepted, tmp_path: Path
) -> None:
    from lexicon_store.crash import CRASH_POINTS

    assert {"stage.after_part", "publish.before_index"} <= set(CRASH_POINTS)
    release, digest = sample_release
    report_path, _ = accepted
    target = tmp_path / "site"
    stage(release, str(target), None)
    args = ("publish", str(release), "--to", str(target), "--report", str(report_path))
    killed = _build_cli(*args, env={"LEXICON_CRASH_AT": "publish.before_index"})
    assert killed.returncode == -signal.SIGKILL
    assert not (target / "index.json").exists()  # readers still see no release
    done = _build_cli(*args)
    assert done.returncode == 0, done.stderr
    index = json.loads((target / "index.json").read_text())
    assert [r["manifest_digest"] for r in index["releases"]] == [digest]
