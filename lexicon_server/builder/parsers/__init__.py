"""Streaming parsers, one module per upstream format (see docs/source-formats.md).

``wndb`` (WordNet database files), ``lmf`` (WN-LMF XML), ``cmudict``, ``wordfreq``
(cBpack lists), ``dictd`` (FreeDict), ``vectors`` (GloVe npy/parquet, word2vec text),
``kaikki`` (Wiktextract JSONL), ``conceptnet`` (assertions CSV), and the English-depth
sources prepared for issue 18 but not built yet: ``moby``, ``islex``, ``mythes``, ``gcide``,
``jargon`` (dictd texts), ``emoji`` (CLDR annotations, Emojibase), ``genz``. Each yields
the records of :mod:`lexicon_server.builder.records` one at a time and raises
:class:`~lexicon_server.builder.parsers._io.ParseError` on input of the wrong shape.
"""

from lexicon_server.builder.parsers._io import ParseError

__all__ = ["ParseError"]
