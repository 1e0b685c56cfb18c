"""Write the English wordplay component (`en/wordplay.sqlite`) from parsed records.

The builder parses CMUdict and WordNet and calls `write_wordplay`; everything the
queries need at run time (rhyme parts, near-rhyme tables, anagram signatures, palindrome
flags, onsets) is precomputed here, so the server only does indexed look-ups.

Inputs are streamed into staging tables of the output database itself, so memory does
not grow with the input; the final tables are then filled with one ordered
`INSERT ... SELECT`.

Word ids are assigned in ranking order (Zipf frequency descending, then spelling), and
pronunciation ids follow word ids. The queries rely on this: walking an index in id
order *is* walking it in frequency order, so they can stop after `limit` rows instead of
sorting every match.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Protocol

from lexicon_server.builder.errors import BuildError
from lexicon_server.builder.play_keys_writer import fill_play_keys
from lexicon_server.builder.records import PronunciationRow
from lexicon_server.builder.sealing import sealed
from lexicon_server.corpus import rhyme_docs
from lexicon_server.corpus.function_words import FUNCTION_WORDS
from lexicon_server.corpus.morphy import suffix_candidates
from lexicon_server.corpus.reader import SCHEMA_VERSIONS, schema_sql
from lexicon_server.corpus.rhyme_walk import candidates
from lexicon_server.corpus.rows.wordplay import dictionary_words_end
from lexicon_server.corpus.wordplay_keys import (
    deletion_keys,
    fold,
    is_palindrome,
    is_single_token,
    letters,
    onset_split,
    rhyme_part,
    signature,
    substitution_keys,
    syllable_count,
)

__all__ = ["SourceLike", "WordplaySource", "WordplayStats", "write_wordplay"]

_BATCH = 5_000
# near_rhymes.edit: how a rhyme part turns into the candidate's (see schema/wordplay.sql).
_IDENTICAL, _SUBSTITUTION, _INSERTION, _DELETION = 0, 1, 2, 3


class SourceLike(Protocol):
    """Any record describing an upstream source (the builder's own type fits)."""

    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def version(self) -> str: ...
    @property
    def licence(self) -> str: ...
    @property
    def url(self) -> str: ...


@dataclass(frozen=True, slots=True)
class WordplaySource:
    """A source row of the `sources` table."""

    name: str  # stable key, e.g. 'cmudict', 'wordnet-3.1'
    title: str
    version: str
    licence: str
    url: str


@dataclass(frozen=True, slots=True)
class WordplayStats:
    """What was written, for the build log."""

    words: int
    pronunciations: int
    synset_links: int
    near_keys: int  # rows of near_rhymes (the name predates that table; the build log uses it)


_STAGING = """
CREATE TABLE _hw (
    text TEXT PRIMARY KEY, fold TEXT NOT NULL, letters TEXT NOT NULL, signature TEXT NOT NULL,
    is_single INTEGER NOT NULL, is_palindrome INTEGER NOT NULL, zipf REAL NOT NULL,
    source_id INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE _cmu (
    text TEXT PRIMARY KEY, fold TEXT NOT NULL, letters TEXT NOT NULL, signature TEXT NOT NULL,
    is_single INTEGER NOT NULL, is_palindrome INTEGER NOT NULL, zipf REAL NOT NULL,
    source_id INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE _hw_syn (text TEXT NOT NULL, synset TEXT NOT NULL, PRIMARY KEY (text, synset))
    WITHOUT ROWID;
CREATE TABLE _pr (
    word TEXT NOT NULL, variant INTEGER NOT NULL, phones TEXT NOT NULL, rhyme TEXT NOT NULL,
    syllables INTEGER NOT NULL, onset TEXT NOT NULL, rest TEXT NOT NULL,
    PRIMARY KEY (word, variant)
) WITHOUT ROWID;
"""

_STAGING_TABLES = ("_hw", "_cmu", "_hw_syn", "_pr")


def write_wordplay(
    path: Path,
    *,
    pronunciations: Iterable[PronunciationRow],
    headwords: Iterable[tuple[str, str, Sequence[str]]],
    zipf: Mapping[str, float],
    sources: Iterable[SourceLike],
    dataset_version: str,
    pronunciation_source: str = "cmudict",
    language: str = "en",
    name_spellings: Collection[str] = frozenset(),
) -> WordplayStats:
    """Write the wordplay database to `path` (atomically: a temp file, then a rename).

    - `pronunciations`: CMUdict rows (word, variant, ARPAbet phones), as the parser yields.
    - `headwords`: `(text, source_name, synset_external_ids)` for every lexical headword
      whose spelling and senses wordplay may report (e.g. every WordNet lemma with the ids
      of the synsets it belongs to, the same ids as the lexical component). Underscores
      become spaces. A headword listed by two sources keeps the first source.
    - `zipf`: Zipf frequency by casefolded word (wordfreq's keys); missing words rank 0.
    - `sources`: every source named above, with `pronunciation_source` among them.
    - `name_spellings`: lower-case spellings known only as names or foreign words (ISLEX's
      labels, `islex_names.py`); a common one no lexicon lists is not a dictionary word.

    Every CMUdict spelling is a word (a headword spelled exactly the same keeps its own
    source) and carries its pronunciations; other capitalisations (WordNet's 'Paris' beside
    CMUdict's 'paris') carry none, so rhyme and homophone look-ups meet each word once.
    Queries join the two through their casefolded spelling when they need senses.
    Raises `BuildError` if a source name is not among `sources`.
    """
    path = Path(path)
    with sealed(path) as conn:
        conn.execute("PRAGMA journal_mode = OFF")
        conn.execute("PRAGMA synchronous = OFF")
        # executescript commits whatever is open, so all DDL runs before the transaction.
        conn.executescript(schema_sql("wordplay"))
        conn.executescript(_STAGING)
        conn.execute("BEGIN")
        source_ids = _write_sources(conn, sources)
        if pronunciation_source not in source_ids:
            raise BuildError(
                f"wordplay: pronunciation source {pronunciation_source!r} is not among the "
                f"sources given ({sorted(source_ids)}); pass its source record to write_wordplay"
            )
        _write_meta(conn, language, dataset_version)
        _stage_headwords(conn, headwords, zipf, source_ids)
        _stage_pronunciations(conn, pronunciations, zipf, source_ids[pronunciation_source])
        stats = _fill_tables(conn, source_ids[pronunciation_source], name_spellings)
        for table in _STAGING_TABLES:
            conn.execute(f"DROP TABLE {table}")
    return stats


def _write_sources(conn: sqlite3.Connection, sources: Iterable[SourceLike]) -> dict[str, int]:
    ids: dict[str, int] = {}
    for source in sources:
        if source.name in ids:
            continue
        cursor = conn.execute(
            "INSERT INTO sources (name, title, version, licence, url) VALUES (?, ?, ?, ?, ?)",
            (source.name, source.title, source.version, source.licence, source.url),
        )
        assert cursor.lastrowid is not None
        ids[source.name] = cursor.lastrowid
    return ids


def _write_meta(conn: sqlite3.Connection, language: str, dataset_version: str) -> None:
    conn.executemany(
        "INSERT INTO meta (key, value) VALUES (?, ?)",
        [
            ("schema", "wordplay"),
            ("schema_version", str(SCHEMA_VERSIONS["wordplay"])),
            ("language", language),
            ("dataset_version", dataset_version),
        ],
    )


def _word_row(text: str, zipf: Mapping[str, float], source_id: int) -> tuple[object, ...]:
    folded = fold(text)
    return (
        text,
        folded,
        letters(folded),
        signature(folded),
        int(is_single_token(folded)),
        int(is_palindrome(folded)),
        float(zipf.get(folded, zipf.get(text, 0.0))),
        source_id,
    )


def _stage_headwords(
    conn: sqlite3.Connection,
    headwords: Iterable[tuple[str, str, Sequence[str]]],
    zipf: Mapping[str, float],
    source_ids: Mapping[str, int],
) -> None:
    words: list[tuple[object, ...]] = []
    links: list[tuple[str, str]] = []
    for raw, source_name, synsets in headwords:
        text = " ".join(raw.replace("_", " ").split())
        if not text:
            continue
        source_id = source_ids.get(source_name)
        if source_id is None:
            raise BuildError(
                f"wordplay: headword {raw!r} names source {source_name!r}, which is not among "
                f"the sources given ({sorted(source_ids)}); pass its source record"
            )
        words.append(_word_row(text, zipf, source_id))
        links.extend((text, synset) for synset in synsets)
        if len(words) >= _BATCH or len(links) >= _BATCH:
            _flush_headwords(conn, words, links)
    _flush_headwords(conn, words, links)


def _flush_headwords(
    conn: sqlite3.Connection, words: list[tuple[object, ...]], links: list[tuple[str, str]]
) -> None:
    # OR IGNORE: the first source to list a spelling keeps it.
    conn.executemany("INSERT OR IGNORE INTO _hw VALUES (?, ?, ?, ?, ?, ?, ?, ?)", words)
    conn.executemany("INSERT OR IGNORE INTO _hw_syn VALUES (?, ?)", links)
    words.clear()
    links.clear()


def _stage_pronunciations(
    conn: sqlite3.Connection,
    rows: Iterable[PronunciationRow],
    zipf: Mapping[str, float],
    source_id: int,
) -> None:
    prons: list[tuple[object, ...]] = []
    words: list[tuple[object, ...]] = []
    for row in rows:
        if not row.phones or not row.word:
            continue
        phones = tuple(row.phones)
        onset, rest = onset_split(phones)
        prons.append(
            (
                row.word,
                row.variant,
                " ".join(phones),
                " ".join(rhyme_part(phones)),
                syllable_count(phones),
                " ".join(onset),
                " ".join(rest),
            )
        )
        words.append(_word_row(row.word, zipf, source_id))
        if len(prons) >= _BATCH:
            _flush_pronunciations(conn, prons, words)
    _flush_pronunciations(conn, prons, words)


def _flush_pronunciations(
    conn: sqlite3.Connection, prons: list[tuple[object, ...]], words: list[tuple[object, ...]]
) -> None:
    conn.executemany("INSERT OR IGNORE INTO _pr VALUES (?, ?, ?, ?, ?, ?, ?)", prons)
    conn.executemany("INSERT OR IGNORE INTO _cmu VALUES (?, ?, ?, ?, ?, ?, ?, ?)", words)
    prons.clear()
    words.clear()


def _fill_tables(
    conn: sqlite3.Connection, pron_source_id: int, name_spellings: Collection[str]
) -> WordplayStats:
    # CMUdict spellings are words of their own unless a headword is spelled exactly so:
    # 'it' must not hide behind WordNet's 'IT' (information technology).
    conn.execute("INSERT OR IGNORE INTO _hw SELECT * FROM _cmu")
    _mark_dictionary_words(conn, pron_source_id, name_spellings)
    # Ranking order: words a reader knows first, then names and rare spellings; within
    # each, most frequent first; among equals, the lower-case spelling first.
    conn.execute(
        "INSERT INTO words (text, letters, signature, is_single, is_palindrome, zipf, source_id, "
        "is_word) SELECT h.text, letters, signature, is_single, is_palindrome, zipf, source_id, "
        "d.is_word FROM _hw h JOIN _dict d ON d.text = h.text "
        "ORDER BY d.is_word DESC, zipf DESC, fold, h.text <> fold, h.text"
    )
    conn.execute("INSERT INTO meta (key, value) VALUES ('word_order', 'dictionary_first')")
    conn.execute("INSERT INTO rhymes (rhyme) SELECT DISTINCT rhyme FROM _pr ORDER BY rhyme")
    conn.execute(
        "INSERT INTO prons "
        "(word_id, variant, phones, rhyme, rhyme_id, syllables, onset, rest, source_id) "
        "SELECT w.id, p.variant, p.phones, p.rhyme, r.id, p.syllables, p.onset, p.rest, ? "
        "FROM _pr p JOIN words w ON w.text = p.word JOIN rhymes r ON r.rhyme = p.rhyme "
        "ORDER BY w.id, p.variant",
        (pron_source_id,),
    )
    conn.execute(
        "INSERT INTO rhyme_members SELECT p.rhyme_id, p.id, p.word_id, p.syllables, w.text, "
        "p.phones, p.rhyme, w.zipf, w.source_id, p.source_id "
        "FROM prons p JOIN words w ON w.id = p.word_id ORDER BY p.rhyme_id, p.id"
    )
    conn.execute(
        "INSERT OR IGNORE INTO word_synsets (word_id, synset) "
        "SELECT w.id, s.synset FROM _hw_syn s JOIN words w ON w.text = s.text"
    )
    near = _fill_near_rhymes(conn)
    _fill_rhyme_docs(conn)
    fill_play_keys(conn)  # pattern buckets and sound keys, from the tables above
    (words,) = conn.execute("SELECT count(*) FROM words").fetchone()
    (prons,) = conn.execute("SELECT count(*) FROM prons").fetchone()
    (links,) = conn.execute("SELECT count(*) FROM word_synsets").fetchone()
    return WordplayStats(words=words, pronunciations=prons, synset_links=links, near_keys=near)


# A word no lexicon lists in lower case still counts when this common (wordfreq Zipf):
# 'gonna', 'okay', 'versus'. Between 3 and 4 such spellings are mostly names and foreign
# words ('liz', 'trevor', 'vous'; issue 29), so they count from 4 on; the closed classes
# (`FUNCTION_WORDS`, contractions among them) and possessives of words count whatever
# their frequency.
COMMON_ZIPF = 4.0
# A spelling the lexicon lists only as a capitalised name ('Paul', 'July') is a name below
# this frequency; above it the common word wins ('may' beside the month).
NAME_ZIPF = 5.5


def _possessed(fold: str) -> str | None:
    """The word a possessive is of ('editor's' -> editor, 'parents'' -> parents)."""
    if fold.endswith("'s") and len(fold) > 2:
        return fold[:-2]
    if fold.endswith("s'") and len(fold) > 2:
        return fold[:-1]
    return None


def _mark_dictionary_words(
    conn: sqlite3.Connection, pron_source_id: int, name_spellings: Collection[str]
) -> None:
    """`_dict(text, is_word)` for every staged spelling (see `words.is_word`): a lower-case
    lemma of the lexicon's headwords, a form morphy's rules take to one (or its
    possessive), a function word, or a common spelling that is neither the lexicon's
    capitalised name ('Bart', 'Paul'; acronyms such as 'IT' or 'WHO' do not make 'it' or
    'who' names) nor among `name_spellings` ('chris', 'de')."""
    staged = conn.execute("SELECT text, fold, zipf, source_id FROM _hw").fetchall()
    lemmas = [(text, fold) for text, fold, _, source in staged if source != pron_source_id]
    lower = {fold for text, fold in lemmas if text == fold}
    names = {fold for text, fold in lemmas if text != fold and not text.isupper()} - lower
    name_spellings = frozenset(name_spellings)  # a list from a caller would be slow to probe
    lemma_pos = _lemma_parts_of_speech(conn)

    def listed(fold: str) -> bool:
        return fold in lower or any(base in lower for base, _, _ in suffix_candidates(fold))

    def inflected(fold: str) -> bool:
        """A form of a lemma by a rule of the lemma's own part of speech ('jarred')."""
        return any(pos in lemma_pos.get(base, ()) for base, pos, _ in suffix_candidates(fold))

    def is_word(text: str, fold: str, zipf: float) -> bool:
        if text != fold and fold not in lower:
            return False  # the capitalised lemma itself
        possessed = _possessed(fold)
        if fold in lower or fold in FUNCTION_WORDS:
            return True
        if listed(fold):
            # 'becker', 'ewing' look like forms of 'beck', 'ewe' but are surnames; a real
            # form stays a word whatever ISLEX saw ('donuts', 'jarred').
            return fold not in name_spellings or inflected(fold)
        if possessed is not None and (listed(possessed) or possessed in FUNCTION_WORDS):
            return True
        if fold in names and zipf < NAME_ZIPF:
            return False
        return zipf >= COMMON_ZIPF and fold not in name_spellings

    conn.execute("CREATE TEMP TABLE _dict (text TEXT PRIMARY KEY, is_word INTEGER) WITHOUT ROWID")
    conn.executemany(
        "INSERT INTO _dict VALUES (?, ?)",
        ((text, int(is_word(text, fold, zipf))) for text, fold, zipf, _ in staged),
    )


# The part-of-speech letter ending a synset id ('wn31-02086723-n') -> morphy's rule names.
_SYNSET_POS = {"n": "noun", "v": "verb", "a": "adj", "s": "adj"}


def _lemma_parts_of_speech(conn: sqlite3.Connection) -> dict[str, set[str]]:
    """Each lower-case headword's parts of speech, from its synsets' ids."""
    found: dict[str, set[str]] = {}
    for text, synset in conn.execute("SELECT text, synset FROM _hw_syn WHERE text = lower(text)"):
        pos = _SYNSET_POS.get(synset[-1:])
        if pos is not None:
            found.setdefault(text, set()).add(pos)
    return found


def _fill_near_rhymes(conn: sqlite3.Connection) -> int:
    """Every rhyme part's perfect and one-token-away pronunciations, in rank order.

    Memory is bounded by the distinct rhyme parts and their keys (about 50k and 250k on
    the whole CMUdict), not by the number of rows written (about 4M).
    """
    rhyme_ids = {rhyme: rid for rid, rhyme in conn.execute("SELECT id, rhyme FROM rhymes")}
    prons: dict[int, list[int]] = {rid: [] for rid in rhyme_ids.values()}
    for pron_id, rid in conn.execute("SELECT id, rhyme_id FROM prons ORDER BY id"):
        prons[rid].append(pron_id)
    # Same-length rhymes one substitution apart share exactly one substitution key; a
    # rhyme one token longer has ours among its deletion keys.
    by_sub: dict[str, list[int]] = {}
    longer: dict[str, list[int]] = {}
    tokens = {rid: rhyme.split() for rhyme, rid in rhyme_ids.items()}
    for rid, parts in tokens.items():
        for key in substitution_keys(parts):
            by_sub.setdefault(key, []).append(rid)
        for key in dict.fromkeys(deletion_keys(parts)):
            longer.setdefault(key, []).append(rid)
    rows: list[tuple[int, int, int, int]] = []
    total = 0
    for rid in sorted(tokens):
        parts = tokens[rid]
        edits = {rid: _IDENTICAL}
        for key in substitution_keys(parts):
            for other in by_sub[key]:
                edits.setdefault(other, _SUBSTITUTION)
        for other in longer.get(" ".join(parts), ()):
            edits.setdefault(other, _INSERTION)
        for key in deletion_keys(parts):
            shorter = rhyme_ids.get(key)
            if shorter is not None:
                edits.setdefault(shorter, _DELETION)
        found = sorted(
            (pron_id, edit, other) for other, edit in edits.items() for pron_id in prons[other]
        )
        rows.extend((rid, pron_id, edit, other) for pron_id, edit, other in found)
        if len(rows) >= _BATCH * 10:
            total += len(rows)
            conn.executemany("INSERT INTO near_rhymes VALUES (?, ?, ?, ?)", rows)
            rows.clear()
    total += len(rows)
    conn.executemany("INSERT INTO near_rhymes VALUES (?, ?, ?, ?)", rows)
    return total


def _fill_rhyme_docs(conn: sqlite3.Connection) -> None:
    """The derived tables of lexicon_server/corpus/rhyme_docs.py. The documents come from
    the queries' own walk, so a document and a walk of the tables cannot disagree."""
    conn.execute(
        "INSERT INTO spelling_prons SELECT h.fold, p.id, w.id, w.text, p.variant, p.phones, "
        "p.rhyme, p.syllables, p.rhyme_id FROM prons p JOIN words w ON w.id = p.word_id "
        "JOIN _hw h ON h.text = w.text ORDER BY h.fold, p.id"
    )
    words_end = dictionary_words_end(conn)
    docs: list[tuple[int, str, str]] = []
    for rhyme_id, rhyme in conn.execute("SELECT id, rhyme FROM rhymes ORDER BY id").fetchall():
        part = (rhyme, rhyme_id)
        perfect = _rhyme_doc(conn, part, "perfect", words_end)
        docs.append((rhyme_id, perfect, _rhyme_doc(conn, part, "near", words_end)))
        if len(docs) >= _BATCH:
            conn.executemany("INSERT INTO rhyme_docs VALUES (?, ?, ?)", docs)
            docs.clear()
    conn.executemany("INSERT INTO rhyme_docs VALUES (?, ?, ?)", docs)
    conn.execute(
        "INSERT INTO meta (key, value) VALUES (?, ?)", (rhyme_docs.META_KEY, rhyme_docs.VERSION)
    )


def _rhyme_doc(conn: sqlite3.Connection, part: tuple[str, int], mode: str, words_end: int) -> str:
    """One rhyme part's document of one mode: its first candidates, as no query sees them
    (no word of its own to leave out), how many of them are dictionary words (they come
    first), and whether more exist."""
    walk = candidates(conn, (part,), mode, None, frozenset(), "", words_end, False)
    found = list(islice(walk, rhyme_docs.CANDIDATES + 1))
    walk.close()
    kept = found[: rhyme_docs.CANDIDATES]
    # Layout in rhyme_docs.py: a perfect candidate leaves out its edit (0) and rhyme part.
    if mode == "perfect":
        entries = [[*c[:4], c[5], c[6]] for c in kept]
    else:
        entries = [[*c[:8], c[9]] for c in kept]
    more = int(len(found) > rhyme_docs.CANDIDATES)
    words = sum(c[10] for c in kept)
    return json.dumps([more, words, entries], ensure_ascii=False, separators=(",", ":"))
