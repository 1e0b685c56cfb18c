"""wordplay(kind='pun') on the real fixture slices (CMUdict + WordNet 3.1)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from _support.dumped import dumped
from _support.provenance import assert_sources_complete
from pydantic_core import to_json

from lexicon_server.builder.parsers.wndb import iter_synsets
from lexicon_server.corpus.reader import Corpus, schema_sql
from lexicon_server.errors import InvalidArgument
from lexicon_server.query import puns as puns_module
from lexicon_server.query.rhymes import RhymeIndex, rhyme_index
from lexicon_server.query.wordplay import wordplay
from lexicon_server.query.wordplay_result import Answer

WORDNET31 = Path(__file__).resolve().parents[2] / "fixtures" / "wordnet31"


def _synsets_of(lemma: str) -> set[str]:
    return {
        s.external_id
        for s in iter_synsets(WORDNET31, prefix="wn31")
        if any(m.lemma.casefold() == lemma for m in s.members)
    }


def test_knight_puns_on_night(slice_corpus: Corpus) -> None:
    result = wordplay(slice_corpus, "knight", "pun")
    assert result.context_scope == "uncontextualized"
    words = [p.word for p in result.results]
    assert "night" in words and "knight" not in words
    night = result.results[words.index("night")]
    assert result.sense_scope == "synset"  # said once for every pun candidate
    assert night.phones == "N AY1 T"
    # Its distinct senses really are night's and not knight's, read from WordNet directly.
    listed = {s.synset for s in night.distinct_senses}
    assert listed <= _synsets_of("night") - _synsets_of("knight")
    assert night.distinct_senses_total == len(_synsets_of("night") - _synsets_of("knight"))
    # Its spelling and its senses come from WordNet, its sounds from CMUdict.
    assert (night.spelling_source, night.pronunciation_source) == ("wordnet-3.1", "cmudict")


def test_homophone_without_senses_is_not_a_pun(slice_corpus: Corpus) -> None:
    # 'rite', 'write' and 'right' sound alike; only words with WordNet senses can qualify.
    result = wordplay(slice_corpus, "right", "pun", limit=100)
    for pun in result.results:
        assert _synsets_of(pun.word.casefold()), pun.word


def test_context_is_only_for_puns(slice_corpus: Corpus) -> None:
    for kind in ("anagram", "palindrome", "spoonerism"):
        with pytest.raises(InvalidArgument) as caught:
            wordplay(slice_corpus, "belly jelly", kind, context="at a party")
        assert caught.value.parameter == "context"


@pytest.mark.parametrize("context", ["", "   ", "x" * 513])
def test_context_length_is_checked(slice_corpus: Corpus, context: str) -> None:
    with pytest.raises(InvalidArgument) as caught:
        wordplay(slice_corpus, "knight", "pun", context=context)
    assert caught.value.parameter == "context"


def test_context_without_glosses_says_it_was_not_used(slice_corpus: Corpus) -> None:
    result = wordplay(slice_corpus, "knight", "pun", context="x" * 512)
    assert result.context_scope == "uncontextualized"
    assert any("context" in note for note in result.cut)


def _lexical_with_glosses(path: Path) -> Path:
    """A lexical component holding only the WordNet slice's synsets and glosses."""
    conn = sqlite3.connect(path)
    conn.executescript(schema_sql("lexical"))
    conn.execute(
        "INSERT INTO sources (id, name, title, version, licence, url) "
        "VALUES (1, 'wordnet-3.1', 'Princeton WordNet 3.1', '3.1', 'WordNet-3.0', 'x')"
    )
    conn.executemany(
        "INSERT INTO synsets (external_id, pos, gloss, source_id) VALUES (?, ?, ?, 1)",
        [(s.external_id, s.pos, s.gloss) for s in iter_synsets(WORDNET31, prefix="wn31")],
    )
    conn.commit()
    conn.close()
    return path


def test_context_ranks_by_shared_gloss_words(
    slice_db: Path, tmp_path: Path, make_corpus: object
) -> None:
    lexical = _lexical_with_glosses(tmp_path / "lexical.sqlite")
    corpus = make_corpus(  # type: ignore[operator]
        slice_db, installed=frozenset({"wordplay", "lexical"}), lexical=lexical
    )
    result = wordplay(corpus, "knight", "pun", context="we rode on after sunset, in the dark")
    assert result.context_scope == "context_ranked"
    night = next(p for p in result.results if p.word == "night")
    assert "sunset" in night.context_matches
    assert set(night.context_matches) <= {"rode", "after", "sunset", "dark"}
    assert all(s.gloss for s in night.distinct_senses)
    corpus.close()


def test_puns_dropped_to_fit_the_budget_take_their_sources_with_them(
    slice_corpus: Corpus,
) -> None:
    full = dumped(wordplay(slice_corpus, "knight", "pun"))
    night = _fields(full["results"][0])
    index = rhyme_index(slice_corpus.db("en", "wordplay"))
    ids = {key: source_id for source_id, key in index.table.keys.items()}
    base = {key: full[key] for key in ("text", "kind", "language", "dataset_version")}
    answer = Answer(2, False, full["query_words"], [], [])
    # The second candidate cites a source (WordNet) the first does not.
    first = puns_module.Pun(night, ids["cmudict"], ids["cmudict"], 0)
    second = puns_module.Pun({**night, "word": "Night"}, ids["wordnet-3.1"], ids["cmudict"], 0)
    both = _fit(index, base, answer, [first, second], 10**6)
    assert len(both["results"]) == 2 and "cut" not in both
    assert list(both["sources"]) == ["cmudict", "wordnet-3.1"]
    one = _fit(index, base, answer, [first], 10**6)
    # A budget between the two sizes keeps the first candidate only (with room for the
    # `cut` that then says what was cut, left out of an answer that cut nothing).
    assert "cut" not in one
    note = {"cut": ["pun candidates dropped to fit the response size budget"]}
    room = len(to_json(note).decode()) + 10
    assert len(to_json(one).decode()) + room < len(to_json(both).decode())
    cut = _fit(index, base, answer, [first, second], len(to_json(one).decode()) + room)
    assert [p["word"] for p in cut["results"]] == ["night"]
    assert len(cut["results"]) == 1 and cut["truncated"]
    assert cut["cut"] == ["pun candidates dropped to fit the response size budget"]
    assert list(cut["sources"]) == ["cmudict"]
    assert_sources_complete(both)
    assert_sources_complete(cut)


def _fields(pun: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in pun.items() if not key.endswith("_source")}


def _fit(
    index: RhymeIndex,
    base: dict[str, Any],
    answer: Any,
    listed: list[Any],
    max_chars: int,
) -> dict[str, Any]:
    return puns_module.fit_puns(index, base, answer, listed, "uncontextualized", max_chars)
