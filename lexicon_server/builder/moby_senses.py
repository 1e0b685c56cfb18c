"""Moby Thesaurus into the English lexical component: ranked unsensed edges and the terms
that can be tied to one WordNet sense of their root (docs/thesauri.md).

Moby lists a root's terms for all its meanings in one alphabetical list. Each term becomes
an unsensed `synonym` edge of the root, weighted so that closer synonyms come first: the
cosine of the root's and the term's own Moby lists (0 when the term is no root) plus,
when the build has word vectors (GloVe in the starter), the cosine of the two words'
vectors, -1 for a term without a vector (mostly phrases, which so come last), plus
`NEAR_BONUS` when WordNet places the term next to any sense of the root (as below, of
one sense or several): two independent sources agreeing. A term
is also tied to a sense of the root when WordNet places it next to exactly one of the
root's senses: one of the term's synsets is that sense's synset or is linked to it as
`similar`, `also`, `verb_group`, `hypernym` or `hyponym`, and at least `MIN_SENSE_HITS`
of the root's terms are tied to that sense alone (the list overlaps it clearly). Terms
that are members of the sense's own synset count as evidence but are not stored again:
the synonyms answer shows them as synset members already.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from lexicon_server.builder.records import SynsetRecord, ThesaurusEntry
from lexicon_server.corpus.normalize import norm

__all__ = [
    "MIN_SENSE_HITS",
    "NEAR_BONUS",
    "NEIGHBOUR_RELATIONS",
    "Attachment",
    "MobyEdges",
    "Similarity",
    "WordnetView",
    "vector_similarity",
]

# (root norm, term norms) -> one cosine per term, None where either word has no vector
Similarity = Callable[[str, list[str]], list[float | None]]

# Synset pointers that count as "next to" a sense: near-synonyms and the one-step
# generalisations and specialisations a thesaurus also lists.
NEIGHBOUR_RELATIONS = frozenset({"similar", "also", "verb_group", "hypernym", "hyponym"})
MIN_SENSE_HITS = 2
# Chosen on the dev split of bench/devsets/synonyms/ (docs/benchmarks/synonyms.md): 0.2
# ranked graded partners best, 0.5 exact ones; a round value between.
NEAR_BONUS = 0.3


@dataclass
class WordnetView:
    """What the attachment needs of WordNet, collected while the synsets stream past."""

    # lemma norm -> (synset, sense id) of each of its senses
    senses: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    synsets_of: dict[str, list[str]] = field(default_factory=dict)  # norm -> synsets
    links: dict[str, list[str]] = field(default_factory=dict)  # synset -> linked synsets

    def add(self, record: SynsetRecord, sense_ids: Iterable[int]) -> None:
        for member, sense_id in zip(record.members, sense_ids, strict=True):
            key = norm(member.lemma.replace("_", " "))
            self.senses.setdefault(key, []).append((record.external_id, sense_id))
            self.synsets_of.setdefault(key, []).append(record.external_id)
        linked = [
            p.target_synset
            for p in record.pointers
            if p.relation in NEIGHBOUR_RELATIONS and p.source_member == 0
        ]
        if linked:
            self.links[record.external_id] = linked


@dataclass(frozen=True, slots=True)
class Attachment:
    root: str  # the root as Moby writes it
    sense_id: int  # the root's WordNet sense the term is tied to
    term: str  # as Moby writes it


class MobyEdges:
    """All of Moby in memory (about 30k roots, 2.5M terms), keyed by norm."""

    def __init__(self, entries: Iterable[ThesaurusEntry], similarity: Similarity | None) -> None:
        roots: list[tuple[str, str, tuple[str, ...]]] = []  # root, its norm, terms
        lists: dict[str, set[str]] = {}
        # 2.5M terms but about 100k distinct ones: each is normalised once
        keys: dict[str, str] = {}
        for entry in entries:
            key = norm(entry.headword)
            for t in entry.terms:
                if t not in keys:
                    keys[t] = norm(t)
            terms = tuple(dict.fromkeys(t for t in entry.terms if keys[t] != key))
            roots.append((entry.headword, key, terms))
            lists.setdefault(key, set()).update(keys[t] for t in terms)
        overlap = _ListOverlap(lists)
        del lists
        self._keys = keys
        # root, its norm, its terms best first with their weights
        self.roots = [
            (root, key, _ranked(key, terms, [keys[t] for t in terms], overlap, similarity))
            for root, key, terms in roots
        ]

    def boosted(self, wordnet: WordnetView) -> Iterator[tuple[str, list[tuple[str, float]]]]:
        """Each root and its terms best first, with `NEAR_BONUS` added to the terms WordNet
        places next to a sense of the root. `roots` keeps the order without it, which
        `attachments` follows, so the ties are drawn in the same order as before."""
        for root, key, scored in self.roots:
            near = _near(wordnet, key)
            if not near:
                yield root, scored
                continue
            synsets, near_synsets = wordnet.synsets_of, near.keys()
            boosted = [
                (term, round(score + NEAR_BONUS, 4))
                if not near_synsets.isdisjoint(synsets.get(self._keys[term], ()))
                else (term, score)
                for term, score in scored
            ]
            boosted.sort(key=lambda pair: -pair[1])  # stable, as in _ranked
            yield root, boosted

    def attachments(self, wordnet: WordnetView) -> Iterator[Attachment]:
        """The terms tied to one sense of their root (module docstring), in root order and
        each root's terms best first."""
        for root, key, scored in self.roots:
            terms = [term for term, _ in scored]
            senses = wordnet.senses.get(key)
            if not senses:
                continue
            near = _near(wordnet, key)
            own = {sense_id: synset for synset, sense_id in senses}
            hits: dict[int, list[tuple[str, bool]]] = {}
            near_synsets = near.keys()
            for term in terms:
                theirs = wordnet.synsets_of.get(self._keys[term], ())
                if near_synsets.isdisjoint(theirs):
                    continue  # most terms: next to no sense of the root
                found: set[int] = set()
                for synset in theirs:
                    found.update(near.get(synset, ()))
                if len(found) == 1:
                    sense_id = found.pop()
                    hits.setdefault(sense_id, []).append((term, own[sense_id] in theirs))
            for sense_id, tied in hits.items():
                if len(tied) >= MIN_SENSE_HITS:
                    for term, member in tied:
                        if not member:
                            yield Attachment(root, sense_id, term)


def _near(wordnet: WordnetView, key: str) -> dict[str, set[int]]:
    """Each synset next to a sense of the root `key` (its own or one linked to it) -> those
    senses."""
    near: dict[str, set[int]] = {}
    for synset, sense_id in wordnet.senses.get(key, ()):
        for other in (synset, *wordnet.links.get(synset, ())):
            near.setdefault(other, set()).add(sense_id)
    return near


class _ListOverlap:
    """The cosine of two Moby lists as sets, |A & B| / sqrt(|A| |B|), for one root against
    each of its terms at once: a mask of the root's list gathered at the terms' lists
    (2.5M pairs; set intersections one by one took most of Moby's ranking time)."""

    def __init__(self, lists: dict[str, set[str]]) -> None:
        import numpy as np

        ids: dict[str, int] = {}
        self._members = {
            key: np.fromiter((ids.setdefault(t, len(ids)) for t in terms), np.int32, len(terms))
            for key, terms in lists.items()
            if terms
        }
        self._mask = np.zeros(len(ids), dtype=np.uint8)

    def cosines(self, key: str, keys: list[str]) -> list[float]:
        """The cosine of `key`'s list with each of `keys`' lists (0.0 for a term that is no
        root), in floating point exactly as the one-pair formula computes it."""
        import numpy as np

        lists = [self._members.get(k) for k in keys]
        theirs = [m for m in lists if m is not None]
        if not theirs:
            return [0.0] * len(keys)
        mine = self._members[key]
        lengths = np.fromiter((len(m) for m in theirs), np.int64, len(theirs))
        starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        self._mask[mine] = 1
        shared = np.add.reduceat(self._mask[np.concatenate(theirs)], starts, dtype=np.int64)
        self._mask[mine] = 0
        found = iter((shared / np.sqrt(len(mine) * lengths)).tolist())
        return [0.0 if m is None else next(found) for m in lists]


def _ranked(
    key: str,
    terms: tuple[str, ...],
    keys: list[str],
    overlap: _ListOverlap,
    similarity: Similarity | None,
) -> list[tuple[str, float]]:
    lists = overlap.cosines(key, keys)
    vectors = similarity(key, keys) if similarity is not None else None
    scored: list[tuple[str, float]] = []
    for i, term in enumerate(terms):
        score = lists[i]
        if vectors is not None:
            cosine = vectors[i]
            score += -1.0 if cosine is None else cosine
        scored.append((term, round(score, 4)))
    scored.sort(key=lambda pair: -pair[1])  # stable: ties keep Moby's order
    return scored


def vector_similarity(words: list[str], matrix: object) -> Similarity:
    """Cosines between unit-normalised rows of `matrix` (GloVe), looked up by norm."""
    import numpy as np

    unit = np.asarray(matrix, dtype=np.float32)
    unit = unit / (np.linalg.norm(unit, axis=1, keepdims=True) + 1e-9)
    index: dict[str, int] = {}
    for i, word in enumerate(words):
        index.setdefault(norm(word), i)

    def similarity(root: str, terms: list[str]) -> list[float | None]:
        row = index.get(root)
        if row is None:
            return [None] * len(terms)
        rows = [index.get(t) for t in terms]
        known = [r for r in rows if r is not None]
        cosines = iter((unit[known] @ unit[row]).tolist()) if known else iter(())
        return [None if r is None else next(cosines) for r in rows]

    return similarity
