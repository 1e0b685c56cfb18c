"""Headword resolution: the terms a query word names, and how it reached them.

An exact spelling first; else, for an inflected form, the lemmas WordNet's exception
lists (the `inflections` table) and morphy's suffix rules reach. The rows come from
`corpus.rows.terms`, whose SQL fragments keep the order and the entries a resolution
chose in every statement that reads them.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from lexicon_server.corpus.morphy import suffix_candidates as _suffix_candidates
from lexicon_server.corpus.normalize import norm as _norm
from lexicon_server.corpus.rows import terms as term_rows
from lexicon_server.corpus.rows.facts import sources
from lexicon_server.models import Resolution
from lexicon_server.query.provenance import Cited, cited_by

__all__ = [
    "Headwords",
    "best_first",
    "normalize",
    "resolve_headwords",
]


def normalize(text: str) -> str:
    """The look-up key the builder stores in `terms.norm` (one definition for both sides)."""
    return _norm(text)


@dataclass(frozen=True)
class Headwords:
    """The terms a query resolved to, and how."""

    norm: str
    term_ids: tuple[int, ...]
    resolutions: tuple[Resolution, ...]
    # The sources the resolutions name, for the result's `sources` (merge into its Cited).
    sources: Mapping[str, str] = field(default_factory=dict)
    # For an inflected form, the (term id, part of speech) entries whose senses are its
    # own: 'ran' is the verb 'run', not the noun. Empty: every entry of `term_ids`.
    entries: tuple[tuple[int, str], ...] = ()

    @property
    def found(self) -> bool:
        return bool(self.term_ids)


def best_first(terms: list[tuple[int, str]], word: str) -> list[tuple[int, str]]:
    """`terms` (id, text), in id order, with the one that best matches how `word` is spelled
    moved to the front: the same spelling, else the term in lower case. So 'be' reads the
    verb before 'Be' (beryllium), 'Be' the element, and 'DAY' the common noun before 'Day'
    (a name); every tool lists the senses of that first term first (see `term_order`)."""
    if len(terms) < 2:
        return terms
    best = next((t for t in terms if t[1] == word), None)
    if best is None:
        best = next((t for t in terms if t[1] == t[1].lower()), None)
    if best is None or best is terms[0]:
        return terms
    return [best, *(t for t in terms if t is not best)]


# A lemma reached by an inflected form: the terms spelled so, and how it was reached.
_Reached = tuple[tuple[int, ...], Resolution]


def _apply_suffix_rules(
    conn: sqlite3.Connection,
    word: str,
    norm: str,
    covered: set[str | None],
    lower_only: bool,
    reached: list[_Reached],
) -> None:
    """Morphy's rules for each part of speech not in `covered`: the first rule whose lemma
    has an entry of that part of speech wins, as `wn.morphy(form, pos)` answers ('hates'
    is 'hate', not also 'hat' by '-es'). Lower-case lemmas are tried first: 'Was' at the
    start of a sentence is not 'WA' (Washington) by '-s'; other cases only when
    `lower_only` is False and no lower-case lemma was reached ('americans' -> 'American').
    Every guess is looked up in one statement (a look-up of a word that has its own entry
    asks this too)."""
    guesses = [g for g in _suffix_candidates(norm) if g[1] not in covered]
    if not guesses:
        return
    found: dict[tuple[str, str], list[tuple[int, str]]] = {}
    for term_id, text, lemma_norm, pos in term_rows.lemma_entries(conn, {g[0] for g in guesses}):
        found.setdefault((lemma_norm, pos), []).append((term_id, text))
    if not found:
        return
    for strict in (True, False):
        if not strict and (lower_only or reached):
            return
        done = set(covered)
        for lemma, pos, rule in guesses:
            if pos in done:
                continue
            terms = found.get((lemma, pos), [])
            if strict:
                terms = [t for t in terms if t[1] == t[1].lower()]
            if not terms:
                continue
            done.add(pos)
            terms = best_first(terms, lemma)
            resolution = Resolution(lemma=terms[0][1], via="suffix_rule", pos=pos, rule=rule)
            reached.append((tuple(t[0] for t in terms), resolution))


def _form_terms(
    conn: sqlite3.Connection,
    word: str,
    reached: list[_Reached],
    exact: Sequence[tuple[int, str]] = (),
) -> tuple[tuple[int, ...], tuple[Resolution, ...], tuple[tuple[int, str], ...]]:
    """Term ids (the form's own terms first, else a lower-case one), resolutions and
    entries (see Headwords.entries) of a form from the lemmas it reached. The form's own
    `exact` terms keep all their entries. A lemma term keeps its entries of the parts of
    speech it was reached as. One that has none of them keeps all its entries (WordNet
    3.0's exception lists name a few verbs 3.1 lacks: 'chummed' -> 'chum'), unless it is a
    case variant of a term that has them: the table links 'was' to 'be' and to 'Be', the
    element, which is dropped."""
    wanted: dict[int, set[str | None]] = {term_id: {None} for term_id, _text in exact}
    for ids, resolution in reached:
        for term_id in ids:
            wanted.setdefault(term_id, set()).add(resolution.pos)
    have: dict[int, list[str]] = {}
    for term_id, pos in term_rows.entry_parts(conn, wanted):
        have.setdefault(term_id, []).append(pos)
    texts = term_rows.term_texts(conn, have)
    matched = {
        term_id: [p for p in parts if p in wanted[term_id] or None in wanted[term_id]]
        for term_id, parts in have.items()
    }
    spelled = {texts[i].lower() for i, parts in matched.items() if parts}
    keep = {
        term_id: matched[term_id] or parts
        for term_id, parts in have.items()
        if matched[term_id] or texts[term_id].lower() not in spelled
    }
    own = {term_id for term_id, _text in exact}
    ordered = [*exact, *best_first(sorted((i, texts[i]) for i in keep if i not in own), word)]
    resolutions = tuple(r for ids, r in reached if any(i in keep for i in ids))
    if exact:
        resolutions = (Resolution(lemma=exact[0][1], via="exact"), *resolutions)
    # A form with its own entries always lists its entries, so that its senses are read
    # by part of speech first (see `term_order`).
    narrowed = bool(exact) or any(len(keep[i]) < len(have[i]) for i in keep)
    entries = tuple((i, p) for i in sorted(keep) for p in keep[i]) if narrowed else ()
    return tuple(t[0] for t in ordered), resolutions, entries


def resolve_headwords(conn: sqlite3.Connection, word: str, language: str) -> Headwords:
    """Find the headword(s) for `word`: its own entries, and the lemmas it is an inflected
    form of (irregular table, then morphy's rules), as NLTK's `wn.synsets()` reads a form:
    'running' is the noun and the verb 'run', 'saw' the noun, the verb and 'see'.
    `resolutions` says how each headword was reached: a sense of a headword `lemma` of
    part of speech `pos` comes from the resolution with that lemma (and that `pos`, or
    none: the form's own entries)."""
    norm = normalize(word)
    exact = best_first(term_rows.exact_terms(conn, norm), word)
    cited = Cited()
    reached: list[_Reached] = []
    rows = [
        # Lemma tables without a part of speech (simplemma) store '': any part of speech.
        # English has WordNet's own tables and morphy's rules, which name the part of
        # speech ('was' is the verb 'be', not the noun 'Be'), so there they are not read.
        (lemma_id, pos or None, source_id)
        for lemma_id, pos, source_id in term_rows.inflections(conn, norm)
        if pos or language != "en"
    ]
    if rows:
        table = sources(conn)
        for lemma_id, pos, source_id in rows:
            resolution = Resolution(
                lemma=term_rows.term_text(conn, lemma_id),
                via="inflection_table",
                pos=pos,
                source=cited.key(table, source_id),
            )
            reached.append(((lemma_id,), resolution))
    covered = {row[1] for row in rows}
    if language == "en" and None not in covered:
        # Suffix rules for the parts of speech the table did not cover ('leaves' is in it
        # as the noun 'leaf'; as a verb it is 'leave' by rule); a form with its own entries
        # takes lower-case lemmas only.
        _apply_suffix_rules(conn, word, norm, covered, bool(exact), reached)
    if exact:  # a table row may name the form itself ('after', 'red'): nothing to add
        own = {row[0] for row in exact}
        reached = [(ids, r) for ids, r in reached if not own.issuperset(ids)]
    if reached:
        term_ids, resolutions, entries = _form_terms(conn, word, reached, exact)
        if term_ids:
            return Headwords(norm, term_ids, resolutions, cited_by(resolutions, cited), entries)
    if exact:
        return Headwords(
            norm,
            tuple(row[0] for row in exact),
            (Resolution(lemma=exact[0][1], via="exact"),),
        )
    # No entry at all: a bare term may still carry translations or pronunciations.
    bare = best_first(term_rows.bare_terms(conn, norm), word)
    if bare:
        return Headwords(
            norm,
            tuple(row[0] for row in bare),
            (Resolution(lemma=bare[0][1], via="exact"),),
        )
    return Headwords(norm, (), ())
