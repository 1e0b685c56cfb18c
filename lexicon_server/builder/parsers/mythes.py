"""MyThes thesauri (``th_*_v2.dat``, ``thes_fr.dat``; Debian ``mythes-*``) -> ThesaurusEntry.

The ``.dat`` file's first line names its encoding (``UTF-8``, ``ISO8859-1``). Then each
headword is a line ``word|n`` followed by exactly ``n`` meaning lines
``(label)|term|term...``; the ``.idx`` beside it only maps words to byte offsets and is not
needed to read the file from start to end. The label differs between the thesauri:

- en-US (from WordNet): ``(noun)``, ``(adj)``; terms carry ``(generic term)``, ``(similar
  term)``, ``(related term)`` or ``(antonym)``;
- de (OpenThesaurus): ``-`` instead of a label; terms carry register and relation labels
  (``(ugs.)``, ``(Oberbegriff)``), and ``(...)`` is a placeholder inside the term;
- fr: ``(Nom)``, ``(Nom Verbe)``, ``(?)``; it: an abbreviation followed by an optional gloss,
  ``(agg. Relativo a ...)`` -> part of speech ``agg.``, sense note ``Relativo a ...``.

One :class:`ThesaurusEntry` per meaning line. A term's trailing parenthesised labels go to
``notes`` (one per term, ``None`` when there is none). The label is kept as the source
writes it (``noun``, ``Nom``, ``s.m.``); ``-`` and ``?`` mean no part of speech.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from pathlib import Path

from lexicon_server.builder.parsers._io import ParseError, open_text
from lexicon_server.builder.records import ThesaurusEntry

__all__ = ["encoding_of", "iter_entries"]

# Trailing '(...)' groups of a term, except the '(...)' placeholder OpenThesaurus uses.
_TERM_LABEL = re.compile(r"\s*\((?!\.\.\.\))([^()]*)\)\s*$")
_NO_POS = {"-", "?", ""}


def encoding_of(path: str | Path) -> str:
    """The encoding named on the file's first line, checked to be one Python knows."""
    with open(path, "rb") as handle:
        first = handle.readline(64).strip().decode("ascii", "replace")
    try:
        codecs.lookup(first)
    except LookupError:
        raise ParseError(path, 1, f"expected an encoding name, got {first!r}") from None
    return first


def _term(text: str) -> tuple[str, str | None]:
    labels: list[str] = []
    while (match := _TERM_LABEL.search(text)) and match.start() > 0:
        labels.insert(0, match[1].strip())
        text = text[: match.start()]
    return text.strip(), "; ".join(labels) or None


def _label(text: str) -> tuple[str | None, str | None]:
    """'(agg. Relativo a ...)' -> ('agg.', 'Relativo a ...'); '-' -> (None, None)."""
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    if text in _NO_POS:
        return None, None
    head, _, rest = text.partition(" ")
    if head.endswith(".") and rest.strip():  # Italian: abbreviation, then a gloss
        return head, rest.strip()
    return text, None


def iter_entries(path: str | Path) -> Iterator[ThesaurusEntry]:
    """Yield one entry per meaning line, in file order.

    The one headword of the de thesaurus that is empty (``|2``) is skipped: its meanings
    are placeholders (``anno (...)``) and there is nothing to look them up by.
    """
    encoding = encoding_of(path)
    with open_text(path, encoding) as handle:
        handle.readline()
        line_no = 1
        headword, left = "", 0
        for raw in handle:
            line_no += 1
            line = raw.rstrip("\r\n")
            if left == 0:
                word, bar, count = line.rpartition("|")
                if not bar or not count.isdigit() or int(count) == 0:
                    raise ParseError(path, line_no, f"expected 'word|count', got {line[:60]!r}")
                headword, left = word, int(count)
                continue
            left -= 1
            label, bar, rest = line.partition("|")
            if not bar or not (label.startswith("(") or label == "-"):
                raise ParseError(
                    path, line_no, f"expected '(pos)|term|...' for {headword!r}, got {line[:60]!r}"
                )
            if not headword:
                continue
            pos, sense_note = _label(label)
            pairs = [_term(t) for t in rest.split("|") if t.strip()]
            yield ThesaurusEntry(
                headword=headword,
                pos=pos,
                terms=tuple(term for term, _ in pairs),
                notes=tuple(note for _, note in pairs) if any(n for _, n in pairs) else (),
                sense_note=sense_note,
            )
        if left:
            raise ParseError(
                path, line_no, f"file ends {left} meaning line(s) short of {headword!r}"
            )
