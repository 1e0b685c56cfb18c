"""find and map agree with their plain definitions on arbitrary small glossaries.

The index takes shortcuts (joined text, a word index, numpy hashing); these properties
pin them to a direct, obviously-correct reading of the rules.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from lexicon_server.glossary import normalize
from lexicon_server.glossary.fileformat import parse
from lexicon_server.glossary.index import Snapshot
from lexicon_server.glossary.mentions import all_mentions

from .conftest import jsonl

# A tiny alphabet makes overlaps, word boundaries and normalization collisions common.
TEXT = st.text(alphabet="ab äß,.;A\t", min_size=1, max_size=14)


def _glossary(pairs: list[tuple[str, str]]) -> Snapshot:
    seen: set[str] = set()
    kept = []
    for term, description in pairs:
        key = normalize(term)
        if key and key not in seen and description.strip():
            seen.add(key)
            kept.append((term, description))
    return Snapshot(parse(jsonl(kept).encode(), Path("g.jsonl")))


def _kind(needle: str, term: str, description: str) -> int:
    if term == needle:
        return 4
    if needle in term:
        return 3
    if description == needle:
        return 2
    return 1 if needle in description else 0


def _reference_find(snapshot: Snapshot, query: str) -> list[tuple[str, int]]:
    whole = normalize(query)
    words = list(dict.fromkeys(whole.split()))
    scored = []
    for index, entry in enumerate(snapshot.entries):
        term, description = normalize(entry.term), normalize(entry.description)
        matched = [k for k in (_kind(w, term, description) for w in words) if k]
        whole_kind = _kind(whole, term, description)
        if whole_kind or matched:
            scored.append((whole_kind * 1_000_000 + len(matched) * 1_000 + sum(matched), index))
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [(snapshot.entries[i].term, score) for score, i in scored]


pairs = st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=12)


@settings(max_examples=150, deadline=None)
@given(pairs, TEXT)
def test_find_matches_the_definition(items: list[tuple[str, str]], query: str) -> None:
    snapshot = _glossary(items)
    if not normalize(query):
        return
    got = [(hit.entry.term, hit.score) for hit in snapshot.find(query, 100)]
    assert got == _reference_find(snapshot, query)


@settings(max_examples=150, deadline=None)
@given(pairs)
def test_map_matches_the_definition(items: list[tuple[str, str]]) -> None:
    snapshot = _glossary(items)
    want = [
        tuple(
            j
            for j, other in enumerate(snapshot.entries)
            if j != i and normalize(entry.term) in normalize(other.description)
        )
        for i, entry in enumerate(snapshot.entries)
    ]
    assert [snapshot.mentioned_in(i) for i in range(len(snapshot))] == want
    text = "\n".join(snapshot.descriptions_norm)
    starts, offset = [], 0
    for part in snapshot.descriptions_norm:
        starts.append(offset)
        offset += len(part) + 1
    assert list(all_mentions(snapshot.terms_norm, text, starts)) == want
