"""Write the offline slang component (`slang.sqlite`) from the four slang and emoji sources.

Each source's records become `meanings` rows under the look-up key of their phrase
(`corpus.slang_data.slang_key`), in the order: Gen-Z list, Jargon File, emoticons, emoji
names, emoji keywords; a row's `id` keeps that order, so a reader lists one phrase's
meanings by source without sorting. See docs/corpus-format.md ("Slang component").
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from lexicon_server.builder.records import DefinitionEntry, EmojiAnnotation, Emoticon, SlangEntry
from lexicon_server.builder.sealing import sealed
from lexicon_server.corpus.reader import schema_sql
from lexicon_server.corpus.slang_data import SCHEMA_VERSION, slang_key

__all__ = ["SlangSource", "write_slang"]

_ROW = tuple[str, str, str, str, str, str | None, str, str | None, int, int]


@dataclass(frozen=True)
class SlangSource:
    """A `sources` row: the catalogue's record plus how far to trust its text."""

    name: str
    title: str
    version: str
    licence: str
    url: str
    trust: str  # 'curated' (an edited lexicon or standard) or 'unreviewed' (one author's list)


def _genz(entries: Iterable[SlangEntry], sid: int) -> Iterator[_ROW]:
    for e in entries:
        yield ("en", slang_key(e.term), e.term, "slang", e.definition, None, "slang", None, 1, sid)


def _jargon(entries: Iterable[DefinitionEntry], sid: int) -> Iterator[_ROW]:
    for e in entries:
        for sense in e.senses:
            tags = "jargon" + (f" domain:{'_'.join(sense.domain.split())}" if sense.domain else "")
            yield ("en", slang_key(e.headword), e.headword, "jargon", sense.definition, e.pos,
                   tags, None, 1, sid)  # fmt: skip


def _emoticons(items: Iterable[Emoticon], sid: int) -> Iterator[_ROW]:
    for e in items:
        yield ("en", slang_key(e.emoticon), e.emoticon, "emoticon", f"{e.emoji} {e.label}", None,
               "emoticon", e.emoji, 1, sid)  # fmt: skip


def _emoji(items: Sequence[EmojiAnnotation], sid: int) -> Iterator[_ROW]:
    """Names first (the emoji is the phrase), then one row per keyword pointing at the emoji."""
    for a in items:
        if a.name is None and not a.keywords:
            continue
        words = " | ".join(a.keywords)
        gloss = f"{a.name}; keywords: {words}" if a.name and words else a.name or words
        yield (a.locale, slang_key(a.emoji), a.emoji, "emoji", gloss, None, "emoji", a.emoji, 1,
               sid)  # fmt: skip
    for a in items:
        label = f"{a.emoji} {a.name}" if a.name else a.emoji
        for keyword in a.keywords:
            if a.name and slang_key(keyword) == slang_key(a.name):
                continue  # the name itself, already the emoji's gloss
            yield (a.locale, slang_key(keyword), keyword, "emoji_keyword",
                   f"{label} (CLDR lists '{keyword}' among this emoji's keywords)", None,
                   "emoji-keyword", a.emoji, 0, sid)  # fmt: skip


def write_slang(
    path: str | Path,
    *,
    sources: Sequence[SlangSource],
    genz: Iterable[SlangEntry] = (),
    jargon: Iterable[DefinitionEntry] = (),
    emoticons: Iterable[Emoticon] = (),
    annotations: Iterable[EmojiAnnotation] = (),
    dataset_version: str,
) -> dict[str, int]:
    """Write `path` atomically; returns the meaning rows per kind.

    `sources` names every source whose records are given, under the catalogue names
    `genz-slang`, `jargon`, `emojibase-emoticons`, `cldr-annotations`.
    """
    path = Path(path)
    ids = {s.name: i for i, s in enumerate(sources, 1)}
    streams: list[Iterator[_ROW]] = []
    if "genz-slang" in ids:
        streams.append(_genz(genz, ids["genz-slang"]))
    if "jargon" in ids:
        streams.append(_jargon(jargon, ids["jargon"]))
    if "emojibase-emoticons" in ids:
        streams.append(_emoticons(emoticons, ids["emojibase-emoticons"]))
    if "cldr-annotations" in ids:
        streams.append(_emoji(list(annotations), ids["cldr-annotations"]))
    counts: dict[str, int] = {}
    with sealed(path) as conn:
        conn.execute("PRAGMA journal_mode = OFF")
        conn.executescript(schema_sql("slang"))
        conn.execute("BEGIN")
        conn.executemany(
            "INSERT INTO sources (id, name, title, version, licence, url, trust) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(ids[s.name], s.name, s.title, s.version, s.licence, s.url, s.trust) for s in sources],
        )
        meta = {
            "schema": "slang",
            "schema_version": str(SCHEMA_VERSION),
            "dataset_version": dataset_version,
            "built_from": ",".join(s.name for s in sources),
        }
        conn.executemany("INSERT INTO meta VALUES (?, ?)", sorted(meta.items()))
        next_id = 0
        for stream in streams:
            for row in stream:
                next_id += 1
                counts[row[3]] = counts.get(row[3], 0) + 1
                conn.execute(
                    "INSERT INTO meanings (language, key, id, headword, kind, gloss, pos, tags, "
                    "emoji, marks, source_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (row[0], row[1], next_id, *row[2:]),
                )
    return counts
