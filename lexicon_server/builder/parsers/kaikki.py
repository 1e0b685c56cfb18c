"""Wiktextract / Kaikki JSONL (one JSON object per line, plain or gzip) -> :class:`WiktEntry`.

Fields read per line: ``word``, ``lang_code``, ``pos``, ``etymology_text``,
``sounds[].ipa``, ``senses[]`` (``glosses``, ``tags``, ``examples[].text``,
``form_of[].word``, ``id``, and ``translations`` when the extraction attached them to the
sense) and the entry-level ``translations[]`` (``lang_code`` or the older ``code``,
``word``, ``sense``, ``tags``). A sense's gloss is the last of its ``glosses`` (Wiktextract
lists a sub-sense's parent glosses first). Senses without a gloss are skipped unless they
are form-of senses; lines without ``word``/``pos`` (redirects) are skipped.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from lexicon_server.builder.parsers._io import ParseError, open_text
from lexicon_server.builder.records import InflectionRow, WiktEntry, WiktSense, WiktTranslation

__all__ = ["inflections", "iter_entries", "iter_inflections", "parse_entry"]


def _strings(values: Any) -> tuple[str, ...]:
    if not isinstance(values, list):
        return ()
    return tuple(v.strip() for v in values if isinstance(v, str) and v.strip())


def _translations(items: Any) -> tuple[WiktTranslation, ...]:
    found: list[WiktTranslation] = []
    for item in items if isinstance(items, list) else ():
        if not isinstance(item, dict):
            continue
        word, code = item.get("word"), item.get("lang_code") or item.get("code")
        if isinstance(word, str) and word.strip() and isinstance(code, str) and code:
            hint = item.get("sense")
            found.append(
                WiktTranslation(
                    language=code,
                    word=word.strip(),
                    sense_hint=hint.strip() if isinstance(hint, str) and hint.strip() else None,
                    tags=_strings(item.get("tags")),
                )
            )
    return tuple(found)


def _sense(raw: dict[str, Any]) -> WiktSense | None:
    glosses = _strings(raw.get("glosses"))
    form_of = tuple(
        f["word"].strip()
        for f in raw.get("form_of") or ()
        if isinstance(f, dict) and isinstance(f.get("word"), str) and f["word"].strip()
    )
    if not glosses and not form_of:
        return None
    examples = tuple(
        e["text"].strip()
        for e in raw.get("examples") or ()
        if isinstance(e, dict) and isinstance(e.get("text"), str) and e["text"].strip()
    )
    sense_id = raw.get("id")
    return WiktSense(
        gloss=glosses[-1] if glosses else "",
        tags=_strings(raw.get("tags")),
        examples=examples,
        translations=_translations(raw.get("translations")),
        form_of=form_of,
        sense_id=sense_id if isinstance(sense_id, str) else None,
    )


def parse_entry(data: dict[str, Any]) -> WiktEntry | None:
    """Turn one decoded JSONL object into a record (None for redirects and empty lines)."""
    word, pos, lang = data.get("word"), data.get("pos"), data.get("lang_code")
    if not (isinstance(word, str) and isinstance(pos, str) and isinstance(lang, str)):
        return None
    senses = tuple(
        s for s in (_sense(raw) for raw in data.get("senses") or () if isinstance(raw, dict)) if s
    )
    etymology = data.get("etymology_text")
    ipa = tuple(
        dict.fromkeys(
            s["ipa"].strip()
            for s in data.get("sounds") or ()
            if isinstance(s, dict) and isinstance(s.get("ipa"), str) and s["ipa"].strip()
        )
    )
    return WiktEntry(
        word=word,
        language=lang,
        pos=pos,
        etymology=etymology.strip() if isinstance(etymology, str) and etymology.strip() else None,
        ipa=ipa,
        senses=senses,
        translations=_translations(data.get("translations")),
    )


def iter_entries(
    path: str | Path, *, languages: Iterable[str] | None = None
) -> Iterator[WiktEntry]:
    """Yield one entry per line, optionally only for the given entry languages."""
    wanted = frozenset(languages) if languages is not None else None
    with open_text(path) as handle:
        for line_no, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ParseError(path, line_no, f"not a JSON object ({exc.msg})") from exc
            if not isinstance(data, dict):
                raise ParseError(path, line_no, "expected one JSON object per line")
            if wanted is not None and data.get("lang_code") not in wanted:
                continue
            entry = parse_entry(data)
            if entry is not None:
                yield entry


def inflections(entry: WiktEntry) -> Iterator[InflectionRow]:
    """The entry's form-of senses as ``form -> lemma`` rows (``ran`` -> ``run``)."""
    for sense in entry.senses:
        for lemma in sense.form_of:
            if lemma != entry.word:
                yield InflectionRow(form=entry.word, lemma=lemma, pos=entry.pos)


def iter_inflections(path: str | Path, *, language: str | None = None) -> Iterator[InflectionRow]:
    """Form-of rows of a whole file (one entry language, or all)."""
    for entry in iter_entries(path, languages=None if language is None else (language,)):
        yield from inflections(entry)
