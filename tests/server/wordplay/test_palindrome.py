"""wordplay(kind='palindrome') on the real fixture slices."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from lexicon_server.corpus.reader import Corpus
from lexicon_server.query.wordplay import wordplay


def _stored_palindromes(db: Path) -> list[tuple[str, int, str]]:
    """(letters, id, text) of every word whose a-z letters read the same reversed."""
    conn = sqlite3.connect(db)
    rows = conn.execute("SELECT id, text FROM words").fetchall()
    found = []
    for word_id, text in rows:
        folded = text.casefold()
        if any(ch.isalpha() and not ("a" <= ch <= "z") for ch in folded):
            continue
        letters = "".join(ch for ch in folded if "a" <= ch <= "z")
        if len(letters) >= 2 and letters == letters[::-1]:
            found.append((letters, word_id, text))
    return sorted(found)


def test_racecar_is_a_palindrome(slice_corpus: Corpus) -> None:
    assert wordplay(slice_corpus, "racecar", "palindrome").input_is_palindrome is True
    assert wordplay(slice_corpus, "Race car!", "palindrome").input_is_palindrome is True
    assert wordplay(slice_corpus, "cat", "palindrome").input_is_palindrome is False


def test_candidates_start_at_the_query_and_wrap_once(slice_db: Path, slice_corpus: Corpus) -> None:
    stored = _stored_palindromes(slice_db)
    assert len(stored) >= 4, "the slice has kayak, level, noon, aaa, ..."
    query = "level"
    after = [s for s in stored if s[0] >= query and s[0] != query]
    before = [s for s in stored if s[0] < query]
    expected: list[str] = []
    seen: set[str] = set()
    for _letters, _id, text in after + before:
        if text.casefold() not in seen:
            seen.add(text.casefold())
            expected.append(text)
    result = wordplay(slice_corpus, query, "palindrome", limit=100, vocabulary="all")
    assert [p.word for p in result.results] == expected
    assert all(p.letters == p.letters[::-1] for p in result.results)
    assert "level" not in [p.word for p in result.results]
    assert result.input_is_palindrome is True


def test_one_code_point_gets_no_candidates(slice_corpus: Corpus) -> None:
    for text in ("a", "x", "é"):
        result = wordplay(slice_corpus, text, "palindrome")
        assert result.results == []
        assert result.cut  # says why


def test_limit_truncates(slice_corpus: Corpus) -> None:
    result = wordplay(slice_corpus, "kayak", "palindrome", limit=1)
    assert len(result.results) == 1 and result.truncated
    assert result.results[0].spelling_source in result.sources
