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

`wordplay_data` builds the result as plain JSON-ready data (what the MCP tool sends; the
SDK validates it against `WordplayResult`); `wordplay` is the same answer, typed.
"""

from __future__ import annotations

import re
import sqlite3
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic_core import to_json

from lexicon_server.corpus.wordplay_keys import fold, is_palindrome, letters, signature
from lexicon_server.errors import InvalidArgument
from lexicon_server.models import MAX_RESPONSE_CHARS
from lexicon_server.query.arguments import check_limit, check_text
from lexicon_server.query.budget import budget_data, clip
from lexicon_server.query.headwords import normalize
from lexicon_server.query.provenance import Cited
from lexicon_server.query.rhymes import RhymeIndex, query_words, rhyme_index
from lexicon_server.query.wordplay_models import WordplayResult

if TYPE_CHECKING:
    from lexicon_server.corpus.reader import Corpus

__all__ = ["KINDS", "MAX_CONTEXT_CHARS", "MAX_PRONUNCIATIONS", "wordplay", "wordplay_data"]

Data = dict[str, Any]

Kind = Literal["anagram", "palindrome", "spoonerism", "pun"]
KINDS: dict[str, Kind] = {
    "anagram": "anagram",
    "palindrome": "palindrome",
    "spoonerism": "spoonerism",
    "pun": "pun",
}
LANGUAGE = "en"
MAX_CONTEXT_CHARS = 512
MAX_PRONUNCIATIONS = 8  # per word, for spoonerisms
MAX_PUN_SENSES = 5  # senses listed per pun candidate (the total is reported)
PUN_GLOSS_CHARS = 240

_CONTEXT_WORD = re.compile(r"[a-z]+")
# Words too common to say anything about which sense a context means.
_STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "been",
        "but",
        "by",
        "for",
        "from",
        "has",
        "have",
        "he",
        "her",
        "his",
        "i",
        "in",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "our",
        "she",
        "so",
        "that",
        "the",
        "their",
        "them",
        "they",
        "this",
        "to",
        "was",
        "we",
        "were",
        "what",
        "when",
        "which",
        "who",
        "will",
        "with",
        "you",
        "your",
    ]
)


@dataclass
class _Answer:
    """What a kind hands back before the shared result fields are added."""

    count: int
    truncated: bool
    query_words: list[str]
    unresolved: list[str]
    cut: list[str]


def wordplay_data(
    corpus: Corpus,
    text: str,
    kind: str,
    context: str | None = None,
    limit: int = 20,
) -> Data:
    """Answer one wordplay `kind` for `text` (see the module docstring for the rules), as
    plain data: exactly what `WordplayResult.model_dump(mode="json")` gives for it."""
    checked = check_text("text", text)
    checked_kind = KINDS.get(kind) if isinstance(kind, str) else None
    if checked_kind is None:
        raise InvalidArgument("kind", "one of 'anagram', 'palindrome', 'spoonerism', 'pun'", kind)
    check_limit("limit", limit)
    context_text = _check_context(context, checked_kind)
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
        return _anagrams(conn, index, cited, checked, limit, base)
    if checked_kind == "palindrome":
        return _palindromes(conn, index, cited, checked, limit, base)
    if checked_kind == "spoonerism":
        return _spoonerisms(conn, index, cited, checked, limit, base)
    return _puns(corpus, conn, index, checked, context_text, limit, base)


def wordplay(
    corpus: Corpus,
    text: str,
    kind: str,
    context: str | None = None,
    limit: int = 20,
) -> WordplayResult:
    """`wordplay_data` as a typed result."""
    return WordplayResult.model_validate(wordplay_data(corpus, text, kind, context, limit))


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


def _result(
    base: Data,
    answer: _Answer,
    cited: Cited,
    *,
    letters: str | None = None,
    input_is_palindrome: bool | None = None,
    context_scope: str | None = None,
    anagrams: list[Data] | None = None,
    palindromes: list[Data] | None = None,
    spoonerisms: list[Data] | None = None,
    puns: list[Data] | None = None,
) -> Data:
    """The whole result in `WordplayResult`'s field order, without the fields it leaves out
    when they are null or empty (as its dump has them)."""
    data = dict(base)
    optional = {
        "letters": letters,
        "input_is_palindrome": input_is_palindrome,
        "context_scope": context_scope,
        "query_words": answer.query_words,
        "unresolved": answer.unresolved,
    }
    data.update(
        (key, value) for key, value in optional.items() if value is not None and value != []
    )
    data["count"] = answer.count
    data["truncated"] = answer.truncated
    found = {"anagrams": anagrams, "palindromes": palindromes, "spoonerisms": spoonerisms}
    found["puns"] = puns
    data.update((key, value) for key, value in found.items() if value)
    data["sources"] = cited.sources()
    data["budget"] = budget_data(answer.cut)
    return data


# --- anagram ------------------------------------------------------------------------------


def _anagrams(
    conn: sqlite3.Connection,
    index: RhymeIndex,
    cited: Cited,
    text: str,
    limit: int,
    base: Data,
) -> Data:
    query_letters = letters(text)
    if not query_letters:
        raise InvalidArgument("text", "text with at least one letter a-z for kind='anagram'", text)
    # `is_single = 1` lets SQLite use the partial signature index; id order is rank order.
    rows = conn.execute(
        "SELECT id, text, letters, zipf, source_id FROM words "
        "WHERE signature = ? AND is_single = 1 ORDER BY id",
        (signature(query_letters),),
    )
    found: list[Data] = []
    seen: set[str] = set()
    truncated = False
    for _wid, word, word_letters, zipf, source_id in rows:
        if word_letters == query_letters or word_letters in seen:
            continue  # the query itself, or another capitalisation of a word already listed
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
        )
    answer = _Answer(len(found), truncated, [], [], [])
    return _result(base, answer, cited, letters=query_letters, anagrams=found)


# --- palindrome ---------------------------------------------------------------------------


def _palindromes(
    conn: sqlite3.Connection,
    index: RhymeIndex,
    cited: Cited,
    text: str,
    limit: int,
    base: Data,
) -> Data:
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
        after = conn.execute(
            "SELECT text, letters, source_id FROM words "
            "WHERE is_palindrome = 1 AND letters >= ? ORDER BY letters, id",
            (query_letters,),
        )
        before = conn.execute(
            "SELECT text, letters, source_id FROM words "
            "WHERE is_palindrome = 1 AND letters < ? ORDER BY letters, id",
            (query_letters,),
        )
        seen: set[str] = set()
        for rows in (after, before):
            for word, word_letters, source_id in rows:
                if word_letters == query_letters or fold(word) in seen:
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
                )
            if truncated:
                break
    answer = _Answer(len(found), truncated, [], [], cut)
    return _result(
        base,
        answer,
        cited,
        letters=query_letters,
        input_is_palindrome=is_query_palindrome,
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
    ids = tuple(row[0] for row in found)
    marks = ",".join("?" * len(ids))
    rows = conn.execute(
        f"SELECT phones, onset, rest, source_id FROM prons WHERE word_id IN ({marks}) "
        "ORDER BY word_id, variant",
        ids,
    ).fetchall()
    prons: dict[str, _Pron] = {}
    for phones, onset, rest, source_id in rows:
        if phones not in prons and len(prons) < MAX_PRONUNCIATIONS:
            prons[phones] = _Pron(phones, onset, rest, source_id)
    return [row[1] for row in found], list(prons.values())


def _spelled(conn: sqlite3.Connection, phones: str) -> list[tuple[str, int]]:
    """Every headword (one per spelling, ignoring case) pronounced exactly `phones`."""
    rows = conn.execute(
        "SELECT w.text, w.source_id FROM prons p JOIN words w ON w.id = p.word_id "
        "WHERE p.phones = ? ORDER BY w.id",
        (phones,),
    )
    seen: set[str] = set()
    spelled: list[tuple[str, int]] = []
    for text, source_id in rows:
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
    answer = _Answer(
        min(len(ordered), limit),
        len(ordered) > limit,
        resolved,
        unresolved,
        [f"no CMUdict pronunciation for {word!r}" for word in unresolved],
    )
    # Only the listed swaps cite their sources.
    listed = [_spoonerism(index, cited, swap) for swap in ordered[:limit]]
    return _result(base, answer, cited, spoonerisms=listed)


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


# --- pun ----------------------------------------------------------------------------------


def _context_words(context: str) -> set[str]:
    return {w for w in _CONTEXT_WORD.findall(fold(context)) if len(w) > 1} - _STOPWORDS


def _synsets(conn: sqlite3.Connection, ids: Sequence[int]) -> list[str]:
    if not ids:
        return []
    marks = ",".join("?" * len(ids))
    rows = conn.execute(
        f"SELECT DISTINCT synset FROM word_synsets WHERE word_id IN ({marks}) ORDER BY synset",
        tuple(ids),
    )
    return [row[0] for row in rows]


# The word's synsets in the dictionary's sense order: the term spelled as given first
# ('night' before the goddess 'Night'), then by sense rank, so each part of speech's
# first sense comes before any second one (a pun lists five senses at most), then by
# entry.
_SENSE_ORDER = (
    "SELECT y.external_id FROM terms t JOIN entries e ON e.term_id = t.id "
    "JOIN senses s ON s.entry_id = e.id JOIN synsets y ON y.id = s.synset_id "
    "WHERE t.norm = ? ORDER BY t.text <> ?, s.rank, e.id, s.id"
)


def _in_sense_order(corpus: Corpus, word: str, synsets: list[str]) -> list[str]:
    """`synsets` (external ids) in the lexical component's sense order for `word`
    ('night': the time after sunset before the goddess); any it does not list keep their
    order at the end."""
    lexical = corpus.db(LANGUAGE, "lexical")
    order: dict[str, int] = {}
    for (synset,) in lexical.execute(_SENSE_ORDER, (normalize(word), word)):
        order.setdefault(synset, len(order))
    return sorted(synsets, key=lambda synset: order.get(synset, len(order)))


def _gloss_reader(corpus: Corpus) -> Callable[[str], str | None] | None:
    """Glosses come from the lexical component when it is installed; else None."""
    if corpus.selection.availability(LANGUAGE, "lexical") is not None:
        return None
    lexical = corpus.db(LANGUAGE, "lexical")

    def gloss(synset: str) -> str | None:
        row = lexical.execute("SELECT gloss FROM synsets WHERE external_id = ?", (synset,))
        found = row.fetchone()
        return None if found is None else str(found[0])

    return gloss


@dataclass(frozen=True, slots=True)
class _Pun:
    """A pun candidate before the response budget decides whether it is listed."""

    fields: Data  # PunCandidate fields but provenance
    spelling_source: int
    pron_source: int
    matches: int


def _puns(
    corpus: Corpus,
    conn: sqlite3.Connection,
    index: RhymeIndex,
    text: str,
    context: str | None,
    limit: int,
    base: Data,
) -> Data:
    found, folded = query_words(conn, text)
    query_ids = [row[0] for row in found]
    cut: list[str] = []
    phones_list: list[str] = []
    if query_ids:
        marks = ",".join("?" * len(query_ids))
        phones_list = [
            row[0]
            for row in conn.execute(
                f"SELECT DISTINCT phones FROM prons WHERE word_id IN ({marks}) ORDER BY id",
                tuple(query_ids),
            )
        ]
    query_senses = set(_synsets(conn, query_ids))
    gloss = _gloss_reader(corpus)
    context_words = _context_words(context) if context is not None else set()
    if context is not None and gloss is None:
        cut.append("context not used: English lexical data (glosses) is not installed")
    # Homophones grouped by spelling ignoring case, in rank order.
    groups: dict[str, tuple[str, str, list[int], int, int]] = {}
    for phones in phones_list:
        rows = conn.execute(
            "SELECT w.id, w.text, w.source_id, p.source_id FROM prons p "
            "JOIN words w ON w.id = p.word_id WHERE p.phones = ? ORDER BY w.id",
            (phones,),
        )
        for word_id, word, source_id, pron_source in rows:
            key = fold(word)
            if key == folded:
                continue
            if key not in groups:
                groups[key] = (word, phones, [], source_id, pron_source)
            groups[key][2].append(word_id)
    candidates: list[_Pun] = []
    for word, phones, ids, source_id, pron_source in groups.values():
        # Senses may sit on another capitalisation of the spelling ('Mars' beside 'mars').
        same_word = {row[0] for row in query_words(conn, word)[0]} | set(ids)
        distinct = [s for s in _synsets(conn, sorted(same_word)) if s not in query_senses]
        if not distinct:
            continue  # no meaning of its own to pun on
        if gloss is not None:
            distinct = _in_sense_order(corpus, word, distinct)
        senses: list[Data] = []
        matches: set[str] = set()
        for synset in distinct[:MAX_PUN_SENSES]:
            text_of = gloss(synset) if gloss is not None else None
            senses.append(
                {
                    "synset": synset,
                    **({} if text_of is None else {"gloss": clip(text_of, PUN_GLOSS_CHARS)}),
                }
            )
            if text_of is not None and context_words:
                matches |= context_words & set(_CONTEXT_WORD.findall(fold(text_of)))
        if context_words and gloss is not None and fold(word) in context_words:
            matches.add(fold(word))
        fields: Data = {
            "word": word,
            "phones": phones,
            "result_class": "candidate",
            "sound_relation": "homophone",
            "distinct_senses": senses,
            "distinct_senses_total": len(distinct),
            "context_matches": sorted(matches),
        }
        candidates.append(_Pun(fields, source_id, pron_source, len(matches)))
    ranked = context is not None and gloss is not None
    if ranked:
        # Stable: equal overlap keeps frequency order.
        candidates.sort(key=lambda pun: -pun.matches)
    answer = _Answer(
        min(len(candidates), limit),
        len(candidates) > limit,
        [row[1] for row in found],
        [] if phones_list else [text],
        cut,
    )
    scope = "context_ranked" if ranked else "uncontextualized"
    return _fit_puns(index, base, answer, candidates[:limit], scope, MAX_RESPONSE_CHARS)


def _fit_puns(
    index: RhymeIndex,
    base: Data,
    answer: _Answer,
    listed: list[_Pun],
    context_scope: str,
    max_chars: int,
) -> Data:
    """The pun result, its last candidates dropped until the serialised JSON fits."""
    while True:
        # Sources are cited afresh per attempt: a dropped candidate's must not stay listed.
        cited = Cited()
        puns = [_pun(index, cited, pun) for pun in listed]
        result = _result(base, answer, cited, context_scope=context_scope, puns=puns)
        # Characters, as the budget counts them (the JSON is UTF-8, not escaped).
        if not listed or len(to_json(result).decode()) <= max_chars:
            return result
        listed = listed[:-1]
        answer = _Answer(
            answer.count - 1,
            True,
            answer.query_words,
            answer.unresolved,
            _with_note(answer.cut, "pun candidates dropped to fit the response size budget"),
        )


def _with_note(cut: list[str], note: str) -> list[str]:
    return cut if note in cut else [*cut, note]


def _pun(index: RhymeIndex, cited: Cited, pun: _Pun) -> Data:
    spelling = index.spelling(cited, pun.spelling_source)
    return {
        **pun.fields,
        "provenance": [
            spelling,
            {"fact": "senses", "source": spelling["source"]},
            index.pronunciation(cited, pun.pron_source),
        ],
    }
