"""Gen-Z slang from PyPI ``pyass-genz`` (``pyass/data/base_slang.json``) -> :class:`SlangEntry`.

The file is one JSON array of 5,000 objects ``{term, definition, era, region, platform,
vibe_tags, popularity_score, audio_reference, is_offensive, related_terms}``. Only the
first 145 are written by hand. The other 4,855 are generated from them: the term gets a
prefix or suffix (``anti-``, ``de``, ``ultra ``, `` 2.0``, `` but make it fashion``,
`` mode activated``, ``-pilled``) and often a counter (``cap 2.0_534``), and the base
definition gets `` (mutated 2024Q3 variant)`` appended. The metadata is random on every
entry, hand-written ones included (``rizz``: region NG, platform Discord; ``is_offensive``
differs between variants of one definition), so none of it is kept.

**The filter** (:func:`is_hand_written`) keeps an object whose definition does not end in
the ``(mutated YYYYQn variant)`` marker; a ``_NNN`` counter on such a term (two cases,
``hygge_405`` and ``I’m deceased_882``, each a second definition of a term that also has a
first) is removed. The file is loaded whole: it is one 2 MB JSON document.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lexicon_server.builder.parsers._io import ParseError
from lexicon_server.builder.records import SlangEntry

__all__ = ["is_hand_written", "iter_entries"]

_MUTATED = re.compile(r"\s*\(mutated \d{4}Q[1-4] variant\)$")
_COUNTER = re.compile(r"_\d+$")


def is_hand_written(item: dict[str, Any]) -> bool:
    """Whether an object of ``base_slang.json`` is one of the hand-written entries."""
    return not _MUTATED.search(str(item.get("definition", "")))


def iter_entries(path: str | Path, *, hand_written_only: bool = True) -> Iterator[SlangEntry]:
    """Yield term and definition of each (by default: each hand-written) entry, in file order.

    With ``hand_written_only=False`` every object is yielded as published, marker and
    counter included, so the filter can be inspected.
    """
    try:
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
    except json.JSONDecodeError as exc:
        raise ParseError(path, exc.lineno, f"not valid JSON ({exc.msg})") from exc
    except UnicodeDecodeError as exc:
        raise ParseError(path, 0, f"not UTF-8 text at byte {exc.start} ({exc.reason})") from exc
    if not isinstance(document, list):
        raise ParseError(path, 1, "expected a JSON array of slang objects")
    for number, item in enumerate(document, 1):
        term, definition = (
            item.get(k) if isinstance(item, dict) else None for k in ("term", "definition")
        )
        if not isinstance(term, str) or not isinstance(definition, str) or not term.strip():
            raise ParseError(path, 0, f"object {number} lacks a 'term' or 'definition' string")
        if not hand_written_only:
            yield SlangEntry(term=term, definition=definition)
        elif is_hand_written(item):
            yield SlangEntry(term=_COUNTER.sub("", term).strip(), definition=definition.strip())
