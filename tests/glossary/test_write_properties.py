"""Any sequence of add/edit/delete leaves exactly the expected entries, in order, and every
line nobody touched byte for byte as it was."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from lexicon_server.glossary import Glossary, TermExists, TermNotFound, normalize

# Hand-formatted lines a rewrite-everything implementation would normalize away.
START = [
    ('{ "term" : "Alpha", "description" : "A \\u00e4" }', "Alpha", "A ä"),
    ('{"description":"B","term":"Beta"}', "Beta", "B"),
    ('{"term":"Gamma","description":"C\\/D"}', "Gamma", "C/D"),
]
TERMS = ["Alpha", "ALPHA", "beta", "Gamma;", "Delta", "delta ", "Größe", "groesse", "Eps"]

ops = st.lists(
    st.tuples(
        st.sampled_from(["add", "edit", "delete"]),
        st.sampled_from(TERMS),
        st.sampled_from(["one", "two", "drei ä"]),
    ),
    max_size=12,
)


@settings(max_examples=60, deadline=None)
@given(ops)
def test_any_sequence_of_writes(steps: list[tuple[str, str, str]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "glossary.jsonl"
        path.write_text("".join(line + "\n\n" for line, _, _ in START), encoding="utf-8")
        glossary = Glossary(path)
        model = {normalize(term): (term, desc) for _, term, desc in START}
        order = [normalize(term) for _, term, _ in START]
        untouched = {normalize(term): line for line, term, _ in START}
        for op, term, desc in steps:
            key = normalize(term)
            try:
                if op == "add":
                    glossary.add(term, desc)
                    model[key] = (term.strip(), desc)
                    order.append(key)
                elif op == "edit":
                    glossary.edit(term, desc)
                    if model[key][1] != desc:
                        untouched.pop(key, None)
                    model[key] = (model[key][0], desc)
                else:
                    glossary.delete(term)
                    del model[key]
                    order.remove(key)
                    untouched.pop(key, None)
            except TermExists:
                assert op == "add" and key in model
            except TermNotFound:
                assert op != "add" and key not in model
        entries = [(e.term, e.description) for e in Glossary(path).entries()]
        assert entries == [model[key] for key in order]
        lines = path.read_text(encoding="utf-8").splitlines()
        for line in untouched.values():
            assert line in lines
