"""Offline rewriting between slang and plain language with a caller-supplied glossary.

No network, no corpus: the glossary in the call is the whole vocabulary. Scanning runs
left to right over the original text; at each point the earliest match wins, and among
phrases matching there the longest one. A replacement is emitted as written in the
glossary and is never scanned again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from lexicon_server.slang.errors import SlangInputError
from lexicon_server.slang.offsets import Utf16Index
from lexicon_server.slang.phrases import (
    MAX_PHRASES,
    PhraseSet,
    check_phrase,
    check_text,
    first_equal,
)

__all__ = [
    "DIRECTIONS",
    "Direction",
    "GlossaryPair",
    "Replacement",
    "RewriteResult",
    "parse_glossary",
    "rewrite",
]

Direction = Literal["to_plain", "to_slang"]
DIRECTIONS: tuple[Direction, ...] = ("to_plain", "to_slang")


@dataclass(frozen=True)
class GlossaryPair:
    """One slang phrase and the plain wording it stands for."""

    slang: str
    plain: str


@dataclass(frozen=True)
class Replacement:
    """One rewritten span: offsets into the original text, what was there, what replaced it."""

    start: int  # UTF-16 code units, zero-based
    end: int  # exclusive
    code_point_start: int
    code_point_end: int
    text: str
    replacement: str


@dataclass(frozen=True)
class RewriteResult:
    text: str
    output: str
    direction: Direction
    replacements: tuple[Replacement, ...]


PairLike = GlossaryPair | Mapping[str, object] | Sequence[str]


def _pair(item: object, i: int) -> GlossaryPair:
    where = f"glossary[{i}]"
    if isinstance(item, GlossaryPair):
        slang, plain = item.slang, item.plain
    elif isinstance(item, Mapping):
        missing = [k for k in ("slang", "plain") if k not in item]
        if missing:
            raise SlangInputError(where, f"needs the keys 'slang' and 'plain', missing {missing}")
        slang, plain = item["slang"], item["plain"]
    elif isinstance(item, Sequence) and not isinstance(item, str) and len(item) == 2:
        slang, plain = item[0], item[1]
    else:
        raise SlangInputError(
            where, "must be {'slang': ..., 'plain': ...} or a (slang, plain) pair"
        )
    return GlossaryPair(
        check_phrase(slang, f"{where}.slang"), check_phrase(plain, f"{where}.plain")
    )


def parse_glossary(glossary: Iterable[PairLike]) -> tuple[GlossaryPair, ...]:
    """Validate a rewrite glossary: 1..20 pairs, every phrase within limits."""
    if isinstance(glossary, str | bytes | Mapping):
        raise SlangInputError("glossary", "must be a list of {'slang': ..., 'plain': ...} pairs")
    pairs = tuple(_pair(item, i) for i, item in enumerate(glossary))
    if not pairs:
        raise SlangInputError("glossary", "must hold at least one {'slang', 'plain'} pair")
    if len(pairs) > MAX_PHRASES:
        raise SlangInputError(
            "glossary", f"has {len(pairs)} pairs; the limit is {MAX_PHRASES} per call"
        )
    return pairs


def _source_map(pairs: Sequence[GlossaryPair], direction: Direction) -> dict[str, str]:
    """Source phrase -> replacement, refusing two sources equal ignoring case."""
    field, other = ("slang", "plain") if direction == "to_plain" else ("plain", "slang")
    sources: list[str] = []
    mapping: dict[str, str] = {}
    for i, pair in enumerate(pairs):
        source, target = getattr(pair, field), getattr(pair, other)
        j = first_equal(source, sources)
        if j is not None:
            if direction == "to_plain":
                raise SlangInputError(
                    f"glossary[{i}].slang",
                    f"{source!r} repeats glossary[{j}].slang ignoring case; "
                    "each slang phrase may appear once",
                )
            raise SlangInputError(
                f"glossary[{i}].plain",
                f"{source!r} is also the plain side of glossary[{j}] (ignoring case), so "
                f"rewriting to_slang could not choose between {pairs[j].slang!r} and "
                f"{pair.slang!r}; keep one pair per plain phrase",
            )
        sources.append(source)
        mapping[source] = target
    return mapping


def rewrite(
    text: str, glossary: Iterable[PairLike], direction: Direction = "to_plain"
) -> RewriteResult:
    """Replace glossary phrases in `text`: slang by plain (`to_plain`) or plain by slang."""
    check_text(text)
    if direction not in DIRECTIONS:
        raise SlangInputError("direction", f"must be 'to_plain' or 'to_slang', got {direction!r}")
    mapping = _source_map(parse_glossary(glossary), direction)

    index = Utf16Index.of(text)
    pieces: list[str] = []
    replacements: list[Replacement] = []
    cursor = 0
    for start, end, source in PhraseSet.of(list(mapping)).scan(text):
        target = mapping[source]
        pieces += [text[cursor:start], target]
        replacements.append(
            Replacement(
                index.to_utf16(start), index.to_utf16(end), start, end, text[start:end], target
            )
        )
        cursor = end
    pieces.append(text[cursor:])
    return RewriteResult(text, "".join(pieces), direction, tuple(replacements))
