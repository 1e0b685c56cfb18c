"""A writer killed at any point leaves the old file or the new one, never a mix; a later
write clears what the dead writer left behind."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from lexicon_server.glossary import Glossary

from .conftest import jsonl

# The process kills itself (SIGKILL: no cleanup, no finally blocks) when it reaches the
# named call inside a write.
CRASH = """
import os, signal, sys
from pathlib import Path
from lexicon_server.glossary import Glossary
point = sys.argv[2]
real = {"fsync": os.fsync, "replace": os.replace}
def die(*args, **kwargs):
    if point == "after_replace":
        real["replace"](*args, **kwargs)
    os.kill(os.getpid(), signal.SIGKILL)
if point == "fsync":
    os.fsync = die
else:
    os.replace = die
Glossary(Path(sys.argv[1])).add("Delta", "Written by a writer that dies.")
"""


@pytest.mark.parametrize(
    ("point", "committed"), [("fsync", False), ("replace", False), ("after_replace", True)]
)
def test_killed_writer(tmp_path: Path, point: str, committed: bool) -> None:
    path = tmp_path / "glossary.jsonl"
    before = jsonl([("Alpha", "a"), ("Beta", "b")])
    path.write_text(before, encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", CRASH, str(path), point], check=False)
    assert done.returncode == -9
    terms = [e.term for e in Glossary(path).entries()]  # always a valid file
    assert terms == (["Alpha", "Beta", "Delta"] if committed else ["Alpha", "Beta"])
    if not committed:
        assert path.read_text(encoding="utf-8") == before
        assert len(list(tmp_path.glob(".glossary.jsonl.*.tmp"))) == 1  # left by the dead writer
    Glossary(path).add("Epsilon", "e")  # the next writer, under the lock, clears it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["glossary.jsonl"]
