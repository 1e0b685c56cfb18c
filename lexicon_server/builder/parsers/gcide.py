"""GCIDE as packaged for dictd (Debian ``dict-gcide``: ``gcide.index`` + ``gcide.dict.dz``).

The container is read by :func:`lexicon_server.builder.parsers.dictd.iter_texts`; this module
parses the plain-text rendering of each entry (one homograph per dictd entry)::

    House \\House\\ (hous), n.; pl. {Houses}. [OE. hous, hus, AS. h?s;
       akin to OS. ...]
       1. A structure intended or used as a habitation ...
          [1913 Webster]

                Houses are built to live in; not to look on.
                                                      --Bacon.
          [1913 Webster]
       6. (Com.) A firm, or commercial establishment.
       Syn: Dwelling; residence; abode. See {Tenement}.

- The header runs on while a ``[`` is open: headword, the syllabified spelling between
  backslashes (dropped), a ``(pronunciation)``, the part of speech as written (``n.``,
  ``v. t.``), inflection groups ``[imp. & p. p. {Housed}; ...]`` / ``pl. {Houses}``, and the
  etymology bracket(s); one- or two-word brackets such as ``[Obs.]`` are labels, dropped.
- Senses are ``N.`` paragraphs, or one unnumbered paragraph; a leading ``(Zool.)`` is the
  domain. Paragraphs indented deeper than the sense are quotations, their ``--Author`` line
  the attribution. ``[1913 Webster]``-style lines name the origin (kept for the first one).
- ``Syn:`` gives synonyms; ``Note:``, ``Usage:`` paragraphs and ``{Compound} (Domain), ...``
  sub-entries are not kept (no record has a place for them yet).
- A bracketed usage label in a sense (``[Obs.]``, ``[Colloq.]``, ``[slang]``, ``[Slang,
  U. S.]``) stays in the definition as written and is also given as the sense's `labels`;
  character entities (``[ae]``, ``[=e]``, ``[a^]``) are the short lower-case codes, the
  labels a capitalised word or abbreviation, or one of a few lower-case label words.
- ``{...}`` cross-reference braces are removed, keeping their text. The dictd conversion
  replaced non-ASCII letters by ``?`` (``AS. h?s``); the text is kept as it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from lexicon_server.builder.parsers._io import ParseError
from lexicon_server.builder.parsers.dictd import iter_texts
from lexicon_server.builder.parsers.gcide_entities import decode_entity
from lexicon_server.builder.records import DefinitionEntry, DefinitionSense, Quotation

__all__ = ["iter_entries", "parse_entry"]

_HEAD = re.compile(r"(?P<word>[^\\]+?)\s+\\(?P<spelled>[^\\]*)\\(?P<rest>.*)", re.S)
_PRON = re.compile(r"^\s*,?\s*\((?P<pron>[^()]*)\)")
_NUMBERED = re.compile(r"^(?P<number>\d+)\.\s*(?P<text>.*)$", re.S)
_DOMAIN = re.compile(r"^\((?P<domain>[A-Z][^()]{0,40})\)\s*")
# An origin line; text after it on the same line is the next entry's first word, bled in
# by the dictd conversion ('[1913 Webster] Ablet'), and is dropped.
_ORIGIN = re.compile(r"^\[(?P<origin>[^\[\]]*(?:Webster|WordNet|PJC|Century|Dict)[^\[\]]*)\]")
_ALSO_SPELLED = re.compile(r"^(?:,?\s*[^\\,\[]+?\s*\\[^\\]*\\)+")
# Character entities of the GCIDE markup: '[ae]', '[a^]' (circumflex), '[imac]' (macron).
_ENTITY = re.compile(r"\[(?P<e>[^\[\]\s]{1,7})\]")
_LIGATURES = {"ae": "æ", "oe": "œ", "AE": "Æ", "OE": "Œ"}
_ORIGIN_ANYWHERE = re.compile(r"\s*\[(?:[^\[\]]*(?:Webster|WordNet|PJC)[^\[\]]*)\]")
_AUTHOR = re.compile(r"\s--(?P<author>[^-].*)$", re.S)
_BRACES = re.compile(r"\{([^{}]*)\}")
_INFLECTION_START = ("imp.", "pl.", "p. p.", "p. pr.", "superl.", "compar.", "pres.", "sing.")
# GCIDE files its database description under two more names than dictd's usual ones.
_META_KEYS = ("00-database-", "00-gcide-", "00-web1913-")
_LABEL = re.compile(r"^[A-Z][\w.]*(?: [A-Z&][\w.]*)?$")
_LEADING_PRON = re.compile(r"^\((?:(?P<pron>[^()]{2,})\)\s*,?\s*|[^()]*$)")
_ENDS_IN_POS = re.compile(r",\s*(?:[a-z]{1,6}\.\s*)+$")
# A line that opens with a part of speech ('n.', 'v. t.', 'definite article.').
_POS_START = re.compile(r"^(?:[a-z]{1,6}\.(?=[\s,;]|$)|(?:in)?definite article)")


# Lower-case words GCIDE's editors (and its WordNet additions) write as labels.
_LOWER_LABELS = frozenset({"slang", "informal", "archaic", "obs.", "colloq.", "vulgar", "rare"})
_BRACKET = re.compile(r"\[(?P<label>[^\[\]]{1,40})\]")


def _is_label(code: str) -> bool:
    """'Obs.', 'R.', 'Colloq. U. S.', 'slang' are labels; 'ae', '=e', 'a^', 'E^' are not."""
    if code in _LIGATURES or code.casefold() in _LOWER_LABELS:
        return code not in _LIGATURES
    letters = sum(c.isalpha() for c in code)
    short = len(code.split()) <= 4  # '[Written also bouse.]' is a note, not a label
    return short and code[:1].isupper() and (letters >= 2 or code.endswith("."))


def _entity(match: re.Match[str]) -> str:
    code = match["e"]
    if code in _LIGATURES:
        return _LIGATURES[code]
    decoded = decode_entity(code)
    if decoded is not None:
        return decoded
    if _is_label(code):
        return match[0]  # a label such as '[Obs.]' or '[slang]', not a letter
    letters = [c for c in code if c.isalpha()]
    return letters[0] if letters else match[0]  # an unknown code: its first letter


def _tally(text: str) -> list[tuple[str, int]]:
    """(rule, 1) for the entity rules this entry's text needs: `entity` when a code is
    decoded, `entity_unknown` when one falls back to its first letter."""
    known = unknown = False
    for match in _ENTITY.finditer(text):
        code = match["e"]
        if code in _LIGATURES or decode_entity(code) is not None:
            known = True
        elif not _is_label(code) and any(c.isalpha() for c in code):
            unknown = True
    return [(rule, 1) for rule, hit in (("entity", known), ("entity_unknown", unknown)) if hit]


def _clean(text: str) -> str:
    """Braces removed, entities written as their base letter or ligature, spaces folded."""
    return " ".join(_ENTITY.sub(_entity, _BRACES.sub(r"\1", text)).split())


def _groups(text: str) -> tuple[str, list[str]]:
    """Split out top-level '[...]' groups: (text outside them, the groups' contents)."""
    outside: list[str] = []
    groups: list[str] = []
    depth, start = 0, 0
    for i, char in enumerate(text):
        if char == "[":
            if depth == 0:
                outside.append(text[start:i])
                start = i + 1
            depth += 1
        elif char == "]" and depth:
            depth -= 1
            if depth == 0:
                groups.append(text[start:i])
                start = i + 1
    outside.append(text[start:])
    return "".join(outside), groups


@dataclass
class _Header:
    headword: str
    pos: str | None = None
    pronunciation: str | None = None
    etymology: str | None = None
    domain: str | None = None
    inflections: list[str] = field(default_factory=list)
    wrapped_pos: bool = False  # a pronunciation stood where the part of speech is


def _parse_header(text: str) -> _Header | None:
    match = _HEAD.match(text)
    if match is None:
        return None
    header = _Header(headword=_clean(match["word"]))
    rest = match["rest"]
    pron = _PRON.match(rest)
    if pron:
        header.pronunciation = " ".join(_ENTITY.sub(_entity, pron["pron"]).split()) or None
        rest = rest[pron.end() :]
    also = _ALSO_SPELLED.match(rest)  # 'Banc \\Banc\\, Bancus \\Ban"cus\\, n.'
    if also:
        rest = rest[also.end() :]
        pron = _PRON.match(rest) if header.pronunciation is None else None
        if pron:  # 'Diarrhea \\Di`ar*rhe"a\\, Diarrhoea \\…\\, (d[imac]`ar*r[=e]"[.a]), n.'
            header.pronunciation = " ".join(_ENTITY.sub(_entity, pron["pron"]).split()) or None
            rest = rest[pron.end() :]
    outside, groups = _groups(_ENTITY.sub(_entity, rest))
    etymology: list[str] = []
    for group in groups:
        if group.strip().startswith(_INFLECTION_START):
            header.inflections.extend(_clean(i) for i in _BRACES.findall(group))
        elif not _LABEL.match(group.strip()):
            etymology.append(_clean(group))
    header.etymology = " ".join(etymology) or None
    header.inflections.extend(_clean(i) for i in _BRACES.findall(outside))
    pos = outside.strip().lstrip(",").split(";")[0]
    pos = _BRACES.sub("", pos).strip(" ,")
    domain = re.search(r"\s*\((?P<domain>[A-Z][^()]*)\)\s*$", pos)
    if domain:  # 'n. (Zool.)': the domain of every sense that names none of its own
        header.domain = domain["domain"]
        pos = pos[: domain.start()]
    pos = " ".join(pos.split())
    lead = _LEADING_PRON.match(pos)
    if lead:  # '(-dŏs), n.': an alternative spelling's pronunciation, or one left open
        header.wrapped_pos = True
        if lead["pron"] is not None:
            header.pronunciation = header.pronunciation or lead["pron"]
            pos = pos[lead.end() :]
        else:  # never closed: '(s[e^]f"[.a]*l[-o]*s[=o]m, n.' ends in its part of speech
            ends = _ENDS_IN_POS.search(pos)
            header.pronunciation = header.pronunciation or pos[1 : ends.start() if ends else None]
            pos = ends[0].lstrip(" ,") if ends else ""
    header.pos = pos if pos.strip(" .") else None  # a lone '.' is no part of speech
    return header


@dataclass
class _Sense:
    number: str | None
    text: list[str] = field(default_factory=list)
    quotations: list[Quotation] = field(default_factory=list)


def _paragraphs(lines: list[str]) -> Iterator[tuple[int, str]]:
    """(indent of the first line, text) per blank-line-separated paragraph."""
    block: list[str] = []
    for line in [*lines, ""]:
        if line.strip():
            block.append(line)
        elif block:
            indent = len(block[0]) - len(block[0].lstrip())
            yield indent, "\n".join(b.strip() for b in block)
            block = []


def _header_end(lines: list[str], *, parens: bool = True) -> int:
    """Index of the header's last line.

    The header wraps while a '[' or the '\\spelled\\' form is open, after a line ending in
    'pl.', ';' or '&', and into a line that starts with '{', '[' or '(' (the plural or
    etymology of ``Abaculus``); a plain text line after it is the first definition.
    """
    depth, open_parens, slashes, wrapped = 0, 0, 0, False
    for i, line in enumerate(lines):
        if i and not line.strip():
            return i - 1
        depth += line.count("[") - line.count("]")
        if parens and i == 0:
            # Only the pronunciation right after the spelled form may wrap; other
            # parentheses (an etymology's, a definition's) say nothing about the header.
            after = line[line.rfind("\\") + 1 :].lstrip(" ,")
            unclosed = after.startswith("(") and ")" not in after
            # ... unless the line ends in a part of speech: '(r[=e]`[a^]s*s[e^]s"ment, n.'
            open_parens = int(unclosed and not _ENDS_IN_POS.search(after))
        elif open_parens > 0:
            open_parens += line.count("(") - line.count(")")
        slashes += line.count("\\")
        following = lines[i + 1].strip() if i + 1 < len(lines) else ""
        # An open '(' is the pronunciation wrapping ('The \\The\\ ([th][=e], when
        # emphatic or alone; [th][-e], obscure' goes on to the next line).
        if depth > 0 or open_parens > 0 or slashes % 2 or slashes == 0:
            wrapped = wrapped or open_parens > 0
            continue
        if wrapped and line.rstrip().endswith(",") and _POS_START.match(following):
            continue  # the wrapped pronunciation closed; the part of speech is next
        if line.rstrip().endswith(("pl.", ";", "&")) or following.startswith(("{", "[", "(", "\\")):
            continue
        return i
    return len(lines) - 1


def parse_entry(text: str) -> DefinitionEntry | None:
    """Parse one GCIDE entry; ``None`` when it has no ``word \\spelled\\`` header."""
    lines = text.strip("\n").split("\n")
    # The release's first entry ('0') opens with an epigraph; a header starts at column 0.
    while len(lines) > 1 and not _HEAD.match(lines[0]) and lines[0][:1] in (" ", ""):
        lines.pop(0)
    end = _header_end(lines)
    header = _parse_header(" ".join(line.strip() for line in lines[: end + 1]))
    if header is None:
        return None
    cleaned = _tally("\n".join(lines))
    if header.wrapped_pos:
        cleaned.append(("pos_pronunciation", 1))
    if end and end != _header_end(lines, parens=False):
        cleaned.append(("pronunciation_wrap", 1))  # the header read before stopped short
    senses: list[_Sense] = []
    synonyms: list[str] = []
    source: str | None = None
    sense_indent = 3
    for indent, para in _paragraphs(lines[end + 1 :]):
        for first in para.split("\n"):
            origin = _ORIGIN.match(first.strip())
            if origin and source is None:
                source = origin["origin"].strip()
        body = "\n".join(ln for ln in para.split("\n") if not _ORIGIN.match(ln.strip()))
        if not body and indent > sense_indent + 3:
            continue
        if not body:
            continue
        if body.startswith("Syn:"):
            syn = re.sub(r"\bSee\b.*$", "", body[4:], flags=re.S)
            synonyms.extend(t for t in (_clean(p).strip(" .") for p in re.split(r"[;,]", syn)) if t)
            continue
        if body.startswith(("Note:", "Usage:", "{")):
            continue
        numbered = _NUMBERED.match(body)
        if numbered:
            senses.append(_Sense(numbered["number"], [numbered["text"]]))
            sense_indent = indent
        elif indent > sense_indent + 3 and senses:
            author = _AUTHOR.search(body)
            quote = body[: author.start()] if author else body
            senses[-1].quotations.append(
                Quotation(_clean(quote), _clean(author["author"]).rstrip(".") if author else None)
            )
        elif not senses:
            senses.append(_Sense(None, [body]))
            sense_indent = indent
        else:
            senses[-1].text.append(body)
    return DefinitionEntry(
        headword=header.headword,
        pos=header.pos,
        senses=tuple(_sense(s, header.domain) for s in senses if _clean(" ".join(s.text))),
        etymology=header.etymology,
        pronunciation=header.pronunciation,
        inflections=tuple(dict.fromkeys(header.inflections)),
        synonyms=tuple(dict.fromkeys(synonyms)),
        source=source,
        cleaned=tuple(cleaned),
    )


def _sense(sense: _Sense, default_domain: str | None) -> DefinitionSense:
    text = _clean(_ORIGIN_ANYWHERE.sub("", " ".join(sense.text)))
    domain = _DOMAIN.match(text)
    labels = [m["label"] for m in _BRACKET.finditer(text) if _is_label(m["label"])]
    return DefinitionSense(
        number=sense.number,
        definition=text[domain.end() :] if domain else text,
        domain=domain["domain"] if domain else default_domain,
        quotations=tuple(sense.quotations),
        labels=tuple(dict.fromkeys(labels)),
    )


def iter_entries(index_path: str | Path, dict_path: str | Path) -> Iterator[DefinitionEntry]:
    """Yield every entry with a GCIDE header, in file order.

    The 0.48 release has 11 dictd entries that are fragments of their neighbours (the
    converter cut inside an entry: ``{Molluscoidea}, including ...``); they are skipped. A
    file none of whose first 50 entries has a ``word \\spelled\\`` header is not GCIDE and
    raises :class:`ParseError`.
    """
    # ASCII but for three Windows-1252 quotes (0x92) in the 0.48 release: cp1252 reads both.
    texts = iter_texts(index_path, dict_path, "cp1252", _META_KEYS)
    found = 0
    for number, text in enumerate(texts, 1):
        entry = parse_entry(text)
        if entry is not None:
            found += 1
            yield entry
        elif number >= 50 and not found:
            first = text.strip().split("\n", 1)[0][:60]
            raise ParseError(
                dict_path,
                0,
                f"no entry of the first 50 starts 'word \\spelled\\' (last: {first!r})",
            )
    if not found:
        raise ParseError(dict_path, 0, "no entry starts 'word \\spelled\\': not a GCIDE file")
