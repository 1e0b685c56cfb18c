"""wordplay: anagrams, palindromes, spoonerisms and pun candidates for English text.

One kind per call, with the rules of the product brief:

- anagram: single-token, strictly alphabetic headwords whose normalised letters (NFKC,
  casefold, ASCII a-z) are a reordering of the query's; the query's own spelling is left out.
- palindrome: whether the query is one, plus stored palindromes other than the query, in
  `(letters, word id)` order starting at the query's letters and wrapping round once.
  A one-code-point query gets no candidates.
- spoonerism: exactly two words; their initial consonant clusters are exchanged over at
  most eight pronunciations of each. A swap is a `lexical_term` when both new sounds spell
  corpus headwords (all of them are listed), else a `generated_candidate`.
- pun: exact homophones (identical CMUdict phones) that carry at least one sense the
  query does not have. Candidates only; `context` re-orders them by words shared with
  the glosses of those senses, never by vector similarity.
- pattern (query/wordplay_pattern.py): single-token words matching a spelling pattern
  (`?` one letter, `*` any run), most frequent first.
- sounds_like (query/wordplay_sounds.py): words whose pronunciation is closest to the
  text's (CMUdict's, else guessed by letter-to-sound rules), by phoneme edit distance
  and then frequency.

`vocabulary` (anagram, palindrome, pattern and sounds_like) is 'dictionary' (the
default: words a reader knows, `words.is_word`) or 'all' (names and rare CMUdict
spellings too, after the dictionary words and labelled `dictionary_word: false`).
"""

from __future__ import annotations

import sqlite3
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from lexicon_server.corpus.rows.wordplay import (
    anagram_words,
    homophones,
    palindrome_words,
    pronunciations_of_words,
)
from lexicon_server.corpus.wordplay_keys import fold, is_palindrome, letters, signature
from lexicon_server.errors import InvalidArgument
from lexicon_server.query.arguments import check_limit, check_text
from lexicon_server.query.provenance import Cited
from lexicon_server.query.puns import puns
from lexicon_server.query.rhymes import VOCABULARIES, RhymeIndex, query_words, rhyme_index
from lexicon_server.query.spelling_pattern import check_pattern
from lexicon_server.query.wordplay_models import WordplayResult
from lexicon_server.query.wordplay_pattern import pattern_matches
from lexicon_server.query.wordplay_result import Answer, Data, result
from lexicon_server.query.wordplay_sounds import sounds_like

if TYPE_CHECKING:
    from lexicon_server.corpus.reader import Corpus

__all__ = [
    "KINDS",
    "MAX_CONTEXT_CHARS",
    "MAX_PRONUNCIATIONS",
    "VOCABULARIES",
    "wordplay",
]

# Pun candidates live in query/puns.py, the result shape in query/wordplay_result.py.

Kind = Literal["anagram", "palindrome", "spoonerism", "pun", "pattern", "sounds_like"]
KINDS: dict[str, Kind] = {
    "anagram": "anagram",
    "palindrome": "palindrome",
    "spoonerism": "spoonerism",
    "pun": "pun",
    "pattern": "pattern",
    "sounds_like": "sounds_like",
}
_KINDS_ALLOWED = "one of 'anagram', 'palindrome', 'spoonerism', 'pun', 'pattern', 'sounds_like'"
_WITH_VOCABULARY = ("anagram", "palindrome", "pattern", "sounds_like")
LANGUAGE = "en"
MAX_CONTEXT_CHARS = 512
MAX_PRONUNCIATIONS = 8  # per word, for spoonerisms


def wordplay(
    corpus: Corpus,
    text: str,
    kind: str,
    context: str | None = None,
    limit: int = 20,
    vocabulary: str | None = None,
) -> WordplayResult:
    """Answer one wordplay `kind` for `text` (see the module docstring for the rules)."""
    checked = check_text("text", text)
    checked_kind = KINDS.get(kind) if isinstance(kind, str) else None
    if checked_kind is None:
        raise InvalidArgument("kind", _KINDS_ALLOWED, kind)
    check_limit("limit", limit)
    context_text = _check_context(context, checked_kind)
    words = _check_vocabulary(vocabulary, checked_kind)
    pattern = check_pattern(checked) if checked_kind == "pattern" else ""
    conn = corpus.db(LANGUAGE, "wordplay")
    index = rhyme_index(conn)
    cited = Cited()
    base: Data = {
        "text": checked,
        "kind": checked_kind,
        "language": LANGUAGE,
        "dataset_version": corpus.dataset_version,
    }
    if checked_kind == "anagram":
        data = _anagrams(conn, index, cited, checked, (limit, words), base)
    elif checked_kind == "palindrome":
        data = _palindromes(conn, index, cited, checked, (limit, words), base)
    elif checked_kind == "spoonerism":
        data = _spoonerisms(conn, index, cited, checked, limit, base)
    elif checked_kind == "pattern":
        data = pattern_matches(conn, index, cited, pattern, words, limit, base)
    elif checked_kind == "sounds_like":
        data = sounds_like(conn, index, cited, checked, words, limit, base)
    else:
        data = puns(corpus, conn, index, checked, context_text, limit, base)
    return WordplayResult.model_validate(data)


def _check_vocabulary(vocabulary: str | None, kind: Kind) -> str:
    """'dictionary' (the default) or 'all' for pattern and sounds_like; omitted otherwise."""
    if kind not in _WITH_VOCABULARY:
        if vocabulary is not None:
            raise InvalidArgument(
                "vocabulary",
                f"omitted for kind={kind!r}; vocabulary is accepted only with kind='anagram', "
                "'palindrome', 'pattern' or 'sounds_like'",
                vocabulary,
            )
        return ""
    if vocabulary is None:
        return "dictionary"
    if vocabulary not in VOCABULARIES:
        raise InvalidArgument("vocabulary", "'dictionary' (the default) or 'all'", vocabulary)
    return vocabulary


def _check_context(context: str | None, kind: Kind) -> str | None:
    if context is None:
        return None
    if kind != "pun":
        raise InvalidArgument(
            "context",
            f"omitted for kind={kind!r}; context is accepted only with kind='pun'",
            context,
        )
    allowed = f"1 to {MAX_CONTEXT_CHARS} characters of text (kind='pun' only)"
    stripped = context.strip()
    if not stripped or len(context) > MAX_CONTEXT_CHARS:
        raise InvalidArgument("context", allowed, context)
    if any(unicodedata.category(ch) in ("Cc", "Cs") and ch not in "\t\n\r" for ch in stripped):
        raise InvalidArgument("context", allowed + " without control characters", context)
    return stripped


# --- anagram ------------------------------------------------------------------------------


def _anagrams(
    conn: sqlite3.Connection,
    index: RhymeIndex,
    cited: Cited,
    text: str,
    shown: tuple[int, str],
    base: Data,
) -> Data:
    limit, vocabulary = shown
    query_letters = letters(text)
    if not query_letters:
        raise InvalidArgument("text", "text with at least one letter a-z for kind='anagram'", text)
    # `is_single = 1` lets SQLite use the partial signature index; id order is rank order.
    rows = anagram_words(conn, signature(query_letters))
    found: list[Data] = []
    seen: set[str] = set()
    truncated = False
    for word_id, word, word_letters, zipf, source_id in rows:
        if word_letters == query_letters or word_letters in seen:
            continue  # the query itself, or another capitalisation of a word already listed
        if vocabulary == "dictionary" and word_id > index.words_end:
            break  # ids rank dictionary words first: the rest are names and rare spellings
        if len(found) == limit:
            truncated = True
            break
        seen.add(word_letters)
        found.append(
            {
                "word": word,
                "letters": word_letters,
                "zipf": zipf,
                "provenance": [index.spelling(cited, source_id)],
            }
            | _label(index, word_id)
        )
    answer = Answer(len(found), truncated, [], [], [])
    return result(base, answer, cited, letters=query_letters, vocabulary=vocabulary, anagrams=found)


def _label(index: RhymeIndex, word_id: int) -> Data:
    """The label of a name or rare spelling (empty for a dictionary word)."""
    return {} if word_id <= index.words_end else {"dictionary_word": False}


# --- palindrome ---------------------------------------------------------------------------


def _palindromes(
    conn: sqlite3.Connection,
    index: RhymeIndex,
    cited: Cited,
    text: str,
    shown: tuple[int, str],
    base: Data,
) -> Data:
    limit, vocabulary = shown
    query_letters = letters(text)
    is_query_palindrome = is_palindrome(text)
    found: list[Data] = []
    truncated = False
    cut: list[str] = []
    if len(text) == 1:
        cut.append("a one-character query gets no palindrome candidates")
    else:
        # From the query's letters to the end of the index, then from the start back up to
        # them: every stored palindrome once, in (letters, id) order.
        after = palindrome_words(conn, query_letters, after=True)
        before = palindrome_words(conn, query_letters, after=False)
        seen: set[str] = set()
        for rows in (after, before):
            for word_id, word, word_letters, source_id in rows:
                if word_letters == query_letters or fold(word) in seen:
                    continue
                if vocabulary == "dictionary" and word_id > index.words_end:
                    continue
                if len(found) == limit:
                    truncated = True
                    break
                seen.add(fold(word))
                found.append(
                    {
                        "word": word,
                        "letters": word_letters,
                        "provenance": [index.spelling(cited, source_id)],
                    }
                    | _label(index, word_id)
                )
            if truncated:
                break
    answer = Answer(len(found), truncated, [], [], cut)
    return result(
        base,
        answer,
        cited,
        letters=query_letters,
        input_is_palindrome=is_query_palindrome,
        vocabulary=vocabulary,
        palindromes=found,
    )


# --- spoonerism ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Pron:
    phones: str
    onset: str
    rest: str
    source_id: int


def _word_pronunciations(conn: sqlite3.Connection, word: str) -> tuple[list[str], list[_Pron]]:
    """The headwords spelled `word` (any case) and up to eight distinct pronunciations."""
    found, _ = query_words(conn, word)
    if not found:
        return [], []
    rows = pronunciations_of_words(conn, [row[0] for row in found])
    prons: dict[str, _Pron] = {}
    for phones, onset, rest, source_id in rows:
        if phones not in prons and len(prons) < MAX_PRONUNCIATIONS:
            prons[phones] = _Pron(phones, onset, rest, source_id)
    return [row[1] for row in found], list(prons.values())


def _spelled(conn: sqlite3.Connection, phones: str) -> list[tuple[str, int]]:
    """Every headword (one per spelling, ignoring case) pronounced exactly `phones`."""
    seen: set[str] = set()
    spelled: list[tuple[str, int]] = []
    for _, text, source_id, _ in homophones(conn, phones):
        key = fold(text)
        if key not in seen:
            seen.add(key)
            spelled.append((text, source_id))
    return spelled


def _join(*parts: str) -> str:
    return " ".join(part for part in parts if part)


def _spoonerisms(
    conn: sqlite3.Connection,
    index: RhymeIndex,
    cited: Cited,
    text: str,
    limit: int,
    base: Data,
) -> Data:
    tokens = text.split()
    if len(tokens) != 2:
        raise InvalidArgument(
            "text",
            "exactly two whitespace-separated English words for kind='spoonerism', "
            "e.g. 'belly jeans'",
            text,
        )
    resolved: list[str] = []
    unresolved: list[str] = []
    pronunciations: list[list[_Pron]] = []
    for token in tokens:
        spellings, prons = _word_pronunciations(conn, token)
        resolved = list(dict.fromkeys([*resolved, *spellings]))  # 'cat cat': once
        if not prons:
            unresolved.append(token)
        pronunciations.append(prons)
    lexical: list[_Swap] = []
    generated: list[_Swap] = []
    seen: set[tuple[str, str]] = set()
    if not unresolved:
        for first in pronunciations[0]:
            for second in pronunciations[1]:
                if first.onset == second.onset:
                    continue  # covers empty-to-empty: nothing would change
                new_first = _join(second.onset, first.rest)
                new_second = _join(first.onset, second.rest)
                if (new_first, new_second) in seen:
                    continue
                seen.add((new_first, new_second))
                swap = _Swap(
                    first,
                    second,
                    new_first,
                    new_second,
                    _spelled(conn, new_first),
                    _spelled(conn, new_second),
                )
                (lexical if swap.lexical else generated).append(swap)
    ordered = lexical + generated
    answer = Answer(
        min(len(ordered), limit),
        len(ordered) > limit,
        resolved,
        unresolved,
        [f"no CMUdict pronunciation for {word!r}" for word in unresolved],
    )
    # Only the listed swaps cite their sources.
    listed = [_spoonerism(index, cited, swap) for swap in ordered[:limit]]
    return result(base, answer, cited, spoonerisms=listed)


@dataclass(frozen=True, slots=True)
class _Swap:
    """One exchange of onsets, and the headwords each new sound spells."""

    first: _Pron
    second: _Pron
    new_first: str  # the second's onset before the first's rest
    new_second: str
    first_words: list[tuple[str, int]]  # (headword, spelling source) per spelling
    second_words: list[tuple[str, int]]

    @property
    def lexical(self) -> bool:
        return bool(self.first_words) and bool(self.second_words)


def _spoonerism(index: RhymeIndex, cited: Cited, swap: _Swap) -> Data:
    halves = [
        words[0][0] if words else f"/{phones}/"
        for words, phones in (
            (swap.first_words, swap.new_first),
            (swap.second_words, swap.new_second),
        )
    ]
    provenance = [index.pronunciation(cited, swap.first.source_id)]
    spelling_sources = dict.fromkeys(source for _, source in swap.first_words + swap.second_words)
    provenance.extend(index.spelling(cited, source) for source in spelling_sources)
    return {
        "phrase": " ".join(halves),
        "phones": [swap.new_first, swap.new_second],
        "source_phones": [swap.first.phones, swap.second.phones],
        "onsets": [swap.first.onset, swap.second.onset],
        "lexicality_scope": "lexical_term" if swap.lexical else "generated_candidate",
        "first_headwords": [word for word, _ in swap.first_words],
        "second_headwords": [word for word, _ in swap.second_words],
        "provenance": provenance,
    }
