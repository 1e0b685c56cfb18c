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

import itertools
import sqlite3
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypeVar

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
from lexicon_server.query.wordplay_result import Answer, Data, KindCall, result
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
_Row = TypeVar("_Row")


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
    base: Data = {
        "text": checked,
        "kind": checked_kind,
        "language": LANGUAGE,
        "dataset_version": corpus.dataset_version,
    }
    call = KindCall(conn, index, Cited(), limit, base)
    if checked_kind == "anagram":
        data = _anagrams(call, checked, words)
    elif checked_kind == "palindrome":
        data = _palindromes(call, checked, words)
    elif checked_kind == "spoonerism":
        data = _spoonerisms(call, checked)
    elif checked_kind == "pattern":
        data = pattern_matches(call, pattern, words)
    elif checked_kind == "sounds_like":
        data = sounds_like(call, checked, words)
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


def _anagrams(call: KindCall, text: str, vocabulary: str) -> Data:
    query_letters = letters(text)
    if not query_letters:
        raise InvalidArgument("text", "text with at least one letter a-z for kind='anagram'", text)
    # `is_single = 1` lets SQLite use the partial signature index; id order is rank order.
    # Left out: the query itself, other capitalisations of a word already listed, and
    # (vocabulary 'dictionary') names and rare spellings, numbered after every word.
    rows = anagram_words(call.conn, signature(query_letters))
    keyed = (
        (row[2], row)
        for row in rows
        if row[2] != query_letters and _shown(call.index, row[0], vocabulary)
    )

    def entry(row: tuple[Any, ...]) -> Data:
        word_id, word, word_letters, zipf, source_id = row
        spelling = call.index.source(call.cited, source_id)
        found = {"word": word, "zipf": zipf, "letters": word_letters, "spelling_source": spelling}
        return found | _label(call.index, word_id)

    found, truncated = _first_distinct(keyed, call.limit, entry)
    answer = Answer(len(found), truncated, [], [], [])
    return result(
        call.base, answer, call.cited, letters=query_letters, vocabulary=vocabulary, results=found
    )


def _shown(index: RhymeIndex, word_id: int, vocabulary: str) -> bool:
    """Whether a word of this id is listed: every word with vocabulary='all', else only
    dictionary words (ids up to `words_end`)."""
    return vocabulary == "all" or word_id <= index.words_end


def _label(index: RhymeIndex, word_id: int) -> Data:
    """The label of a name or rare spelling (empty for a dictionary word)."""
    return {} if word_id <= index.words_end else {"dictionary_word": False}


# --- palindrome ---------------------------------------------------------------------------


def _palindromes(call: KindCall, text: str, vocabulary: str) -> Data:
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
        after = palindrome_words(call.conn, query_letters, after=True)
        before = palindrome_words(call.conn, query_letters, after=False)
        rows = itertools.chain(after, before)
        keyed = (
            (fold(row[1]), row)
            for row in rows
            if row[2] != query_letters and _shown(call.index, row[0], vocabulary)
        )

        def entry(row: tuple[int, str, str, int]) -> Data:
            word_id, word, word_letters, source_id = row
            spelling = call.index.source(call.cited, source_id)
            found = {"word": word, "letters": word_letters, "spelling_source": spelling}
            return found | _label(call.index, word_id)

        found, truncated = _first_distinct(keyed, call.limit, entry)
    answer = Answer(len(found), truncated, [], [], cut)
    return result(
        call.base,
        answer,
        call.cited,
        letters=query_letters,
        input_is_palindrome=is_query_palindrome,
        vocabulary=vocabulary,
        results=found,
    )


def _first_distinct(
    keyed: Iterable[tuple[str, _Row]], limit: int, entry: Callable[[_Row], Data]
) -> tuple[list[Data], bool]:
    """The entries of the first `limit` rows whose keys differ, and whether any was left.

    `entry` runs only for a row that is kept: it cites the row's source."""
    found: list[Data] = []
    seen: set[str] = set()
    for key, row in keyed:
        if key in seen:
            continue
        if len(found) == limit:
            return found, True
        seen.add(key)
        found.append(entry(row))
    return found, False


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


def _spoonerisms(call: KindCall, text: str) -> Data:
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
        spellings, prons = _word_pronunciations(call.conn, token)
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
                    _spelled(call.conn, new_first),
                    _spelled(call.conn, new_second),
                )
                (lexical if swap.lexical else generated).append(swap)
    ordered = lexical + generated
    answer = Answer(
        min(len(ordered), call.limit),
        len(ordered) > call.limit,
        resolved,
        unresolved,
        [f"no CMUdict pronunciation for {word!r}" for word in unresolved],
    )
    # Only the listed swaps cite their sources.
    listed = [_spoonerism(call.index, call.cited, swap) for swap in ordered[: call.limit]]
    return result(call.base, answer, call.cited, results=listed)


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
    spelled = dict.fromkeys(source for _, source in swap.first_words + swap.second_words)
    found: Data = {
        "word": " ".join(halves),
        "swapped_phones": [swap.new_first, swap.new_second],
        "source_phones": [swap.first.phones, swap.second.phones],
        "onsets": [swap.first.onset, swap.second.onset],
        "lexicality_scope": "lexical_term" if swap.lexical else "generated_candidate",
    }
    # Empty lists are left out, as everywhere in an answer.
    if swap.first_words:
        found["first_headwords"] = [word for word, _ in swap.first_words]
    if swap.second_words:
        found["second_headwords"] = [word for word, _ in swap.second_words]
    found["pronunciation_source"] = index.source(cited, swap.first.source_id)
    if spelled:
        found["spelling_sources"] = [index.source(cited, source) for source in spelled]
    return found
