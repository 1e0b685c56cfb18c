"""Spellings ISLEX knows only as names or foreign words, for the wordplay stage.

ISLEX labels each word with the Penn Treebank tags it was seen with (`nn`, `vbd`, `nnp`
for a proper noun, `fw` for a foreign word) and with name lists (`nnp_boyname_0.197`: the
share of people with that first name; `nnp_city`). The wordplay stage counts a spelling no
lexicon lists as a word when it is common (issue 29), and common spellings include names
(`chris`, `sean`, `larry`) and foreign words (`de`, `le`, `et`); these labels tell them
apart without a list of names of our own.
"""

from __future__ import annotations

from collections.abc import Iterable

from lexicon_server.builder.records import IslexEntry

__all__ = ["name_spellings"]

_PROPER = frozenset({"nnp", "nnps", "fw"})
# A name list entry whose share rounds to 0.000 is the rarest of the census lists
# ('croissant', 'salsa' and 'um' are surnames there): no evidence on its own.
_NO_SHARE = "_0.000"


def name_spellings(entries: Iterable[IslexEntry]) -> frozenset[str]:
    """Every ISLEX word seen only as a proper noun or a foreign word, or listed only as a
    name (`chris`, `sean`, `u.s`), and every word ever tagged foreign (`de`, `le`, `et`:
    their other tags come from names such as 'de Gaulle'). Words of a phrase keep
    ISLEX's `_`; callers compare lower-case spellings."""
    pos: dict[str, set[str]] = {}
    names: dict[str, set[str]] = {}
    for entry in entries:
        pos.setdefault(entry.word, set()).update(entry.pos)
        names.setdefault(entry.word, set()).update(t for t in entry.tags if t.startswith("nnp_"))
    return frozenset(word for word, tags in pos.items() if _is_name(tags, names[word]))


def _is_name(pos: set[str], names: set[str]) -> bool:
    if "fw" in pos:
        return True
    if pos - _PROPER:
        return False  # seen as a common word too ('bill', 'mark', 'jenny')
    return bool(pos) or any(not name.endswith(_NO_SHARE) for name in names)
