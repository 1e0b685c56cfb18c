"""simplemma's lemma tables (PyPI ``simplemma``, ``strategies/dictionaries/data/<lang>.plzma``).

Each file is an xz (lzma) stream holding simplemma's front-coded table ("SMFC1"): the
magic, one flag byte (bit 0: keys and values are stored reversed), a varint record count,
then records sorted by stored key. A record is ``shared`` (varint, bytes kept from the
previous stored key), ``suffix length`` (varint) and the suffix; then a ``trim`` byte:
254 = same value as the previous record, 255 = the value follows literally (varint length
and bytes), otherwise the value is the stored key minus its last ``trim`` bytes plus the
bytes that follow (varint length and bytes). Keys are inflected forms, values lemmas,
UTF-8. Read here without importing simplemma, which the runtime never needs.
"""

from __future__ import annotations

import lzma
from collections.abc import Iterator
from pathlib import Path

from lexicon_server.builder.parsers._io import ParseError
from lexicon_server.builder.records import InflectionRow

__all__ = ["iter_lemma_pairs", "iter_lemma_table"]

_MAGIC = b"SMFC1"
_SAME_AS_PREV = 254
_LITERAL_VALUE = 255


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7


def iter_lemma_table(path: str | Path) -> Iterator[InflectionRow]:
    """(form, lemma) pairs of one language, in the file's order; ``pos`` is '' (the tables
    carry none). A truncated or foreign file raises ParseError with the record number."""
    for form, lemma in iter_lemma_pairs(path):
        yield InflectionRow(form, lemma, "")


def iter_lemma_pairs(path: str | Path) -> Iterator[tuple[str, str]]:
    """`iter_lemma_table` as plain (form, lemma) tuples, for the builder's one pass over
    millions of records (Polish: 3.7M). A lemma repeated from the record before (most of
    them: a lemma's forms sort together) is the same string object, decoded once."""
    path = Path(path)
    try:
        with lzma.open(path, "rb") as handle:
            data = handle.read()
    except (lzma.LZMAError, EOFError) as exc:
        raise ParseError(path, 0, f"an xz stream ({exc})") from None
    if not data.startswith(_MAGIC):
        raise ParseError(path, 0, "simplemma's front-coded table (magic 'SMFC1')")
    reverse = bool(data[len(_MAGIC)] & 1)
    count, pos = _varint(data, len(_MAGIC) + 1)
    n, key, value, lemma, seen = len(data), b"", b"", "", 0
    try:
        while pos < n:
            # Varints below 128 (nearly all) are one byte: read inline, not by a call.
            shared = data[pos]
            pos += 1
            if shared & 0x80:
                shared, pos = _varint(data, pos - 1)
            length = data[pos]
            pos += 1
            if length & 0x80:
                length, pos = _varint(data, pos - 1)
            key = key[:shared] + data[pos : pos + length]
            pos += length
            trim = data[pos]
            pos += 1
            if trim != _SAME_AS_PREV:
                length = data[pos]
                pos += 1
                if length & 0x80:
                    length, pos = _varint(data, pos - 1)
                tail = data[pos : pos + length]
                pos += length
                value = tail if trim == _LITERAL_VALUE else key[: len(key) - trim] + tail
                lemma = (value[::-1] if reverse else value).decode("utf-8")
            if pos > n:
                raise IndexError
            seen += 1
            yield (key[::-1] if reverse else key).decode("utf-8"), lemma
    except (IndexError, UnicodeDecodeError):
        raise ParseError(path, seen + 1, "a complete front-coded record") from None
    if seen != count:
        raise ParseError(path, seen, f"{count} records as the header says, found {seen}")
