"""Order a word's translations by evidence, once, at build time (see docs/translation-ranking.md).

Each unsensed translation row gets a score from what the build knows about it:

- **back**: the dictionary of the other direction lists the word among the target's own
  translations (`Hund` -> dog), more so when it lists it first;
- **sources**: how many independent dictionaries give the pair (distinct source ids: the
  reverse dictionary read backwards gives candidates of its own, see
  `LexicalWriter.reverse_dictionary`);
- **zipf**: the target word's wordfreq frequency in its own language;
- **label**: the source marks the row with a domain or register label (`techn.`,
  `Fassbinderei`, `dated`, `vulg.`) or another restricting note;
- **phrase**: the target is several words (a paraphrase) rather than one;
- **position**: the source's own order, as a tie-breaker.

The build scores every staged row in one ordered pass (SQL finds the back translation and
the frequency by primary key; `_score`, the positional form of the `score()` the tuning
scripts and the tests call, does the rest), so ranking 3 M rows costs about 20 seconds and
nothing at run time: the writer renumbers the rows so that a word's translations into a language are
read best first. Sense-tied rows are scored the same way, counting as sources every
dictionary that gives the pair, tied or not (MultiWordNet's `banca` agreeing with
eng-ita's), and still come first in the query: it groups them by sense before the
unsensed ones, the best group first (`ORDER_META`).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter
from typing import Any

from lexicon_server.corpus.normalize import norm

__all__ = [
    "ORDER_META",
    "STAGING",
    "WEIGHTS",
    "Evidence",
    "is_label",
    "rank_translations",
    "score",
    "stage_all_back_translations",
    "stage_back_translations",
    "stage_target_frequencies",
    "usable_reverse",
    "wanted_targets",
]

# meta key saying the sense-tied rows are numbered by evidence across senses too, so the
# query may deal a word's sense groups best first (lexicon_server/query/translate.py).
ORDER_META = ("translation_order", "evidence")

# Tuned on the dev split of bench/devsets/translations (bench/translation_rank_tune.py).
WEIGHTS: dict[str, float] = {
    "back": 0.5,  # the reverse dictionary lists the word
    "back_first": 1.0,  # ... as the target's first translation
    "sources": 1.5,  # per dictionary beyond the first giving the same pair
    "zipf": 1.5,  # per Zipf unit of the target in its own language
    "zipf_cap": 6.0,  # ... counted up to this: past it every word is everyday vocabulary
    "label": 0.25,  # a domain or register label on the row
    "note": 0.25,  # any other restricting note (a context word, 'Geld einzahlen')
    "phrase": 0.5,  # per word beyond the first, up to three
    "position": 0.75,  # spread over the source's first 20 rows
}

# A label as FreeDict's sources write them: an abbreviation ending in a dot (techn., geh.,
# Am.), one of the spelled-out register words, or a capitalised domain name before a
# semicolon and its English gloss (Fassbinderei; barrel-making).
_ABBREVIATION = re.compile(r"(?:^|[\s;,(])\w{1,10}\.(?=$|[\s;,)])")
_REGISTER = re.compile(
    r"\b(?:dated|archaic|obsolete|rare|slang|vulgar|colloquial|informal|formal|literary|"
    r"poetic|humorous|derogatory|pejorative|offensive|figurative|historical|regional|"
    r"dialect|technical|jargon|euphemistic|veraltet|selten|umgangssprachlich)\b",
    re.IGNORECASE,
)


def usable_reverse(headword: str) -> bool:
    """Whether a reverse dictionary's headword may stand as a candidate: a word or a short
    phrase, not a quoted sentence (deu-eng lists 'Vater, in deine Hände lege ich meinen
    Geist.' under 'Father')."""
    return headword.count(" ") < 3 and not headword.rstrip().endswith((".", "!", "?"))


def is_label(note: str | None) -> bool:
    """Whether a row's note restricts it to a domain or register rather than glossing it."""
    if not note:
        return False
    if _ABBREVIATION.search(note) or _REGISTER.search(note):
        return True
    head, sep, _ = note.partition("; ")
    return bool(sep) and head[:1].isupper() and head.isalpha()


@dataclass(frozen=True, slots=True)
class Evidence:
    """What the build knows about one unsensed translation of a word into a language."""

    position: int  # 0-based, among the word's rows into that language, in source order
    back_rank: int | None  # where the word comes in the target's own translations; None: absent
    sources: int  # distinct dictionaries giving the pair
    zipf: float  # of the target in its language, 0 when unknown
    label: bool  # a domain/register label (see is_label)
    note: bool  # any note at all
    words: int  # words in the target text


def score(e: Evidence, weights: dict[str, float] = WEIGHTS) -> float:
    """Higher is better."""
    return _score(e.position, e.back_rank, e.sources, e.zipf, e.label, e.note, e.words, weights)


def _score(
    position: int,
    back_rank: int | None,
    sources: int,
    zipf: float,
    label: bool,
    note: bool,
    words: int,
    w: dict[str, float],
) -> float:
    # Positional, not an Evidence: the build scores millions of rows.
    s = 0.0
    if back_rank is not None:
        s += w["back"] + (w["back_first"] if back_rank == 0 else 0.0)
    s += w["sources"] * (sources - 1)
    s += w["zipf"] * min(zipf, w["zipf_cap"])
    if label:
        s -= w["label"]
    elif note:
        s -= w["note"]
    s -= w["phrase"] * min(words - 1, 3)
    s -= w["position"] * min(position, 20) / 20
    return s


# Staging tables the lexical writer creates with its own and drops at the end.
STAGING = """
CREATE TABLE _back (language TEXT NOT NULL, target_norm TEXT NOT NULL, norm TEXT NOT NULL,
    rank INTEGER NOT NULL, PRIMARY KEY (language, target_norm, norm)) WITHOUT ROWID;
CREATE TABLE _tfreq (language TEXT NOT NULL, norm TEXT NOT NULL, zipf REAL NOT NULL,
    PRIMARY KEY (language, norm)) WITHOUT ROWID;
"""


def _wanted(conn: sqlite3.Connection, language: str) -> set[str]:
    return {
        t
        for (t,) in conn.execute(
            "SELECT DISTINCT target_norm FROM _translations WHERE target_language = ?",
            (language,),
        )
    }


def _ranked(
    language: str, pairs: Iterable[tuple[str, str]], wanted: set[str]
) -> Iterator[tuple[str, str, str, int]]:
    ranks: dict[str, int] = {}  # bounded by the targets the component names
    for word, back in pairs:
        key = norm(word)
        if key in wanted:
            rank = ranks.get(key, 0)
            ranks[key] = rank + 1
            yield language, key, norm(back), rank


def stage_back_translations(
    conn: sqlite3.Connection, language: str, pairs: Iterable[tuple[str, str]]
) -> None:
    """(word in `language`, one translation back) pairs, each word's in its dictionary's
    order, kept for the targets the rows name; a pair's first listing keeps its rank."""
    wanted = _wanted(conn, language)
    if wanted:  # else `pairs` is left unread
        rows = _ranked(language, pairs, wanted)
        conn.executemany("INSERT OR IGNORE INTO _back VALUES (?, ?, ?, ?)", rows)


def stage_all_back_translations(
    conn: sqlite3.Connection, language: str, pairs: Iterable[tuple[str, str]]
) -> None:
    """As `stage_back_translations`, keeping every pair: for a dictionary that also gives
    candidates of its own, every one of its words is a target."""
    ranks: dict[str, int] = {}
    rows = []
    for word, back in pairs:
        key = norm(word)
        rank = ranks.get(key, 0)
        ranks[key] = rank + 1
        rows.append((language, key, norm(back), rank))
        if len(rows) >= 10_000:
            conn.executemany("INSERT OR IGNORE INTO _back VALUES (?, ?, ?, ?)", rows)
            rows.clear()
    conn.executemany("INSERT OR IGNORE INTO _back VALUES (?, ?, ?, ?)", rows)


def wanted_targets(conn: sqlite3.Connection) -> dict[str, set[str]]:
    """Every target language's target norms, in one scan of the staged rows."""
    out: dict[str, set[str]] = {}
    for language, target in conn.execute(
        "SELECT DISTINCT target_language, target_norm FROM _translations"
    ):
        out.setdefault(language, set()).add(target)
    return out


def stage_target_frequencies(
    conn: sqlite3.Connection,
    language: str,
    rows: Iterable[tuple[str, float]],
    wanted: set[str] | None,
) -> None:
    """wordfreq (word, zipf) of `language`, kept for `wanted`, the targets the rows name
    (from `wanted_targets`); `rows` is left unread when there are none."""
    if wanted:
        picked = ((language, key, z) for word, z in rows if (key := norm(word)) in wanted)
        conn.executemany("INSERT OR IGNORE INTO _tfreq VALUES (?, ?, ?)", picked)


def _staged(conn: sqlite3.Connection) -> bool:
    return any(
        conn.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchone() for table in ("_back", "_tfreq")
    )


# Every staged row with the evidence only SQL can find quickly (the back translation and
# the target's frequency, by primary key), a word's rows into a language together, in the
# order they were staged.
_ROWS = """
SELECT t.id, t.term_id, t.target_language, t.sense_id, t.target_norm, t.source_id, t.note,
    (SELECT min(b.rank) FROM _back b WHERE b.language = t.target_language
        AND b.target_norm = t.target_norm AND b.norm IN (w.norm, 'to ' || w.norm)),
    coalesce((SELECT q.zipf FROM _tfreq q
        WHERE q.language = t.target_language AND q.norm = t.target_norm), 0),
    s.entry_id, s.rank
FROM _translations t LEFT JOIN terms w ON w.id = t.term_id
    LEFT JOIN senses s ON s.id = t.sense_id
ORDER BY t.term_id, t.target_language, t.id
"""


def rank_translations(
    conn: sqlite3.Connection, order_table: str, weights: dict[str, float] = WEIGHTS
) -> bool:
    """Fill `order_table (old, new)` with new translation ids: per term and target
    language, sense-tied rows first, then unsensed ones, each best score first; mark the
    order in meta (`ORDER_META`). Returns False (table left empty) when no evidence was
    staged."""
    if not _staged(conn):
        return False
    insert = f"INSERT INTO {order_table} (old, new) VALUES (?, ?)"
    pairs: list[tuple[int, int]] = []
    new = 0
    # One ordered pass, a word's rows into one language at a time (a few dozen at most):
    # three temporary tables joined back row by row took twice as long.
    for _, block in groupby(conn.execute(_ROWS), key=itemgetter(1, 2)):
        rows = list(block)
        # 30% of the blocks (English starter) hold one row, whose place needs no score.
        order = _block_order(rows, weights) if len(rows) > 1 else [rows[0][0]]
        pairs.extend(zip(order, range(new + 1, new + 1 + len(order)), strict=True))
        new += len(order)
        if len(pairs) >= 50_000:
            conn.executemany(insert, pairs)
            pairs.clear()
    conn.executemany(insert, pairs)
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", ORDER_META)
    return True


def _block_order(rows: list[tuple[Any, ...]], weights: dict[str, float]) -> list[int]:
    """The ids of one word's rows into one language (staged order), best first.

    `position` is a pair's place among the word's pairs of the same sense (or unsensed)
    in source order; `sources` counts distinct dictionaries giving the pair: within its
    sense for unsensed rows, anywhere for sense-tied ones (FreeDict agreeing with
    MultiWordNet is the evidence). Sense-tied rows are sorted across senses, so a sense's
    first row is its best one and a group's first id says how good the group is; equal
    scores keep the senses' own order (the query's: entry, then sense rank)."""
    groups: dict[tuple[int | None, str], set[int]] = {}
    positions: dict[tuple[int | None, str], int] = {}
    per_sense: dict[int | None, int] = {}
    pair_sources: dict[str, set[int]] = {}
    for _, _, _, sense_id, target, source_id, *_ in rows:
        key = (sense_id, target)
        found = groups.get(key)
        if found is None:
            found = groups[key] = set()
            positions[key] = per_sense[sense_id] = per_sense.get(sense_id, -1) + 1
        found.add(source_id)
        pair_sources.setdefault(target, set()).add(source_id)
    keyed = []
    for old, _, _, sense_id, target, _, note, back_rank, zipf, entry_id, sense_rank in rows:
        key = (sense_id, target)
        unsensed = sense_id is None
        sources = len(groups[key] if unsensed else pair_sources[target])
        value = _score(
            positions[key],
            back_rank,
            sources,
            zipf,
            is_label(note),
            note is not None,
            target.count(" ") + 1,
            weights,
        )
        if unsensed:
            keyed.append((True, -value, 0, 0, 0, old))
        else:  # -1 where the sense is missing: first, as SQL's NULLs sorted
            entry = -1 if entry_id is None else entry_id
            rank = -1 if sense_rank is None else sense_rank
            keyed.append((False, -value, entry, rank, sense_id, old))
    keyed.sort()
    return [k[-1] for k in keyed]
