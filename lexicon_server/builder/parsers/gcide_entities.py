"""GCIDE's character entities, as the dictd conversion writes them, decoded to Unicode.

The dictd text writes the letters GCIDE's SGML source marks up as short bracketed codes:
`[eth]` ð, `[thorn]` þ, `[yogh]` ȝ, `[ae]` æ, Greek letters by name (`[alpha]`), and
accented letters as a mark and a base letter: `[=e]` ē (macron), `[e^]` ĕ (breve, Webster's
short vowel), `[^e]` ê (circumflex), `['e]` é, `` [`e] `` è, `["o]` ö, `[~n]` ñ, `[,c]` ç,
`[*a]` å, `[.a]` ȧ (a dot above a vowel, below a consonant: Sanskrit `[.r]` ṛ), `[imac]` ī,
`[aum]` ä, `[add]` a̤ and `[udd]` ṳ (Webster's two dots below). Before, every code became its
first letter, so `the`'s etymology read "AS. ee, ey" for "AS. ðē, ðȳ".

Codes this table does not know keep that fallback (their first letter) and are counted
(`entity_unknown`), so the build report shows what is left.
"""

from __future__ import annotations

import unicodedata

__all__ = ["decode_entity"]

_MARKS = {
    "=": "\u0304",  # macron
    "^": "\u0302",  # circumflex, written before the letter
    "'": "\u0301",  # acute
    "`": "\u0300",  # grave
    '"': "\u0308",  # diaeresis
    "~": "\u0303",  # tilde
    ",": "\u0327",  # cedilla
    "*": "\u030a",  # ring above
}
_BREVE = "\u0306"  # written after the letter: '[a^]'
_DOT_ABOVE, _DOT_BELOW = "\u0307", "\u0323"
_GREEK = (
    "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
    "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "tau", "upsilon", "phi",
    "chi", "psi", "omega",
)  # fmt: skip
_NAMED = {
    "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ", "=ae": "ǣ", "eth": "ð", "ETH": "Ð",
    "thorn": "þ", "THORN": "Þ", "yogh": "ȝ", "imac": "ī", "aum": "ä", "add": "a\u0324",
    "udd": "u\u0324", "oo^": "o\u035do", "=oo": "o\u035eo", "ng": "ŋ", "th": "th",
    "deg": "°", "sect": "§", "root": "√", "pounds": "£", "flat": "♭", "sharp": "♯",
    "natural": "♮", "prime": "′", "bprime": "′", "bar": "|", "cre": "˘", "hand": "☞",
    "dagger": "†", "ddagger": "‡", "para": "¶", "middot": "·", "divide": "÷", "times": "×",
    "frac12": "½", "frac14": "¼", "frac34": "¾", "frac13": "⅓", "frac23": "⅔",
}  # fmt: skip
_NAMED.update({name: chr(0x3B1 + i + (i > 16)) for i, name in enumerate(_GREEK)})
_NAMED.update({name.capitalize(): chr(0x391 + i + (i > 16)) for i, name in enumerate(_GREEK)})


def _compose(letter: str, mark: str) -> str:
    return unicodedata.normalize("NFC", letter + mark)


def decode_entity(code: str) -> str | None:
    """The text a bracketed GCIDE code stands for, or None when the code is not known."""
    if code in _NAMED:
        return _NAMED[code]
    if len(code) == 2:
        mark, letter = code[0], code[1]
        if mark in _MARKS and letter.isalpha():
            return _compose(letter, _MARKS[mark])
        if mark == "." and letter.isalpha():
            return _compose(letter, _DOT_ABOVE if letter in "aeiouyAEIOUY" else _DOT_BELOW)
        if mark == "-" and letter.isalpha():
            return _compose(letter, _MARKS["="])  # Webster's semi-long vowel: a macron
        if code[1] == "^" and code[0].isalpha():
            return _compose(code[0], _BREVE)
    return None
