"""rhymes() on the real CMUdict slice and, marked slow, on the whole CMUdict."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from _support.dictionary_words import dictionary_first, near_rank
from _support.dumped import dumped
from _support.provenance import assert_sources_complete
from _support.rhyme_oracle import reference_rhyme

from lexicon_server.corpus import rhyme_docs
from lexicon_server.corpus.reader import Corpus
from lexicon_server.errors import InvalidArgument
from lexicon_server.expand import expanded
from lexicon_server.query.rhymes import rhyme_index, rhymes


def _one_edit(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """True when a and b differ by exactly one inserted, deleted or substituted token."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))


def test_cat_rhymes_with_hat_not_itself(slice_corpus: Corpus) -> None:
    result = rhymes(slice_corpus, "cat")
    words = [r.word for r in result.results]
    assert "hat" in words
    assert "cat" not in words
    assert result.found and result.query_pronunciations[0].phones == "K AE1 T"
    # A perfect rhyme's edit and rhyme part are the defaults: identical, the query's own.
    assert all(r.edit == "identical" and r.rhyme is None for r in result.results)
    full = expanded("rhymes", result.model_dump(mode="json"))
    assert {r["rhyme"] for r in full["results"]} == {"AE1 T"}


def test_ranked_by_frequency_not_alphabet(slice_corpus: Corpus) -> None:
    # Every word: the slice's small WordNet and wordfreq make most rhymes names or rare.
    words = rhymes(slice_corpus, "cat", limit=100, vocabulary="all").results
    zipfs = [r.zipf for r in words]
    assert zipfs == sorted(zipfs, reverse=True)
    # 'that' is far more frequent than 'bat': frequency order is not the alphabet's.
    names = [r.word for r in words]
    assert names.index("that") < names.index("bat")
    assert names != sorted(names)


def test_every_pronunciation_of_the_query_counts(
    slice_corpus: Corpus, slice_pronunciations: dict[str, list[tuple[str, ...]]]
) -> None:
    # read: R EH1 D and R IY1 D; red and reed each rhyme with one of them.
    assert len(slice_pronunciations["read"]) == 2
    result = rhymes(slice_corpus, "read", vocabulary="all")
    words = {r.word: r for r in result.results}
    assert {"red", "reed"} <= set(words)
    assert {words["red"].query_rhyme, words["reed"].query_rhyme} == {"EH1 D", "IY1 D"}
    assert len(result.query_pronunciations) == 2


def test_syllable_counts_and_filter(
    slice_corpus: Corpus, slice_pronunciations: dict[str, list[tuple[str, ...]]]
) -> None:
    for r in rhymes(slice_corpus, "cat", limit=100, vocabulary="all").results:
        phones = tuple(r.phones.split())
        assert phones in slice_pronunciations[r.word]
        assert r.syllables == sum(p[-1].isdigit() for p in phones)
    two = rhymes(slice_corpus, "flower", syllables=2, vocabulary="all").results
    assert two and all(r.syllables == 2 for r in two)
    assert rhymes(slice_corpus, "cat", syllables=3).results == []


def test_near_rhymes_differ_by_exactly_one_token(
    slice_corpus: Corpus, slice_pronunciations: dict[str, list[tuple[str, ...]]]
) -> None:
    result = rhymes(slice_corpus, "cat", mode="near", limit=100)
    assert result.results
    cat = [reference_rhyme(p) for p in slice_pronunciations["cat"]]
    for r in result.results:
        theirs = [reference_rhyme(p) for p in slice_pronunciations[r.word]]
        assert any(_one_edit(c, t) for c in cat for t in theirs), r
        assert not any(c == t for c in cat for t in theirs), f"{r.word} rhymes perfectly"
    words = {r.word for r in result.results}
    assert "hat" not in words and "cat" not in words
    assert "scat" not in words  # S K AE1 T: a perfect rhyme, not a near one


@pytest.mark.parametrize(
    ("word", "mode", "syllables", "limit"),
    [
        ("cat", "perfect", None, 20),
        ("cat", "near", None, 100),
        ("read", "perfect", None, 100),  # two query rhymes, merged
        ("read", "near", None, 100),
        ("flower", "near", 2, 20),
        ("record", "perfect", 2, 3),
        ("qwzxv", "near", None, 20),
    ],
)
def test_plain_data_is_the_typed_result_dumped(
    slice_corpus: Corpus, word: str, mode: str, syllables: int | None, limit: int
) -> None:
    data = dumped(rhymes(slice_corpus, word, mode, limit, syllables))
    typed = rhymes(slice_corpus, word, mode, limit, syllables)
    # Equal as JSON text, so the field order is the model's too.
    assert json.dumps(data) == json.dumps(typed.model_dump(mode="json"))
    assert_sources_complete(data)
    if typed.results:
        full = expanded("rhymes", data)["results"]
        assert set(data["sources"]) == {"cmudict"} | {r["spelling_source"] for r in full}
        assert {r["pronunciation_source"] for r in full} == {"cmudict"}
        # every pronunciation is CMUdict's, so the result says so once
        assert typed.pronunciation_source == "cmudict"
        assert all(r.pronunciation_source is None for r in typed.results)


def test_unknown_word_is_not_found_rather_than_an_error(slice_corpus: Corpus) -> None:
    result = rhymes(slice_corpus, "qwzxv")
    assert not result.found and result.results == []


def test_limit_and_truncation(slice_corpus: Corpus) -> None:
    full = rhymes(slice_corpus, "cat", limit=100)
    two = rhymes(slice_corpus, "cat", limit=2)
    assert [r.word for r in two.results] == [r.word for r in full.results[:2]]
    assert two.truncated and not full.truncated and len(two.results) == 2


@pytest.mark.parametrize(
    ("kwargs", "parameter"),
    [
        ({"word": ""}, "word"),
        ({"word": "x" * 101}, "word"),
        ({"word": "cat", "mode": "slant"}, "mode"),
        ({"word": "cat", "limit": 0}, "limit"),
        ({"word": "cat", "limit": 101}, "limit"),
        ({"word": "cat", "syllables": 0}, "syllables"),
    ],
)
def test_bad_input_names_the_parameter(
    slice_corpus: Corpus, kwargs: dict[str, object], parameter: str
) -> None:
    with pytest.raises(InvalidArgument) as caught:
        rhymes(slice_corpus, **kwargs)  # type: ignore[arg-type]
    assert caught.value.parameter == parameter
    assert parameter in str(caught.value)


def _brute_force(entries: dict[str, list[tuple[str, ...]]], word: str, mode: str) -> set[str]:
    mine = {reference_rhyme(p) for p in entries[word]}
    found = set()
    for other, prons in entries.items():
        if other == word:
            continue
        theirs = {reference_rhyme(p) for p in prons}
        if mode == "perfect" and mine & theirs:
            found.add(other)
        if (
            mode == "near"
            and not mine & theirs
            and any(_one_edit(m, t) for m in mine for t in theirs)
        ):
            found.add(other)
    return found


@pytest.mark.slow
@pytest.mark.parametrize("limit", [100, 20])  # 100 walks the tables, 20 reads the documents
@pytest.mark.parametrize("mode", ["perfect", "near"])
@pytest.mark.parametrize("word", ["cat", "orange", "table", "understand", "go", "rhythm"])
def test_whole_cmudict_agrees_with_a_brute_force_scan(
    cmudict_corpus: Corpus,
    cmudict_pronunciations: dict[str, list[tuple[str, ...]]],
    word: str,
    mode: str,
    limit: int,
) -> None:
    expected = _brute_force(cmudict_pronunciations, word, mode)
    result = rhymes(cmudict_corpus, word, mode=mode, limit=limit, vocabulary="all")
    got = {r.word for r in result.results}
    # The best `limit` are all genuine, and if fewer exist, they are all of them.
    assert got <= expected and len(got) == min(limit, len(expected))
    assert result.truncated == (len(expected) > limit)
    _assert_ranked(cmudict_corpus, result)


def _assert_ranked(corpus: Corpus, result: Any) -> None:
    """Dictionary words before names and rare spellings (issue 29); then perfect rhymes by
    frequency, near ones as `near_rank` says."""
    word = dictionary_first(corpus, [r.word for r in result.results])
    if result.mode == "perfect":
        keys: list[tuple[Any, ...]] = [(-word[r.word], -r.zipf) for r in result.results]
    else:
        keys = [near_rank(r, bool(word[r.word])) for r in result.results]
    assert keys == sorted(keys)


def _syllables(phones: tuple[str, ...]) -> int:
    return sum(p[-1].isdigit() for p in phones)


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["perfect", "near"])
@pytest.mark.parametrize(("word", "count"), [("cat", 2), ("table", 3), ("orange", 1)])
def test_syllable_filter_agrees_with_a_brute_force_scan(
    cmudict_corpus: Corpus,
    cmudict_pronunciations: dict[str, list[tuple[str, ...]]],
    word: str,
    count: int,
    mode: str,
) -> None:
    mine = {reference_rhyme(p) for p in cmudict_pronunciations[word]}
    expected = set()
    for other, prons in cmudict_pronunciations.items():
        if other == word:
            continue
        theirs = {reference_rhyme(p) for p in prons}
        for phones in prons:
            r = reference_rhyme(phones)
            if _syllables(phones) != count:
                continue
            if mode == "perfect" and r in mine:
                expected.add(other)
            # Near: this pronunciation is one edit away and no pronunciation of the word,
            # whatever its syllable count, rhymes perfectly.
            if mode == "near" and not mine & theirs and any(_one_edit(m, r) for m in mine):
                expected.add(other)
    result = rhymes(cmudict_corpus, word, mode=mode, limit=100, syllables=count, vocabulary="all")
    got = {r.word for r in result.results}
    assert all(r.syllables == count for r in result.results)
    assert got <= expected
    assert got == expected if len(expected) <= 100 else len(got) == 100


def _without_documents(db: Path, out: Path, make_corpus: Callable[..., Corpus]) -> Corpus:
    """A corpus over a copy of `db` laid out as before rhyme documents existed."""
    copy = out / "wordplay.sqlite"
    shutil.copyfile(db, copy)
    conn = sqlite3.connect(copy)
    conn.execute("DROP TABLE rhyme_docs")
    conn.execute("DROP TABLE spelling_prons")
    conn.execute("DELETE FROM meta WHERE key = ?", (rhyme_docs.META_KEY,))
    conn.commit()
    conn.close()
    return make_corpus(copy)


@pytest.fixture(scope="module")
def slice_tables(
    slice_db: Path, tmp_path_factory: pytest.TempPathFactory, make_corpus: Callable[..., Corpus]
) -> Iterator[Corpus]:
    corpus = _without_documents(slice_db, tmp_path_factory.mktemp("tables"), make_corpus)
    yield corpus
    corpus.close()


def _same_answers(
    with_docs: Corpus,
    tables: Corpus,
    words: list[str],
    limits: list[int],
    syllables: tuple[int | None, ...] = (None,),
) -> None:
    assert rhyme_index(with_docs.db("en", "wordplay")).docs
    assert not rhyme_index(tables.db("en", "wordplay")).docs
    asked = [("dictionary", None), ("all", None), ("dictionary", "*a*"), ("all", "*a*")]
    for word in words:
        for mode in ("perfect", "near"):
            for limit in limits:
                for count in syllables:
                    for vocabulary, pattern in asked:
                        args = (word, mode, limit, count, pattern, vocabulary)
                        expected = dumped(rhymes(tables, *args))
                        assert dumped(rhymes(with_docs, *args)) == expected, args


def test_documents_answer_as_the_tables_do(slice_corpus: Corpus, slice_tables: Corpus) -> None:
    conn = slice_corpus.db("en", "wordplay")
    words = [row[0] for row in conn.execute("SELECT DISTINCT text FROM spelling_prons")]
    # Other spellings of the same words: capitalised, and NFKC forms (full-width letters,
    # a ligature) that fold to a word of the slice.
    words += [words[0].upper(), words[1].title(), "ｃａｔ", "ﬁne", "qwzxv"]
    assert dumped(rhymes(slice_corpus, "ｃａｔ"))["found"]
    # Around the largest limit a document answers, and past it.
    limits = [1, 3, 20, rhyme_docs.CANDIDATES - 2, rhyme_docs.CANDIDATES - 1, 100]
    _same_answers(slice_corpus, slice_tables, words, limits)
    _same_answers(slice_corpus, slice_tables, words[:50], [20], (1, 2))


@pytest.mark.slow
def test_documents_answer_as_the_tables_do_on_the_whole_cmudict(
    cmudict_db: Path,
    cmudict_corpus: Corpus,
    tmp_path: Path,
    make_corpus: Callable[..., Corpus],
) -> None:
    tables = _without_documents(cmudict_db, tmp_path, make_corpus)
    conn = cmudict_corpus.db("en", "wordplay")
    frequent = [
        row[0]
        for row in conn.execute(
            "SELECT w.text FROM words w WHERE EXISTS (SELECT 1 FROM prons p "
            "WHERE p.word_id = w.id) ORDER BY w.id LIMIT 300"
        )
    ]
    every = [row[0] for row in conn.execute("SELECT DISTINCT text FROM spelling_prons")]
    words = frequent + random.Random(5).sample(every, 300)
    try:
        _same_answers(cmudict_corpus, tables, words, [5, 20, 50])
    finally:
        tables.close()
