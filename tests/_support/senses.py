"""Find one of `bank`'s English noun senses by how its gloss starts (the sense tests'
money bank and river bank)."""

from __future__ import annotations

from lexicon_server.corpus.reader import Corpus

__all__ = ["bank_sense"]


def bank_sense(corpus: Corpus, gloss_start: str) -> int:
    """The id of the one English noun sense of `bank` whose gloss starts `gloss_start`."""
    ((sense_id,),) = (
        corpus.db("en", "lexical")
        .execute(
            "SELECT s.id FROM senses s JOIN entries e ON e.id = s.entry_id "
            "JOIN terms t ON t.id = e.term_id WHERE t.norm = 'bank' AND e.pos = 'noun' "
            "AND s.gloss LIKE ?",
            (gloss_start + "%",),
        )
        .fetchall()
    )
    return int(sense_id)
