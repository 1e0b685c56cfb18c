"""The sense readers follow the builder's mark: by use across parts of speech when the
component says `sense_order` = `use`, by entry then rank in an older one."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from lexicon_server.corpus.reader import Corpus
from lexicon_server.corpus.rows.senses import sense_rows, senses_of_norms
from lexicon_server.query.headwords import resolve_headwords

# dog's verb sense is the more used one: rank 0, its noun sense rank 1 (term-wide ranks).
_VERB_FIRST = (
    "UPDATE senses SET rank = CASE (SELECT pos FROM entries e WHERE e.id = senses.entry_id) "
    "WHEN 'verb' THEN 0 ELSE 1 END WHERE entry_id IN (SELECT e.id FROM entries e "
    "JOIN terms t ON t.id = e.term_id WHERE t.norm = 'dog')"
)


def _dog_pos(corpus: Corpus) -> tuple[list[str], list[str]]:
    conn = corpus.db("en", "lexical")
    heads = resolve_headwords(conn, "dog", "en")
    by_terms = [s.pos for s in sense_rows(conn, heads.term_ids)]
    return by_terms, [s.pos for s in senses_of_norms(conn, ["dog"])]


def test_a_marked_component_is_read_by_use(
    mini_variant: Callable[[str, str, str], Corpus], tmp_path: Path
) -> None:
    corpus = mini_variant("by_use", "en/lexical.sqlite", _VERB_FIRST)
    assert _dog_pos(corpus) == (["noun", "verb"], ["noun", "verb"])  # no mark: by entry
    marked = mini_variant("marked", "en/lexical.sqlite", _VERB_FIRST)
    with sqlite3.connect(tmp_path / "marked" / "en" / "lexical.sqlite") as conn:
        conn.execute("INSERT OR REPLACE INTO meta VALUES ('sense_order', 'use')")
    assert _dog_pos(marked) == (["verb", "noun"], ["verb", "noun"])
