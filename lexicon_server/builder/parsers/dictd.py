"""FreeDict dictionaries in dictd format (``.index`` + ``.dict.dz``) -> :class:`BilingualEntry`.

The ``.index`` has one line per search key: ``key TAB offset TAB length``, offset and
length in dictd's base64 digits. The ``.dict.dz`` is dictzip, i.e. a gzip stream, holding
the plain-text rendering FreeDict makes from its TEI sources. Entries are read sequentially:
the (offset, length) pairs are collected into a sorted numpy array (16 bytes per entry,
~7 MB for the largest FreeDict pair), then the text is decompressed once from start to end,
one entry at a time. Keys that share an entry yield it once.

The rendering differs between pairs; handled shapes (see docs/source-formats.md):

- first line: ``headword [/pron/ ...] [<pos, gram>]``;
- unnumbered or numbered (``1.``, `` 2.``) senses, the first text line of a sense being the
  comma-separated translations and further plain lines the sense's gloss (WikDict pairs);
- ``I.  <N> 1. ...`` groups with their own part of speech, ``<N Comp>``/``<V Phras>`` groups
  carrying a sub-headword (eng-pol), ``- translation`` continuation lines;
- ``Note: ...`` lines and ``[label]`` brackets become sense notes; ``<...>`` grammar tags,
  quoted example lines, ``Synonyms:`` and ``see:`` cross-references are dropped.

The ``00-database-*`` meta entries are not yielded; :func:`database_info` returns them.
"""

from __future__ import annotations

import dataclasses
import gzip
import re
import zlib
from array import array
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from lexicon_server.builder.parsers._io import ParseError
from lexicon_server.builder.parsers.entry_grammar import (
    clean_text,
    split_headword,
    strip_placeholders,
)
from lexicon_server.builder.records import BilingualEntry

__all__ = [
    "DictdInfo",
    "database_info",
    "decode_number",
    "iter_entries",
    "iter_texts",
    "languages_of",
    "parse_entry",
]

_B64 = {
    c: i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
}

# ISO 639-3 codes FreeDict uses in its file names -> the ISO 639-1 codes the corpus uses.
_ISO1 = {
    "afr": "af", "ara": "ar", "bre": "br", "bul": "bg", "cat": "ca", "ces": "cs",
    "cym": "cy", "dan": "da", "deu": "de", "ell": "el", "eng": "en", "epo": "eo",
    "est": "et", "eus": "eu", "fin": "fi", "fra": "fr", "gla": "gd", "gle": "ga",
    "glg": "gl", "heb": "he", "hin": "hi", "hrv": "hr", "hun": "hu", "ind": "id",
    "isl": "is", "ita": "it", "jpn": "ja", "kor": "ko", "kur": "ku", "lat": "la",
    "lit": "lt", "lav": "lv", "mkd": "mk", "nld": "nl", "nno": "nn", "nob": "nb",
    "nor": "no", "pol": "pl", "por": "pt", "ron": "ro", "rus": "ru", "slk": "sk",
    "slv": "sl", "spa": "es", "srp": "sr", "swe": "sv", "swh": "sw", "tha": "th",
    "tur": "tr", "ukr": "uk", "vie": "vi", "zho": "zh",
}  # fmt: skip

# Part-of-speech tokens seen in FreeDict renderings -> the corpus's names.
_POS = {
    "n": "noun", "noun": "noun", "N": "noun", "N Comp": "noun",
    "v": "verb", "vt": "verb", "vi": "verb", "verb": "verb", "V": "verb", "V Phras": "verb",
    "adj": "adj", "Adj": "adj", "a": "adj",
    "adv": "adv", "Adv": "adv",
    "pn": "propn", "propn": "propn", "prop": "propn",
    "pron": "pron", "Pron": "pron", "prep": "prep", "Prep": "prep",
    "conj": "conj", "Conj": "conj", "interj": "intj", "intj": "intj", "Interj": "intj",
    "num": "num", "Num": "num", "art": "det", "det": "det", "abbr": "abbr", "Abbr": "abbr",
    "phrase": "phrase", "phr": "phrase", "affix": "affix", "suffix": "affix", "prefix": "affix",
}  # fmt: skip

_TAG = re.compile(r"<([^<>]*)>")
_LABEL = re.compile(r"\[([^\[\]]*)\]")
_GROUP = re.compile(r"^(?P<roman>[IVX]+)\.(?:\s+(?P<rest>.*))?$")  # eng-pol: 'I.' may stand alone
_SENSE = re.compile(r"^(?P<num>\d+|[a-h])\.(?:\s+(?P<rest>.*))?$")  # '1.', 'b.' (eng-pol)
_PRONUNCIATION = re.compile(r"(?:^|\s)/[^/\s][^/]*/(?=[\s,;]|$)")
_SENSE_STARTS = frozenset("0123456789abcdefgh")  # skip the regex for other lines
_TRAILING_NUMBER = re.compile(r"\s+\d+\.$")
_SEPARATORS = re.compile(r"[,;]")
_HEADER_PRONUNCIATION = re.compile(r"\s+/{1,2}[^/]*/{1,2}")  # ' /haus/', ' //bæŋk//'
_HEADER_TAG = re.compile(r"<([^<>]*)>\s*$")  # the part of speech ending a header line
_NEXT_FORM = re.compile(r"^,\s*(?:\[[^\]]*\]\s*|\([^()]*\)\s*)*[^\s()]")
_LEADING_NOTE = re.compile(
    r"^(?:\([^()]*\)\s*)+"
)  # '(word containing irregular kanji usage) 喰べる'
_WIKI_LINK = re.compile(r"\[\[(?:[^\[\]|]*\|)?(?P<text>[^\[\]|]*)\]\]")
_CROSS_REFERENCE = re.compile(r"\{[^{}]*\}")  # '{経緯・たてよこ・3}warp and weft'
# JMdict-based pairs (jpn-eng) render sense parts of speech as a parenthesised line.
_JMDICT_POS = (
    ("pronoun", "pron"), ("noun", "noun"), ("verb", "verb"), ("adjectiv", "adj"),
    ("adverb", "adv"), ("expressions", "phrase"), ("suffix", "affix"), ("prefix", "affix"),
    ("conjunction", "conj"), ("interjection", "intj"), ("particle", "particle"),
    ("numeric", "num"),
)  # fmt: skip
# JMdict "misc" labels; jpn-eng renders them as 'Note: <label>' glued to the next line.
_JMDICT_LABELS = tuple(
    sorted(
        (
            "word usually written using kana alone", "word usually written using kanji alone",
            "abbreviation", "archaism", "colloquialism", "slang", "children's language",
            "honorific or respectful (sonkeigo) language", "humble (kenjougo) language",
            "polite (teineigo) language", "obscure term", "obsolete term", "derogatory",
            "vulgar expression or word", "idiomatic expression", "onomatopoeic or mimetic word",
            "familiar language", "female term or language", "male term or language",
            "jocular, humorous term", "yojijukugo", "sensitive", "rare term", "rare",
            "proverb", "poetical term", "dated term", "historical term", "euphemistic",
            "manga slang", "Internet slang", "literary or formal term", "form of address",
            "quotation", "saying", "person", "company name", "place name", "given name",
            "surname", "product name", "work of art, literature, music, etc. name",
        ),
        key=len,
        reverse=True,
    )
)  # fmt: skip
_JMDICT_LABEL = re.compile("|".join(re.escape(label) for label in _JMDICT_LABELS))
_GENDERS = {"fem", "masc", "neut", "f", "m", "nt", "common"}
_SKIP_PREFIXES = ("see:", "See also:", "Synonym:", "Synonyms:", "Antonym:", "Antonyms:")
# A translation's abbreviation glued to its grammar tag, its pronunciation after the comma:
# eng-deu 'Straße <fem>Str.,  /ˌɛstˌiːˈɑː/' (marked, then moved to the row's note).
_GLUED_ABBREVIATION = re.compile(r"(<[^<>]*>)([^\s,<>\[\]/][^,<>\[\]/]*?)\s*,\s*/[^/,]*/")
_ABBR_MARK = re.compile(r"\x01([^\x01]*)\x01")
# eng-pol writes an English phrase with its pattern, its translations on '- ' lines:
# '5.  with abandon (:with ADJ :abandon)'; the pattern holds ':word' or 'V:'-style tokens.
_PATTERN_TOKEN = re.compile(r"(?:^|[\s(\[|]):[\w%']")
_META_KEYS = ("00database", "00-database-")


def decode_number(text: str) -> int:
    """Decode a dictd base64 number (``'c/'`` -> 2111)."""
    value = 0
    for char in text:
        value = value * 64 + _B64[char]
    return value


def languages_of(path: str | Path) -> tuple[str, str]:
    """Source and target language codes from a name like ``freedict-eng-fra.index``."""
    match = re.match(r"^(?:freedict-)?([a-z]{3})-([a-z]{3})\b", Path(path).name)
    if not match:
        raise ParseError(path, 0, "not a FreeDict file name like 'freedict-eng-fra.index'")
    return _ISO1.get(match[1], match[1]), _ISO1.get(match[2], match[2])


@dataclass(frozen=True, slots=True)
class DictdInfo:
    """The database's own description (``00-database-*`` entries)."""

    short: str  # '00-database-short': name and edition
    url: str
    info: str  # '00-database-info': full description, maintainers, changelog
    licence: str  # the 'Availability:' section of the info text


def _read_index(index_path: Path) -> Iterator[tuple[int, str, int, int]]:
    with open(index_path, encoding="utf-8") as handle:
        for line_no, line in enumerate(handle, 1):
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 3:
                raise ParseError(index_path, line_no, "expected 'key<TAB>offset<TAB>length'")
            try:
                yield line_no, parts[0], decode_number(parts[1]), decode_number(parts[2])
            except KeyError as exc:
                raise ParseError(index_path, line_no, f"bad base64 number {exc}") from exc


def _open_dict(dict_path: Path) -> gzip.GzipFile | Path:
    with open(dict_path, "rb") as probe:
        compressed = probe.read(2) == b"\x1f\x8b"
    return gzip.open(dict_path, "rb") if compressed else dict_path


def _rows(spans: np.ndarray) -> Iterator[tuple[int, int]]:
    """The table's rows as Python ints, a block at a time (a whole .tolist() is ~140 B/row)."""
    for start in range(0, len(spans), 4096):
        yield from ((offset, length) for offset, length in spans[start : start + 4096].tolist())


def _read_spans(
    dict_path: Path, spans: np.ndarray, encoding: str = "utf-8", index_path: Path | None = None
) -> Iterator[tuple[int, str]]:
    """Yield ``(offset, text)`` for sorted ``(offset, length)`` rows, reading the file once.

    A cut or corrupt file fails naming the entry (its index line and headword, looked up
    only then) and what was expected there.
    """
    source = _open_dict(dict_path)
    handle = source if isinstance(source, gzip.GzipFile) else open(source, "rb")  # noqa: SIM115

    def fail(offset: int, what: str) -> ParseError:
        line_no, key = _entry_at(index_path, offset) if index_path else (0, "?")
        return ParseError(
            dict_path, line_no, f"entry {key!r} (index line {line_no}, byte {offset}): {what}"
        )

    with handle:
        position = 0
        for offset, length in _rows(spans):
            try:
                if offset > position:
                    handle.seek(offset)  # forward only: gzip decompresses and discards
                elif offset < position:
                    raise fail(offset, f"overlaps the entry before it (which ends at {position})")
                data = handle.read(length)
            except (EOFError, OSError, zlib.error) as exc:
                raise fail(
                    offset, f"expected {length} bytes of text, the file ends ({exc})"
                ) from exc
            if len(data) != length:
                raise fail(
                    offset,
                    f"expected {length} bytes of text, the file ends after {len(data)}"
                    " (past the end)",
                )
            position = offset + length
            try:
                yield offset, data.decode(encoding)
            except UnicodeDecodeError as exc:
                raise fail(offset, f"expected {encoding} text ({exc.reason})") from exc


def _entry_at(index_path: Path, offset: int) -> tuple[int, str]:
    """(index line, key) of the entry at `offset`, for an error message."""
    for line_no, key, at, _ in _read_index(index_path):
        if at == offset:
            return line_no, key
    return 0, "?"


def database_info(index_path: str | Path, dict_path: str | Path) -> DictdInfo:
    """Read the ``00-database-short/url/info`` entries (the licence travels with the data)."""
    wanted: dict[str, tuple[int, int]] = {}
    for _, key, offset, length in _read_index(Path(index_path)):
        name = key.replace("-", "")
        if name in ("00databaseshort", "00databaseurl", "00databaseinfo"):
            wanted[name] = (offset, length)
    spans = np.array(sorted(wanted.values()), dtype=np.int64).reshape(-1, 2)
    texts = dict(_read_spans(Path(dict_path), spans))

    def text(name: str) -> str:
        span = wanted.get(name)
        return texts[span[0]].strip() if span else ""

    info = text("00databaseinfo")
    # The section body is indented; it ends at the next heading, which starts at column 0.
    licence = re.search(r"^Availability:[ \t]*\n((?:[ \t]+.*\n?|[ \t]*\n)*)", info, re.M)
    return DictdInfo(
        short=text("00databaseshort"),
        url=text("00databaseurl"),
        info=info,
        licence=re.sub(r"\s+", " ", licence[1]).strip() if licence else "",
    )


def iter_entries(
    index_path: str | Path,
    dict_path: str | Path,
    languages: tuple[str, str] | None = None,
    *,
    source_language: str | None = None,
    target_language: str | None = None,
) -> Iterator[BilingualEntry]:
    """Yield the dictionary's entries in the order of the ``.dict`` file.

    The language pair comes from ``languages`` or ``source_language``/``target_language``,
    else from the file name. One dictd entry gives one :class:`BilingualEntry` per
    part-of-speech group; entries without translations are skipped.
    """
    index_path, dict_path = Path(index_path), Path(dict_path)
    if source_language and target_language:
        languages = (source_language, target_language)
    source, target = languages or languages_of(index_path)
    for text in iter_texts(index_path, dict_path):
        yield from parse_entry(text, source, target)


def iter_texts(
    index_path: str | Path,
    dict_path: str | Path,
    encoding: str = "utf-8",
    meta_keys: tuple[str, ...] = _META_KEYS,
) -> Iterator[str]:
    """Yield the raw text of every non-meta entry once, in the order of the ``.dict`` file.

    The container reader for dictd databases whose entries are not FreeDict's (GCIDE, the
    Jargon File): the same bounded offset table and single forward pass as
    :func:`iter_entries`, with the entry markup left to the caller.
    """
    index_path, dict_path = Path(index_path), Path(dict_path)
    spans = array("q")  # 8 bytes per entry, not a Python int object each
    for _, key, offset, length in _read_index(index_path):
        if not key.startswith(meta_keys):
            # One int64 per entry: offset in the high bits, so sorting orders by offset.
            spans.append((offset << 24) | length)
    packed = np.unique(np.frombuffer(spans, dtype=np.int64))
    del spans
    table = np.stack([packed >> 24, packed & ((1 << 24) - 1)], axis=1)
    for _, text in _read_spans(dict_path, table, encoding, index_path):
        yield text


@dataclass(slots=True)
class _Context:
    """What one entry's parse needs besides its text: the translations' language and the
    names of the entry-grammar rules that fired (one name per row touched)."""

    source: str
    target: str
    touched: list[str] = field(default_factory=list)


@dataclass(slots=True)
class _Sense:
    translations: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    own: list[str | None] = field(default_factory=list)  # one per translation: its own note
    has_line: bool = False  # the translation line has been seen; more text is gloss
    pos_hint: str | None = None  # from tags on the translations ('<fem>' -> noun)


@dataclass(slots=True)
class _Group:
    headword: str
    pos: str | None
    senses: list[_Sense] = field(default_factory=list)
    phrase: bool = False  # an eng-pol phrase sub-entry: its '- ' lines are its translations

    def sense(self) -> _Sense:
        if not self.senses:
            self.senses.append(_Sense())
        return self.senses[-1]


def _pos_of(tag: str) -> str | None:
    tag = tag.strip()
    if tag in _POS:
        return _POS[tag]
    for token in tag.split(","):
        if token.strip() in _POS:
            return _POS[token.strip()]
    return None


def _gender_noun(tag: str) -> str | None:
    """Grammatical gender on a translation ('<fem>', '<masc, pl>') means a noun."""
    return "noun" if _GENDERS.intersection(t.strip() for t in tag.split(",")) else None


def _split_outside_parens(text: str) -> list[str]:
    depth = 0
    current: list[str] = []
    parts: list[str] = []
    for char in text:
        depth += char == "("
        depth -= char == ")"
        if char in ",;" and depth <= 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return parts


def _split_translations(text: str, sense: _Sense, ctx: _Context) -> None:
    text = text.strip()
    if "<" in text and "/" in text:
        text = _GLUED_ABBREVIATION.sub("\\1\x01\\2\x01", text)
    if text.endswith("."):
        text = _TRAILING_NUMBER.sub("", text)
    if "[" in text:
        labels = _LABEL.findall(_WIKI_LINK.sub("", text) if "[[" in text else text)
        sense.notes.extend(label.strip() for label in labels if label.strip())
    if "<" in text:
        for tag in _TAG.findall(text):
            sense.pos_hint = sense.pos_hint or _pos_of(tag) or _gender_noun(tag)
    if "{" in text:
        text = _CROSS_REFERENCE.sub(" ", text)
    if "[[" in text:
        text = _WIKI_LINK.sub(r"\g<text>", text)  # WikDict keeps '[[link]]' markup
    if "<" in text or "[" in text:
        text = _TAG.sub(" ", _LABEL.sub(" ", text))
        text = text.replace("[", " ").replace("]", " ")  # unbalanced leftovers
    if "/" in text:
        text = _PRONUNCIATION.sub(" ", text)
    parts = _split_outside_parens(text) if "(" in text else _SEPARATORS.split(text)
    for part in parts:
        own: str | None = None
        if "\x01" in part:
            abbreviations = _ABBR_MARK.findall(part)
            part = _ABBR_MARK.sub(" ", part)
            own = "abbr. " + ", ".join(a.strip() for a in abbreviations)
            ctx.touched.append("abbreviation")
        cleaned = clean_text(" ".join(part.split()), ctx.target, ctx.touched)
        if not cleaned:
            continue
        bare, meaningful = strip_placeholders(cleaned, ctx.target)
        if bare != cleaned:
            ctx.touched.append("translation_placeholder")
            if meaningful:
                own = cleaned if own is None else f"{own}; {cleaned}"
            cleaned = bare
        if cleaned not in sense.translations:
            sense.translations.append(cleaned)
            sense.own.append(own)


def _parse_header(line: str) -> tuple[list[str], str | None]:
    """Written forms and part of speech of an entry's first line.

    Usually one form (``house /haus/``); JMdict-based pairs list several, each with its
    own pronunciation and priority tags (`` [ichi1]  家 /…/,  [ichi1] いえ /…/``).
    """
    pos = None
    tag = _HEADER_TAG.search(line) if "<" in line else None
    if tag:
        pos = _pos_of(tag[1])
        line = line[: tag.start()]
    forms: list[str] = []
    for i, piece in enumerate(_HEADER_PRONUNCIATION.sub("\x00", line).split("\x00")):
        piece = piece.strip()
        if i and not _NEXT_FORM.match(piece):
            continue  # only ', FORM /pron/' continues the list, not '(CAT /kˈat/)' or ', ) (
        piece = _LABEL.sub(" ", piece.lstrip(",")).strip()
        piece = _LEADING_NOTE.sub("", piece)
        form = " ".join(piece.split())
        if form and form not in forms:
            forms.append(form)
    return forms or [""], pos


def _phrase_of(text: str) -> tuple[str, list[str]] | None:
    """eng-pol's '[form]  with alacrity (:with :alacrity)' -> ('with alacrity', ['form']):
    a sense line that is an English phrase followed by its pattern; None for other lines."""
    text = text.rstrip()
    if not text.endswith(")") or ":" not in text:
        return None
    depth = 0
    for i in range(len(text) - 1, -1, -1):
        depth += (text[i] == ")") - (text[i] == "(")
        if depth == 0:
            break
    else:
        return None
    if not _PATTERN_TOKEN.search(text[i + 1 : -1]):
        return None
    head = text[:i]
    labels = [label.strip() for label in _LABEL.findall(head) if label.strip()]
    phrase = " ".join(_LABEL.sub(" ", head).split())
    return (phrase, labels) if phrase else None


def _phrase_group(groups: list[_Group], text: str, pos: str | None) -> bool:
    """Start a phrase sub-entry when `text` (a sense line's content) is one."""
    found = _phrase_of(text)
    if found is None:
        return False
    phrase, labels = found
    group = _Group(phrase, None, phrase=True)  # the phrase's own class is not given
    group.senses.append(_Sense(notes=labels, has_line=True))
    groups.append(group)
    return True


def _start_group(
    groups: list[_Group], rest: str, main: str, pos: str | None, ctx: _Context
) -> _Group:
    """A Roman-numeral group ('II.  <V> 1. …'): appended to `groups` and returned."""
    tag = re.match(r"^<([^<>]*)>\s*(?P<rest>.*)$", rest)
    group = _Group(main, pos)
    groups.append(group)
    if tag:
        group.pos = _pos_of(tag[1]) or pos
        rest = tag["rest"]
        if "Comp" in tag[1] or "Phras" in tag[1]:
            # '<N Comp>bank holiday /.../  [BR]   święto publiczne': its own headword
            head = re.match(r"^(?P<head>.+?)(?:\s+/[^/]*/|\s{2,}|$)(?P<rest>.*)$", rest)
            if head:
                group.headword = " ".join(head["head"].split())
                rest = head["rest"]
    rest = rest.strip()
    if rest and not (ctx.source == "en" and _phrase_group(groups, _content(rest), group.pos)):
        _sense_line(group, rest, ctx)
    elif rest:
        ctx.touched.append("phrase_pattern")
    return group


def _jmdict_pos(text: str) -> str | None:
    """'(Godan verb with `su' ending)' -> 'verb': the earliest part-of-speech word wins."""
    found = [(text.find(word), pos) for word, pos in _JMDICT_POS if word in text]
    return min(found)[1] if found else None


def _annotation(sense: _Sense, text: str) -> bool:
    """A whole-line '(…)' before the translations: a part of speech or a note (jpn-eng)."""
    if sense.has_line or not (text.startswith("(") and text.endswith(")")):
        return False
    pos = _jmdict_pos(text)
    if pos and sense.pos_hint is None:
        sense.pos_hint = pos
    elif not pos:
        sense.notes.append(text[1:-1].strip())
    return True


def _without_references(text: str) -> tuple[str, bool]:
    """Drop '{…}' cross-references; True when the line held nothing else (jpn-eng)."""
    if "{" not in text:
        return text, False
    rest = " ".join(_CROSS_REFERENCE.sub(" ", text).split())
    return rest, not rest


def _sense_line(group: _Group, text: str, ctx: _Context) -> None:
    numbered = _SENSE.match(text) if text[:1] in _SENSE_STARTS else None
    if numbered:
        sense = _Sense()
        group.senses.append(sense)
        rest, only_references = _without_references((numbered["rest"] or "").strip())
        if not only_references and not _annotation(sense, rest):
            sense.has_line = True  # even when empty: what follows is the gloss (WikDict)
            _split_translations(rest, sense, ctx)
        return
    sense = group.sense()
    text, only_references = _without_references(text)
    if only_references or _annotation(sense, text):
        return
    if sense.has_line:
        sense.notes.append(" ".join(text.split()))
    else:
        sense.has_line = True
        _split_translations(text, sense, ctx)


def _note(group: _Group, text: str, ctx: _Context) -> None:
    """'Note: archaismcat': a JMdict label glued to the sense's translation line."""
    found = _JMDICT_LABEL.match(text)
    if found and len(text) > found.end() and text[found.end()] not in " (":
        group.sense().notes.append(found[0])
        _sense_line(group, text[found.end() :], ctx)
        return
    group.sense().notes.append(text)


def _content(line: str) -> str:
    """A sense line without its number ('5.  with abandon (…)' -> 'with abandon (…)')."""
    numbered = _SENSE.match(line) if line[:1] in _SENSE_STARTS else None
    return (numbered["rest"] or "").strip() if numbered else line


def _headwords(form: str, source: str, ctx: _Context) -> list[tuple[str, str | None]]:
    """A written form as headwords: (headword, note) each, the entry-grammar rules applied
    (`announce sb./sth.` -> announce, noted; `aesthetic, esthetic` -> both)."""
    form = clean_text(form, source, ctx.touched)
    if not form:
        return []
    bare, meaningful = strip_placeholders(form, source)
    note = None
    if bare != form:
        ctx.touched.append("headword_placeholder")
        note = form if meaningful else None
    parts = split_headword(bare)
    if len(parts) > 1:
        ctx.touched.append("headword_split")
    return [(part, note) for part in parts]


def _lines(groups: list[_Group], lines: list[str], pos: str | None, ctx: _Context) -> None:
    """Read an entry's lines after the header into `groups` (the first is the entry's)."""
    main = groups[0]  # the group a sense line belongs to when no phrase sub-entry is open
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        first = line[0]  # dispatch on the first character: most lines need one test
        if first == '"' or (first in "sSA" and line.startswith(_SKIP_PREFIXES)):
            if first == "S" and line.startswith("See also:"):
                ctx.touched.append("cross_reference")
            continue
        if first == "N" and line.startswith("Note:"):
            _note(groups[-1], line[5:].strip(), ctx)
            continue
        roman = _GROUP.match(line) if first in "IVX" else None
        if roman:
            if not roman["rest"]:
                ctx.touched.append("group_number")
            main = _start_group(groups, roman["rest"] or "", main.headword, pos, ctx)
            continue
        if line.startswith("- "):
            _split_translations(line[2:], groups[-1].sense(), ctx)
            continue
        if ctx.source == "en" and _phrase_group(groups, _content(line), main.pos):
            ctx.touched.append("phrase_pattern")
            continue
        if groups[-1].phrase:  # the phrase's translations are over: back to the entry
            main = _Group(main.headword, main.pos)
            groups.append(main)
        _sense_line(groups[-1], line, ctx)


def parse_entry(text: str, source: str, target: str) -> list[BilingualEntry]:
    """Parse one rendered dictd entry into one record per part-of-speech group."""
    lines = text.strip("\n").split("\n")
    forms, pos = _parse_header(lines[0])
    headword = forms[0]
    groups = [_Group(headword, pos)]
    ctx = _Context(source, target)
    _lines(groups, lines[1:], pos, ctx)
    heads: dict[str, list[tuple[str, str | None]]] = {}
    entries = []
    for group in groups:
        translations: list[str] = []
        notes: list[str | None] = []
        for sense in group.senses:
            note = "; ".join(dict.fromkeys(sense.notes)) or None
            translations.extend(sense.translations)
            notes.extend(
                note if own is None else own if note is None else f"{note}; {own}"
                for own in sense.own
            )
        group_pos = group.pos or next((s.pos_hint for s in group.senses if s.pos_hint), None)
        if not translations or not group.headword:
            continue
        # The entry's own groups are filed under every written form; a compound or phrase
        # group (eng-pol '<N Comp>bank holiday') under its own headword only.
        for form in forms if group.headword == headword else [group.headword]:
            if form not in heads:
                heads[form] = _headwords(form, source, ctx)
            for head, head_note in heads[form]:
                entries.append(
                    BilingualEntry(
                        source_language=source,
                        target_language=target,
                        headword=head,
                        pos=group_pos,
                        translations=tuple(translations),
                        sense_notes=tuple(
                            head_note
                            if n is None
                            else n
                            if head_note is None
                            else f"{n}; {head_note}"
                            for n in notes
                        )
                        if head_note
                        else tuple(notes),
                    )
                )
    if entries and ctx.touched:
        counts = tuple(sorted(Counter(ctx.touched).items()))
        entries[0] = dataclasses.replace(entries[0], cleaned=counts)
    return entries
