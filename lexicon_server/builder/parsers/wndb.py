"""WordNet database files (WNDB): ``data.*``, ``index.sense`` and ``*.exc``.

Reads the format of Princeton WordNet 3.0/3.1 and of the WNDB export of Open English
WordNet, one line at a time. Synsets are keyed by caller-prefixed external ids such as
``wn31-02086723-n``; adjective satellites live in ``data.adj`` and keep the ``a`` letter
(pointers in WNDB never say ``s``), with :attr:`SynsetRecord.satellite` set.

Verb frames (``f_cnt + f_num w_num ...``) are read past and not returned: the records have
no place for them and no tool uses them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from lexicon_server.builder.parsers._io import ParseError, text_lines
from lexicon_server.builder.records import (
    InflectionRow,
    PointerRecord,
    SenseRank,
    SynsetMember,
    SynsetRecord,
)

__all__ = [
    "LEXNAMES",
    "POINTER_RELATIONS",
    "POS_NAMES",
    "iter_data_file",
    "iter_exceptions",
    "iter_sense_index",
    "iter_synsets",
    "license_header",
    "synset_id",
]

# File-name pos -> record pos, and the ss_type letters WNDB uses in each file.
POS_NAMES: dict[str, str] = {"n": "noun", "v": "verb", "a": "adj", "s": "adj", "r": "adv"}
_FILE_POS = {"noun": "n", "verb": "v", "adj": "a", "adv": "r"}
_SS_TYPE_NUMBER = {"n": 1, "v": 2, "a": 3, "r": 4, "s": 5}
_NUMBER_TO_LETTER = {"1": "n", "2": "v", "3": "a", "4": "r", "5": "a"}

# lexnames(5WN): lex_filenum -> lexicographer file name. Numbers past the table (OEWN adds
# a few) come back as None rather than a made-up name.
LEXNAMES: tuple[str, ...] = (
    "adj.all", "adj.pert", "adv.all", "noun.Tops", "noun.act", "noun.animal",
    "noun.artifact", "noun.attribute", "noun.body", "noun.cognition", "noun.communication",
    "noun.event", "noun.feeling", "noun.food", "noun.group", "noun.location", "noun.motive",
    "noun.object", "noun.person", "noun.phenomenon", "noun.plant", "noun.possession",
    "noun.process", "noun.quantity", "noun.relation", "noun.shape", "noun.state",
    "noun.substance", "noun.time", "verb.body", "verb.change", "verb.cognition",
    "verb.communication", "verb.competition", "verb.consumption", "verb.contact",
    "verb.creation", "verb.emotion", "verb.motion", "verb.perception", "verb.possession",
    "verb.social", "verb.stative", "verb.weather", "adj.ppl",
)  # fmt: skip

# wninput(5WN) pointer symbols per pos -> relation names. The names are the Global WordNet
# LMF ones (what Open English WordNet's XML uses), so WNDB and LMF builds agree, except
# that '$' (verb group) keeps its own name instead of LMF's overloaded 'similar'.
_COMMON = {
    "!": "antonym",
    "+": "derivation",
    ";c": "domain_topic",
    ";r": "domain_region",
    ";u": "exemplifies",  # "domain of synset - USAGE" in WNDB terms
    "-c": "has_domain_topic",
    "-r": "has_domain_region",
    "-u": "is_exemplified_by",
}
POINTER_RELATIONS: dict[str, dict[str, str]] = {
    "noun": _COMMON
    | {
        "@": "hypernym",
        "@i": "instance_hypernym",
        "~": "hyponym",
        "~i": "instance_hyponym",
        "#m": "holo_member",
        "#s": "holo_substance",
        "#p": "holo_part",
        "%m": "mero_member",
        "%s": "mero_substance",
        "%p": "mero_part",
        "=": "attribute",
        "\\": "pertainym",  # three nouns in WordNet 3.1 carry it, pointing at adjectives
    },
    "verb": _COMMON
    | {
        "@": "hypernym",
        "~": "hyponym",
        "*": "entails",
        ">": "causes",
        "^": "also",
        "$": "verb_group",
    },
    "adj": _COMMON
    | {
        "&": "similar",
        "<": "participle",
        "\\": "pertainym",
        "=": "attribute",
        "^": "also",
    },
    "adv": _COMMON | {"\\": "pertainym"},  # "derived from adjective"
}

_MARKER = re.compile(r"^(?P<lemma>.+)\((?P<marker>a|p|ip)\)$")


def synset_id(prefix: str, offset: str | int, pos_letter: str) -> str:
    """The external id of a synset: ``<prefix>-<8-digit offset>-<n|v|a|r>``."""
    letter = "a" if pos_letter == "s" else pos_letter
    return f"{prefix}-{int(offset):08d}-{letter}"


def license_header(path: str | Path) -> str:
    """The licence text at the top of a WNDB file (lines starting with two spaces)."""
    lines: list[str] = []
    for _, line in text_lines(path):
        if not line.startswith("  "):
            break
        # Each header line is '  N text  '; drop the line number, keep the words.
        parts = line.strip().split(" ", 1)
        lines.append(parts[1].rstrip() if len(parts) == 2 else "")
    return "\n".join(lines).strip() + "\n"


def _split_gloss(gloss: str) -> tuple[str, tuple[str, ...]]:
    """Split ``definition; "example"; "example"`` into the definition and the examples.

    The definition ends at the first ``; "`` (or is empty when the gloss opens with a
    quote), so quotes inside it stay, and so does its wording. Examples are every quoted
    string of the gloss, including those quoted inside the definition (``as in "slain
    warriors"``), as NLTK counts them. Attributions between examples (``- Shakespeare``)
    are dropped.
    """
    text = gloss.strip()
    examples = tuple(e.strip() for e in re.findall(r'"([^"]*)"', text) if e.strip())
    if text.startswith('"'):
        return "", examples
    cut = text.find('; "')
    definition = text if cut < 0 else text[:cut]
    return definition.rstrip(" ;"), examples


class _HeadLookup:
    """Find the head word of a satellite's cluster by seeking to its offset in data.adj.

    WNDB offsets are byte offsets into the data file, so this needs no memory; when the
    offset does not land on the expected line (a file re-sliced without rewriting offsets)
    the sense key is left as None instead of guessing.
    """

    def __init__(self, path: Path) -> None:
        self._handle = open(path, "rb")  # noqa: SIM115 - closed by close()

    def head(self, offset: str) -> tuple[str, int] | None:
        self._handle.seek(int(offset))
        line = self._handle.readline().decode("utf-8", "replace")
        fields = line.split(" ", 6)
        if len(fields) < 6 or fields[0] != offset:
            return None
        word = _MARKER.sub(r"\g<lemma>", fields[4])
        return word.lower(), int(fields[5], 16)

    def close(self) -> None:
        self._handle.close()


def _sense_key(lemma: str, ss_type: str, lexfile: int, lex_id: int, head: str) -> str:
    return f"{lemma.lower()}%{_SS_TYPE_NUMBER[ss_type]}:{lexfile:02d}:{lex_id:02d}:{head}"


def iter_data_file(path: str | Path, *, prefix: str) -> Iterator[SynsetRecord]:
    """Yield every synset of one ``data.<pos>`` file, in file order."""
    path = Path(path)
    file_pos = path.suffix.lstrip(".")
    if file_pos not in _FILE_POS:
        raise ParseError(path, 0, f"expected a data.noun/verb/adj/adv file, got {path.name!r}")
    relations = POINTER_RELATIONS[file_pos]
    heads = _HeadLookup(path) if file_pos == "adj" else None
    try:
        for line_no, line in text_lines(path):
            if not line or line.startswith("  "):
                continue  # licence header
            try:
                yield _parse_data_line(line, prefix, relations, heads)
            except (IndexError, ValueError, KeyError) as exc:
                raise ParseError(path, line_no, f"bad WNDB data line ({exc!r})") from exc
    finally:
        if heads is not None:
            heads.close()


def _parse_data_line(
    line: str, prefix: str, relations: dict[str, str], heads: _HeadLookup | None
) -> SynsetRecord:
    fields_text, _, gloss = line.partition(" | ")
    fields = fields_text.split()
    offset, lexfile, ss_type = fields[0], int(fields[1]), fields[2]
    word_count = int(fields[3], 16)
    words: list[tuple[str, int, str | None]] = []
    i = 4
    for _ in range(word_count):
        raw, lex_id = fields[i], int(fields[i + 1], 16)
        i += 2
        marker = _MARKER.match(raw)
        if marker:
            words.append((marker["lemma"], lex_id, marker["marker"]))
        else:
            words.append((raw, lex_id, None))
    pointer_count = int(fields[i])
    i += 1
    pointers: list[PointerRecord] = []
    head_offset: str | None = None
    for _ in range(pointer_count):
        symbol, target, target_pos, source_target = fields[i : i + 4]
        i += 4
        if symbol == "&" and ss_type == "s" and head_offset is None:
            head_offset = target
        pointers.append(
            PointerRecord(
                relation=relations[symbol],
                target_synset=synset_id(prefix, target, target_pos),
                source_member=int(source_target[:2], 16),
                target_member=int(source_target[2:], 16),
            )
        )
    head = ":"
    if ss_type == "s":
        found = heads.head(head_offset) if heads is not None and head_offset else None
        head = f"{found[0]}:{found[1]:02d}" if found else ""
    members = tuple(
        SynsetMember(
            lemma=lemma,
            sense_key=_sense_key(lemma, ss_type, lexfile, lex_id, head) if head else None,
            lex_id=lex_id,
            adjposition=marker,
        )
        for lemma, lex_id, marker in words
    )
    definition, examples = _split_gloss(gloss)
    return SynsetRecord(
        external_id=synset_id(prefix, offset, ss_type),
        pos=POS_NAMES[ss_type],
        lexname=LEXNAMES[lexfile] if lexfile < len(LEXNAMES) else None,
        gloss=definition,
        examples=examples,
        members=members,
        pointers=tuple(pointers),
        satellite=ss_type == "s",
    )


def iter_synsets(dict_dir: str | Path, *, prefix: str) -> Iterator[SynsetRecord]:
    """Yield the synsets of all four ``data.*`` files in a WNDB directory."""
    for pos in ("noun", "verb", "adj", "adv"):
        path = Path(dict_dir) / f"data.{pos}"
        if path.exists():
            yield from iter_data_file(path, prefix=prefix)


def iter_sense_index(path: str | Path, *, prefix: str) -> Iterator[SenseRank]:
    """Yield ``index.sense`` rows: sense key, synset id, sense number and tag count."""
    for line_no, line in text_lines(path):
        if not line or line.startswith("  "):
            continue
        try:
            key, offset, number, tag_count = line.split()
            ss_type = key.split("%", 1)[1][0]
            yield SenseRank(
                sense_key=key,
                synset=synset_id(prefix, offset, _NUMBER_TO_LETTER[ss_type]),
                sense_number=int(number),
                tag_count=int(tag_count),
            )
        except (IndexError, ValueError, KeyError) as exc:
            raise ParseError(path, line_no, f"bad index.sense line ({exc!r})") from exc


def iter_exceptions(path: str | Path, pos: str | None = None) -> Iterator[InflectionRow]:
    """Yield ``form -> lemma`` rows from a ``noun.exc``/``verb.exc``/... file.

    ``pos`` defaults to the file name's stem; a form with several lemmas gives one row each.
    """
    path = Path(path)
    row_pos = pos or path.stem
    if row_pos not in _FILE_POS:
        raise ParseError(path, 0, f"cannot tell the part of speech of {path.name!r}")
    for line_no, line in text_lines(path):
        parts = line.split()
        if not parts:
            continue
        if len(parts) < 2:
            raise ParseError(path, line_no, "exception line without a lemma")
        for lemma in parts[1:]:
            yield InflectionRow(form=parts[0], lemma=lemma, pos=row_pos)
