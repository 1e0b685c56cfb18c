"""The library example in docs/slang.md runs as written and prints what the page says."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

DOC = Path(__file__).resolve().parents[3] / "docs" / "slang.md"


def test_first_example_runs_and_prints_what_the_comments_say(tmp_path: Path) -> None:
    page = DOC.read_text(encoding="utf-8")
    code = re.findall(r"```python\n(.*?)```", page, re.S)[0]
    # What the page promises: inline "print(...)  # text" and the loop's "# line" block.
    promised = [m.group(1) for m in re.finditer(r"print\(.*\)  # (.+)", code)]
    loop = re.search(r"print\(entry\.term.*\n((?:# .*\n)+)", code)
    assert loop is not None
    loop_lines = [line[2:] for line in loop.group(1).splitlines()]
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    lines = out.stdout.splitlines()
    assert lines == [promised[0], promised[1], *loop_lines, promised[2]]
