"""Slang: explain phrases in a text and rewrite between slang and plain language.

A library first (nothing here starts a server or opens a connection on import):

    from lexicon_server.slang import interpret, lookup, rewrite

Meanings come from the installed corpus and the project glossary; the online Urban
Dictionary provider is consulted only when a caller switches it on.
"""

from __future__ import annotations

from lexicon_server.slang.corpus_source import LexicalCorpus, open_corpus
from lexicon_server.slang.definitions import SLANG_TAGS, Definition
from lexicon_server.slang.errors import (
    MeaningSourceError,
    ProviderError,
    SlangError,
    SlangInputError,
)
from lexicon_server.slang.glossary_source import ProjectGlossary
from lexicon_server.slang.interpret import InterpretEntry, InterpretResult, interpret
from lexicon_server.slang.lookup import LookupResult, lookup
from lexicon_server.slang.online import UrbanDictionary
from lexicon_server.slang.phrases import MAX_PHRASE_UNITS, MAX_PHRASES, MAX_TEXT_UNITS, Span
from lexicon_server.slang.rewrite import GlossaryPair, Replacement, RewriteResult, rewrite
from lexicon_server.slang.sources import MeaningSources

__all__ = [
    "MAX_PHRASES",
    "MAX_PHRASE_UNITS",
    "MAX_TEXT_UNITS",
    "SLANG_TAGS",
    "Definition",
    "GlossaryPair",
    "InterpretEntry",
    "InterpretResult",
    "LexicalCorpus",
    "LookupResult",
    "MeaningSourceError",
    "MeaningSources",
    "ProjectGlossary",
    "ProviderError",
    "Replacement",
    "RewriteResult",
    "SlangError",
    "SlangInputError",
    "Span",
    "UrbanDictionary",
    "interpret",
    "lookup",
    "open_corpus",
    "rewrite",
]
