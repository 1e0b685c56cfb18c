"""English letter-to-sound rules: a guessed ARPAbet pronunciation for a spelling CMUdict
does not list (`fone` -> F OW N, `nite` -> N AY T), for the `sounds_like` kind.

A small rule set, not a trained model: it reads the word left to right and at each
position takes the longest matching spelling in `_RULES`, some of them only in a context
(word start or end, before e/i/y). On top of that:

- silent final e, and the vowel before a single consonant and a final e is long
  (`nite`, `fone`, `cute`; also before a final -es/-ed: `hoped`);
- a doubled consonant sounds once (`butter`), `c` and `g` are soft before e, i and y;
- a vowel letter alone is short (a AE, e EH, i IH, o AA, u AH); `y` is a consonant at
  the start, AY at the end of a word of up to three letters (`my`), IY at the end of a
  longer one (`happy`) and IH inside it.

Stress is not predicted (the phones carry no digits); `sounds_like` compares sounds with
stress dropped. Limits: no morphology (compounds and prefixes read as one word), no
syllable-level rules (`-tion` and `-ous` are spelled out below, others are not), and
English only. The aim is a spelling close enough that the nearest real pronunciation is
the intended word, which the phonetic distance then finds.
"""

from __future__ import annotations

__all__ = ["letter_sounds"]

_VOWELS = frozenset("aeiou")
_SOFT = frozenset("eiy")
_LONG = {"a": ["EY"], "e": ["IY"], "i": ["AY"], "o": ["OW"], "u": ["UW"], "y": ["AY"]}

# spelling -> phones, tried longest first. '^' marks a word start, '$' a word end.
_RULES: dict[str, list[str]] = {
    "^kn": ["N"],
    "^wr": ["R"],
    "^gn": ["N"],
    "^ps": ["S"],
    "^wh": ["W"],
    "tion": ["SH", "AH", "N"],
    "sion": ["ZH", "AH", "N"],
    "ous$": ["AH", "S"],
    "augh": ["AO"],
    "ough": ["AO"],
    "eigh": ["EY"],
    "igh": ["AY"],
    "tch": ["CH"],
    "dge": ["JH"],
    "mb$": ["M"],
    "gn$": ["N"],
    "ph": ["F"],
    "th": ["TH"],
    "sh": ["SH"],
    "ch": ["CH"],
    "ck": ["K"],
    "ng": ["NG"],
    "qu": ["K", "W"],
    "gh": [],
    "ee": ["IY"],
    "ea": ["IY"],
    "oo": ["UW"],
    "ai": ["EY"],
    "ay": ["EY"],
    "oa": ["OW"],
    "ow$": ["OW"],
    "ow": ["AW"],
    "ou": ["AW"],
    "oi": ["OY"],
    "oy": ["OY"],
    "au": ["AO"],
    "aw": ["AO"],
    "ie$": ["AY"],
    "ie": ["IY"],
    "ei": ["IY"],
    "ey$": ["IY"],
    "ue": ["UW"],
    "ew": ["UW"],
    "ar": ["AA", "R"],
    "er": ["ER"],
    "ir": ["ER"],
    "ur": ["ER"],
    "or": ["AO", "R"],
    "x": ["K", "S"],
    "o$": ["OW"],
    "c": ["K"],
    "g": ["G"],
    "q": ["K"],
    "a": ["AE"],
    "e": ["EH"],
    "i": ["IH"],
    "o": ["AA"],
    "u": ["AH"],
    "b": ["B"],
    "d": ["D"],
    "f": ["F"],
    "h": ["HH"],
    "j": ["JH"],
    "k": ["K"],
    "l": ["L"],
    "m": ["M"],
    "n": ["N"],
    "p": ["P"],
    "r": ["R"],
    "s": ["S"],
    "t": ["T"],
    "v": ["V"],
    "w": ["W"],
    "z": ["Z"],
}
_LONGEST = max(len(key.strip("^$")) for key in _RULES)


def _magic_e(word: str, at: int) -> bool:
    """True when the vowel at `at` is followed by one consonant and a final e (or -es/-ed)."""
    rest = word[at + 1 :]
    if len(rest) < 2 or rest[0] in _VOWELS or rest[0] in "xwy" or rest[1] != "e":
        return False
    return rest[2:] in ("", "s", "d")


def _rule(word: str, at: int) -> tuple[int, list[str]] | None:
    """(letters used, phones) of the longest rule matching at `at`."""
    for size in range(min(_LONGEST, len(word) - at), 0, -1):
        piece = word[at : at + size]
        end = at + size == len(word)
        for key in (f"^{piece}" if at == 0 else None, f"{piece}$" if end else None, piece):
            if key is not None and key in _RULES:
                return size, _RULES[key]
    return None


def _special(word: str, at: int) -> tuple[int, list[str]] | None:
    """The context rules a plain table cannot say: final e, y, soft c/g, magic e."""
    letter = word[at]
    after = word[at + 1 : at + 2]
    if letter == "e" and at == len(word) - 1 and any(ch in _VOWELS for ch in word[:at]):
        return 1, []  # silent final e
    if letter == "e" and at == len(word) - 2 and at >= 2 and _magic_e(word, at - 2):
        return 1, []  # the e of -es/-ed after a long vowel: 'hoped', 'fones'
    if letter == "y":
        if at == 0 or (after and after in _VOWELS):
            return 1, ["Y"]
        if at == len(word) - 1:
            return 1, ["AY"] if len(word) <= 3 else ["IY"]
        return 1, ["IH"]
    if letter == "c" and after in _SOFT:
        return 1, ["S"]
    if letter == "g" and after in _SOFT and after:
        return 1, ["JH"]
    if letter in _VOWELS and _magic_e(word, at):
        return 1, _LONG[letter]
    return None


def letter_sounds(word: str) -> list[str]:
    """Guessed ARPAbet phones (no stress digits) of a spelling of letters a-z."""
    phones: list[str] = []
    at = 0
    while at < len(word):
        if at > 0 and word[at] == word[at - 1] and word[at] not in _VOWELS:
            at += 1  # a doubled consonant sounds once
            continue
        found = _special(word, at) or _rule(word, at)
        if found is None:  # a letter no rule covers (none in a-z): skip it
            at += 1
            continue
        size, sounds = found
        phones.extend(sounds)
        at += size
    return phones
