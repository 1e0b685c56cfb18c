"""Two glossary servers (separate processes) editing one file at once lose nothing."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

from lexicon_server.glossary import Glossary

WORKER = Path(__file__).with_name("_edit_worker.py")


def _expected(prefix: str, count: int) -> dict[str, str]:
    return {f"{prefix} {i}": f"final {prefix} {i}" for i in range(count) if i % 5 != 0}


@pytest.mark.parametrize(
    ("mode", "count"),
    [
        ("library", 40),  # per process 40 adds + 40 edits + 8 deletes: 176 writes in all
        pytest.param("mcp", 150, marks=pytest.mark.slow),  # two MCP servers, 660 writes
    ],
)
def test_two_processes_lose_no_edit(tmp_path: Path, mode: str, count: int) -> None:
    path = tmp_path / "glossary.jsonl"
    path.write_text('{"term":"Seed","description":"Written by a person."}\n', encoding="utf-8")
    go = tmp_path / "go"
    workers = [
        subprocess.Popen(
            [sys.executable, str(WORKER), mode, str(path), prefix, str(count), str(go)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for prefix in ("left", "right")
    ]
    go.touch()
    for worker in workers:
        _, err = worker.communicate(timeout=300)
        assert worker.returncode == 0, err
    entries = {e.term: e.description for e in Glossary(path).entries()}
    want = {"Seed": "Written by a person.", **_expected("left", count), **_expected("right", count)}
    assert entries == want
    assert path.read_text(encoding="utf-8").startswith('{"term":"Seed"')  # untouched first line


def test_threads_and_separate_instances_in_one_process(tmp_path: Path) -> None:
    path = tmp_path / "glossary.jsonl"
    shared = Glossary(path)
    errors: list[BaseException] = []

    def work(glossary: Glossary, prefix: str) -> None:
        try:
            for i in range(20):
                glossary.add(f"{prefix} {i}", "first")
                glossary.edit(f"{prefix} {i}", f"final {prefix} {i}")
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    threads = [
        threading.Thread(target=work, args=(shared, "a")),
        threading.Thread(target=work, args=(shared, "b")),
        threading.Thread(target=work, args=(Glossary(path), "c")),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    entries = {e.term: e.description for e in Glossary(path).entries()}
    assert entries == {f"{p} {i}": f"final {p} {i}" for p in "abc" for i in range(20)}
