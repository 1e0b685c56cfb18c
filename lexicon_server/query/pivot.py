"""Translations between two non-English languages through English.

Every installed language's lexicon translates into English, and English translates into
every installed language, so a word of one reaches the other in two hops: the word's first
English translations (best first, as the builder ranked them), then each English word's
first translations into the target. A path's weight falls with the rank of both hops
(1/(i+1) · 1/(j+1)), which keeps a rare sense of a rare pivot at the bottom, and is
quartered when the second hop is tied to an English sense of another part of speech than
the first hop's source sense. A target reached through several English words scores the
sum of its paths, so pivots that agree lead (weighting agreement further, 1.5 x the sum,
measured no better on the gold-dev pairs). The answer labels these candidates `pivot` and
names the English words in between (`via`); they come after any direct candidates.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lexicon_server.corpus.rows.facts import sources
from lexicon_server.corpus.rows.senses import sense_rows
from lexicon_server.corpus.rows.translations import translation_order, translations_into
from lexicon_server.query.headwords import resolve_headwords
from lexicon_server.query.provenance import Cited

if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Sequence

    from lexicon_server.corpus.reader import Corpus
    from lexicon_server.corpus.rows.facts import SourceTable
    from lexicon_server.corpus.rows.senses import SenseRow

__all__ = ["PIVOT_LANGUAGE", "Pivoted", "first_targets", "pivot"]

PIVOT_LANGUAGE = "en"
# How many English words a word goes through, and how many of each one's translations
# count: enough for a second sense to be reached, few enough that a word's tenth gloss
# does not bring its own tenth translation.
_PIVOTS = 4
_PER_PIVOT = 5
# A second hop tied to an English sense of another part of speech than the first hop's.
_OTHER_POS = 0.25


@dataclass
class Pivoted:
    """One target word reached through a third language: its row (the second hop's), its
    score and the words that led to it, best path first, with each one's language."""

    row: tuple[Any, ...]
    score: float
    table: SourceTable  # the bridge lexicon's sources, which the row's source id names
    via: list[str] = field(default_factory=list)
    via_languages: list[str] = field(default_factory=list)
    via_sources: list[str] = field(default_factory=list)  # source keys of the first hops


def pivot(
    corpus: Corpus,
    conn: sqlite3.Connection,
    senses: Sequence[SenseRow],
    target_language: str,
    cited: Cited,
) -> list[Pivoted]:
    """The targets the terms reach through English, best first (an empty list when the
    target is English or English is not installed). The English words' own sources are
    cited here; each target's source is cited by whoever shows it."""
    term_ids = list(dict.fromkeys(s.term_id for s in senses))
    if target_language == PIVOT_LANGUAGE or not term_ids:
        return []
    if corpus.selection.availability(PIVOT_LANGUAGE, "lexical") is not None:
        return []
    english = first_targets(conn, term_ids, PIVOT_LANGUAGE, _PIVOTS)
    if not english:
        return []
    table = sources(conn)
    hop_keys = [cited.key(table, row[4]) for row in english]
    en = corpus.db(PIVOT_LANGUAGE, "lexical")
    en_table = sources(en)
    pos_of = {s.id: s.pos for s in senses}
    reached: dict[str, Pivoted] = {}
    for i, pivot_row in enumerate(english):
        heads = resolve_headwords(en, pivot_row[1], PIVOT_LANGUAGE)
        pos = pos_of.get(pivot_row[6])
        en_pos = {s.id: s.pos for s in sense_rows(en, heads.term_ids)} if pos else {}
        for j, row in enumerate(first_targets(en, heads.term_ids, target_language, _PER_PIVOT)):
            weight = 1.0 / (i + 1) / (j + 1)
            if pos and en_pos.get(row[6], pos) != pos:
                weight *= _OTHER_POS  # 'können' -> 'can' (verb) -> 'lattina' (a can)
            got = reached.get(row[2])
            if got is None:
                step = ([pivot_row[1]], [PIVOT_LANGUAGE], [hop_keys[i]])
                reached[row[2]] = Pivoted(row, weight, en_table, *step)
            else:
                got.score += weight
                if pivot_row[1] not in got.via:
                    got.via.append(pivot_row[1])
                    got.via_languages.append(PIVOT_LANGUAGE)
                    got.via_sources.append(hop_keys[i])
    # Agreeing paths add up; at an equal score the target more English words reach leads.
    return sorted(reached.values(), key=lambda p: (-p.score, -len(p.via)))


def first_targets(
    conn: sqlite3.Connection, term_ids: Sequence[int], language: str, count: int
) -> list[tuple[Any, ...]]:
    """The first `count` distinct targets of the terms in `language`, in the builder's
    order (the first term's rows first when the component is merged)."""
    if not term_ids:
        return []
    merged = translation_order(conn) == "merged"
    rows = translations_into(conn, term_ids, language, term_ids[0] if merged else None)
    seen: set[str] = set()
    first: list[tuple[Any, ...]] = []
    for row in rows:
        if row[2] not in seen:
            seen.add(row[2])
            first.append(row)
            if len(first) == count:
                break
    return first
