"""simplemma's form -> lemma tables into a language's lexical component (`inflections`).

Only pairs whose lemma is already a term of the component are staged (the writer keeps
only those whose lemma has an entry), and a form that is its own lemma is skipped, so
the German table's 1.1 million pairs shrink to the ones a look-up can use. Rows carry no
part of speech (the tables give none); a look-up reached through one keeps every entry of
the lemma and names `simplemma` in its resolution.
"""

from __future__ import annotations

from collections.abc import Iterator

from lexicon_server.builder.inputs import Inputs
from lexicon_server.builder.lexical_writer import LexicalWriter
from lexicon_server.builder.records import InflectionRow
from lexicon_server.corpus.normalize import norm

__all__ = ["SOURCE", "add_lemma_table", "has_table"]

SOURCE = "simplemma"


def has_table(inputs: Inputs, language: str) -> bool:
    src = inputs.get(SOURCE)
    return src is not None and src.has(language)


def add_lemma_table(w: LexicalWriter, inputs: Inputs, language: str) -> int:
    """Stage the usable pairs of `language`'s table; returns how many were staged."""
    from lexicon_server.builder.parsers.simplemma import iter_lemma_pairs

    if not has_table(inputs, language):
        return 0
    known = w.term_norms()
    staged = 0

    def usable() -> Iterator[InflectionRow]:
        nonlocal staged
        # Millions of pairs, few staged: rows are made only for those, and a lemma
        # repeated from the pair before (the same string object) keeps its norm.
        last, lemma = None, ""
        for form, text in iter_lemma_pairs(inputs.require(SOURCE).file(language)):
            if text is not last:
                last, lemma = text, norm(text)
            if lemma in known and norm(form) != lemma:
                staged += 1
                yield InflectionRow(form, text, "")

    w.inflections(usable(), SOURCE)
    return staged
