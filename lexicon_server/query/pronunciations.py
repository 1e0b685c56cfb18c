"""The asked form's own pronunciations, when a look-up shows only its lemma's senses.

An inflected form resolves to its lemma (`houses` to `house`, `went` to `go`), and the
senses shown are the lemma's, each naming it in `word`; their pronunciations are the
lemma's. CMUdict and ISLEX also list most inflected forms on their own, so the form's own
pronunciations are shown on the result (`houses`: haʊzɪz, not house's haʊs), and the
lemma's stay with the lemma's senses, labelled by them.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

from lexicon_server.corpus.rows import terms as term_rows
from lexicon_server.corpus.rows.senses import pronunciations
from lexicon_server.query.headwords import best_first

if TYPE_CHECKING:
    from lexicon_server.query.headwords import Headwords

__all__ = ["own_pronunciations"]


def own_pronunciations(
    conn: sqlite3.Connection, word: str, heads: Headwords, keys: dict[int, str], budget: int
) -> list[dict[str, Any]]:
    """Up to `budget` pronunciations of the written form `word` itself, as look-up items,
    when none of its own terms is among the headwords it resolved to; else none (they
    stand with its own senses)."""
    if budget <= 0 or not heads.term_ids:
        return []
    own = [term_id for term_id, _ in best_first(term_rows.bare_terms(conn, heads.norm), word)]
    if not own or not set(own).isdisjoint(heads.term_ids):
        return []
    items: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    for _, notation, value, variant, source_id, _ in pronunciations(conn, own):
        if (notation, value) in seen:
            continue
        seen.add((notation, value))
        item: dict[str, Any] = {"notation": notation, "value": value}
        if variant:
            item["variant"] = variant
        item["source"] = keys[source_id]
        items.append(item)
        if len(items) == budget:
            break
    return items
