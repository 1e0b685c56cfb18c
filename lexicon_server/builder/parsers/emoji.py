"""Emoji names and keywords (CLDR annotations) and emoticons (Emojibase).

- **CLDR** (npm ``cldr-annotations-full``): ``annotations/<locale>/annotations.json``, one
  file per locale, ``{"annotations": {"identity": {...}, "annotations": {CHAR: {"default":
  [keywords], "tts": [short name]}}}}``. Keys are emoji and other symbols (``→``, ``{``);
  either list may be missing, and a few locales have no ``annotations`` at all. The locale
  id is built from ``identity`` (``en``, ``en-GB``, ``ca-ES-valencia``).
- **Emojibase** (npm ``emojibase-data``): ``<locale>/data.json``, one JSON array of emoji
  objects; those with an ``emoticon`` (a string or a list of them) give one
  :class:`Emoticon` each.

Both formats are one JSON document per file, so a file is loaded whole: memory is bounded
by the largest single locale file (CLDR about 0.5 MB, Emojibase 0.8 MB), not by the number
of locales read.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lexicon_server.builder.parsers._io import ParseError
from lexicon_server.builder.records import EmojiAnnotation, Emoticon

__all__ = ["iter_annotations", "iter_emoticons", "locale_of"]


def _load(path: str | Path) -> Any:
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except json.JSONDecodeError as exc:
        raise ParseError(path, exc.lineno, f"not valid JSON ({exc.msg})") from exc
    except UnicodeDecodeError as exc:  # a file cut inside a multi-byte character
        raise ParseError(path, 0, f"not UTF-8 text at byte {exc.start} ({exc.reason})") from exc


def _strings(value: Any, path: str | Path, what: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise ParseError(path, 0, f"{what}: expected a string or a list of strings")


def locale_of(identity: dict[str, str]) -> str:
    """``{'language': 'en', 'territory': 'GB'}`` -> ``'en-GB'``."""
    parts = [identity.get(k) for k in ("language", "script", "territory", "variant")]
    return "-".join(p for p in parts if p)


def iter_annotations(path: str | Path) -> Iterator[EmojiAnnotation]:
    """Yield one annotation per character of a CLDR ``annotations.json``, in file order."""
    document = _load(path)
    try:
        body = document["annotations"]
        locale = locale_of(body["identity"])
    except (KeyError, TypeError):
        raise ParseError(path, 0, "expected {'annotations': {'identity': ...}}") from None
    if not locale:
        raise ParseError(path, 0, "identity names no language")
    annotations = body.get("annotations", {})
    if not isinstance(annotations, dict):
        raise ParseError(path, 0, "'annotations' is not an object")
    for char, value in annotations.items():
        if not isinstance(value, dict):
            raise ParseError(path, 0, f"annotation of {char!r} is not an object")
        names = _strings(value.get("tts", []), path, f"{char!r} tts")
        yield EmojiAnnotation(
            emoji=char,
            locale=locale,
            name=names[0] if names else None,
            keywords=_strings(value.get("default", []), path, f"{char!r} default"),
        )


def iter_emoticons(path: str | Path) -> Iterator[Emoticon]:
    """Yield one :class:`Emoticon` per emoticon of an Emojibase ``data.json``."""
    document = _load(path)
    if not isinstance(document, list):
        raise ParseError(path, 0, "expected a JSON array of emoji objects")
    for item in document:
        if not isinstance(item, dict) or "emoticon" not in item:
            continue
        try:
            emoji, hexcode, label = item["emoji"], item["hexcode"], item["label"]
        except KeyError as exc:
            raise ParseError(path, 0, f"emoji object without {exc}") from None
        for emoticon in _strings(item["emoticon"], path, f"{hexcode} emoticon"):
            yield Emoticon(emoticon=emoticon, emoji=emoji, hexcode=hexcode, label=label)
