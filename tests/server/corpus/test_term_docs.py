"""A look-up answered from the builder's term documents equals the one read from the
normalised tables, on the corpora the real builder makes, whatever the parameters."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from _support.dumped import dumped
from pydantic_core import from_json

from lexicon_server.corpus.reader import Corpus
from lexicon_server.corpus.rows.facts import has_term_docs
from lexicon_server.corpus.term_docs import TARGET_UNKNOWN
from lexicon_server.query.lookup import lookup
from lexicon_store.selection import load_active

# (limit, examples, pronunciations, translations): the defaults, which the documents
# hold in full; tight budgets that cut and deal round-robin; disabled classes; the most a
# document holds; and more than that, which reads the tables.
PARAMETERS = [
    (10, 8, 8, 20),
    (1, 1, 1, 1),
    (3, 2, 1, 3),
    (2, 0, 0, 0),
    (10, 100, 100, 20),
    (11, 8, 8, 21),
    (100, 100, 100, 100),
]


def _open(data_dir: Path) -> Iterator[Corpus]:
    corpus = Corpus(load_active(data_dir))
    yield corpus
    corpus.close()


def _assert_same(corpus: Corpus, words: list[str], language: str = "en") -> None:
    for word in words:
        for limit, ex, pr, tr in PARAMETERS:
            args = (corpus, word, language, limit, ex, pr, tr)
            assert dumped(lookup(*args)) == dumped(lookup(*args, tables_only=True)), (word, limit)


def _terms(conn: sqlite3.Connection) -> list[str]:
    return [row[0] for row in conn.execute("SELECT text FROM terms ORDER BY id")]


@pytest.mark.slow  # every term of three languages, seven budgets, both paths
def test_sample_documents_answer_as_the_tables(sample_data_dir: Path) -> None:
    for corpus in _open(sample_data_dir):
        documented = 0
        for language in ("en", "fr", "de"):
            conn = corpus.db(language, "lexical")
            assert has_term_docs(conn)
            documented += conn.execute("SELECT count(*) FROM term_docs").fetchone()[0]
            # Every term, plus inflected forms and words the corpus lacks.
            words = [*_terms(conn), "dogs", "ran", "houses", "zzxq"]
            _assert_same(corpus, words, language)
        # Terms in use have documents, so both paths were compared.
        assert documented >= 20


def test_documents_carry_the_linked_target_flags(sample_data_dir: Path) -> None:
    for corpus in _open(sample_data_dir):
        conn = corpus.db("en", "lexical")
        table = {
            (row[0], row[1]): row[2]
            for row in conn.execute(
                "SELECT id, target_language, target_entry FROM translations WHERE sense_id IS NULL"
            )
        }
        flags = set()
        for (doc,) in conn.execute("SELECT doc FROM term_docs"):
            for lang, _, _, _, _, flag, row_id in from_json(doc)[3]:
                expected = table[(row_id, lang)]
                assert flag == (TARGET_UNKNOWN if expected is None else expected)
                flags.add(flag)
        assert flags == {0, 1, TARGET_UNKNOWN}


def test_a_database_without_documents_reads_the_tables(corpus: Corpus) -> None:
    # The hand-written fixture has the (empty) table but not the meta key.
    conn = corpus.db("en", "lexical")
    assert not has_term_docs(conn)
    assert dumped(lookup(corpus, "dog"))["found"]


@pytest.mark.slow
def test_starter_documents_answer_as_the_tables(starter_data_dir: Path) -> None:
    for corpus in _open(starter_data_dir):
        conn = corpus.db("en", "lexical")
        assert has_term_docs(conn)
        frequent = [
            row[0]
            for row in conn.execute(
                "SELECT text FROM terms WHERE id IN (SELECT term_id FROM entries)"
                " ORDER BY zipf DESC, id LIMIT 300"
            )
        ]
        # Terms a client can ask for: FreeDict's phrase entries include whole sentences
        # longer than the 100 characters a word argument takes.
        everything = [t for t in _terms(conn) if len(t) <= 100]
        drawn = random.Random(5).sample(everything, 300)
        # Forms that resolve to several terms (a lemma and an inflection's lemma).
        inflected = ["dogs", "ran", "better", "saw", "left", "found", "leaves", "axes"]
        # Spellings several terms share up to case: the best match's senses lead.
        cased = ["be", "Be", "cat", "CAT", "in", "In", "IN", "day", "days", "DAY"]
        # The frequent words are read from documents, most drawn ones from the tables.
        documented = {
            row[0]
            for row in conn.execute(
                "SELECT t.text FROM term_docs d JOIN terms t ON t.id = d.term_id"
            )
        }
        assert set(frequent) <= documented
        _assert_same(corpus, frequent + drawn + inflected + cased)


@pytest.mark.slow
@pytest.mark.parametrize("language", ["de", "ja", "fr"])
def test_starter_documents_of_other_languages(starter_data_dir: Path, language: str) -> None:
    """FreeDict's xxx-eng headwords: every sense carries its own translations."""
    for corpus in _open(starter_data_dir):
        conn = corpus.db(language, "lexical")
        frequent = [
            row[0]
            for row in conn.execute(
                "SELECT t.text FROM term_docs d JOIN terms t ON t.id = d.term_id"
                " ORDER BY t.zipf DESC, t.id LIMIT 150"
            )
        ]
        assert len(frequent) == 150
        _assert_same(corpus, frequent, language)
