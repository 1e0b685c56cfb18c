"""The build's code digest covers every module that decides what a build writes."""

from __future__ import annotations

from pathlib import Path

import lexicon_server
from lexicon_server.builder import pipeline

PACKAGE = Path(lexicon_server.__file__).parent


def test_every_pattern_names_real_files() -> None:
    for pattern in pipeline._BYTE_DECIDING:
        assert sorted(PACKAGE.glob(pattern)), f"{pattern} matches nothing under {PACKAGE}"


def test_writers_parsers_and_the_corpus_contract_are_covered() -> None:
    covered = {p.relative_to(PACKAGE).as_posix() for pat in pipeline._BYTE_DECIDING
               for p in PACKAGE.glob(pat)}  # fmt: skip
    for module in ("builder/lexical_writer.py", "builder/parsers/dictd.py",
                   "builder/wordplay_writer.py", "corpus/normalize.py",
                   "corpus/schema/lexical.sql"):  # fmt: skip
        assert module in covered
