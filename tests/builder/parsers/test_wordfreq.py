"""wordfreq cBpack parser against slices of the real lists (PyPI wordfreq 3.1.1).

The slices keep every bin, so each kept word has its real frequency. The expected Zipf
values were read from ``wordfreq.zipf_frequency(word, lang, wordlist=...)`` 3.1.1.
"""

from __future__ import annotations

import gzip
import itertools
from pathlib import Path

import msgpack
import pytest

from lexicon_server.builder.parsers._io import ParseError
from lexicon_server.builder.parsers.wordfreq import bin_zipf, iter_frequencies, language_of

WORDFREQ_3_1_1 = {
    "large_en": {"the": 7.73, "cat": 4.78, "house": 5.71, "dog": 5.1, "king": 5.17, "tinsel": 2.65},
    "small_fr": {"maison": 5.53, "chien": 4.86},
}


@pytest.mark.parametrize("name", sorted(WORDFREQ_3_1_1))
def test_zipf_matches_wordfreq(fixtures: Path, name: str) -> None:
    path = fixtures / "wordfreq" / f"{name}.msgpack.gz"
    zipf = {row.word: row.zipf for row in iter_frequencies(path)}
    for word, expected in WORDFREQ_3_1_1[name].items():
        assert zipf[word] == expected, word


def test_order_is_most_frequent_first_and_alphabetical_within_a_bin(fixtures: Path) -> None:
    rows = list(iter_frequencies(fixtures / "wordfreq" / "large_en.msgpack.gz"))
    assert rows[0].word == "the"
    assert [r.zipf for r in rows] == sorted((r.zipf for r in rows), reverse=True)
    for a, b in itertools.pairwise(rows):
        if a.zipf == b.zipf:
            assert a.word < b.word


def test_bin_formula() -> None:
    assert bin_zipf(0) == 9.0 and bin_zipf(127) == 7.73 and bin_zipf(900) == 0.0


def test_language_from_file_name() -> None:
    assert language_of("x/large_en.msgpack.gz") == "en"
    assert language_of("small_fil.msgpack.gz") == "fil"
    with pytest.raises(ParseError):
        language_of("en.msgpack.gz")


def _write(path: Path, payload: object) -> Path:
    with gzip.open(path, "wb") as out:
        out.write(msgpack.packb(payload))
    return path


def test_wrong_header_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path / "large_xx.msgpack.gz", [{"format": "dB", "version": 1}, ["a"]])
    with pytest.raises(ParseError, match="header"):
        list(iter_frequencies(path))


def test_truncated_file_fails_after_yielding_what_it_had(tmp_path: Path) -> None:
    whole = msgpack.packb([{"format": "cB", "version": 1}, [], ["alpha", "beta"], ["gamma"]])
    path = tmp_path / "small_xx.msgpack.gz"
    with gzip.open(path, "wb") as out:
        out.write(whole[:-4])
    stream = iter_frequencies(path)
    assert [next(stream).word, next(stream).word] == ["alpha", "beta"]
    with pytest.raises(ParseError, match="bin"):
        next(stream)
