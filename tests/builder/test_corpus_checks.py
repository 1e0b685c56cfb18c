"""The issue's corpus checks, on the fixture-built sample and on the real starter corpus.

Each check reads the built SQLite/usearch/numpy files directly, the way the server's
queries do, so a writer bug (a lost sense, a reversed pointer, a dropped translation)
fails here before any tool sees it.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

DATASETS = [
    pytest.param("sample_dataset", id="sample"),
    pytest.param("starter_dataset", id="starter", marks=pytest.mark.starter),
]


@pytest.fixture(params=DATASETS)
def dataset(request: pytest.FixtureRequest) -> Path:
    path: Path = request.getfixturevalue(request.param)
    return path


@pytest.fixture
def en(dataset: Path) -> Iterator[sqlite3.Connection]:
    conn = sqlite3.connect(f"file:{dataset / 'en/lexical.sqlite'}?mode=ro", uri=True)
    yield conn
    conn.close()


def _senses(conn: sqlite3.Connection, word: str, pos: str) -> list[tuple[int, str, int]]:
    return conn.execute(
        """
        SELECT s.id, s.gloss, s.rank FROM terms t JOIN entries e ON e.term_id = t.id
        JOIN senses s ON s.entry_id = e.id JOIN sources src ON src.id = s.source_id
        WHERE t.norm = ? AND e.pos = ? AND src.name = 'wordnet-3.1' ORDER BY s.rank
        """,
        (word, pos),
    ).fetchall()


def test_bank_has_noun_and_verb_senses_with_glosses_and_examples(en: sqlite3.Connection) -> None:
    ranks: list[int] = []
    for pos in ("noun", "verb"):
        senses = _senses(en, "bank", pos)
        assert len(senses) >= 2, pos
        ranks += [rank for _, _, rank in senses]
        assert all(gloss.strip() for _, gloss, _ in senses)
        examples = en.execute(
            f"SELECT count(*) FROM examples WHERE sense_id IN ({','.join('?' * len(senses))})",
            [sid for sid, _, _ in senses],
        ).fetchone()[0]
        assert examples > 0, pos
    # rank is the sense's place among all the word's senses (merged by use across entries)
    assert sorted(ranks) == list(range(len(ranks)))
    glosses = " ".join(g for _, g, _ in _senses(en, "bank", "noun"))
    assert "financial institution" in glosses
    assert "sloping land" in glosses


def _hypernyms(conn: sqlite3.Connection, synset_id: int) -> list[int]:
    rows = conn.execute(
        "SELECT dst_synset_id FROM relations WHERE src_synset_id = ? AND relation = 'hypernym'"
        " AND scope = 'synset'",
        (synset_id,),
    )
    return [r[0] for r in rows]


def _lemmas(conn: sqlite3.Connection, synset_id: int) -> set[str]:
    rows = conn.execute(
        "SELECT t.text FROM senses s JOIN entries e ON e.id = s.entry_id"
        " JOIN terms t ON t.id = e.term_id WHERE s.synset_id = ?",
        (synset_id,),
    )
    return {r[0] for r in rows}


def test_dog_is_a_canine_and_a_carnivore_two_edges_up(en: sqlite3.Connection) -> None:
    dog = en.execute(
        "SELECT s.synset_id FROM terms t JOIN entries e ON e.term_id = t.id"
        " JOIN senses s ON s.entry_id = e.id WHERE t.norm = 'dog' AND e.pos = 'noun'"
        " AND s.rank = 0"
    ).fetchone()[0]
    one_up = _hypernyms(en, dog)
    canine = [s for s in one_up if "canine" in _lemmas(en, s)]
    assert canine, [sorted(_lemmas(en, s)) for s in one_up]
    two_up = {lemma for s in _hypernyms(en, canine[0]) for lemma in _lemmas(en, s)}
    assert "carnivore" in two_up
    # The published inverse is kept too, with its own direction.
    back = en.execute(
        "SELECT count(*) FROM relations WHERE src_synset_id = ? AND dst_synset_id = ?"
        " AND relation = 'hyponym'",
        (canine[0], dog),
    ).fetchone()[0]
    assert back == 1


def test_cat_has_cmu_pronunciations(en: sqlite3.Connection) -> None:
    rows = en.execute(
        "SELECT p.value, p.variant, src.name FROM pronunciations p JOIN terms t"
        " ON t.id = p.term_id JOIN sources src ON src.id = p.source_id"
        " WHERE t.text = 'cat' AND p.notation = 'arpabet' ORDER BY p.variant"
    ).fetchall()
    assert ("K AE1 T", 0, "cmudict") in rows


@pytest.mark.parametrize("language", ["fr", "de"])
def test_house_translates(en: sqlite3.Connection, language: str) -> None:
    rows = en.execute(
        "SELECT tr.target_text, tr.sense_id, src.name FROM translations tr"
        " JOIN terms t ON t.id = tr.term_id JOIN sources src ON src.id = tr.source_id"
        " WHERE t.norm = 'house' AND tr.target_language = ?",
        (language,),
    ).fetchall()
    texts = {r[0].casefold() for r in rows}
    expected = {"fr": "maison", "de": "haus"}[language]
    assert any(expected in t for t in texts), sorted(texts)[:20]
    freedict = [r for r in rows if r[2].startswith("freedict-")]
    assert freedict and all(r[1] is None for r in freedict)  # FreeDict rows stay unsensed


def test_king_has_a_vector_and_is_its_own_nearest_neighbour(dataset: Path) -> None:
    from usearch.index import Index

    vocab = sqlite3.connect(f"file:{dataset / 'en/semantic.sqlite'}?mode=ro", uri=True)
    (king,) = vocab.execute("SELECT id FROM vocab WHERE norm = 'king'").fetchone()
    (queen,) = vocab.execute("SELECT id FROM vocab WHERE norm = 'queen'").fetchone()
    vectors = np.load(dataset / "en/semantic.f16.npy", mmap_mode="r")
    assert vectors.dtype == np.float16
    assert abs(float(np.linalg.norm(vectors[king].astype(np.float32))) - 1.0) < 1e-2
    index = Index.restore(str(dataset / "en/semantic.usearch"), view=True)
    assert len(index) == len(vectors)
    found = index.search(vectors[king].astype(np.float32), 10).keys.tolist()
    assert found[0] == king
    assert queen in found
    vocab.close()


def test_every_fact_names_a_known_source(en: sqlite3.Connection) -> None:
    for table in ("entries", "senses", "examples", "pronunciations", "translations", "relations"):
        orphans = en.execute(
            f"SELECT count(*) FROM {table} WHERE source_id NOT IN (SELECT id FROM sources)"
        ).fetchone()[0]
        assert orphans == 0, table
    licences = {r[0] for r in en.execute("SELECT licence FROM sources")}
    assert "" not in licences and "see notice" not in licences


def test_relation_scope_matches_the_ids_it_fills(en: sqlite3.Connection) -> None:
    bad = en.execute(
        """
        SELECT count(*) FROM relations WHERE NOT (
            (scope = 'synset' AND src_synset_id IS NOT NULL AND dst_synset_id IS NOT NULL
                AND src_sense_id IS NULL AND dst_sense_id IS NULL)
         OR (scope = 'sense' AND src_sense_id IS NOT NULL AND src_synset_id IS NULL
                AND (dst_sense_id IS NOT NULL OR dst_term_id IS NOT NULL
                     OR dst_text IS NOT NULL))
         OR (scope = 'term' AND src_term_id IS NOT NULL
                AND (dst_term_id IS NOT NULL OR dst_text IS NOT NULL)))
        """
    ).fetchone()[0]
    assert bad == 0
    # Moby's terms tied to a sense point at a term, not at a sense of it (docs/thesauri.md).
    tied = en.execute(
        "SELECT count(*) FROM relations r JOIN sources s ON s.id = r.source_id "
        "WHERE s.name = 'moby' AND r.scope = 'sense' AND r.dst_sense_id IS NULL "
        "AND r.dst_term_id IS NOT NULL"
    ).fetchone()[0]
    assert tied > 0
    antonyms = en.execute(
        "SELECT count(*) FROM relations WHERE relation = 'antonym' AND scope = 'sense'"
    ).fetchone()[0]
    assert antonyms > 0


def test_irregular_forms_point_at_lemmas(
    en: sqlite3.Connection, request: pytest.FixtureRequest
) -> None:
    rows = en.execute(
        "SELECT i.form_norm, t.text, i.pos FROM inflections i"
        " JOIN terms t ON t.id = i.lemma_term_id"
    ).fetchall()
    assert rows
    # Only lemmas this component has entries for are linked.
    unlinked = en.execute(
        "SELECT count(*) FROM inflections i WHERE NOT EXISTS"
        " (SELECT 1 FROM entries e WHERE e.term_id = i.lemma_term_id)"
    ).fetchone()[0]
    assert unlinked == 0
    if request.node.callspec.id.startswith("starter"):
        assert ("went", "go", "verb") in rows
        assert ("geese", "goose", "noun") in rows
    else:
        assert ("teeth", "tooth", "noun") in rows


def test_terms_carry_wordfreq_zipf_and_phrases_combine_their_tokens(
    en: sqlite3.Connection,
) -> None:
    def zipf(norm: str) -> float:
        row = en.execute("SELECT max(zipf) FROM terms WHERE norm = ?", (norm,)).fetchone()
        return float(row[0])

    assert zipf("house") > 3.0 and zipf("bank") > 3.0
    house, cat, phrase = zipf("house"), zipf("cat"), zipf("house cat")
    # wordfreq's rule for several tokens: 1/f = 1/f1 + 1/f2.
    expected = -math.log10(10 ** -(house - 9) + 10 ** -(cat - 9)) + 9
    assert phrase == pytest.approx(expected, abs=0.01)
    assert 0 < phrase < min(house, cat)
