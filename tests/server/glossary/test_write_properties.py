"""Any sequence of add/edit/delete leaves exactly the expected entries, in order, and every
line nobody touched byte for byte as it was."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from lexicon_server.glossary import Glossary, TermExists, TermNotFound, normalize
from lexicon_server.glossary.fileformat import parse

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


@settings(max_examples=80, deadline=None)
@given(ops, st.sampled_from(["\n", "\r\n"]), st.booleans())
def test_any_sequence_of_writes(
    steps: list[tuple[str, str, str]], newline: str, final_newline: bool
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "glossary.jsonl"
        text = newline.join(line + newline for line, _, _ in START)
        path.write_bytes((text if final_newline else text.rstrip()).encode())
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
            # The snapshot a write keeps in memory is exactly what parsing the file gives.
            assert glossary.file.snapshot().parsed == parse(path.read_bytes(), path)
        entries = [(e.term, e.description) for e in Glossary(path).entries()]
        assert entries == [model[key] for key in order]
        data = path.read_bytes()
        if newline == "\r\n":  # new and rewritten lines use the file's own line ending
            assert data.count(b"\n") == data.count(b"\r\n")
        lines = data.decode().splitlines()
        for line in untouched.values():
            assert line in lines
