"""The response budget: an oversized result is cut to fit and says what was cut."""

from __future__ import annotations

import copy

import pydantic_core
from _support.provenance import assert_sources_complete
from hypothesis import given
from hypothesis import strategies as st

from lexicon_server.models import (
    MAX_RESPONSE_CHARS,
    Example,
    LookupResult,
    Sense,
)
from lexicon_server.query.arguments import check_allocation
from lexicon_server.query.budget import (
    Cuts,
    answer_chars,
    clip_texts,
    fit_plain,
    json_bound,
    longest_prefix,
    round_robin,
)
from lexicon_server.query.lookup import _fit

SOURCES = {
    "other": "CC0-1.0",
    "wordnet-3.1": "WordNet",
}


def _sense(i: int, source: str) -> Sense:
    return Sense(
        id=f"en:s{i}",
        word="set",
        pos="noun",
        gloss="g" * 999,
        tags=[],
        source=source,
        examples=[],
        pronunciations=[],
        translations=[],
    )


def test_oversized_lookup_is_cut_to_the_budget() -> None:
    # The last ten senses alone cite "other": the cut drops them, and it with them.
    result = LookupResult(
        word="set",
        language="en",
        dataset_version="v",
        found=True,
        resolutions=[],
        total_senses=100,
        senses=[_sense(i, "other" if i >= 90 else "wordnet-3.1") for i in range(100)],
        pronunciations=[],
        unsensed_translations=[],
        sources=SOURCES,
    )
    data = result.model_dump(mode="json")
    assert_sources_complete(data)
    assert len(result.model_dump_json()) > MAX_RESPONSE_CHARS
    fitted = _fit(copy.deepcopy(data))
    assert len(pydantic_core.to_json(fitted).decode()) <= MAX_RESPONSE_CHARS
    assert 0 < len(fitted["senses"]) < 90
    assert fitted["cut"] and "response budget" in fitted["cut"][-1]
    assert list(fitted["sources"]) == ["wordnet-3.1"]
    assert_sources_complete(fitted)
    assert LookupResult.model_validate(fitted).model_dump(mode="json") == fitted
    # nothing is cut from a result that fits
    small = {**copy.deepcopy(data), "senses": data["senses"][:3]}
    small["sources"] = {"wordnet-3.1": data["sources"]["wordnet-3.1"]}
    assert _fit(copy.deepcopy(small)) == small


def test_long_text_is_shortened_and_reported() -> None:
    cuts = Cuts()
    assert cuts.clip("x" * 10, 20) == "x" * 10
    clipped = cuts.clip("x" * 50, 20)
    assert len(clipped) == 20 and clipped.endswith("…")
    assert cuts.notes() == ["1 long text field(s) shortened"]


def test_round_robin_deals_in_turn() -> None:
    assert round_robin([6, 3], 4) == [2, 2]
    assert round_robin([1, 5, 0], 4) == [1, 3, 0]
    assert round_robin([2, 2], 10) == [2, 2]
    assert round_robin([3, 3], 0) == [0, 0]


def test_default_allocation_is_capped_by_limit() -> None:
    assert check_allocation("x", None, 3) == 3
    assert check_allocation("x", None, 20) == 5
    assert check_allocation("x", 0, 20) == 0


def _deal_one_at_a_time(available: list[int], budget: int) -> list[int]:
    taken = [0] * len(available)
    while budget > 0 and any(t < a for t, a in zip(taken, available, strict=True)):
        for i, have in enumerate(available):
            if budget and taken[i] < have:
                taken[i] += 1
                budget -= 1
    return taken


@given(
    available=st.lists(st.integers(min_value=0, max_value=30), max_size=12),
    budget=st.integers(min_value=0, max_value=120),
)
def test_round_robin_matches_dealing_one_at_a_time(available: list[int], budget: int) -> None:
    assert round_robin(available, budget) == _deal_one_at_a_time(available, budget)


@given(texts=st.lists(st.text(max_size=200), max_size=8))
def test_json_bound_is_an_upper_bound(texts: list[str]) -> None:
    example = Example(text="".join(texts), source="wordnet-3.1")
    fields = {f"f{i}": t for i, t in enumerate(texts)}
    # measured as fit_response measures: characters of pydantic's JSON
    size = len(pydantic_core.to_json({"example": example, **fields}).decode())
    assert size <= json_bound(*texts, example.text, items=1)


def _drop_tail(data: dict[str, object], target: int) -> tuple[dict[str, object], list[str]]:
    items = list(data["items"])  # type: ignore[call-overload]
    keep = longest_prefix(len(items), lambda n: answer_chars({"items": items[:n]}), target)
    keep = max(keep, 1)
    return {"items": items[:keep]}, [f"items: {len(items) - keep} left out"]


@given(
    st.lists(st.text(min_size=0, max_size=30_000), min_size=0, max_size=12),
    st.integers(min_value=8_000, max_value=MAX_RESPONSE_CHARS),
)
def test_fit_plain_always_fits_and_says_what_it_cut(texts: list[str], limit: int) -> None:
    data: dict[str, object] = {"items": texts}
    fitted = fit_plain(data, [_drop_tail], limit)
    assert answer_chars(fitted) <= limit
    if answer_chars(data) <= limit:
        assert fitted == data  # nothing cut, no budget field
    else:
        assert fitted["budget"]["max_chars"] == MAX_RESPONSE_CHARS  # type: ignore[index]
        assert fitted["budget"]["cut"]  # type: ignore[index]
        kept = fitted["items"]
        assert isinstance(kept, list) and len(kept) <= len(texts)
        for got, sent in zip(kept, texts, strict=False):  # a kept text is whole or its clip
            assert got == sent or (got.endswith("…") and sent.startswith(got[:-1]))


def test_longest_prefix_is_the_largest_that_fits() -> None:
    sizes = [0, 5, 9, 14, 20]
    assert longest_prefix(4, lambda n: sizes[n], 13) == 2
    assert longest_prefix(4, lambda n: sizes[n], 100) == 4
    assert longest_prefix(4, lambda n: sizes[n], -1) == 0


def test_clip_texts_cuts_values_not_keys() -> None:
    value = {"k" * 20: ["x" * 20, "short", {"t": "y" * 30}], "n": 3}
    clipped, count = clip_texts(value, 10)
    assert count == 2
    assert clipped == {"k" * 20: ["x" * 9 + "…", "short", {"t": "y" * 9 + "…"}], "n": 3}
