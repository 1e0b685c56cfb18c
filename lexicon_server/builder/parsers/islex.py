"""ISLEX (``ISLEdict.txt`` as shipped in PyPI ``pysle``) -> :class:`IslexEntry`.

One pronunciation per line::

    abandon_hope() # ə . b ˈæ n . d n̩ # h oʊ p #
    equivocating(+equivocate+ing,vbg) # ɪ k . w ˈɪ . v ə . k ˌei . ɾ ɪ ŋ #

The word (lower case, ``_`` between the words of a phrase), then in parentheses a
comma-separated label list, possibly empty: Penn Treebank tags (``nn``, ``vbg``), flags
(``+abbreviation``), morphology (``+equivocate+ing``) and name classes with a figure
(``nnp_surname_0.001``). Then the pronunciation framed by ``#`` marks, one ``#`` between
written words, `` . `` between syllables, spaces between phones; ``ˈ``/``ˌ`` are written
immediately before the stressed vowel. Three lines of the release (``er``, ``th``, ``ths``)
have no ``#`` frame; they are read as one word of one syllable.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path

from lexicon_server.builder.parsers._io import ParseError, open_text
from lexicon_server.builder.records import IslexEntry

__all__ = ["PHONES", "iter_entries", "transcription"]

# Every phone of ISLEdict.txt 4.0.2 (stress marks aside). 'r' occurs only in the unframed
# 'er(nn) ə r' line. Checking them makes a corrupt or foreign file fail instead of passing.
_PHONE_LIST = (
    "ɹ s ə t k l n ɪ d m i p b ɑ f ɛ æ n̩ z g v ɚ oʊ ʃ ŋ w h ei dʒ ʌ ɑɪ j ɾ tʃ u ɵ ɝ ɔ "
    "aʊ ʊ ð ʒ ɔi l̩ r"
)
PHONES = frozenset(_PHONE_LIST.split())
_LINE = re.compile(r"(?P<word>[^()\s]+)\((?P<labels>[^()]*)\) (?P<pron>.+)")
_PENN = re.compile(r"[a-z]{2,4}\$?")  # 'nn', 'vbd', 'nnps', 'prp$'
# Lines of one word are near each other but not always adjacent: the release sorts
# 'bang-up' and 'bangup' together, interleaving their lines (29 words, at most 4 lines apart).
_RECENT_WORDS = 64


def _syllables(
    pron: str, path: str | Path, line_no: int
) -> tuple[tuple[tuple[str, ...], ...], ...]:
    body = pron.strip()
    if body.startswith("#"):
        if not body.endswith("#") or len(body) < 3:
            raise ParseError(path, line_no, "pronunciation does not end with its '#' mark")
        words = body[1:-1].split("#")
    else:
        words = [body]  # the three unframed lines of the release
    result = []
    for word in words:
        syllables = tuple(tuple(s.split()) for s in word.split("."))
        for syllable in syllables:
            if not syllable:
                raise ParseError(path, line_no, f"empty syllable in {pron.strip()!r}")
            for phone in syllable:
                if phone.lstrip("ˈˌ") not in PHONES:
                    raise ParseError(path, line_no, f"unknown ISLEX phone {phone!r}")
        result.append(syllables)
    return tuple(result)


def iter_entries(path: str | Path) -> Iterator[IslexEntry]:
    """Yield one entry per line, in file order; malformed lines raise :class:`ParseError`."""
    counts: OrderedDict[str, int] = OrderedDict()
    done = 0  # one entry per line, so the failing line is the next one
    try:
        for entry in _entries(path, counts):
            done += 1
            yield entry
    except UnicodeDecodeError as exc:
        # The decoder reads ahead, so the bad bytes may lie a few lines further on.
        raise ParseError(
            path, done + 1, f"not UTF-8 text at or after this line ({exc.reason})"
        ) from exc


def _entries(path: str | Path, counts: OrderedDict[str, int]) -> Iterator[IslexEntry]:
    with open_text(path) as handle:
        for line_no, raw in enumerate(handle, 1):
            if not raw.endswith("\n"):
                raise ParseError(path, line_no, "file ends inside a line (truncated?)")
            line = raw.rstrip("\r\n")
            match = _LINE.fullmatch(line)
            if match is None:
                raise ParseError(path, line_no, "expected 'word(labels) # phones . phones #'")
            word = match["word"]
            labels = [label for label in match["labels"].split(",") if label]
            variant = counts.pop(word, -1) + 1
            counts[word] = variant
            if len(counts) > _RECENT_WORDS:
                counts.popitem(last=False)
            yield IslexEntry(
                word=word,
                variant=variant,
                pos=tuple(label for label in labels if _PENN.fullmatch(label)),
                tags=tuple(label for label in labels if not _PENN.fullmatch(label)),
                syllables=_syllables(match["pron"], path, line_no),
            )


def transcription(entry: IslexEntry, *, syllable_marks: bool = True) -> str:
    """The entry as one IPA string: words spaced, syllables dotted, stress as published.

    ``abandon_hope`` -> ``'ə.bˈæn.dn̩ hoʊp'``. ISLEX's own phone spellings (``ei``, ``ɵ``)
    are kept; :func:`lexicon_server.corpus.ipa.comparable` maps them to the common ones.
    """
    dot = "." if syllable_marks else ""
    return " ".join(dot.join("".join(s) for s in word) for word in entry.syllables)
