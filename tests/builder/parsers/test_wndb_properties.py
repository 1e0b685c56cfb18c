"""Property test: any data line written to the WNDB spec (wndb(5WN)) parses back exactly."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from lexicon_server.builder.parsers import wndb

FILE_POS = {"n": "noun", "v": "verb", "a": "adj", "s": "adj", "r": "adv"}

lemmas = st.from_regex(r"[A-Za-z][A-Za-z0-9_'.-]{0,12}", fullmatch=True)
text = st.from_regex(r"[A-Za-z0-9 ,()'-]{1,30}", fullmatch=True).map(str.strip).filter(bool)


@st.composite
def synset_lines(draw: st.DrawFn) -> tuple[str, str, dict[str, object]]:
    ss_type = draw(st.sampled_from("nvasr"))
    pos = FILE_POS[ss_type]
    words = draw(
        st.lists(
            st.tuples(
                lemmas,
                st.integers(0, 15),
                st.sampled_from([None, "a", "p", "ip"]) if pos == "adj" else st.none(),
            ),
            min_size=1,
            max_size=18,  # more than 15 words: w_cnt needs two hex digits
        )
    )
    symbols = sorted(wndb.POINTER_RELATIONS[pos])
    pointers = draw(
        st.lists(
            st.tuples(
                st.sampled_from(symbols),
                st.integers(0, 99_999_999),
                st.sampled_from("nvar"),
                st.integers(0, len(words)),
                st.integers(0, 31),  # target word numbers past 9 exercise the hex field
            ),
            max_size=6,
        )
    )
    definition = draw(text)
    examples = draw(st.lists(text, max_size=3))
    offset = draw(st.integers(0, 99_999_999))
    lexfile = draw(st.integers(0, 44))
    body = " ".join(f"{w}({m}) {i:x}" if m else f"{w} {i:x}" for w, i, m in words)
    ptrs = " ".join(f"{s} {t:08d} {p} {a:02x}{b:02x}" for s, t, p, a, b in pointers)
    gloss = "; ".join([definition, *(f'"{e}"' for e in examples)])
    line = f"{offset:08d} {lexfile:02d} {ss_type} {len(words):02x} {body} {len(pointers):03d}"
    line += f" {ptrs} | {gloss}  \n" if ptrs else f" | {gloss}  \n"
    expected = {
        "id": f"x-{offset:08d}-{'a' if ss_type == 's' else ss_type}",
        "pos": pos,
        "satellite": ss_type == "s",
        "lexname": wndb.LEXNAMES[lexfile],
        "members": [(w, i, m) for w, i, m in words],
        "pointers": [
            (wndb.POINTER_RELATIONS[pos][s], f"x-{t:08d}-{p}", a, b) for s, t, p, a, b in pointers
        ],
        "gloss": definition,
        "examples": list(examples),
    }
    return pos, line, expected


@settings(max_examples=100, deadline=None)
@given(synset_lines())
def test_a_line_written_to_the_spec_parses_back(case: tuple[str, str, dict[str, object]]) -> None:
    pos, line, expected = case
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"data.{pos}"
        path.write_text("  1 licence header line  \n" + line, encoding="utf-8")
        (record,) = list(wndb.iter_data_file(path, prefix="x"))
    assert record.external_id == expected["id"]
    assert record.pos == expected["pos"] and record.satellite == expected["satellite"]
    assert record.lexname == expected["lexname"]
    assert [(m.lemma, m.lex_id, m.adjposition) for m in record.members] == expected["members"]
    assert [
        (p.relation, p.target_synset, p.source_member, p.target_member) for p in record.pointers
    ] == expected["pointers"]
    assert record.gloss == expected["gloss"]
    assert list(record.examples) == expected["examples"]
    if not record.satellite:
        assert all(m.sense_key and m.sense_key.endswith("::") for m in record.members)
