"""The library example in docs/glossary.md runs as written."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).parents[3] / "docs" / "glossary.md"


def test_library_example_runs(tmp_path: Path) -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 1
    exec(compile(blocks[0], str(DOC), "exec"), {"workdir": str(tmp_path)})
    assert (tmp_path / "glossary.jsonl").read_text(encoding="utf-8") == (
        '{"term":"Batch Release","description":"Sign-off before shipping."}\n'
    )
