"""The entry grammar of FreeDict's dictionaries, read into clean headwords and translations.

FreeDict's renderings write grammar into the text: valency placeholders (`announce sth.`,
`etw. ankündigen`, `sb./sth.`), several headwords in one (`aesthetic, esthetic`), a
translation's abbreviation glued to its grammar tag (`Straße <fem>Str.,  /…/`), empty
brackets left by removed tags (`Ablehnung ( )`), ellipses marking a compound element or a
sentence to be continued (`Einzelhandels…`, `dass …`), the Dutch `ĳ` ligature. The functions
here turn such text into the word a person looks up, and say which rule touched it, so the
build can count every rule (`RULES`, docs/source-formats.md "Entry grammar").

Placeholders are stripped only at the edges of a text: in the middle of a phrase they are
its grammar (`take sth. into account` stays as written).
"""

from __future__ import annotations

import re

__all__ = [
    "RULES",
    "clean_text",
    "split_headword",
    "strip_placeholders",
]

# Every rule the dictd parser counts, in the build report's order. Headword rules count
# headwords (one per dictd entry or sub-entry), the others translation rows.
RULES = (
    "headword_placeholder",  # 'announce sth.' -> 'announce'
    "headword_split",  # 'aesthetic, esthetic' -> two headwords
    "translation_placeholder",  # 'etw. ankündigen' -> 'ankündigen'
    "abbreviation",  # 'Straße <fem>Str.,  /…/' -> 'Straße', note 'abbr. Str.'
    "empty_brackets",  # 'Ablehnung ( )' -> 'Ablehnung'
    "ellipsis",  # 'Einzelhandels…' -> 'Einzelhandels'; a row that is only '…' goes
    "ligature",  # 'ĳs' -> 'ijs'
    "phrase_pattern",  # eng-pol 'with abandon (:with ADJ :abandon)' -> its own headword
    "group_number",  # eng-pol's bare 'I.' group line, read as a translation before
    "cross_reference",  # eng-pol 'See also:' lines, read as translations before
)

_EN = r"(?:sth|sb|smth|smb|sbd|s\.o|s\.th)\.?"
_DE = r"(?:etw|jd|jdn|jdm|jds|jmd|jmdn|jmdm|jmds)\."
_PLACEHOLDERS = {"en": _EN, "de": _DE}
# Person placeholders: the valency they show (dative 'jdm. helfen') is worth a note.
_PERSON = re.compile(r"^(?:sb|smb|sbd|s\.o|jd|jdn|jdm|jds|jmd|jmdn|jmdm|jmds)\.?$")


def _edge_patterns(language: str) -> tuple[re.Pattern[str], re.Pattern[str]] | None:
    token = _PLACEHOLDERS.get(language)
    if token is None:
        return None
    # 'sb./sth.', 'sb/sth', '(sth.)', 'jdn./etw.' are one placeholder.
    bare = rf"{token}(?:/{token})*"
    unit = rf"(?:\({bare}\)|{bare})"
    return re.compile(rf"^{unit}(?=\s)\s*"), re.compile(rf"\s+{unit}$")


_EDGES = {lang: _edge_patterns(lang) for lang in _PLACEHOLDERS}


def strip_placeholders(text: str, language: str) -> tuple[str, bool]:
    """(`text` without placeholders at its start and end, whether the stripped part named a
    person or more than one object: then the original is worth keeping as a note).

    `announce sb./sth.` -> ('announce', True); `etw. ankündigen` -> ('ankündigen', False);
    a text that is only placeholders is returned as it is.
    """
    edges = _EDGES.get(language)
    if edges is None or not text:
        return text, False
    head, tail = edges
    stripped: list[str] = []
    rest = text
    while True:
        found = head.match(rest) or tail.search(rest)
        if found is None:
            break
        candidate = (rest[: found.start()] + rest[found.end() :]).strip()
        if not candidate:
            break
        stripped.append(found[0].strip(" ()"))
        rest = candidate
    if not stripped:
        return text, False
    parts = [p for s in stripped for p in s.split("/")]
    meaningful = len(stripped) > 1 or any(_PERSON.match(p) for p in parts)
    return rest, meaningful


_LIGATURES = str.maketrans(
    {"ĳ": "ij", "Ĳ": "IJ", "ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬆ": "st"}
)
_LIGATURE = re.compile("[ĳĲﬀﬁﬂﬃﬄﬆ]")  # one scan, not one per ligature
_EMPTY_BRACKETS = re.compile(r"\s*(?:\(\s*\)|\[\s*\]|\{\s*\})")
_EDGE_ELLIPSIS = re.compile(r"^(?:…|\.\.\.)\s*|\s*(?:…|\.\.\.)$")


def clean_text(text: str, language: str, touched: list[str]) -> str:
    """One headword or translation with the text rules applied; the names of the rules that
    changed it are appended to `touched`. An empty result means the row carries nothing."""
    if _LIGATURE.search(text):
        text = text.translate(_LIGATURES)
        touched.append("ligature")
    if "(" in text or "[" in text or "{" in text:
        cleaned = " ".join(_EMPTY_BRACKETS.sub("", text).split())
        if cleaned != text:
            text = cleaned
            touched.append("empty_brackets")
    if "…" in text or "..." in text:
        cleaned = text
        while True:  # '… dass …' loses both ends
            shorter = _EDGE_ELLIPSIS.sub("", cleaned).strip()
            if shorter == cleaned:
                break
            cleaned = shorter
        if cleaned != text:
            text = cleaned.rstrip(",;: ")
            touched.append("ellipsis")
    return text


_SENTENCE_END = ("!", "?", ".", "…", "'", '"', "-")
_ABBREVIATION = re.compile(r"^[A-Za-z]+(?:\.[A-Za-z]+)*\.?$")


def _initials(abbreviation: str, phrase: str) -> bool:
    letters = abbreviation.replace(".", "").casefold()
    words = phrase.replace("-", " ").split()
    return len(words) > 1 and letters == "".join(w[0] for w in words).casefold()


def split_headword(headword: str) -> list[str]:
    """`'aesthetic, esthetic'` -> both; `'AD, Anno Domini'` -> both (an abbreviation and its
    expansion); anything else with a comma is one headword (a sentence, `Washington, D.C.`,
    `Tom, Dick and Harry`, `Toi, toi, toi!`)."""
    if ", " not in headword or headword.endswith(_SENTENCE_END):
        return [headword]
    parts = [p.strip() for p in headword.split(",")]
    if len(parts) > 3 or any(not p or p.endswith(_SENTENCE_END) for p in parts):
        return [headword]
    if len({p.casefold() for p in parts}) < len(parts):
        return [headword]  # 'toi, toi, toi'
    if all(" " not in p for p in parts):
        titled = any(p[:1].isupper() and not p.isupper() for p in parts)
        if titled and len({p[:3].casefold() for p in parts}) > 1:
            return [headword]  # 'Washington, D.C.', 'Mechanical, Electrical, Plumbing'
        return parts
    if len(parts) == 2:
        short, long_ = sorted(parts, key=len)
        if _ABBREVIATION.match(short) and _initials(short, long_):
            return parts
    return [headword]
