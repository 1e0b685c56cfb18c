"""Typed row readers over the component databases: the only runtime code that runs SQL.

One module per table family (terms and headwords, senses, translations, relations,
wordplay keys, vectors' vocabulary, facts and provenance). Each function takes the
connection `Corpus.db()` returned and gives rows; none knows which tool asks. Id lists
are bound one way: as one JSON array read by `facts.ID_LIST`.
"""

__all__: list[str] = []
