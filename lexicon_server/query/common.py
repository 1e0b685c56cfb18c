"""What every query shares: argument checks, text normalisation, headword resolution,
round-robin budgets, provenance and the response size budget.

All SQL here binds its parameters; nothing the caller sends is ever spliced into a
statement.
"""

from __future__ import annotations

import functools
import re
import sqlite3
import threading
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, Self, TypeVar

from lexicon_server.corpus import term_docs
from lexicon_server.corpus.normalize import norm
from lexicon_server.errors import InvalidArgument
from lexicon_server.models import MAX_RESPONSE_CHARS, Budget, Resolution

if TYPE_CHECKING:
    from pydantic import BaseModel

    from lexicon_server.corpus.reader import Corpus

__all__ = [
    "ALL_RELATIONS",
    "DEFAULT_ALLOCATION",
    "ID_LIST",
    "LIMIT_MAX",
    "MAX_TEXT_CHARS",
    "SENSE_RELATIONS",
    "Cited",
    "ConnectionMemo",
    "Cuts",
    "Headwords",
    "SourceTable",
    "best_first",
    "budget_data",
    "check_allocation",
    "check_budget",
    "check_language",
    "check_limit",
    "check_text",
    "clear_caches",
    "clip",
    "corpus_language",
    "drop_last_group",
    "entry_filter",
    "entry_filter_args",
    "entry_installed",
    "fit_response",
    "has_column",
    "has_index",
    "has_term_docs",
    "id_list",
    "installed_entries",
    "json_bound",
    "normalize",
    "parse_sense_id",
    "relations_stored",
    "resolution_data",
    "resolve_headwords",
    "round_robin",
    "sense_handle",
    "sense_ref_data",
    "sources",
    "term_order",
    "term_order_args",
    "word_senses",
]

LIMIT_MAX = 100
MAX_TEXT_CHARS = 100
DEFAULT_ALLOCATION = 5
# Free text longer than this is shortened (and the response says so).
GLOSS_CHARS = 1_000
EXAMPLE_CHARS = 500

# BCP-47-shaped: a 2-3 letter primary subtag, then optional 2-8 character subtags
# (Wiktionary codes such as 'zh-min-nan' have this shape too).
# Bounded: at most 6 subtags and 35 characters (the length BCP 47 asks every implementation
# to support), so a tag of hundreds of characters is refused, not looked up.
MAX_LANGUAGE_TAG_CHARS = 35
_LANGUAGE_TAG = re.compile(r"[a-z]{2,3}(?:-[a-z0-9]{2,8}){0,5}")
_LANGUAGE_ALLOWED = (
    "a language tag like 'en', 'fr' or 'pt-br' (ISO 639 code first; at most 6 subtags "
    f"and {MAX_LANGUAGE_TAG_CHARS} characters)"
)
# What is stripped from the ends of a text: ASCII whitespace and Unicode spaces, but no
# other control character. (str.strip() would also strip C1 NEL, U+0085, and the C0
# separators U+001C-U+001F, which would then pass where every other control is refused.)
_STRIP = (
    " \t\n\r\x0b\x0c\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


# --- argument checks ------------------------------------------------------------------------


def check_text(parameter: str, value: str, max_chars: int = MAX_TEXT_CHARS) -> str:
    """The stripped text, or InvalidArgument if it is empty, too long or has control chars
    (C0, C1 or lone surrogates)."""
    stripped = value.strip(_STRIP)
    allowed = f"1 to {max_chars} characters of text without control characters"
    if not stripped or len(stripped) > max_chars:
        raise InvalidArgument(parameter, allowed, value)
    # A printable string has no character in any "Other" category, so none in Cc or Cs:
    # only the rest (tabs, no-break spaces, format characters...) need the per-character
    # look-up.
    if not stripped.isprintable() and any(
        unicodedata.category(ch) in ("Cc", "Cs") for ch in stripped
    ):
        raise InvalidArgument(parameter, allowed, value)
    return stripped


# Accepted tags as sent -> as checked: every call names a language or two, nearly always
# the same few. Bounded; refused values are never kept.
_TAG_CACHE_SIZE = 1_024
_tag_cache: dict[str, str] = {}


def check_language(parameter: str, value: str) -> str:
    """A lower-cased language tag such as 'en', 'fr' or 'pt-br'."""
    tag = _tag_cache.get(value)
    if tag is not None:
        return tag
    tag = value.strip().lower().replace("_", "-")
    if len(tag) > MAX_LANGUAGE_TAG_CHARS or not _LANGUAGE_TAG.fullmatch(tag):
        raise InvalidArgument(parameter, _LANGUAGE_ALLOWED, value)
    if len(_tag_cache) < _TAG_CACHE_SIZE:
        _tag_cache[value] = tag
    return tag


def corpus_language(corpus: Corpus, parameter: str, value: str) -> str:
    """A checked tag; a regional tag the corpus does not carry ('en-us') falls back to its
    language ('en') when the corpus carries that."""
    tag = check_language(parameter, value)
    catalogue = corpus.selection.catalogue
    if tag not in catalogue and "-" in tag:
        primary = tag.split("-", 1)[0]
        if primary in catalogue:
            return primary
    return tag


def check_limit(parameter: str, value: int, low: int = 1, high: int = LIMIT_MAX) -> int:
    if isinstance(value, bool) or not low <= value <= high:
        raise InvalidArgument(parameter, f"an integer from {low} to {high}", value)
    return value


def check_budget(parameter: str, value: int) -> int:
    """A detail budget: 0 disables the class, up to LIMIT_MAX items otherwise."""
    return check_limit(parameter, value, 0, LIMIT_MAX)


def check_allocation(
    parameter: str, value: int | None, limit: int, default: int | None = None
) -> int:
    """An allocation of the broader class within `limit`.

    None means the default (`default`, else 5, but never more than `limit`); 0 disables
    the class; a
    positive value is an explicit allocation and may not exceed `limit`; -1 is reserved
    for automatic allocation in a future version and is refused.
    """
    if value is None:
        return min(DEFAULT_ALLOCATION if default is None else default, limit)
    allowed = f"0 (disabled) or an explicit allocation from 1 to limit={limit}"
    if value == -1:
        raise InvalidArgument(
            parameter,
            f"{allowed}; -1 (automatic allocation) is not accepted in this version",
            value,
        )
    if isinstance(value, bool) or not 0 <= value <= limit:
        raise InvalidArgument(parameter, allowed, value)
    return value


# --- text ------------------------------------------------------------------------------------


def normalize(text: str) -> str:
    """The look-up key the builder stores in `terms.norm` (one definition for both sides)."""
    return norm(text)


class Cuts:
    """Collects what a response left out or shortened, for `Budget.cut`."""

    def __init__(self) -> None:
        self.items: list[str] = []
        self._clipped = 0

    def add(self, note: str) -> None:
        self.items.append(note)

    def clip(self, text: str, limit: int) -> str:
        if len(text) <= limit:
            return text
        self._clipped += 1
        return text[: limit - 1] + "…"

    def budget(self) -> Budget:
        notes = list(self.items)
        if self._clipped:
            notes.append(f"{self._clipped} long text field(s) shortened")
        return Budget(max_chars=MAX_RESPONSE_CHARS, cut=notes)


def budget_data(cut: list[str]) -> dict[str, Any]:
    """A result's `budget` as plain data: `cut` only when something was cut."""
    return (
        {"max_chars": MAX_RESPONSE_CHARS, "cut": cut} if cut else {"max_chars": MAX_RESPONSE_CHARS}
    )


def resolution_data(resolutions: Iterable[Resolution]) -> list[dict[str, Any]]:
    """`resolutions` as plain data, each without the details it lacks."""
    return [r.model_dump(mode="json") for r in resolutions]


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- budgets -------------------------------------------------------------------------------


def round_robin(available: Sequence[int], budget: int) -> list[int]:
    """How many items each group gets when `budget` items are dealt one per group in turn.

    Computed a full round at a time: every group still holding items gets the same share
    until the budget no longer covers a round, then the first groups in order get one more.
    """
    taken = [0] * len(available)
    remaining = budget
    active = [i for i, have in enumerate(available) if have > 0]
    while remaining > 0 and active:
        share = remaining // len(active)
        if share == 0:
            for i in active[:remaining]:
                taken[i] += 1
            break
        still: list[int] = []
        for i in active:
            give = min(share, available[i] - taken[i])
            taken[i] += give
            remaining -= give
            if taken[i] < available[i]:
                still.append(i)
        active = still
    return taken


_M = TypeVar("_M", bound="BaseModel")
_K = TypeVar("_K")
_V = TypeVar("_V")


def fit_response(
    model: _M,
    shrink: Callable[[_M, int], tuple[_M, str] | None],
    max_chars: int = MAX_RESPONSE_CHARS,
    bound: int | None = None,
) -> _M:
    """Drop trailing items (via `shrink`) until the serialised model fits `max_chars`.

    `shrink(model, excess)` returns a smaller model and a note saying what was cut, or
    None when nothing more can go. `bound`, when given, is a safe upper estimate of the
    serialised size; below the budget it spares serialising just to measure.
    """
    if bound is not None and bound <= max_chars:
        return model
    for _ in range(200):
        size = len(model.model_dump_json())
        if size <= max_chars:
            return model
        shrunk = shrink(model, size - max_chars)
        if shrunk is None:
            return model
        model, _note = shrunk
    return model


class _Grouped(Protocol):
    """A result whose `groups` each hold `candidates` (synonyms, translations)."""

    @property
    def groups(self) -> Sequence[Any]: ...

    @property
    def resolutions(self) -> Sequence[Resolution]: ...

    @property
    def sources(self) -> Mapping[str, Any]: ...

    @property
    def budget(self) -> Budget: ...

    def model_copy(
        self, *, update: Mapping[str, Any] | None = None, deep: bool = False
    ) -> Self: ...


_G = TypeVar("_G", bound=_Grouped)


def drop_last_group(result: _G, _excess: int) -> tuple[_G, str] | None:
    """A `fit_response` shrink step: the result without its last group, counts updated
    and `sources` trimmed to the keys the kept facts still name."""
    if not result.groups:
        return None
    kept = result.groups[:-1]
    note = "groups: dropped the last group to stay within the response budget"
    named = {r.source for r in result.resolutions}
    for group in kept:
        if group.sense is not None:
            named.add(group.sense.source)
        named.update(c.source for c in group.candidates)
    update = {
        "groups": kept,
        "count": len(kept),
        "candidate_count": sum(len(g.candidates) for g in kept),
        "sources": {key: info for key, info in result.sources.items() if key in named},
        "budget": result.budget.model_copy(update={"cut": [*result.budget.cut, note]}),
    }
    return result.model_copy(update=update), note


def json_bound(*texts: str | None, items: int = 0) -> int:
    """A safe upper estimate of the JSON size of `texts` plus `items` objects with a
    source reference: a character takes at most 6 in JSON (`\\u001f`), each object with
    its source and field names at most 400."""
    return sum(6 * len(t) for t in texts if t) + 400 * items


# --- provenance -------------------------------------------------------------------------------


@dataclass(frozen=True)
class SourceTable:
    """The `sources` table of one component database: key and description per row id."""

    keys: dict[int, str]
    infos: dict[int, str]  # the licence of each source, as the result's `sources` gives it


class Cited:
    """The sources one result names: `key()` gives a fact's source key and remembers the
    source, `sources()` is the result's `sources` map. One instance per result; it can
    take source ids from several databases (keys are the same across a release)."""

    __slots__ = ("_used",)

    def __init__(self) -> None:
        self._used: dict[str, str] = {}

    def key(self, table: SourceTable, source_id: int) -> str:
        key = table.keys[source_id]
        if key not in self._used:
            self._used[key] = table.infos[source_id]
        return key

    def merge(self, infos: Mapping[str, str]) -> None:
        """Add sources another part of the query already cited (e.g. `Headwords.sources`)."""
        for key, info in infos.items():
            self._used.setdefault(key, info)

    def sources(self) -> dict[str, str]:
        return dict(sorted(self._used.items()))


_sources_lock = threading.Lock()
# Keyed by id(conn); the connection is kept in the value so its id is never reused.
_sources_cache: dict[int, tuple[sqlite3.Connection, SourceTable]] = {}


def sources(conn: sqlite3.Connection) -> SourceTable:
    """The `sources` table of one component database, read once per connection."""
    cached = _sources_cache.get(id(conn))
    if cached is not None and cached[0] is conn:
        return cached[1]
    rows = conn.execute("SELECT id, name, licence FROM sources").fetchall()
    # An answer names each source's licence; titles and versions are in lexicon://manifest.
    table = SourceTable(
        keys={row[0]: row[1] for row in rows},
        infos={row[0]: row[2] for row in rows},
    )
    with _sources_lock:
        _sources_cache[id(conn)] = (conn, table)
    return table


_index_cache: dict[tuple[int, str], tuple[sqlite3.Connection, bool]] = {}


def has_index(conn: sqlite3.Connection, name: str) -> bool:
    """Whether the database has index `name` (releases built before it was added lack it)."""
    cached = _index_cache.get((id(conn), name))
    if cached is not None and cached[0] is conn:
        return cached[1]
    row = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?", (name,)
    ).fetchone()
    with _sources_lock:
        _index_cache[(id(conn), name)] = (conn, row is not None)
    return row is not None


_column_cache: dict[tuple[int, str, str], tuple[sqlite3.Connection, bool]] = {}


def has_column(conn: sqlite3.Connection, table: str, column: str) -> bool:
    """Whether `table` has `column` (releases built before it was added lack it)."""
    cached = _column_cache.get((id(conn), table, column))
    if cached is not None and cached[0] is conn:
        return cached[1]
    row = conn.execute(
        "SELECT 1 FROM pragma_table_info(?) WHERE name = ?", (table, column)
    ).fetchone()
    with _sources_lock:
        _column_cache[(id(conn), table, column)] = (conn, row is not None)
    return row is not None


_docs_cache: dict[int, tuple[sqlite3.Connection, bool]] = {}


def has_term_docs(conn: sqlite3.Connection) -> bool:
    """Whether the builder stored term documents of a layout this server reads
    (lexicon_server/corpus/term_docs.py); without them a look-up reads the tables."""
    cached = _docs_cache.get(id(conn))
    if cached is not None and cached[0] is conn:
        return cached[1]
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (term_docs.META_KEY,)).fetchone()
    answer = row is not None and row[0] == term_docs.VERSION
    with _sources_lock:
        _docs_cache[id(conn)] = (conn, answer)
    return answer


def sense_handle(language: str, sense_rowid: int) -> str:
    """A sense id for the caller: stable within one dataset version."""
    return f"{language}:s{sense_rowid}"


def sense_ref_data(
    handle: str, external_id: str | None, pos: str, gloss: str, source: str
) -> dict[str, Any]:
    """A `SenseRef` as plain data (the source's own id only when it has one)."""
    if external_id is None:
        return {"id": handle, "pos": pos, "gloss": gloss, "source": source}
    return {"id": handle, "external_id": external_id, "pos": pos, "gloss": gloss, "source": source}


def parse_sense_id(parameter: str, value: str, language: str) -> int:
    prefix = f"{language}:s"
    if not value.startswith(prefix) or not value[len(prefix) :].isdigit():
        raise InvalidArgument(
            parameter, f"a sense id returned by dictionary_lookup, like '{prefix}123'", value
        )
    return int(value[len(prefix) :])


# Whether a target word has its own entry is asked for every translation shown; the same
# few thousand common targets come back again and again, so answers are kept per database
# (bounded, oldest answer out first). Objects never change, so an answer never goes stale.
_ENTRY_CACHE_SIZE = 50_000
_entry_lock = threading.Lock()
# Keyed by id(conn); the connection is kept in the value so its id is never reused.
_entry_cache: dict[int, tuple[sqlite3.Connection, dict[str, bool]]] = {}
# Below SQLite's default limit of bound parameters with room to spare.
_ENTRY_BATCH = 200
_ENTRY_BATCH_SQL = (
    "SELECT DISTINCT t.norm FROM terms t WHERE t.norm IN ({marks}) "
    "AND EXISTS (SELECT 1 FROM entries e WHERE e.term_id = t.id)"
)


def _entry_answers(conn: sqlite3.Connection) -> dict[str, bool]:
    cached = _entry_cache.get(id(conn))
    if cached is not None and cached[0] is conn:
        return cached[1]
    with _entry_lock:
        answers: dict[str, bool] = {}
        _entry_cache[id(conn)] = (conn, answers)
    return answers


def installed_entries(corpus: Corpus, language: str, norms: Iterable[str]) -> set[str]:
    """Which of `norms` have their own entry in `language`'s installed lexical data."""
    wanted = set(norms)
    if not wanted or corpus.selection.availability(language, "lexical") is not None:
        return set()
    conn = corpus.db(language, "lexical")
    answers = _entry_answers(conn)
    found: set[str] = set()
    with _entry_lock:
        missing: list[str] = []
        for norm in wanted:
            known = answers.get(norm)
            if known is None:
                missing.append(norm)
            elif known:
                found.add(norm)
        if missing:
            # All misses in one statement per chunk: the per-statement cost (bind, step,
            # Python row objects) was most of a probe, not the index search itself.
            hits: set[str] = set()
            for start in range(0, len(missing), _ENTRY_BATCH):
                chunk = missing[start : start + _ENTRY_BATCH]
                sql = _ENTRY_BATCH_SQL.format(marks=",".join("?" * len(chunk)))
                hits.update(row[0] for row in conn.execute(sql, chunk))
            found |= hits
            for norm in missing:
                answers[norm] = norm in hits
            # Dicts keep insertion order: drop the oldest answers (FIFO, no bookkeeping
            # on hits).
            while len(answers) > _ENTRY_CACHE_SIZE:
                del answers[next(iter(answers))]
    return found


def clear_caches() -> None:
    """Forget cached per-database answers (for measuring cold look-ups)."""
    with _entry_lock:
        _entry_cache.clear()


def entry_installed(corpus: Corpus, language: str, norm: str) -> bool:
    """Whether `norm` has its own entry in `language`'s installed lexical data."""
    if corpus.selection.availability(language, "lexical") is not None:
        return False
    conn = corpus.db(language, "lexical")
    row = conn.execute(
        "SELECT 1 FROM terms t JOIN entries e ON e.term_id = t.id WHERE t.norm = ? LIMIT 1",
        (norm,),
    ).fetchone()
    return row is not None


class ConnectionMemo(Generic[_K, _V]):
    """Answers kept per database connection across calls, at most `size` per connection
    (oldest out first). For facts of installed objects, which never change, so a kept
    answer never goes stale. Keyed by id(conn); the connection is kept with its answers
    so its id is never reused while they live."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._tables: dict[int, tuple[sqlite3.Connection, dict[_K, _V]]] = {}

    def split(self, conn: sqlite3.Connection, keys: Iterable[_K]) -> tuple[dict[_K, _V], list[_K]]:
        """The kept answers among `keys`, and the keys still to be read."""
        table = self._table(conn)
        found: dict[_K, _V] = {}
        missing: list[_K] = []
        for key in keys:
            value = table.get(key)
            if value is None:
                missing.append(key)
            else:
                found[key] = value
        return found, missing

    def keep(self, conn: sqlite3.Connection, fresh: Mapping[_K, _V]) -> None:
        table = self._table(conn)
        with self._lock:
            table.update(fresh)
            # Dicts keep insertion order: drop the oldest (FIFO, no bookkeeping on hits).
            while len(table) > self.size:
                del table[next(iter(table))]

    def clear(self) -> None:
        with self._lock:
            self._tables.clear()

    def _table(self, conn: sqlite3.Connection) -> dict[_K, _V]:
        cached = self._tables.get(id(conn))
        if cached is not None and cached[0] is conn:
            return cached[1]
        with self._lock:
            table: dict[_K, _V] = {}
            self._tables[id(conn)] = (conn, table)
        return table


# --- headword resolution ------------------------------------------------------------------------

# WordNet's morphy detachment rules, by part of speech, in its order.
_SUFFIX_RULES: dict[str, tuple[tuple[str, str], ...]] = {
    "noun": (
        ("s", ""),
        ("ses", "s"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ),
    "verb": (
        ("s", ""),
        ("ies", "y"),
        ("es", "e"),
        ("es", ""),
        ("ed", "e"),
        ("ed", ""),
        ("ing", "e"),
        ("ing", ""),
    ),
    "adj": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
}
_DOUBLING_SUFFIXES = ("ed", "ing", "er", "est")


@dataclass(frozen=True)
class Headwords:
    """The terms a query resolved to, and how."""

    norm: str
    term_ids: tuple[int, ...]
    resolutions: tuple[Resolution, ...]
    # The sources the resolutions name, for the result's `sources` (merge into its Cited).
    sources: Mapping[str, str] = field(default_factory=dict)
    # For an inflected form, the (term id, part of speech) entries whose senses are its
    # own: 'ran' is the verb 'run', not the noun. Empty: every entry of `term_ids`.
    entries: tuple[tuple[int, str], ...] = ()

    @property
    def found(self) -> bool:
        return bool(self.term_ids)


def _terms_with_entries(conn: sqlite3.Connection, norm: str, pos: str) -> list[tuple[int, str]]:
    """(id, text) of the terms spelled `norm` with an entry of part of speech `pos`."""
    return conn.execute(
        "SELECT t.id, t.text FROM terms t WHERE t.norm = ? "
        "AND EXISTS (SELECT 1 FROM entries e WHERE e.term_id = t.id AND e.pos = ?) "
        "ORDER BY t.id",
        (norm, pos),
    ).fetchall()


def best_first(terms: list[tuple[int, str]], word: str) -> list[tuple[int, str]]:
    """`terms` (id, text), in id order, with the one that best matches how `word` is spelled
    moved to the front: the same spelling, else the term in lower case. So 'be' reads the
    verb before 'Be' (beryllium), 'Be' the element, and 'DAY' the common noun before 'Day'
    (a name); every tool lists the senses of that first term first (see `term_order`)."""
    if len(terms) < 2:
        return terms
    best = next((t for t in terms if t[1] == word), None)
    if best is None:
        best = next((t for t in terms if t[1] == t[1].lower()), None)
    if best is None or best is terms[0]:
        return terms
    return [best, *(t for t in terms if t is not best)]


def term_order(column: str, count: int) -> str:
    """The start of an ORDER BY that keeps the order `resolve_headwords` gave `count` terms:
    the first (the best match, see `best_first`) before the others, which follow by id.
    Put it before `column` in the ORDER BY and bind `term_order_args` after the term ids.
    One term needs nothing, so the usual statement keeps reading in index order."""
    return f"{column} <> ?, " if count > 1 else ""


def entry_filter(alias: str, count: int) -> str:
    """A condition for a WHERE over entries (`alias`) keeping `count` bound (term id, part
    of speech) pairs, `entry_filter_args`; nothing when `count` is 0."""
    if not count:
        return ""
    return f" AND ({alias}.term_id, {alias}.pos) IN (VALUES {', '.join(['(?, ?)'] * count)})"


def entry_filter_args(entries: Sequence[tuple[int, str]]) -> tuple[int | str, ...]:
    """The parameters of `entry_filter` for `entries` (see Headwords.entries), flattened."""
    return tuple(value for pair in entries for value in pair)


@functools.lru_cache(maxsize=64)
def _word_senses_sql(template: str, entries: int, terms: int) -> str:
    return template.format(entries=entry_filter("e", entries), first=term_order("e.term_id", terms))


def word_senses(template: str, heads: Headwords) -> tuple[str, tuple[int | str, ...]]:
    """A statement over the senses of `heads`' terms and its leading parameters. The
    `template` reads `e.term_id IN ID_LIST{entries} ORDER BY {first}e.term_id, ...`: it
    keeps an inflected form's entries (`entry_filter`) and puts the best-matching term
    first (`term_order`); parameters it binds after those (a LIMIT) follow."""
    sql = _word_senses_sql(template, len(heads.entries), len(heads.term_ids))
    args = (id_list(heads.term_ids), *entry_filter_args(heads.entries))
    return sql, (*args, *term_order_args(heads.term_ids))


def term_order_args(term_ids: Sequence[int]) -> tuple[int, ...]:
    """The parameter `term_order` binds: the first term's id, when there are several."""
    return (term_ids[0],) if len(term_ids) > 1 else ()


def _term_text(conn: sqlite3.Connection, term_id: int) -> str:
    row = conn.execute("SELECT text FROM terms WHERE id = ?", (term_id,)).fetchone()
    return str(row[0]) if row else ""


def _suffix_candidates(norm: str) -> Iterable[tuple[str, str, str]]:
    """(lemma, pos, rule) guesses for an English inflected form, morphy-style."""
    for pos, rules in _SUFFIX_RULES.items():
        for suffix, ending in rules:
            if norm.endswith(suffix) and len(norm) > len(suffix) + 1:
                stem = norm[: -len(suffix)]
                yield stem + ending, pos, f"-{suffix} -> -{ending}" if ending else f"-{suffix}"
                # running -> run, bigger -> big: morphy misses doubled consonants.
                if (
                    suffix in _DOUBLING_SUFFIXES
                    and not ending
                    and len(stem) >= 3
                    and stem[-1] == stem[-2]
                    and stem[-1] not in "aeiou"
                ):
                    yield stem[:-1], pos, f"-{stem[-1]}{suffix}"


# Id lists are bound as one JSON array, so each statement has a single text whatever the
# number of ids: IN lists of every length crowded the connection's statement cache (shared
# by all tools), and a statement compiled again costs ~80 µs.
ID_LIST = "(SELECT value FROM json_each(?))"


def _cited_by(resolutions: Iterable[Resolution], cited: Cited) -> dict[str, str]:
    """The sources of the resolutions kept (a dropped one's source is not cited)."""
    used = {r.source for r in resolutions if r.source}
    return {key: info for key, info in cited.sources().items() if key in used}


def id_list(ids: Iterable[int]) -> str:
    """Ids as the JSON array `ID_LIST` reads."""
    return "[" + ",".join(str(int(i)) for i in ids) + "]"


# A lemma reached by an inflected form: the terms spelled so, and how it was reached.
_Reached = tuple[tuple[int, ...], Resolution]


def _apply_suffix_rules(
    conn: sqlite3.Connection,
    word: str,
    norm: str,
    covered: set[str | None],
    strict: bool,
    reached: list[_Reached],
) -> None:
    """Morphy's rules for each part of speech not in `covered`: the first rule whose lemma
    has an entry of that part of speech wins, as `wn.morphy(form, pos)` answers ('hates'
    is 'hate', not also 'hat' by '-es'). `strict` keeps lower-case lemmas only: 'Was' at
    the start of a sentence is not 'WA' (Washington) by '-s'."""
    done = set(covered)
    for lemma, pos, rule in _suffix_candidates(norm):
        if pos in done:
            continue
        terms = _terms_with_entries(conn, lemma, pos)
        if strict:
            terms = [t for t in terms if t[1] == t[1].lower()]
        if not terms:
            continue
        done.add(pos)
        terms = best_first(terms, lemma)
        resolution = Resolution(form=word, lemma=terms[0][1], via="suffix_rule", pos=pos, rule=rule)
        reached.append((tuple(t[0] for t in terms), resolution))


def _form_terms(
    conn: sqlite3.Connection, word: str, reached: list[_Reached]
) -> tuple[tuple[int, ...], tuple[Resolution, ...], tuple[tuple[int, str], ...]]:
    """Term ids (a lower-case one first), resolutions and entries (see Headwords.entries) of
    an inflected form from the lemmas it reached. A term keeps its entries of the parts of
    speech it was reached as. One that has none of them keeps all its entries (WordNet
    3.0's exception lists name a few verbs 3.1 lacks: 'chummed' -> 'chum'), unless it is a
    case variant of a term that has them: the table links 'was' to 'be' and to 'Be', the
    element, which is dropped."""
    wanted: dict[int, set[str | None]] = {}
    for ids, resolution in reached:
        for term_id in ids:
            wanted.setdefault(term_id, set()).add(resolution.pos)
    have: dict[int, list[str]] = {}
    for term_id, pos in conn.execute(
        f"SELECT DISTINCT term_id, pos FROM entries WHERE term_id IN {ID_LIST} "
        "ORDER BY term_id, pos",
        (id_list(wanted),),
    ):
        have.setdefault(term_id, []).append(pos)
    texts = dict(
        conn.execute(f"SELECT id, text FROM terms WHERE id IN {ID_LIST}", (id_list(have),))
    )
    matched = {
        term_id: [p for p in parts if p in wanted[term_id] or None in wanted[term_id]]
        for term_id, parts in have.items()
    }
    spelled = {texts[i].lower() for i, parts in matched.items() if parts}
    keep = {
        term_id: matched[term_id] or parts
        for term_id, parts in have.items()
        if matched[term_id] or texts[term_id].lower() not in spelled
    }
    ordered = best_first(sorted((i, texts[i]) for i in keep), word)
    resolutions = tuple(r for ids, r in reached if any(i in keep for i in ids))
    narrowed = any(len(keep[i]) < len(have[i]) for i in keep)
    entries = tuple((i, p) for i in sorted(keep) for p in keep[i]) if narrowed else ()
    return tuple(t[0] for t in ordered), resolutions, entries


def resolve_headwords(conn: sqlite3.Connection, word: str, language: str) -> Headwords:
    """Find the headword(s) for `word`: exact, else its lemma (irregular table, then rules)."""
    norm = normalize(word)
    exact = conn.execute(
        "SELECT t.id, t.text FROM terms t WHERE t.norm = ? "
        "AND EXISTS (SELECT 1 FROM entries e WHERE e.term_id = t.id) ORDER BY t.id",
        (norm,),
    ).fetchall()
    if exact:
        exact = best_first(exact, word)
        return Headwords(
            norm,
            tuple(row[0] for row in exact),
            (Resolution(form=word, lemma=exact[0][1], via="exact"),),
        )
    table = sources(conn)
    cited = Cited()
    reached: list[_Reached] = []
    rows = conn.execute(
        "SELECT lemma_term_id, pos, source_id FROM inflections WHERE form_norm = ? "
        "ORDER BY lemma_term_id, pos",
        (norm,),
    ).fetchall()
    for lemma_id, pos, source_id in rows:
        resolution = Resolution(
            form=word,
            lemma=_term_text(conn, lemma_id),
            via="inflection_table",
            pos=pos,
            source=cited.key(table, source_id),
        )
        reached.append(((lemma_id,), resolution))
    covered = {row[1] for row in rows}
    if language == "en" and None not in covered:
        # Suffix rules for the parts of speech the table did not cover ('leaves' is in it
        # as the noun 'leaf'; as a verb it is 'leave' by rule), to lower-case lemmas first.
        _apply_suffix_rules(conn, word, norm, covered, True, reached)
        if not reached:  # no lemma in lower case: 'americans' -> 'American'
            _apply_suffix_rules(conn, word, norm, covered, False, reached)
    if reached:
        term_ids, resolutions, entries = _form_terms(conn, word, reached)
        if term_ids:
            return Headwords(norm, term_ids, resolutions, _cited_by(resolutions, cited), entries)
    # No entry at all: a bare term may still carry translations or pronunciations.
    bare = best_first(
        conn.execute("SELECT id, text FROM terms WHERE norm = ? ORDER BY id", (norm,)).fetchall(),
        word,
    )
    if bare:
        return Headwords(
            norm,
            tuple(row[0] for row in bare),
            (Resolution(form=word, lemma=bare[0][1], via="exact"),),
        )
    return Headwords(norm, (), ())


# Which relations a database has edges of: all of them (`ALL_RELATIONS`), and those with
# sense-to-sense edges (`SENSE_RELATIONS`). Read once per connection, keyed by statement.
ALL_RELATIONS = "SELECT DISTINCT relation FROM relations"
SENSE_RELATIONS = "SELECT DISTINCT relation FROM relations WHERE src_sense_id IS NOT NULL"
_DISTINCT_RELATIONS = ConnectionMemo[str, frozenset[str]](2)


def relations_stored(conn: sqlite3.Connection, sql: str) -> frozenset[str]:
    """The relation names `sql` reads, kept per connection.

    `SENSE_RELATIONS` (one scan of the sense-edge index, ~8 ms, on first use) lets a tool
    skip a sense-edge statement for a relation the database has none of: WordNet stores
    hypernyms and most other relations only between synsets, and the starter has no
    sense-level synonym edges (each such statement is ~12 µs of index probes a call).
    `ALL_RELATIONS` is read only when a relations answer is empty, to tell "this word
    has none" from "these sources have none" (one index scan, some tens of ms)."""
    kept, _ = _DISTINCT_RELATIONS.split(conn, (sql,))
    if kept:
        return kept[sql]
    found = frozenset(row[0] for row in conn.execute(sql))
    _DISTINCT_RELATIONS.keep(conn, {sql: found})
    return found
