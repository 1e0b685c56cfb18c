"""The Jargon File as packaged for dictd (Debian ``dict-jargon``) -> :class:`DefinitionEntry`.

The container is dictd's (:func:`lexicon_server.builder.parsers.dictd.iter_texts`, UTF-8).
Each entry's text::

    hacker
     n.

        [originally, someone who makes furniture with an axe]

        1. A person who enjoys exploring the details of programmable systems ...

- line 1: the headword; line 2, indented by one space: an optional ``/pronunciation/``
  (often the empty ``//``) and the part of speech as written (``n.``, ``vt.``, ``n.,adj.``),
  or nothing;
- then paragraphs indented by four spaces: a paragraph that is only a ``[...]`` is the
  etymology; ``N.`` paragraphs are senses (unnumbered text is one sense, and paragraphs
  that follow a sense continue it); a leading ``[warez d00dz]``-style bracket on a sense is
  its domain. ``{cross references}`` keep their text without the braces.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from lexicon_server.builder.parsers._io import ParseError
from lexicon_server.builder.parsers.dictd import iter_texts
from lexicon_server.builder.records import DefinitionEntry, DefinitionSense

__all__ = ["iter_entries", "parse_entry"]

_POS_LINE = re.compile(r"^(?:(?P<pron>/[^/]*/)\s*,?\s*)?(?P<pos>.*)$")
_NUMBERED = re.compile(r"^(?P<number>\d+)\.\s+(?P<text>.*)$", re.S)
_DOMAIN = re.compile(r"^\[(?P<domain>[^\[\]]{1,60})\]\s+(?=\S)")
_ETYMOLOGY = re.compile(r"\[[^\[\]]*\]")  # a paragraph that is one bracket, nothing else
_BRACES = re.compile(r"\{([^{}]*)\}")


def _clean(text: str) -> str:
    return " ".join(_BRACES.sub(r"\1", text).split())


def parse_entry(text: str) -> DefinitionEntry | None:
    """Parse one entry's text; ``None`` for an entry with no definition text."""
    lines = text.strip("\n").split("\n")
    headword = lines[0].strip()
    second = lines[1] if len(lines) > 1 else ""
    rest = lines[1:]
    pos, pron = None, None
    if second.startswith(" ") and not second.startswith("  "):
        found = _POS_LINE.match(second.strip())
        if found:
            pron = found["pron"].strip("/") if found["pron"] else None
            pos = found["pos"].strip(" ,") or None
        rest = lines[2:]
    paragraphs = [_clean(p) for p in "\n".join(rest).split("\n\n") if p.strip()]
    etymology = None
    senses: list[list[str | None]] = []  # [number, text]
    for para in paragraphs:
        if _ETYMOLOGY.fullmatch(para) and not senses and etymology is None:
            etymology = para[1:-1].strip()
            continue
        numbered = _NUMBERED.match(para)
        if numbered:
            senses.append([numbered["number"], numbered["text"]])
        elif senses:
            senses[-1][1] = f"{senses[-1][1]} {para}"
        else:
            senses.append([None, para])
    if not headword or not senses:
        return None
    result = []
    for number, body in senses:
        assert body is not None
        domain = _DOMAIN.match(body)
        result.append(
            DefinitionSense(
                number=number,
                definition=body[domain.end() :] if domain else body,
                domain=domain["domain"] if domain else None,
            )
        )
    return DefinitionEntry(
        headword=headword,
        pos=pos,
        senses=tuple(result),
        etymology=etymology,
        pronunciation=pron or None,
    )


def iter_entries(index_path: str | Path, dict_path: str | Path) -> Iterator[DefinitionEntry]:
    """Yield the entries in file order; a file with no parsable entry raises ParseError."""
    found = 0
    for entry in filter(None, map(parse_entry, iter_texts(index_path, dict_path))):
        found += 1
        yield entry
    if not found:
        raise ParseError(dict_path, 0, "no entry has a headword and a definition")
