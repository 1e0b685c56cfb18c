"""Which rhyme and wordplay results are dictionary words (`words.is_word`)."""

from __future__ import annotations

from lexicon_server.corpus.reader import Corpus


def dictionary_first(corpus: Corpus, words: list[str]) -> dict[str, int]:
    """`words.is_word` of each word (1: a dictionary word, ranked before names and rare
    spellings since issue 29; 1 for all on a database without the column)."""
    conn = corpus.db("en", "wordplay")
    columns = {row[1] for row in conn.execute("PRAGMA table_info(words)")}
    if "is_word" not in columns:
        return dict.fromkeys(words, 1)
    marks = "(" + ",".join("?" * len(words)) + ")"
    rows = conn.execute(f"SELECT text, is_word FROM words WHERE text IN {marks}", words)
    return dict(rows.fetchall())
