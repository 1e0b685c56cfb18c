"""map: each term and the other terms whose descriptions mention it (normalized containment)."""

from __future__ import annotations

import random
from pathlib import Path

from lexicon_server.glossary import Glossary, TermNotFound, normalize
from lexicon_server.glossary.fileformat import parse
from lexicon_server.glossary.index import _SCAN_LIMIT, Snapshot

from .conftest import call, jsonl


def test_map_all_terms(gpath: Path) -> None:
    items = {i.term: list(i.mentioned_in) for i in Glossary(gpath).map()}
    assert list(items) == ["Batch Release", "Target Stock", "Production Batch", "Batch Record"]
    assert items["Production Batch"] == ["Batch Release", "Batch Record"]
    assert items["Batch Record"] == ["Production Batch"]
    assert items["Target Stock"] == []


def test_map_one_term_and_self_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text(
        jsonl([("Lot", "A lot is a lot."), ("Batch", "Same as a LOT;"), ("Run", "no mention")]),
        encoding="utf-8",
    )
    (item,) = Glossary(path).map("  lot ")
    assert item.term == "Lot" and item.mentioned_in == ("Batch",)


def test_map_containment_is_normalized(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text(
        jsonl(
            [
                ("Größe Klasse", "x"),
                ("Teil", "Hat eine GROESSE, Klasse B."),
                ("Rest", "Größeklasse"),
            ]
        ),
        encoding="utf-8",
    )
    (item,) = Glossary(path).map("größe klasse")
    assert item.mentioned_in == ("Teil",)  # "groesse klasse" is in "hat eine groesse klasse b"


def test_map_unknown_term(gpath: Path) -> None:
    try:
        Glossary(gpath).map("Nope")
    except TermNotFound as exc:
        assert "Nope" in str(exc)
    else:
        raise AssertionError("expected TermNotFound")


def test_map_through_the_client(gpath: Path) -> None:
    is_error, body, _ = call(gpath, "glossary_map", {"term": "production batch"})
    assert not is_error
    assert body == {
        "terms": [{"term": "Production Batch", "mentionedIn": ["Batch Release", "Batch Record"]}]
    }
    is_error, body, _ = call(gpath, "glossary_map", {})
    assert [t["term"] for t in body["terms"]] == [
        "Batch Release",
        "Target Stock",
        "Production Batch",
        "Batch Record",
    ]
    assert all(set(t) == {"term", "mentionedIn"} for t in body["terms"])  # no descriptions
    is_error, body, _ = call(gpath, "glossary_map", {"term": "nope"})
    assert is_error and body == {"error": {"reason": "term_not_found", "message": "term not found"}}


def test_large_glossary_map_agrees_with_direct_containment() -> None:
    # Above the scan limit the numpy path runs; it must give exactly what the definition says.
    rng = random.Random(3)
    words = ["".join(rng.choices("abcdeäöüß", k=rng.randint(1, 6))) for _ in range(400)]
    by_norm = {normalize(w): w for w in words if normalize(w)}
    terms = list(by_norm.values())[: _SCAN_LIMIT + 50]
    lines = [
        (t, " ".join(rng.choices(words, k=rng.randint(1, 8))) + rng.choice(["", ".", ";"]))
        for t in terms
    ]
    snapshot = Snapshot(parse(jsonl(lines).encode(), Path("g.jsonl")))
    assert len(snapshot) > _SCAN_LIMIT
    full = {item.term: item.mentioned_in for item in snapshot.map() or []}
    for index, (term, _) in enumerate(lines):
        want = tuple(
            other
            for j, (other, _) in enumerate(lines)
            if j != index and snapshot.terms_norm[index] in snapshot.descriptions_norm[j]
        )
        assert full[term] == want, term
