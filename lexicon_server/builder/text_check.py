"""A checker for markup left in built text: every translation and every GCIDE sense.

`lexicon-build check-text BUILT_DIR` runs it over a built corpus directory and prints, per
kind, how many rows hold it and a few examples; it exits 1 when any row does. The kinds
(docs/source-formats.md "Checking the built text"):

- `placeholder`: a valency placeholder at the start or end of a headword or translation
  (`announce sth.`, `etw. ankündigen`, `sb./sth.`); inside a phrase it is grammar and fine;
- `glued_abbreviation`: a word followed by its own abbreviation (`Straße Str.`);
- `empty_brackets`: `( )`, `[]`, `{ }`;
- `ellipsis`: `…` or `...` at the start or end;
- `ligature`: `ĳ`, `ﬁ` and the other compatibility ligatures;
- `gap_marker`: MultiWordNet's `GAP!` / `PSEUDOGAP!`;
- `pattern_markup`: eng-pol's phrase patterns (`(:with ADJ :abandon)`);
- `unbalanced_brackets`: `(`, `[`, `{` not closed in order;
- GCIDE only: `gcide_entity` (a bracketed character code such as `[=e]`, `[eth]` left
  undecoded) and `gcide_markup` (a `\\spelled\\` backslash or a `{cross-reference}` brace).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lexicon_server.builder.parsers.entry_grammar import strip_placeholders
from lexicon_server.builder.parsers.gcide_entities import decode_entity

__all__ = ["KINDS", "TextReport", "check_built", "leftovers"]

KINDS = (
    "placeholder",
    "glued_abbreviation",
    "empty_brackets",
    "ellipsis",
    "ligature",
    "gap_marker",
    "pattern_markup",
    "unbalanced_brackets",
    "gcide_entity",
    "gcide_markup",
)

_EMPTY = re.compile(r"\(\s*\)|\[\s*\]|\{\s*\}")
_ELLIPSIS = re.compile(r"^\s*(?:…|\.\.\.)|(?:…|\.\.\.)\s*$")
_LIGATURES = frozenset("ĳĲﬀﬁﬂﬃﬄﬆ")
_GAP = re.compile(r"\b(?:PSEUDO)?GAP!")
_PATTERN = re.compile(r"\((?:[^()]*\s)?:[A-Za-z%]")
_PAIRS = {")": "(", "]": "[", "}": "{"}
_TWO_WORDS = re.compile(r"^(?P<word>\w{3,})\s+(?P<abbr>\w{1,6}\.?)$")
_ENTITY = re.compile(r"\[(?P<code>[^\[\]\s]{1,7})\]")


def _balanced(text: str) -> bool:
    stack: list[str] = []
    for char in text:
        if char in "([{":
            stack.append(char)
        elif char in _PAIRS and (not stack or stack.pop() != _PAIRS[char]):
            return False
    return not stack


def _glued(text: str) -> bool:
    """'Straße Str.', 'Wohnung Whg.', 'Seite S.': a word and its own abbreviation."""
    found = _TWO_WORDS.match(text)
    if found is None:
        return False
    word, abbr = found["word"].casefold(), found["abbr"]
    letters = abbr.rstrip(".").casefold()
    if not (abbr.endswith(".") or abbr.isupper()) or len(letters) >= len(word):
        return False
    if letters[:1] != word[:1]:
        return False
    rest = iter(word)
    return all(c in rest for c in letters)  # a subsequence of the word


def leftovers(
    text: str, language: str, *, gcide: bool = False, headword: bool = False
) -> list[str]:
    """The kinds of leftover markup in one text (empty when it is clean). A headword is
    not checked for a glued abbreviation (`Ivan IV`, `Magnetisierung M` are names)."""
    found = []
    if strip_placeholders(text, language)[0] != text:
        found.append("placeholder")
    elif not headword and _glued(text):
        found.append("glued_abbreviation")
    if _EMPTY.search(text):
        found.append("empty_brackets")
    if not gcide and _ELLIPSIS.search(text):
        found.append("ellipsis")
    if _LIGATURES.intersection(text):
        found.append("ligature")
    if "GAP!" in text and _GAP.search(text):
        found.append("gap_marker")
    if ":" in text and _PATTERN.search(text):
        found.append("pattern_markup")
    if not _balanced(text):
        found.append("unbalanced_brackets")
    if gcide:
        for match in _ENTITY.finditer(text):
            if decode_entity(match["code"]) is not None:
                found.append("gcide_entity")
                break
        if "\\" in text or "{" in text or "}" in text:
            found.append("gcide_markup")
    return found


@dataclass
class TextReport:
    """Rows checked and, per kind, rows found with it and a few of them."""

    checked: dict[str, int] = field(default_factory=dict)  # what -> rows read
    found: dict[str, int] = field(default_factory=dict)  # kind -> rows
    examples: dict[str, list[str]] = field(default_factory=dict)

    def add(self, kinds: Iterable[str], where: str, keep: int = 5) -> None:
        for kind in kinds:
            self.found[kind] = self.found.get(kind, 0) + 1
            shown = self.examples.setdefault(kind, [])
            if len(shown) < keep:
                shown.append(where)

    @property
    def total(self) -> int:
        return sum(self.found.values())


def _rows(db: Path, sql: str) -> Iterator[tuple[Any, ...]]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        yield from conn.execute(sql)
    finally:
        conn.close()


def check_built(built: Path) -> TextReport:
    """Check every translation of every `<lang>/lexical.sqlite` (its text and its
    headword) and every sense, part of speech and etymology of `en/gcide.sqlite`."""
    report = TextReport()
    for db in sorted(built.glob("*/lexical.sqlite")):
        language = db.parent.name
        seen: dict[int, list[str]] = {}  # a headword is checked once
        count = 0
        for term_id, term, target, text in _rows(
            db,
            "SELECT t.term_id, terms.text, t.target_language, t.target_text"
            " FROM translations t JOIN terms ON terms.id = t.term_id",
        ):
            count += 1
            found = leftovers(text, target)
            if term_id not in seen:
                seen[term_id] = leftovers(term, language, headword=True)
                report.add((f"headword {k}" for k in seen[term_id]), f"{language}: {term!r}")
            report.add(found, f"{language} {term!r} -> {target} {text!r}")
        report.checked[f"{language} translations"] = count
    gcide = built / "en" / "gcide.sqlite"
    if gcide.exists():
        count = 0
        for term, pos, etymology, gloss in _rows(
            gcide,
            "SELECT terms.text, e.pos, e.etymology, s.gloss FROM senses s"
            " JOIN entries e ON e.id = s.entry_id JOIN terms ON terms.id = e.term_id",
        ):
            count += 1
            kinds = set(leftovers(gloss, "en", gcide=True))
            kinds.update(leftovers(pos, "en", gcide=True))
            if etymology:
                kinds.update(leftovers(etymology, "en", gcide=True))
            report.add(sorted(kinds), f"gcide {term!r} ({pos}): {gloss[:80]!r}")
        report.checked["gcide senses"] = count
    return report
