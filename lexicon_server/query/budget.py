"""The response budget: what a result may hold, how items are dealt, what was cut."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, Self, TypeVar

from pydantic_core import to_json

from lexicon_server.models import MAX_RESPONSE_CHARS, Resolution
from lexicon_server.query.provenance import resolution_chars

if TYPE_CHECKING:
    from pydantic import BaseModel

__all__ = [
    "EXAMPLE_CHARS",
    "GLOSS_CHARS",
    "Cuts",
    "Cutter",
    "answer_bound",
    "answer_chars",
    "budget_data",
    "clip",
    "clip_texts",
    "drop_last_group",
    "fit_plain",
    "fit_response",
    "fitted",
    "json_bound",
    "json_size",
    "longest_prefix",
    "round_robin",
]

# Free text longer than this is shortened (and the response says so).
GLOSS_CHARS = 1_000
EXAMPLE_CHARS = 500


class Cuts:
    """Collects what a response left out or shortened, for its `cut`."""

    def __init__(self) -> None:
        self.items: list[str] = []
        self._clipped = 0

    def add(self, note: str) -> None:
        self.items.append(note)

    def clip(self, text: str, limit: int) -> str:
        if len(text) <= limit:
            return text
        self._clipped += 1
        return text[: limit - 1] + "…"

    def notes(self) -> list[str]:
        notes = list(self.items)
        if self._clipped:
            notes.append(f"{self._clipped} long text field(s) shortened")
        return notes


def budget_data(cut: list[str]) -> dict[str, Any]:
    """A glossary or slang result's `budget` as plain data: `cut` only when something was
    cut. (A dictionary tool's result says `cut` alone.)"""
    return (
        {"max_chars": MAX_RESPONSE_CHARS, "cut": cut} if cut else {"max_chars": MAX_RESPONSE_CHARS}
    )


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def round_robin(available: Sequence[int], budget: int) -> list[int]:
    """How many items each group gets when `budget` items are dealt one per group in turn.

    Computed a full round at a time: every group still holding items gets the same share
    until the budget no longer covers a round, then the first groups in order get one more.
    """
    taken = [0] * len(available)
    remaining = budget
    active = [i for i, have in enumerate(available) if have > 0]
    while remaining > 0 and active:
        share = remaining // len(active)
        if share == 0:
            for i in active[:remaining]:
                taken[i] += 1
            break
        still: list[int] = []
        for i in active:
            give = min(share, available[i] - taken[i])
            taken[i] += give
            remaining -= give
            if taken[i] < available[i]:
                still.append(i)
        active = still
    return taken


_M = TypeVar("_M", bound="BaseModel")


def fit_response(
    model: _M,
    shrink: Callable[[_M, int], tuple[_M, str] | None],
    max_chars: int = MAX_RESPONSE_CHARS,
    bound: int | None = None,
) -> _M:
    """Drop trailing items (via `shrink`) until the serialised model fits `max_chars`.

    `shrink(model, excess)` returns a smaller model and a note saying what was cut, or
    None when nothing more can go. `bound`, when given, is a safe upper estimate of the
    serialised size; below the budget it spares serialising just to measure.
    """
    if bound is not None and bound <= max_chars:
        return model
    for _ in range(200):
        size = len(model.model_dump_json())
        if size <= max_chars:
            return model
        shrunk = shrink(model, size - max_chars)
        if shrunk is None:
            return model
        model, _note = shrunk
    return model


class _Grouped(Protocol):
    """A result whose `groups` each hold `candidates` (synonyms, translations)."""

    @property
    def groups(self) -> Sequence[Any]: ...

    @property
    def resolutions(self) -> Sequence[Resolution] | None: ...

    @property
    def sources(self) -> Mapping[str, Any]: ...

    @property
    def cut(self) -> list[str]: ...

    def model_copy(
        self, *, update: Mapping[str, Any] | None = None, deep: bool = False
    ) -> Self: ...


_G = TypeVar("_G", bound=_Grouped)


def drop_last_group(result: _G, _excess: int) -> tuple[_G, str] | None:
    """A `fit_response` shrink step: the result without its last group, counts updated
    and `sources` trimmed to the keys the kept facts still name."""
    if not result.groups:
        return None
    kept = result.groups[:-1]
    note = "groups: dropped the last group to stay within the response budget"
    named = {r.source for r in result.resolutions or ()}
    for group in kept:
        if group.sense is not None:
            named.add(group.sense.source)
        # A synonym group names its candidates' source once, and the few that differ
        # in its `details`; a translation names its own.
        named.add(getattr(group, "source", None))
        details = getattr(group, "details", {}).values()
        named.update(getattr(c, "source", None) for c in (*group.candidates, *details))
    named.discard(None)
    update = {
        "groups": kept,
        "sources": {key: info for key, info in result.sources.items() if key in named},
        "cut": [*result.cut, note],
    }
    return result.model_copy(update=update), note


def json_bound(*texts: str | None, items: int = 0) -> int:
    """A safe upper estimate of the JSON size of `texts` plus `items` objects with a
    source reference: a character takes at most 6 in JSON (`\\u001f`), each object with
    its source and field names at most 400."""
    return sum(6 * len(t) for t in texts if t) + 400 * items


def answer_bound(
    chars: int,
    items: int,
    word: str,
    dataset_version: str,
    resolutions: Sequence[Resolution],
    cut: Sequence[str],
    cited: Mapping[str, str],
) -> int:
    """A safe upper bound of a grouped answer's serialised size: `chars` of free text and
    `items` objects in its body, plus what every such answer carries (the word, the
    dataset version, the resolutions, the cut notes, the cited sources and the result's
    own fields); see json_bound."""
    chars += len(word) + len(dataset_version) + resolution_chars(resolutions)
    chars += sum([len(note) for note in cut]) + sum(map(len, cited.values()))
    items += len(resolutions) + len(cited) + 3
    return json_bound(items=items) + 6 * chars


def json_size(data: dict[str, Any]) -> int:
    """An upper bound of a result's serialised size in characters, measured on its plain
    data: the UTF-8 bytes (the model dumps the same JSON). The estimate from text lengths
    comes first; this is for long answers whose estimate exceeds the budget, where
    building the model only to measure it cost several times more."""
    return len(to_json(data))


def fitted(
    model_type: type[_M],
    data: dict[str, Any],
    bound: int,
    shrink: Callable[[_M, int], tuple[_M, str] | None],
    max_chars: int = MAX_RESPONSE_CHARS,
) -> _M:
    """Plain answer `data` (whose serialised size is at most `bound`) as the typed result,
    cut by `shrink` to the response budget when it exceeds `max_chars`. The data is
    validated once; only an answer whose bound exceeds the budget is measured."""
    model = model_type.model_validate(data)
    if bound <= max_chars or json_size(data) <= max_chars:
        return model
    return fit_response(model, shrink, bound=bound)


# A step that makes plain answer data smaller: given the data and the size to reach, the
# smaller data and the notes saying, in words, what it left out.
Cutter = Callable[[dict[str, Any], int], tuple[dict[str, Any], list[str]]]


def answer_chars(data: Mapping[str, Any]) -> int:
    """The characters of `data` as compact JSON: the size of an answer's text content."""
    return len(to_json(data).decode())


def longest_prefix(count: int, size_with: Callable[[int], int], target: int) -> int:
    """The largest n in 0..count with size_with(n) <= target (0 when none fits);
    `size_with` grows with n, so this is a binary search."""
    low, high = 0, count
    while low < high:
        middle = (low + high + 1) // 2
        if size_with(middle) <= target:
            low = middle
        else:
            high = middle - 1
    return low


def clip_texts(value: Any, limit: int) -> tuple[Any, int]:
    """`value` with every string longer than `limit` cut to `limit` characters ending in
    `…`, and how many were cut. Dictionary keys are never cut."""
    if isinstance(value, str):
        return (value, 0) if len(value) <= limit else (value[: limit - 1] + "…", 1)
    if isinstance(value, list):
        pairs = [clip_texts(item, limit) for item in value]
        return [item for item, _ in pairs], sum(n for _, n in pairs)
    if isinstance(value, dict):
        clipped = {key: clip_texts(item, limit) for key, item in value.items()}
        return {key: item for key, (item, _) in clipped.items()}, sum(
            n for _, n in clipped.values()
        )
    return value, 0


def _clip_long_texts(data: dict[str, Any], _target: int) -> tuple[dict[str, Any], list[str]]:
    clipped, count = clip_texts(data, GLOSS_CHARS)
    return clipped, [f"{count} long text field(s) shortened"] if count else []


def fit_plain(
    data: dict[str, Any], cutters: Sequence[Cutter], max_chars: int = MAX_RESPONSE_CHARS
) -> dict[str, Any]:
    """Plain answer data cut to the response budget, with `budget` saying what was cut.

    While the data is over the budget, each cutter in turn makes it smaller (dropping
    trailing items, listing fewer occurrences, ...); the last resort shortens every text
    longer than GLOSS_CHARS. The result carries `budget: {max_chars, cut}` as the
    dictionary tools' results do when anything was cut, and is returned as it was (no
    `budget`) when it fits.
    """
    if answer_chars(data) <= max_chars:
        return data
    target = max_chars
    fitted = data
    for _ in range(8):  # the notes take room too: retry with the room they took set aside
        fitted, notes = data, []
        for cutter in (*cutters, _clip_long_texts):
            if answer_chars(fitted) <= target:
                break
            fitted, more = cutter(fitted, target)
            notes += more
        content = answer_chars(fitted)
        fitted = {**fitted, "budget": budget_data(notes)}
        size = answer_chars(fitted)
        if size <= max_chars:
            break
        target = min(target - 1, max_chars - (size - content))
    return fitted
