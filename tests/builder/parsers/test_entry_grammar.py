"""The entry-grammar rules on committed slices of the real FreeDict files
(tests/fixtures/freedict-grammar/, see its README)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from lexicon_server.builder.parsers import dictd
from lexicon_server.builder.parsers.entry_grammar import (
    RULES,
    split_headword,
    strip_placeholders,
)
from lexicon_server.builder.records import BilingualEntry

SLICES = Path(__file__).resolve().parents[2] / "fixtures" / "freedict-grammar"


def entries(pair: str) -> list[BilingualEntry]:
    base = SLICES / f"freedict-{pair}"
    return list(dictd.iter_entries(f"{base}.index", f"{base}.dict.dz"))


def rows(pair: str) -> dict[str, list[tuple[str, str | None]]]:
    out: dict[str, list[tuple[str, str | None]]] = {}
    for e in entries(pair):
        out.setdefault(e.headword, []).extend(zip(e.translations, e.sense_notes, strict=True))
    return out


def counts(pair: str) -> Counter[str]:
    total: Counter[str] = Counter()
    for e in entries(pair):
        total.update(dict(e.cleaned))
    return total


def test_placeholders_leave_headwords_and_translations() -> None:
    de = rows("eng-deu")
    assert "announce sth." not in de and "announce sb./sth." not in de
    texts = [t for t, _ in de["announce"]]
    assert "ankündigen" in texts and "anmelden" in texts
    assert not any(t.startswith(("etw.", "jdn.", "jdm.")) for t in texts)
    # 'announce sb./sth.' names a person: the phrase stays as a note, as does 'jdn./etw.'
    anmelden = dict(de["announce"])["anmelden"]
    assert anmelden is not None and "announce sb./sth." in anmelden
    assert "jdn./etw. anmelden" in anmelden
    # a placeholder inside the phrase is its grammar and stays
    assert "allow sb. to go on believing that" in de
    back = rows("deu-eng")
    assert "etw. ankündigen" not in back
    assert "announce" in [t for t, _ in back["ankündigen"]]  # was 'to announce sth.'


def test_glued_abbreviation_moves_to_the_note() -> None:
    street = rows("eng-deu")["street"]
    assert ("Straße", "in der Stadt; abbr. Str.") in street
    assert not any(t.endswith("Str.") or not t for t, _ in street)


def test_empty_brackets_and_ellipses_dropped() -> None:
    de = rows("eng-deu")
    assert "Ablehnung" in [t for t, _ in de["repudiation"]]
    assert not any("( )" in t or "…" in t for r in de.values() for t, _ in r)
    assert all("…" not in h for h in de)


def test_comma_headwords_split() -> None:
    de = rows("eng-deu")
    assert "defamation, traducing" not in de
    assert [t for t, _ in de["defamation"]] == [t for t, _ in de["traducing"]]
    pl = rows("eng-pol")
    assert pl["aesthetic"] == pl["esthetic"] == [("estetyczny", None)]


def test_eng_pol_phrase_patterns_become_headwords() -> None:
    pl = rows("eng-pol")
    assert pl["with abandon"] == [("beztrosko", None)]
    assert pl["in accordance with"] == [("zgodnie z", None)]
    assert pl["with alacrity"] == [("skwapliwie", "form")]
    assert "sprzymierzać się z" in [t for t, _ in pl["ally oneself with"]]
    assert not any(":" in t for r in pl.values() for t, _ in r)  # no '(:with ADJ …)' left
    # 'I.' / 'II.' alone on a line and 'See also:' lines are structure, not translations
    assert [t for t, _ in pl["AA"]] == [
        "Anonimowi Alkoholicy",
        "Związek Automobilowy",
        "Automobilklub",
    ]


def test_dutch_ligature_normalised() -> None:
    nl = rows("eng-nld")
    assert "altijd" in [t for t, _ in nl["always"]]
    assert not any("ĳ" in t for r in nl.values() for t, _ in r)


def test_every_rule_counted_where_it_fired() -> None:
    assert counts("eng-deu") == Counter(
        {
            "headword_placeholder": 4,
            "translation_placeholder": 5,
            "abbreviation": 1,
            "empty_brackets": 2,
            "ellipsis": 2,
            "headword_split": 1,
        }
    )
    assert counts("eng-nld") == Counter({"ligature": 3})
    pol = counts("eng-pol")
    assert pol["phrase_pattern"] == 6 and pol["group_number"] == 2
    assert pol["cross_reference"] == 2 and pol["headword_split"] == 1
    assert set(pol) | set(counts("eng-deu")) | set(counts("deu-eng")) <= set(RULES)


@pytest.mark.parametrize(
    ("headword", "parts"),
    [
        ("aesthetic, esthetic", ["aesthetic", "esthetic"]),
        ("CEO, Chief executive officer", ["CEO", "Chief executive officer"]),
        ("Washington, D.C.", ["Washington, D.C."]),
        ("Tom, Dick and Harry", ["Tom, Dick and Harry"]),
        ("toi, toi, toi", ["toi, toi, toi"]),
        ("Ready, set, go!", ["Ready, set, go!"]),
        ("I came, I saw, I conquered", ["I came, I saw, I conquered"]),
    ],
)
def test_split_headword(headword: str, parts: list[str]) -> None:
    assert split_headword(headword) == parts


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("announce sth.", "en", ("announce", False)),
        ("give sb. sth.", "en", ("give", True)),
        ("take sth. into account", "en", ("take sth. into account", False)),
        ("keep abreast (of sth)", "en", ("keep abreast (of sth)", False)),
        ("jdm. helfen", "de", ("helfen", True)),
        ("sth.", "en", ("sth.", False)),
        ("so what", "en", ("so what", False)),
        ("etw. ankündigen", "fr", ("etw. ankündigen", False)),
    ],
)
def test_strip_placeholders(text: str, language: str, expected: tuple[str, bool]) -> None:
    assert strip_placeholders(text, language) == expected
