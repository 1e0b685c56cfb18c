"""GCIDE's entities and wrapped headers on a committed slice of the real file
(tests/fixtures/gcide-markup/, see its README)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from lexicon_server.builder.parsers import gcide
from lexicon_server.builder.parsers.gcide_entities import decode_entity
from lexicon_server.builder.records import DefinitionEntry

SLICE = Path(__file__).resolve().parents[2] / "fixtures" / "gcide-markup" / "gcide"


@pytest.fixture(scope="module")
def entries() -> list[DefinitionEntry]:
    return list(gcide.iter_entries(f"{SLICE}.index", f"{SLICE}.dict.dz"))


def by_pos(entries: list[DefinitionEntry], headword: str) -> dict[str | None, DefinitionEntry]:
    return {e.pos: e for e in entries if e.headword == headword}


def test_the_article_reads_whole(entries: list[DefinitionEntry]) -> None:
    the = by_pos(entries, "The")
    article = the["definite article."]  # was '(te, when emphatic or alone'
    assert article.pronunciation is not None
    assert article.pronunciation.startswith("thē, when emphatic or alone")
    assert article.etymology is not None and article.etymology.startswith("AS. ðē, a later form")
    assert article.senses[0].definition.startswith("A word placed before nouns")
    adverb = the["adv."]
    assert adverb.etymology is not None and adverb.etymology.startswith(
        "AS. ðē, ðȳ,"
    )  # was 'ee, ey'


def test_headers_end_where_they_should(entries: list[DefinitionEntry]) -> None:
    found = {e.headword: e for e in entries}
    assert found["Diarrhea"].pos == "n." and found["Diarrhea"].pronunciation == 'dī`ar*rē"ȧ'
    assert found["Cephalosome"].pos == "n."  # its pronunciation is never closed upstream
    assert found["Cephalosome"].senses[0].definition.startswith("The anterior region")
    # a wrapped pronunciation with no part of speech after it: the definition stays one
    assert found["CO2 extinguisher"].senses[0].definition.startswith("a device for")
    # an etymology's '(' does not swallow the senses
    assert len(found["Tactics"].senses) == 2


def test_rules_counted(entries: list[DefinitionEntry]) -> None:
    total: Counter[str] = Counter()
    for e in entries:
        total.update(dict(e.cleaned))
    assert total["pronunciation_wrap"] == 1  # The (CO2 extinguisher's ends as before)
    assert total["pos_pronunciation"] == 1  # Cephalosome
    assert total["entity"] == sum(1 for e in entries if e.cleaned and dict(e.cleaned).get("entity"))
    assert total["entity"] >= 6 and total["entity_unknown"] == 0


@pytest.mark.parametrize(
    ("code", "text"),
    [
        ("eth", "ð"), ("thorn", "þ"), ("=e", "ē"), ("e^", "ĕ"), ("^u", "û"), ("'e", "é"),
        ('"o', "ö"), ("~n", "ñ"), (",c", "ç"), ("*a", "å"), (".r", "ṛ"), (".a", "ȧ"),
        ("imac", "ī"), ("aum", "ä"), ("yogh", "ȝ"), ("alpha", "α"), ("sigma", "σ"),
        ("Omega", "Ω"), ("deg", "°"), ("Obs.", None), ("R.", None), ("2", None),
    ],
)  # fmt: skip
def test_decode_entity(code: str, text: str | None) -> None:
    assert decode_entity(code) == text
