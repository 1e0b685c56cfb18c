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
eng-ita's). Since `ORDER_META` = `merged`, a word's rows into a language are one list:
identical targets (sense-tied or not) are scored once, over all their rows, and numbered
together, the best target's rows first; the query shows each target once, in id order
(docs/translation-ranking.md). The merged score adds what only the whole word shows: the
English word's parts of speech by use (WordNet tag counts) against the target's (the
sense's, or the reverse dictionary's) and the use of the senses the target renders. A
sense-tied target that only its own source gives lacks the second source's bonus; one
given under many senses is merged into one candidate (an extra demotion for either was
measured and lowered the dev figures, docs/translation-ranking.md). A part of speech the
word rarely has costs ln of its share (`bear`, a verb 83 times in 84: it `orso` is not
first), and a sense-tied target whose every sense names the word after another lemma of
its synset (`click` in {..., penetrate, click}: es `penetrar`) loses a point.
"""

from __future__ import annotations

import math
import re
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
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
    "labelled_text",
    "rank_translations",
    "score",
    "stage_all_back_translations",
    "stage_back_translations",
    "stage_target_frequencies",
    "stage_target_pos",
    "usable_reverse",
    "wanted_targets",
]

# meta key saying a word's rows into a language are numbered best first as one list,
# identical targets together, so the query may show each target once in id order
# (lexicon_server/query/translate.py). `evidence` (older builds): the sense-tied rows were
# numbered best first across senses, the unsensed ones after them.
ORDER_META = ("translation_order", "merged")

# Tuned on the dev split of bench/devsets/translations (bench/translation_rank_tune.py).
WEIGHTS: dict[str, float] = {
    "back": 0.5,  # the reverse dictionary lists the word
    "back_first": 1.0,  # ... as the target's first translation
    "sources": 1.5,  # per dictionary beyond the first giving the same pair
    "zipf": 1.5,  # per Zipf unit of the target in its own language
    # ... counted up to this: past it every word is everyday vocabulary, and a higher cap
    # let the most generic words win (it 'sit' -> essere, es 'session' -> hora, de 'die' -> den).
    "zipf_cap": 5.0,
    "label": 0.25,  # a domain or register label on the row
    "note": 0.25,  # any other restricting note (a context word, 'Geld einzahlen')
    "phrase": 0.5,  # per word beyond the first, up to three
    "position": 0.75,  # spread over the source's first 20 rows
    # The merged order's, tuned on the tune half of the gold-dev msimlex words
    # (bench/msimlex.py) and checked on the other half:
    "pos": 2.0,  # x the share of the word's use (tag counts) in the target's part of speech
    "sense": 3.0,  # x the share of the word's use in the most used sense the target renders
    # Issue 29, session 15 (offline re-rank of one build's kept input, msimlex dev and the
    # judged sample, docs/translation-ranking.md):
    "pos_log": 0.5,  # x ln(share), share floored at POS_FLOOR: a rarely used part of speech
    "member": 1.0,  # a sense-tied target whose every sense names the word after another lemma
}

# The smallest share `pos_log` counts (ln 0.02 = -3.9): below it a part of speech is rare.
POS_FLOOR = 0.02

# A part of speech whose share is unknown (the word has no tag counts, or the target's part
# of speech is not known) counts as this share.
_NEUTRAL_SHARE = 0.5


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


# A label written into the translation text itself: '(obs.)', '[geol.]', '<v>', 'Note: ...'.
_IN_TEXT = re.compile(r"\(([^()]*)\)|\[([^\[\]]*)\]|<([^<>]*)>|^note:")


def labelled_text(text: str) -> bool:
    """Whether a translation's own text carries a label (`is_label` on a bracketed part;
    any `<...>` grammar marker; a leading 'Note:'): such a row is demoted as a labelled one."""
    for match in _IN_TEXT.finditer(text):
        round_, square, angle = match.groups()
        if angle is not None or match.group(0).casefold() == "note:":
            return True
        if is_label(round_ or square):
            return True
    return False


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


# The ranking pass asks both about the same notes and targets over and over (3 M rows).
_is_label_cached = lru_cache(maxsize=1 << 16)(is_label)
_labelled_text_cached = lru_cache(maxsize=1 << 16)(labelled_text)


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
CREATE TABLE _tpos (language TEXT NOT NULL, norm TEXT NOT NULL, pos TEXT NOT NULL,
    PRIMARY KEY (language, norm, pos)) WITHOUT ROWID;
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
    word_before, key = None, ""
    for word, back in pairs:
        if word is not word_before:  # a word's pairs come together: one norm for them all
            word_before, key = word, norm(word)
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


def stage_target_pos(
    conn: sqlite3.Connection, language: str, rows: Iterable[tuple[str, str | None]]
) -> None:
    """(word in `language`, its part of speech as its own dictionary gives it) pairs: the
    reverse dictionary's headwords (`Einnahmen` noun, `nehmen` verb)."""
    picked = ((language, norm(word), pos) for word, pos in rows if pos)
    conn.executemany("INSERT OR IGNORE INTO _tpos VALUES (?, ?, ?)", picked)


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
    s.entry_id, s.rank, e.pos, coalesce(r.tag_count, 0),
    (SELECT group_concat(p.pos, ' ') FROM _tpos p
        WHERE p.language = t.target_language AND p.norm = t.target_norm),
    (SELECT m.member FROM _member m WHERE m.id = t.sense_id)
FROM _translations t LEFT JOIN terms w ON w.id = t.term_id
    LEFT JOIN senses s ON s.id = t.sense_id LEFT JOIN entries e ON e.id = s.entry_id
    LEFT JOIN _ranks r ON r.sense_key = s.external_id
ORDER BY t.term_id, t.target_language, t.id
"""

# Each term's use per part of speech: the tag counts of its senses (WordNet's index.sense).
_WORD_USE = """
SELECT e.term_id, e.pos, sum(r.tag_count) FROM entries e JOIN senses s ON s.entry_id = e.id
    JOIN _ranks r ON r.sense_key = s.external_id
WHERE r.tag_count > 0 AND e.term_id IN (SELECT DISTINCT term_id FROM _translations)
GROUP BY e.term_id, e.pos
"""


def _word_use(conn: sqlite3.Connection) -> dict[int, dict[str, int]]:
    """term id -> part of speech -> summed tag count, for terms with translations."""
    out: dict[int, dict[str, int]] = {}
    for term_id, pos, tags in conn.execute(_WORD_USE):
        out.setdefault(term_id, {})[pos] = tags
    return out


# Each sense's place among its synset's lemmas (0: the synset's first lemma, the word it is
# named by; WordNet's senses are numbered in the data files' lemma order).
_MEMBERS = (
    "CREATE TEMP TABLE _member (id INTEGER PRIMARY KEY, member INTEGER NOT NULL)",
    "INSERT INTO _member SELECT id, row_number() OVER (PARTITION BY synset_id ORDER BY id) - 1 "
    "FROM senses WHERE synset_id IS NOT NULL",
)


def rank_translations(
    conn: sqlite3.Connection, order_table: str, weights: dict[str, float] = WEIGHTS
) -> bool:
    """Fill `order_table (old, new)` with new translation ids: per term and target
    language, one list, the best-scored target's rows first (`_block_order`); mark the
    order in meta (`ORDER_META`). Returns False (table left empty) when no evidence was
    staged."""
    if not _staged(conn):
        return False
    insert = f"INSERT INTO {order_table} (old, new) VALUES (?, ?)"
    use = _word_use(conn)
    for statement in _MEMBERS:  # not executescript: the build's transaction stays open
        conn.execute(statement)
    pairs: list[tuple[int, int]] = []
    new = 0
    # One ordered pass, a word's rows into one language at a time (a few dozen at most):
    # three temporary tables joined back row by row took twice as long.
    for _, block in groupby(conn.execute(_ROWS), key=itemgetter(1, 2)):
        rows = list(block)
        # 30% of the blocks (English starter) hold one row, whose place needs no score.
        order = (
            _block_order(rows, weights, use.get(rows[0][1], {})) if len(rows) > 1 else [rows[0][0]]
        )
        pairs.extend(zip(order, range(new + 1, new + 1 + len(order)), strict=True))
        new += len(order)
        if len(pairs) >= 50_000:
            conn.executemany(insert, pairs)
            pairs.clear()
    conn.executemany(insert, pairs)
    conn.execute("DROP TABLE _member")
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", ORDER_META)
    return True


def _block_order(
    rows: list[tuple[Any, ...]], weights: dict[str, float], use: dict[str, int]
) -> list[int]:
    """The ids of one word's rows into one language (staged order), best target first.

    Rows giving the same target are merged: it is scored once (`_merged_score`) over all
    of them, and its rows are numbered together, the one under its most used sense first
    (the query shows the target there), then its other sense-tied rows in sense order,
    then its unsensed ones. `position` is a pair's place among the word's pairs of the
    same sense (or unsensed) in source order."""
    positions: dict[tuple[int | None, str], int] = {}
    per_sense: dict[int | None, int] = {}
    by_target: dict[str, list[tuple[Any, ...]]] = {}
    for row in rows:
        sense_id, target = row[3], row[4]
        if (sense_id, target) not in positions:
            positions[sense_id, target] = per_sense[sense_id] = per_sense.get(sense_id, -1) + 1
        by_target.setdefault(target, []).append(row)
    total_use = sum(use.values())
    keyed = []
    for first, (target, group) in enumerate(by_target.items()):
        value = _merged_score(target, group, positions, use, total_use, weights)
        ordered = sorted(group, key=_row_key)
        keyed.append((-value, first, [r[0] for r in ordered]))
    keyed.sort()
    return [old for *_, olds in keyed for old in olds]


def _row_key(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """Within one target: sense-tied rows first, the most used sense first, then the
    senses' own order (entry, rank; -1 where the sense is missing, as SQL's NULLs sorted),
    then unsensed rows in staged order."""
    old, sense_id, entry_id, sense_rank, tag_count = row[0], row[3], row[9], row[10], row[12]
    if sense_id is None:
        return (True, 0, 0, 0, 0, old)
    entry = -1 if entry_id is None else entry_id
    rank = -1 if sense_rank is None else sense_rank
    return (False, -tag_count, entry, rank, sense_id, old)


def _merged_score(
    target: str,
    group: list[tuple[Any, ...]],
    positions: dict[tuple[int | None, str], int],
    use: dict[str, int],
    total_use: int,
    w: dict[str, float],
) -> float:
    """One target's score over every row that gives it (see `_block_order`)."""
    sources = {row[5] for row in group}
    senses = {row[3] for row in group if row[3] is not None}
    notes = [row[6] for row in group]
    back_rank = group[0][7]
    value = _score(
        min(positions[row[3], target] for row in group),
        back_rank,
        len(sources),
        group[0][8],
        all(_is_label_cached(n) for n in notes) or _labelled_text_cached(target),
        all(n is not None for n in notes),
        target.count(" ") + 1,
        w,
    )
    # Parts of speech: the sense's when tied, and the target's own (reverse dictionary).
    kinds = {row[11] for row in group if row[11]}
    if group[0][13]:
        kinds.update(group[0][13].split())
    if total_use and kinds:
        share = max(use.get(kind, 0) for kind in kinds) / total_use
    else:
        share = _NEUTRAL_SHARE
    value += w["pos"] * share
    if w["pos_log"] and total_use and kinds:
        value += w["pos_log"] * math.log(max(share, POS_FLOOR))
    members = [row[14] for row in group if row[3] is not None and row[14] is not None]
    if members and min(members) > 0:
        value -= w["member"]
    if senses and total_use:
        value += w["sense"] * max(row[12] for row in group if row[3] is not None) / total_use
    return value
