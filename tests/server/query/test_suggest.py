"""Suggestions on a miss: the spelling index the builder writes and `query.suggest.suggest`
over it (a small component written to the published schema, labelled as such: the words
and Zipf values are typed here, not sliced from wordfreq)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from lexicon_server.builder.spelling_index import write_spelling_keys
from lexicon_server.corpus.connection import Connection
from lexicon_server.corpus.normalize import norm
from lexicon_server.corpus.reader import Corpus, schema_sql
from lexicon_server.errors import InvalidArgument
from lexicon_server.query.suggest import suggest

# (text, zipf, has an entry)
ENGLISH = [
    ("receive", 4.9, True),
    ("believe", 5.3, True),
    ("the", 7.7, False),
    ("The", 7.7, False),
    ("tea", 4.6, True),
    ("ten", 5.2, True),
    ("accommodate", 3.7, True),
    ("accommodation", 4.1, True),
    ("accommodating", 3.0, True),
    ("definitely", 5.4, True),
    ("café", 4.2, True),
    ("résumé", 3.9, True),
    ("weird", 4.8, True),
    ("wired", 4.0, True),
    ("to-be", 6.7, False),  # a hyphenated term: its Zipf is a token combination
    ("hot dog", 3.9, True),  # a phrase
    ("rcv", 0.0, True),  # no frequency: not suggestible where frequencies exist
    ("50%", 3.0, False),
]
GREEK = [("καλημέρα", 0.0, True), ("καλησπέρα", 0.0, True), ("νερό", 0.0, True)]


def _component(path: Path, words: list[tuple[str, float, bool]], index: bool = True) -> Path:
    with closing(sqlite3.connect(path)) as conn:
        conn.executescript(schema_sql("lexical"))
        conn.execute("INSERT INTO sources VALUES (1, 'test', 'test', '1', 'CC0', 'x')")
        for i, (text, zipf, entry) in enumerate(words, 1):
            conn.execute("INSERT INTO terms VALUES (?, ?, ?, ?)", (i, text, text.casefold(), zipf))
            if entry:
                conn.execute(
                    "INSERT INTO entries (term_id, pos, source_id) VALUES (?, 'noun', 1)", (i,)
                )
        if index:
            write_spelling_keys(conn)
        conn.commit()
    return path


def _open(path: Path) -> Connection:
    return sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, factory=Connection)


@pytest.fixture(scope="module")
def english(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Connection]:
    """One English component for the module: every test here only reads it."""
    path = tmp_path_factory.mktemp("suggest") / "en.sqlite"
    with closing(_open(_component(path, ENGLISH))) as conn:
        yield conn


def _texts(conn: Connection, text: str, limit: int = 5) -> list[str]:
    return [s.text for s in suggest(conn, text, "en", limit=limit)]


def test_a_transposition_is_corrected_first(english: Connection) -> None:
    first = suggest(english, "recieve", "en")[0]
    assert (first.text, first.kind, first.distance) == ("receive", "spelling", 1.0)


def test_a_vowel_for_a_vowel_and_a_dropped_double_are_near(english: Connection) -> None:
    assert _texts(english, "definately")[0] == "definitely"
    assert _texts(english, "accomodate")[0] == "accommodate"
    # two letters missing from a word in use: the double deletes stored for it
    assert "accommodate" in _texts(english, "acomodate")


def test_frequency_breaks_ties_between_equally_close_words(english: Connection) -> None:
    # 'teh' is one swap from 'the' and one letter from 'tea' and 'ten'
    assert _texts(english, "teh")[0] == "the"


def test_one_written_form_per_norm_lower_case_first(english: Connection) -> None:
    assert _texts(english, "teh").count("the") == 1
    assert "The" not in _texts(english, "teh", limit=20)


def test_an_accent_difference_is_very_close(english: Connection) -> None:
    first = suggest(english, "resume", "en")[0]
    assert (first.text, first.distance) == ("résumé", 0.2)
    assert _texts(english, "cafe")[0] == "café"


def test_completions_when_the_text_begins_headwords(english: Connection) -> None:
    got = suggest(english, "accommo", "en")
    assert [s.text for s in got] == ["accommodation", "accommodate", "accommodating"]
    assert {s.kind for s in got} == {"completion"}
    assert all(s.distance is None for s in got)
    assert suggest(english, "ac", "en") == []  # too short to complete


def test_a_word_of_the_vocabulary_comes_first_as_itself(english: Connection) -> None:
    first = suggest(english, "Weird", "en")[0]
    assert (first.text, first.distance) == ("weird", 0.0)
    assert first.model_dump() == {"text": "weird", "kind": "spelling", "distance": 0.0, "zipf": 4.8}


def test_phrases_hyphenated_and_unranked_terms_are_never_suggested(english: Connection) -> None:
    offered = {
        s.text
        for text in ("tobe", "to-bee", "hotdog", "rcvv", "50", "the")
        for s in suggest(english, text, "en", limit=20)
    }
    assert not offered & {"to-be", "hot dog", "rcv", "50%"}


def test_far_texts_get_nothing(english: Connection) -> None:
    assert suggest(english, "xyzzyq", "en") == []


def test_a_language_without_frequencies_suggests_all_its_words(tmp_path: Path) -> None:
    with closing(_open(_component(tmp_path / "el.sqlite", GREEK))) as conn:
        got = suggest(conn, "καλιμέρα", "el")
        assert got[0].text == "καλημέρα"
        assert got[0].zipf == 0.0
        assert "zipf" not in got[0].model_dump_json()


def test_a_component_without_the_index_gives_none_and_no_error(tmp_path: Path) -> None:
    with closing(_open(_component(tmp_path / "old.sqlite", ENGLISH, index=False))) as conn:
        assert suggest(conn, "recieve", "en") == []


def test_a_mini_corpus_built_before_the_index_reads_fine(corpus: Corpus) -> None:
    assert suggest(corpus.db("en", "lexical"), "recieve", "en") == []


@pytest.mark.parametrize(
    "text",
    ["'; DROP TABLE terms; --", "acc%", "acc_", "acc*", '"acc', "a\\", "[ab]", "acco\U0010ffff"],
)
def test_user_text_is_bound_not_interpreted(english: Connection, text: str) -> None:
    for s in suggest(english, text, "en", limit=20):
        assert s.text in {t for t, _, _ in ENGLISH}


def test_arguments_are_bounded(english: Connection) -> None:
    with pytest.raises(InvalidArgument, match="text"):
        suggest(english, "a" * 101, "en")
    with pytest.raises(InvalidArgument, match="text"):
        suggest(english, "  ", "en")
    with pytest.raises(InvalidArgument, match="limit"):
        suggest(english, "tea", "en", limit=0)
    with pytest.raises(InvalidArgument, match="limit"):
        suggest(english, "tea", "en", limit=21)
    assert suggest(english, "a" * 100, "en") == []  # longer than any indexed word


def test_the_builder_writes_the_index_and_its_meta(tmp_path: Path) -> None:
    path = _component(tmp_path / "en.sqlite", ENGLISH)
    with closing(sqlite3.connect(path)) as conn:
        meta = dict(conn.execute("SELECT key, value FROM meta WHERE key LIKE 'spelling%'"))
        words = {
            r[0]
            for r in conn.execute(
                "SELECT DISTINCT t.text FROM spelling_keys k JOIN terms t ON t.id = k.term_id"
            )
        }
    assert meta == {"spelling_keys": "1", "spelling_vocabulary": "zipf"}
    assert "the" in words and "The" not in words
    assert not words & {"to-be", "hot dog", "rcv", "50%"}


def test_the_sample_build_carries_the_index_and_corrects_a_swap(sample_corpus: Corpus) -> None:
    conn = sample_corpus.db("en", "lexical")
    rows = conn.execute(
        "SELECT DISTINCT t.norm, t.zipf FROM spelling_keys k JOIN terms t ON t.id = k.term_id "
        "WHERE length(t.norm) >= 5 AND t.norm NOT GLOB '*[^a-z]*' ORDER BY t.zipf DESC LIMIT 20"
    ).fetchall()
    assert rows, "the builder wrote no spelling index for the sample's English"
    for word, _ in rows:
        swapped = word[:2] + word[3] + word[2] + word[4:]
        if swapped == word:
            continue
        assert word in [norm(s.text) for s in suggest(conn, swapped, "en")], swapped


def test_a_look_up_says_how_common_the_word_is(sample_corpus: Corpus) -> None:
    """Issue 30 item 5: the asked form's Zipf value, its band, and English syllables."""
    from lexicon_server.query.frequency import BANDS
    from lexicon_server.query.lookup import lookup

    conn = sample_corpus.db("en", "lexical")
    (word, zipf) = conn.execute(
        "SELECT norm, zipf FROM terms WHERE zipf > 0 AND norm NOT GLOB '*[^a-z]*' "
        "AND EXISTS (SELECT 1 FROM entries e WHERE e.term_id = terms.id) "
        "ORDER BY zipf DESC LIMIT 1"
    ).fetchone()
    frequency = lookup(sample_corpus, word).frequency
    assert frequency is not None and frequency.zipf == round(zipf, 2)
    assert frequency.band == next(name for lowest, name in BANDS if zipf >= lowest)
    assert lookup(sample_corpus, "qzxv").frequency is None
