"""simplemma lemma-table reader on the committed slice (real pairs, same SMFC1/xz format)."""

from __future__ import annotations

import lzma
from pathlib import Path

import pytest

from lexicon_server.builder.parsers import simplemma
from lexicon_server.builder.parsers._io import ParseError

SLICE = Path(__file__).resolve().parents[2] / "fixtures" / "simplemma"


def test_forms_find_their_lemmas() -> None:
    de = {r.form: r.lemma for r in simplemma.iter_lemma_table(SLICE / "de.plzma")}
    assert de["Häuser"] == "Haus" and de["Hunde"] == "Hund"
    fr = {r.form: r.lemma for r in simplemma.iter_lemma_table(SLICE / "fr.plzma")}
    assert fr["mangeaient"] == "manger" and fr["chevaux"] == "cheval"
    assert {r.pos for r in simplemma.iter_lemma_table(SLICE / "en.plzma")} == {""}


def test_a_truncated_table_names_the_record(tmp_path: Path) -> None:
    with lzma.open(SLICE / "de.plzma") as source:
        data = source.read()
    cut = tmp_path / "de.plzma"
    with lzma.open(cut, "wb") as handle:
        handle.write(data[: len(data) - 7])
    with pytest.raises(ParseError, match=r"de\.plzma"):
        list(simplemma.iter_lemma_table(cut))


def test_a_foreign_file_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "fr.plzma"
    with lzma.open(other, "wb") as handle:
        handle.write(b"not a table")
    with pytest.raises(ParseError, match="SMFC1"):
        list(simplemma.iter_lemma_table(other))
