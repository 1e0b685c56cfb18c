"""DATA_LICENSES.md is generated from the sources a build read, with their notices."""

from __future__ import annotations

import re
from pathlib import Path

from lexicon_server.builder.licences import markdown_section


def test_every_source_has_a_section_with_licence_and_notice(sample_dataset: Path) -> None:
    text = (sample_dataset / "DATA_LICENSES.md").read_text(encoding="utf-8")
    names = re.findall(r"^## .* \(`([^`]+)`\)$", text, flags=re.MULTILINE)
    lock = (sample_dataset / "sources.lock.json").read_text(encoding="utf-8")
    for name in names:
        assert f'"{name}"' in lock
    assert {"wordnet-3.1", "cmudict", "glove-6b-50d", "freedict-eng-fra", "wordfreq"} <= set(names)
    parts = re.split(r"^## .* \(`[^`]+`\)$", text, flags=re.MULTILINE)[1:]
    sections = dict(zip(names, parts, strict=True))
    assert "Princeton University" in sections["wordnet-3.1"]
    assert "PDDL" in sections["glove-6b-50d"]
    # FreeDict: the licence of this pair's stanza of the Debian copyright file, not all pairs.
    assert "- Licence: GPL-2+" in sections["freedict-eng-fra"]
    assert "Files: eng-fra/*" in sections["freedict-eng-fra"]
    assert "Files: afr-deu/*" not in sections["freedict-eng-fra"]
    assert "- Licence: GPL-3+" in sections["freedict-eng-deu"]


def test_markdown_section_stops_at_the_next_heading() -> None:
    text = "# t\n## Usage\nx\n## License\nCC BY-SA\nmore\n## Citing\ny\n"
    assert markdown_section(text, "License") == "## License\nCC BY-SA\nmore"
    assert markdown_section(text, "Missing") is None
