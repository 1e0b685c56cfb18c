"""Properties of the English-depth parsers: what is written in the published shape parses back."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from lexicon_server.builder.parsers import moby, mythes
from lexicon_server.corpus.ipa import ARPABET_TO_IPA, arpabet_to_ipa

_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz -'", min_size=1, max_size=12).filter(
    lambda w: w.strip() == w and w
)
_VOWELS = sorted(p for p in ARPABET_TO_IPA if p[0] in "AEIOU")
_CONSONANTS = sorted(p for p in ARPABET_TO_IPA if p[0] not in "AEIOU")
_PHONE = st.one_of(
    st.sampled_from(_CONSONANTS),
    st.builds(lambda v, d: v + d, st.sampled_from(_VOWELS), st.sampled_from("012")),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(_WORD, st.lists(_WORD, min_size=1, max_size=6)), min_size=1, max_size=8))
def test_moby_lines_parse_back(rows: list[tuple[str, list[str]]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "words.txt"
        path.write_bytes(b"".join(",".join([r, *ts]).encode() + b"\r\n" for r, ts in rows))
        parsed = [(e.headword, list(e.terms)) for e in moby.iter_entries(path)]
    assert parsed == rows


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(_WORD, st.lists(st.lists(_WORD, min_size=1, max_size=4), min_size=1, max_size=3)),
        min_size=1,
        max_size=6,
    )
)
def test_mythes_blocks_parse_back(blocks: list[tuple[str, list[list[str]]]]) -> None:
    lines = ["UTF-8"]
    for word, meanings in blocks:
        lines.append(f"{word}|{len(meanings)}")
        lines.extend("(noun)|" + "|".join(terms) for terms in meanings)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "th_xx.dat"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        parsed = [(e.headword, list(e.terms)) for e in mythes.iter_entries(path)]
    assert parsed == [(w, t) for w, meanings in blocks for t in meanings]


@settings(max_examples=200, deadline=None)
@given(st.lists(_PHONE, min_size=1, max_size=10))
def test_one_stress_mark_per_stressed_vowel(phones: list[str]) -> None:
    ipa = arpabet_to_ipa(phones)
    assert ipa.count("ˈ") == sum(p.endswith("1") for p in phones)
    assert ipa.count("ˌ") == sum(p.endswith("2") for p in phones)
    assert not any(c.isascii() and c.isupper() for c in ipa)  # nothing left in ARPAbet
