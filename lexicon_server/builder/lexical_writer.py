"""Write one language's lexical component (`<lang>/lexical.sqlite`) from parsed records.

The writer interns written forms into `terms`, buffers rows in batches, and keeps what it
cannot resolve yet (WordNet pointers to synsets further down the file, sense ranks from
`index.sense`, frequencies) in staging tables of the output database itself, so memory
is bounded by the vocabulary, not by the input. `finish` resolves the staging tables with
ordered `INSERT ... SELECT`s, creates the read-path indexes after the bulk load, vacuums
and renames the file into place: same records in the same order give the same bytes.

`translations` and `examples` are published clustered (see `clustered_table`): rows are
numbered in arrival order in a staging copy of the published table, then moved into a
WITHOUT ROWID table keyed the way a look-up reads them, so one word's rows share a few
pages instead of being spread in source order over the whole file. Examples keep their
ids; translations are renumbered when ranking evidence was given (`back_translations`,
`target_frequencies`; scored by `translation_rank`), so that a word's translations into a
language read best first.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from lexicon_server.builder import translation_rank
from lexicon_server.builder.config import crash_point
from lexicon_server.builder.errors import BuildError
from lexicon_server.builder.gloss_index import write_gloss_index
from lexicon_server.builder.lexical_finish import (
    cluster,
    frequency_keys,
    rank_translations,
    record_translation_terms,
    resolve,
)
from lexicon_server.builder.lexical_layout import (
    CLUSTERED,
    COVERED_INDEXES,
    STAGING,
    STAGING_TABLES,
    clustered_table,
    index_name,
    schema_statements,
    staging_table,
    table_name,
)
from lexicon_server.builder.records import (
    FrequencyRow,
    InflectionRow,
    PronunciationRow,
    SenseRank,
    SynsetRecord,
)
from lexicon_server.builder.spelling_index import write_spelling_keys
from lexicon_server.builder.term_docs import write_term_docs
from lexicon_server.corpus.normalize import display_form, norm
from lexicon_server.corpus.reader import SCHEMA_VERSIONS

# CLUSTERED, clustered_table and schema_statements are re-exported from lexical_layout:
# tests and the semantic writer import them from here.
__all__ = ["CLUSTERED", "LexicalWriter", "SourceRow", "clustered_table", "schema_statements"]

_BATCH = 10_000
# Components whose definitions are written in their own language get the definitions'
# full-text index (gloss_index.py): English, WordNet's and GCIDE's. Other languages'
# glosses are English equivalents (FreeDict xxx-eng, MultiWordNet), not definitions.
_GLOSS_INDEX_LANGUAGES = frozenset({"en"})


@dataclass(frozen=True, slots=True)
class SourceRow:
    """A row of the `sources` table (and the shape the wordplay writer accepts)."""

    name: str
    title: str
    version: str
    licence: str
    url: str


class LexicalWriter:
    """Streams records into a new lexical database; call `finish()` to publish it."""

    def __init__(
        self,
        path: Path,
        *,
        language: str,
        dataset_version: str,
        sources: Sequence[SourceRow],
        built_from: str = "",
        spelling: bool = True,
    ) -> None:
        self.path = Path(path)
        # GCIDE's component is read only after a look-up found the word in the lexical
        # one, so it needs no spelling index of its own.
        self.spelling = spelling
        self.language = language
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        self._tmp.unlink(missing_ok=True)
        self._conn = sqlite3.connect(self._tmp, isolation_level=None)
        conn = self._conn
        conn.execute("PRAGMA journal_mode = OFF")
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("PRAGMA cache_size = -65536")  # 64 MiB page cache, whatever the input size
        tables, indexes = schema_statements("lexical")
        self._indexes = [i for i in indexes if index_name(i) not in COVERED_INDEXES]
        for statement in tables:
            table = table_name(statement)
            if table in CLUSTERED:
                conn.execute(staging_table(statement, table))
                statement = clustered_table(statement, CLUSTERED[table])
            conn.execute(statement)
        conn.executescript(STAGING + translation_rank.STAGING)
        conn.execute("BEGIN")
        self.source_ids: dict[str, int] = {}
        for i, src in enumerate(sources, 1):
            conn.execute(
                "INSERT INTO sources (id, name, title, version, licence, url) VALUES (?,?,?,?,?,?)",
                (i, src.name, src.title, src.version, src.licence, src.url),
            )
            self.source_ids[src.name] = i
        meta = {
            "schema": "lexical",
            "schema_version": str(SCHEMA_VERSIONS["lexical"]),
            "language": language,
            "dataset_version": dataset_version,
            "built_from": built_from,
        }
        conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", sorted(meta.items()))
        self._terms: dict[str, int] = {}
        self._entries: dict[tuple[int, str, int], int] = {}
        self._synsets: dict[str, int] = {}
        self._next = {"entries": 1, "senses": 1, "synsets": 1}
        self._rows: dict[str, list[tuple[object, ...]]] = {t: [] for t in self._ORDER}
        self.last_sense_ids: tuple[int, ...] = ()  # the senses the last `synset()` made
        self._frequency_lists: list[Iterable[FrequencyRow]] = []  # staged by `finish`

    # --- plumbing -----------------------------------------------------------------------

    _INSERTS: ClassVar[dict[str, str]] = {
        "terms": "INSERT INTO terms (id, text, norm) VALUES (?,?,?)",
        "entries": "INSERT INTO entries (id, term_id, pos, etymology, source_id)"
        " VALUES (?,?,?,?,?)",
        "synsets": "INSERT INTO synsets (id, external_id, pos, lexname, gloss, source_id)"
        " VALUES (?,?,?,?,?,?)",
        "senses": "INSERT INTO senses (id, entry_id, synset_id, rank, external_id, gloss, tags,"
        " source_id) VALUES (?,?,?,?,?,?,?,?)",
        "examples": "INSERT INTO _examples (sense_id, text, source_id) VALUES (?,?,?)",
        "pronunciations": "INSERT INTO pronunciations (term_id, entry_id, notation, value,"
        " variant, source_id) VALUES (?,?,?,?,?,?)",
        "translations": "INSERT INTO _translations (term_id, sense_id, target_language,"
        " target_text, target_norm, note, source_id) VALUES (?,?,?,?,?,?,?)",
        "relations": "INSERT INTO relations (relation, scope, src_synset_id, src_sense_id,"
        " src_term_id, dst_synset_id, dst_sense_id, dst_term_id, dst_language, dst_text, weight,"
        " source_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
        "_members": "INSERT OR IGNORE INTO _members (synset, member, sense_id) VALUES (?,?,?)",
        "_pointers": "INSERT INTO _pointers (relation, src_synset, src_member, dst_synset,"
        " dst_member, source_id) VALUES (?,?,?,?,?,?)",
        "_ranks": "INSERT OR REPLACE INTO _ranks (sense_key, sense_number, tag_count)"
        " VALUES (?,?,?)",
        "_freq": "INSERT OR IGNORE INTO _freq (norm, zipf) VALUES (?,?)",
        "_infl": "INSERT INTO _infl (form_norm, lemma_norm, lemma_text, pos, source_id)"
        " VALUES (?,?,?,?,?)",
    }
    # The published tables the writer streams into, in foreign-key order; `finish` counts
    # them (and the tables it derives) in the same order.
    _STREAMED: ClassVar[tuple[str, ...]] = (
        "terms",
        "entries",
        "synsets",
        "senses",
        "examples",
        "pronunciations",
        "translations",
        "relations",
    )
    # Flush order keeps foreign keys pointing backwards even mid-stream.
    _ORDER: ClassVar[tuple[str, ...]] = (
        *_STREAMED,
        "_members",
        "_pointers",
        "_ranks",
        "_freq",
        "_infl",
    )

    def _add(self, table: str, row: tuple[object, ...]) -> None:
        # Called once per row of every table: kept to a list append and a length check.
        rows = self._rows[table]
        rows.append(row)
        if len(rows) >= _BATCH:
            self._flush()

    def _flush(self) -> None:
        for table in self._ORDER:
            rows = self._rows.get(table)
            if rows:
                self._conn.executemany(self._INSERTS[table], rows)
                rows.clear()

    def source(self, name: str) -> int:
        try:
            return self.source_ids[name]
        except KeyError:
            raise BuildError(
                f"lexical writer for {self.language!r}: source {name!r} was not declared"
            ) from None

    # --- interning ----------------------------------------------------------------------

    def term(self, text: str) -> int:
        """The id of a written form (underscores become spaces), created on first use."""
        shown = display_form(text)
        term_id = self._terms.get(shown)
        if term_id is None:
            term_id = len(self._terms) + 1
            self._terms[shown] = term_id
            self._add("terms", (term_id, shown, norm(shown)))
        return term_id

    def known_term(self, text: str) -> int | None:
        """The id of a written form added already, else None (nothing is created)."""
        return self._terms.get(display_form(text))

    def entry(self, term_id: int, pos: str, source: str, etymology: str | None = None) -> int:
        """One entry per (term, part of speech, source); repeated calls return the same id."""
        source_id = self.source(source)
        key = (term_id, pos, source_id)
        entry_id = self._entries.get(key)
        if entry_id is None:
            entry_id = self._take("entries")
            self._entries[key] = entry_id
            self._add("entries", (entry_id, term_id, pos, etymology, source_id))
        return entry_id

    def _take(self, table: str) -> int:
        value = self._next[table]
        self._next[table] = value + 1
        return value

    # --- facts --------------------------------------------------------------------------

    def sense(
        self,
        entry_id: int,
        gloss: str,
        source: str,
        *,
        synset_id: int | None = None,
        rank: int = 0,
        external_id: str | None = None,
        tags: Iterable[str] = (),
    ) -> int:
        sense_id = self._take("senses")
        row = (sense_id, entry_id, synset_id, rank, external_id, gloss, " ".join(tags))
        self._add("senses", (*row, self.source(source)))
        return sense_id

    def example(self, sense_id: int, text: str, source: str) -> None:
        self._add("examples", (sense_id, text, self.source(source)))

    def pronunciation(
        self,
        term_id: int,
        notation: str,
        value: str,
        variant: int,
        source: str,
        entry_id: int | None = None,
    ) -> None:
        self._add(
            "pronunciations", (term_id, entry_id, notation, value, variant, self.source(source))
        )

    def translation(
        self,
        term_id: int,
        target_language: str,
        target_text: str,
        source: str,
        *,
        sense_id: int | None = None,
        note: str | None = None,
    ) -> None:
        text = " ".join(target_text.split())
        if not text:
            return
        row = (term_id, sense_id, target_language, text, norm(text), note, self.source(source))
        self._add("translations", row)

    def term_relation(
        self,
        relation: str,
        src_term_id: int,
        dst_language: str,
        dst_text: str,
        source: str,
        *,
        weight: float | None = None,
    ) -> None:
        """An unsensed edge (ConceptNet); a same-language target is interned as a term."""
        dst_term = self.term(dst_text) if dst_language == self.language else None
        shown = display_form(dst_text)
        row = (relation, "term", None, None, src_term_id, None, None, dst_term, dst_language)
        self._add("relations", (*row, shown, weight, self.source(source)))

    def term_synonyms(
        self, lists: Iterable[tuple[str, Iterable[tuple[str, float]]]], source: str
    ) -> int:
        """Weighted unsensed `synonym` edges between same-language words (Moby's 2.5M):
        (root, its (term, weight) pairs best first) per root. The target's text is left to
        its term row (`dst_text` NULL), which keeps the edges small. Returns the count.

        The edges go through a three-column table and one INSERT ... SELECT: binding the
        relations table's twelve columns row by row cost three times as much. Their ids
        are the ones `_add` would have given them (nothing else is added meanwhile)."""
        self._flush()
        conn = self._conn
        conn.execute("CREATE TEMP TABLE _synonyms (src INTEGER, dst INTEGER, weight REAL)")
        interned: dict[str, int] = {}  # raw text -> term id: Moby repeats 100k texts
        batch: list[tuple[int, int, float]] = []
        count = 0
        for root, targets in lists:
            src = self.term(root)
            for text, weight in targets:
                dst = interned.get(text)
                if dst is None:
                    dst = interned[text] = self.term(text)
                batch.append((src, dst, weight))
            if len(batch) >= _BATCH:
                conn.executemany("INSERT INTO temp._synonyms VALUES (?, ?, ?)", batch)
                count += len(batch)
                batch.clear()
        conn.executemany("INSERT INTO temp._synonyms VALUES (?, ?, ?)", batch)
        count += len(batch)
        self._flush()  # the terms the edges name
        conn.execute(
            "INSERT INTO relations (relation, scope, src_term_id, dst_term_id, dst_language,"
            " weight, source_id) SELECT 'synonym', 'term', src, dst, ?, weight, ?"
            " FROM temp._synonyms ORDER BY rowid",
            (self.language, self.source(source)),
        )
        conn.execute("DROP TABLE temp._synonyms")
        return count

    def sense_term_relation(
        self, relation: str, src_sense_id: int, dst_text: str, source: str
    ) -> None:
        """A same-language term tied to one of this component's senses (Moby's attached
        synonyms): scope `sense`, with a target term and no target sense."""
        row = (relation, "sense", None, src_sense_id, None, None, None, self.term(dst_text))
        self._add("relations", (*row, self.language, None, None, self.source(source)))

    def synset(self, record: SynsetRecord, source: str) -> int:
        """A WordNet synset with its member senses, examples and (staged) pointers."""
        source_id = self.source(source)
        if record.external_id in self._synsets:
            raise BuildError(f"synset {record.external_id} appears twice in {source}")
        synset_id = self._take("synsets")
        self._synsets[record.external_id] = synset_id
        row = (synset_id, record.external_id, record.pos, record.lexname, record.gloss, source_id)
        self._add("synsets", row)
        sense_ids: list[int] = []
        for k, member in enumerate(record.members, 1):
            entry_id = self.entry(self.term(member.lemma), record.pos, source)
            sense_id = self.sense(
                entry_id,
                record.gloss,
                source,
                synset_id=synset_id,
                rank=1_000_000,  # placeholder until the ranks are resolved in finish()
                external_id=member.sense_key,
                tags=(f"adjposition:{member.adjposition}",) if member.adjposition else (),
            )
            sense_ids.append(sense_id)
            self._add("_members", (record.external_id, k, sense_id))
        self.last_sense_ids = tuple(sense_ids)
        # Examples are published per synset; keep each on the senses whose lemma it uses
        # (all of them when it uses none), so a sense's examples are about its own word.
        for text in record.examples:
            folded = norm(text)
            users = [
                sid
                for sid, m in zip(sense_ids, record.members, strict=True)
                if norm(m.lemma) in folded
            ]
            for sid in users or sense_ids:
                self.example(sid, text, source)
        for p in record.pointers:
            self._add(
                "_pointers",
                (
                    p.relation,
                    record.external_id,
                    p.source_member,
                    p.target_synset,
                    p.target_member,
                    source_id,
                ),
            )
        return synset_id

    def term_norms(self) -> set[str]:
        """The look-up keys of every term written so far."""
        return {norm(text) for text in self._terms}

    def synset_senses(self) -> list[tuple[str, int, int]]:
        """(synset external id, term id, sense id) of every synset member written so far,
        by synset id then member order (MultiWordNet ties its translations to these)."""
        self._flush()
        return self._conn.execute(
            "SELECT m.synset, e.term_id, m.sense_id FROM _members m "
            "JOIN senses s ON s.id = m.sense_id JOIN entries e ON e.id = s.entry_id "
            "ORDER BY m.synset, m.member"
        ).fetchall()

    def sense_ranks(self, ranks: Iterable[SenseRank]) -> None:
        for r in ranks:
            self._add("_ranks", (r.sense_key, r.sense_number, r.tag_count))

    def frequencies(self, rows: Iterable[FrequencyRow]) -> None:
        """wordfreq rows; the first (most frequent) spelling of a norm wins. Read by
        `finish`, once every term is known, which stages only the norms it looks up."""
        self._frequency_lists.append(rows)

    def _stage_frequencies(self) -> None:
        # Most of a wordfreq list names no term here (English: 320k words); staging only
        # the keys `resolve` reads leaves every term's Zipf as it was.
        if not self._frequency_lists:
            return
        wanted = frequency_keys(self.term_norms())
        for rows in self._frequency_lists:
            for r in rows:
                key = norm(r.word)
                if key in wanted:
                    self._add("_freq", (key, r.zipf))
        self._frequency_lists.clear()

    def back_translations(self, language: str, pairs: Iterable[tuple[str, str]]) -> None:
        """(word in `language`, one of its translations into this component's language)
        pairs from a dictionary of the other direction, each word's in that dictionary's
        order: evidence for ranking (see `translation_rank`). 'water' into Finnish then
        lists 'vesi' (water) before 'heittää' (throw), which FreeDict gives first for "to
        make water". Sense-tied ones are ranked the same way."""
        self._flush()
        translation_rank.stage_back_translations(self._conn, language, pairs)

    def reverse_dictionary(
        self,
        language: str,
        entries: Iterable[tuple[str, Sequence[str]] | tuple[str, Sequence[str], str | None]],
        source: str,
    ) -> None:
        """A dictionary of the other direction, (word in `language`, its translations into
        this component's language in order[, the word's part of speech]) per entry, in one
        pass: each translation that is already a term here gets the word as an unsensed
        translation citing `source` (so 'dog' into Dutch finds 'hond' from nld-eng though
        eng-nld lacks 'dog'), and every pair is ranking evidence (see `back_translations`),
        as is the word's part of speech (`translation_rank.stage_target_pos`)."""
        self._flush()
        parts: list[tuple[str, str | None]] = []
        source_id = self.source(source)

        def pairs() -> Iterator[tuple[str, str]]:
            for item in entries:
                word, backs = item[0], item[1]
                if len(item) > 2:
                    parts.append((word, item[2]))
                # The row `translation()` would add, made once per word, not per pair.
                text = " ".join(word.split())
                row = None
                if text and translation_rank.usable_reverse(word):
                    row = (None, language, text, norm(text), None, source_id)
                for back in backs:
                    if row is not None:
                        term_id = self.known_term(back)
                        if term_id is None and back.startswith("to "):
                            term_id = self.known_term(back[3:])
                        if term_id is not None:
                            self._add("translations", (term_id, *row))
                    yield word, back

        translation_rank.stage_all_back_translations(self._conn, language, pairs())
        translation_rank.stage_target_pos(self._conn, language, parts)
        self._flush()

    def target_frequencies(self, lists: Mapping[str, Iterable[FrequencyRow]]) -> None:
        """wordfreq rows of each target language (language -> rows), for ranking the
        translations into it; call it once the translations are in."""
        self._flush()
        wanted = translation_rank.wanted_targets(self._conn)  # one scan for them all
        for language, rows in lists.items():
            translation_rank.stage_target_frequencies(
                self._conn, language, ((r.word, r.zipf) for r in rows), wanted.get(language)
            )

    def inflections(self, rows: Iterable[InflectionRow], source: str) -> None:
        """Irregular form -> lemma; kept only where the lemma is a term of this component."""
        source_id = self.source(source)
        for r in rows:
            lemma = display_form(r.lemma)
            self._add("_infl", (norm(r.form), norm(lemma), lemma, r.pos, source_id))

    def pronunciations(self, rows: Iterable[PronunciationRow], source: str) -> None:
        """CMUdict rows as ARPAbet, tied to the term but not to an entry."""
        for r in rows:
            self.pronunciation(self.term(r.word), "arpabet", " ".join(r.phones), r.variant, source)

    # --- publish ------------------------------------------------------------------------

    def finish(self) -> dict[str, int]:
        """Resolve staged rows, index, vacuum and atomically publish the database."""
        conn = self._conn
        try:
            self._stage_frequencies()
            self._flush()
            resolve(conn, self.language)
            rank_translations(conn)
            cluster(conn)
            record_translation_terms(conn)
            for table in STAGING_TABLES:
                conn.execute(f"DROP TABLE {table}")
            for statement in self._indexes:
                conn.execute(statement)
            write_term_docs(conn)
            if self.spelling:
                write_spelling_keys(conn)
            if self.language in _GLOSS_INDEX_LANGUAGES:
                write_gloss_index(conn)
            conn.execute("COMMIT")
            conn.execute("ANALYZE")
            conn.execute("VACUUM")
            counts = {
                t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                for t in (*self._STREAMED, "inflections", "term_docs", "spelling_keys")
            }
        except BaseException:
            self.abort()
            raise
        conn.close()
        with open(self._tmp, "rb") as handle:
            os.fsync(handle.fileno())
        crash_point(f"lexical:{self.language}:before-rename")
        os.replace(self._tmp, self.path)
        return counts

    def abort(self) -> None:
        try:
            self._conn.close()
        finally:
            self._tmp.unlink(missing_ok=True)
