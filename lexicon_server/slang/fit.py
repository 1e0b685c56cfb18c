"""The slang tools' answers cut to the response budget (query/budget.py).

A rewrite of 10,000 units can answer with a million characters (every match replaced by
a 100-unit phrase, each listed with its offsets), and an interpretation with thousands of
occurrences. What is left out to stay within the budget is said in `budget.cut`, as every
tool says it, with what to do to get the rest.
"""

from __future__ import annotations

from typing import Any

from lexicon_server.glossary.fit import drop_trailing
from lexicon_server.query.budget import answer_chars, fit_plain, longest_prefix
from lexicon_server.slang.offsets import utf16_len

__all__ = ["fit_definitions", "fit_interpret", "fit_rewrite"]

Data = dict[str, Any]


def fit_rewrite(data: Data) -> Data:
    """A `slang_rewrite` answer within the budget: trailing replacements are left out of
    the list first; if the output itself is too long, only a leading part of the text is
    rewritten (text and output both cut there) and the note says where to go on."""
    return fit_plain(data, [_drop_replacements, _rewrite_prefix])


def fit_interpret(data: Data) -> Data:
    """A `slang_interpret` answer within the budget: each entry lists at most as many
    occurrences as fit, then the echoed text is shortened, then each entry lists fewer
    meanings."""
    return fit_plain(data, [_cap_occurrences, _shorten_text, _cap_definitions])


def fit_definitions(data: Data) -> Data:
    """An Urban Dictionary answer within the budget: trailing definitions are left out."""
    return fit_plain(data, [_drop_definitions])


def _drop_replacements(data: Data, target: int) -> tuple[Data, list[str]]:
    replacements = data["replacements"]
    if answer_chars({**data, "replacements": []}) > target:
        return data, []  # the output itself is too long: _rewrite_prefix cuts it
    keep = longest_prefix(
        len(replacements),
        lambda n: answer_chars({**data, "replacements": replacements[:n]}),
        target,
    )
    left = len(replacements) - keep
    note = (
        f"replacements: the last {left} of {len(replacements)} left out to stay within the "
        "response budget; `output` has every replacement"
    )
    return {**data, "replacements": replacements[:keep]}, [note]


def _rewrite_prefix(data: Data, target: int) -> tuple[Data, list[str]]:
    text: str = data["text"]
    replacements = data["replacements"]

    def prefix(stop: int) -> tuple[int, str]:
        """Where a rewrite of text[:stop] ends (never inside a match), and its output."""
        pieces: list[str] = []
        pos = 0
        for item in replacements:
            if item["code_point_end"] > stop:
                stop = min(stop, item["code_point_start"])
                break
            pieces += (text[pos : item["code_point_start"]], item["replacement"])
            pos = item["code_point_end"]
        pieces.append(text[pos:stop])
        return stop, "".join(pieces)

    def shaped(stop: int) -> Data:
        end, output = prefix(stop)
        return {**data, "text": text[:end], "output": output, "replacements": []}

    end, _ = prefix(longest_prefix(len(text), lambda n: answer_chars(shaped(n)), target))
    notes = [
        f"text and output: only the first {end} code points ({utf16_len(text[:end])} UTF-16 "
        "units) of the text were rewritten, to stay within the response budget; call again "
        f"with the rest of the text, from code point {end}"
    ]
    if replacements:
        notes.append(f"replacements: all {len(replacements)} left out")
    return shaped(end), notes


def _capped(data: Data, field: str, cap: int) -> Data:
    return {**data, "entries": [{**e, field: e[field][:cap]} for e in data["entries"]]}


def _cap_entries(data: Data, target: int, field: str, what: str) -> tuple[Data, list[str]]:
    entries = data["entries"]
    most = max((len(e[field]) for e in entries), default=0)
    cap = longest_prefix(most, lambda n: answer_chars(_capped(data, field, n)), target)
    notes = [
        f"{field} of {e['term']!r}: the last {len(e[field]) - cap} of {len(e[field])} {what} "
        "left out to stay within the response budget"
        for e in entries
        if len(e[field]) > cap
    ]
    return _capped(data, field, cap), notes


def _cap_occurrences(data: Data, target: int) -> tuple[Data, list[str]]:
    return _cap_entries(data, target, "occurrences", "occurrences")


def _cap_definitions(data: Data, target: int) -> tuple[Data, list[str]]:
    return _cap_entries(data, target, "definitions", "meanings")


def _shorten_text(data: Data, target: int) -> tuple[Data, list[str]]:
    text: str = data["text"]

    def shaped(n: int) -> Data:
        return {**data, "text": text if n >= len(text) else text[:n] + "…"}

    keep = longest_prefix(len(text), lambda n: answer_chars(shaped(n)), target)
    if keep >= len(text):
        return data, []
    note = (
        f"text: the echo of the text shortened to its first {keep} code points; the "
        "offsets refer to the whole text that was sent"
    )
    return shaped(keep), [note]


def _drop_definitions(data: Data, target: int) -> tuple[Data, list[str]]:
    return drop_trailing(data, "definitions", target, ask="ask with a smaller limit")
