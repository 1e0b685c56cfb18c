"""Generate DATA_LICENSES.md from the sources a build consumed.

Each source contributes its title, version, licence, homepage and the notice text that
ships inside its artefact. Debian copyright files cover every FreeDict pair at once, so
only the stanza of the pair in question is quoted.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from lexicon_server.builder.inputs import SourceInput, debian_stanza

__all__ = ["markdown_section", "render_licences"]

_HEADER = """# Data licences

The Lexicon software is Apache-2.0. The data in this release is not: every component keeps
the licence of the upstream source it was built from, listed below with the notice text
that source ships. Every row in the corpus names its source (`sources` table), so a fact
can always be traced to the licence that governs it.
"""


def markdown_section(text: str, title: str) -> str | None:
    """The `## title` section of a Markdown text (heading included), or None."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.strip() == f"## {title}":
            end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("## ")), None)
            return "\n".join(lines[i:end]).strip()
    return None


def _notice(src: SourceInput) -> str:
    parts: list[str] = []
    for path in src.notice_files():
        text = Path(path).read_text(encoding="utf-8", errors="replace")
        if src.spec.notice_stanza:
            stanza = debian_stanza(text, src.spec.notice_stanza)
            if stanza is not None:
                text = stanza
        if src.spec.notice_section and path.name == "METADATA":
            text = markdown_section(text, src.spec.notice_section) or ""
        if text.strip():
            parts.append(text.strip())
    return "\n\n".join(parts)


def render_licences(sources: Iterable[SourceInput]) -> str:
    """The whole DATA_LICENSES.md text, sources in the order given."""
    out = [_HEADER]
    for src in sources:
        spec = src.spec
        out.append(f"\n## {spec.title} (`{spec.name}`)\n")
        out.append(f"- Version: {spec.version}")
        out.append(f"- Licence: {src.licence()}")
        out.append(f"- Upstream: {spec.homepage}")
        if spec.registry != "local":
            out.append(f"- Fetched as: {spec.registry} package `{spec.package}` {spec.version}")
        notice = _notice(src)
        if notice:
            fence = "````" if "```" in notice else "```"
            out.append(f"\nNotice:\n\n{fence}text\n{notice}\n{fence}")
    return "\n".join(out).rstrip() + "\n"
