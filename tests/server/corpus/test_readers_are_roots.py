"""Readers are roots: a running server's lease keeps what it serves through `prune`.

Real server processes over stdio (the SDK's own client), the store's own library calls
for the maintainer's side, and a server killed with SIGKILL, whose lease the kernel ends.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
from _support.installs import install_english_lexical
from mcp import Client, StdioServerParameters

from lexicon_store import gc, ops
from lexicon_store.leases import live_leases
from lexicon_store.selection import load_active


def _params(data_dir: Path, *extra: str) -> StdioServerParameters:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEXICON_")}
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "lexicon_server.cli", "--data-dir", str(data_dir), *extra],
        env=env,
    )


def _german_objects(data_dir: Path) -> list[Path]:
    selection = load_active(data_dir)
    return [path for rel, path in selection.files.items() if rel.startswith("de/")]


# `prune --drop-activations --keep 0`: forget every retained activation but the current.
FORGET_OLD = gc.Forget(keep_recent=0)


def _wait_for_leases(data_dir: Path, count: int) -> None:
    deadline = time.monotonic() + 60
    while len(live_leases(data_dir)) != count:
        assert time.monotonic() < deadline, f"never saw {count} live leases"
        time.sleep(0.05)


def test_prune_keeps_what_a_running_server_serves(
    data_dir: Path, sample_release: tuple[Path, str]
) -> None:
    """The issue's scenario: narrow the selection and prune while a server (pinned to
    the selection it started with) runs; it still answers Hund (de), which it had not
    opened before the prune."""
    german = _german_objects(data_dir)
    assert german

    async def main() -> tuple[Any, Any, gc.PrunePlan]:
        async with Client(_params(data_dir, "--no-follow")) as client:
            first = await client.call_tool("dictionary_lookup", {"word": "dog"})
            assert not first.is_error, first.content
            install_english_lexical(*sample_release, data_dir)
            # A plain prune keeps every retained activation, the wider one too; forgetting
            # it leaves the German objects referenced by the running server alone.
            plan = gc.prune(data_dir, forget=FORGET_OLD)
            hund = await client.call_tool("dictionary_lookup", {"word": "Hund", "language": "de"})
            status = ops.status(data_dir)
            return hund, status, plan

    hund, status, plan = anyio.run(main)
    assert not hund.is_error, hund.content
    assert hund.structured_content["found"], hund.structured_content
    # prune said what it kept and why, and deleted none of it
    assert {p for p, _ in plan.kept_for_readers} >= set(german)
    assert all(path.is_file() for path in german)
    assert [r.program for r in plan.readers] == ["lexicon-mcp"]
    assert len(status.readers) == 1
    # the server exited: its lease went with it, and the next prune reclaims
    assert live_leases(data_dir) == []
    again = gc.prune(data_dir)
    assert {p for p, _ in again.objects} >= set(german)
    assert not any(path.exists() for path in german)


def _start_stdio_server(data_dir: Path) -> subprocess.Popen[bytes]:
    """`lexicon-mcp` over stdio on `data_dir`, its stdin held open so that it keeps serving."""
    return subprocess.Popen(
        [sys.executable, "-m", "lexicon_server.cli", "--data-dir", str(data_dir)],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def test_a_killed_servers_lease_vanishes(data_dir: Path, sample_release: tuple[Path, str]) -> None:
    german = _german_objects(data_dir)
    proc = _start_stdio_server(data_dir)
    try:
        _wait_for_leases(data_dir, 1)
        (lease,) = live_leases(data_dir)
        assert lease.pid == proc.pid
        install_english_lexical(*sample_release, data_dir)
        kept = gc.prune(data_dir, forget=FORGET_OLD)
        assert {p for p, _ in kept.kept_for_readers} >= set(german)
        assert all(path.is_file() for path in german)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        assert proc.returncode == -signal.SIGKILL
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
    # The lease file is still there, but no process holds its lock any more.
    assert lease.path.exists()
    assert live_leases(data_dir) == []
    reclaimed = gc.prune(data_dir)
    assert reclaimed.kept_for_readers == ()
    assert {p for p, _ in reclaimed.objects} >= set(german)
    assert not lease.path.exists()  # the stale lease file was removed too


def test_status_lists_live_readers(data_dir: Path) -> None:
    from click.testing import CliRunner

    from lexicon_store.cli import cli

    proc = _start_stdio_server(data_dir)
    try:
        _wait_for_leases(data_dir, 1)
        result = CliRunner().invoke(cli, ["--data-dir", str(data_dir), "status"])
        activation = load_active(data_dir).activation_id
        assert f"pid {proc.pid} (lexicon-mcp) serving activation {activation}" in result.output
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    result = CliRunner().invoke(cli, ["--data-dir", str(data_dir), "status"])
    assert "0 live readers" in result.output
