"""The asked form's own pronunciations, when a look-up's first sense is another word's.

An inflected form resolves to its lemma (`houses` to `house`, `went` to `go`), and a form
with senses of its own may still list its lemma's first (`said`: the verb `say`, then the
adjective `said`). Those senses name their headword in `word` and carry its
pronunciations. CMUdict and ISLEX list most inflected forms on their own, so the form's
own pronunciations are shown on the result, before any sense (`houses`: haʊsɪz, not only
house's haʊs), and not again under the form's own senses.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

from lexicon_server.corpus.rows import terms as term_rows
from lexicon_server.corpus.rows.senses import pronunciations
from lexicon_server.query.headwords import best_first

if TYPE_CHECKING:
    from lexicon_server.corpus.rows.documents import Rows

__all__ = ["own_pronunciations"]


def own_pronunciations(
    conn: sqlite3.Connection,
    word: str,
    norm: str,
    rows: Rows,
    keys: dict[int, str],
    budget: int,
) -> list[dict[str, Any]]:
    """Up to `budget` pronunciations of the written form `word` (look-up key `norm`) as
    look-up items, when the first returned sense belongs to another headword; they are
    then taken out of `rows.pronunciations`. Else none: the form's sounds stand with its
    own first sense (a form with no sense returned keeps its sounds there too)."""
    if budget <= 0 or not rows.chosen or rows.chosen[0][8] == word:
        return []  # the usual case, decided without a query
    own = best_first(term_rows.bare_terms(conn, norm), word)
    texts = {text for _, text in own}
    if not own or rows.chosen[0][8] in texts:
        return []
    rows.pronunciations = [row for row in rows.pronunciations if row[5] not in texts]
    items: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    for _, notation, value, variant, source_id, _ in pronunciations(conn, [i for i, _ in own]):
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
