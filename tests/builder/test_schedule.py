"""Which stage a free build worker takes next (builder/schedule.py), on toy plans and on
the plan the starter's committed slices make."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lexicon_server.builder.schedule import critical_path, makespan, next_stages


@dataclass(frozen=True)
class _Toy:
    name: str
    cost: float = 10.0
    needs: tuple[str, ...] = ()
    after: tuple[str, ...] = ()


def test_a_chain_counts_everything_that_waits_for_it() -> None:
    stages = [
        _Toy("align", 30),
        _Toy("english", 150, needs=("align",)),
        _Toy("german", 30),
        _Toy("german-vectors", 7, needs=("german",)),
        _Toy("link", 25, needs=("english", "german"), after=("german-vectors",)),
        _Toy("vectors", 45),
    ]
    rank = critical_path(stages)
    assert rank == {
        "align": 205,
        "english": 175,
        "german": 62,
        "german-vectors": 32,
        "link": 25,
        "vectors": 45,
    }


def test_free_workers_take_the_longest_ready_chain_first() -> None:
    stages = [
        _Toy("vectors", 45),
        _Toy("german", 30),
        _Toy("align", 30),
        _Toy("english", 150, needs=("align",)),
    ]
    rank = critical_path(stages)
    unfinished = {s.name for s in stages}
    assert [s.name for s in next_stages(stages, unfinished, 2, rank)] == ["align", "vectors"]
    # 'english' is not ready while 'align' runs, however long its chain.
    unfinished.discard("vectors")
    rest = [s for s in stages if s.name in ("german", "english")]
    assert [s.name for s in next_stages(rest, unfinished, 1, rank)] == ["german"]
    unfinished.discard("align")
    assert [s.name for s in next_stages(rest, unfinished, 1, rank)] == ["english"]
    assert next_stages(rest, unfinished, 0, rank) == []


def test_equal_ranks_keep_the_plan_order() -> None:
    stages = [_Toy("b"), _Toy("a"), _Toy("c")]
    ready = next_stages(stages, set(), 3, critical_path(stages))
    assert [s.name for s in ready] == ["b", "a", "c"]


def test_the_makespan_follows_the_builders_order() -> None:
    # The long chain starts first, the short stages fill the other worker around it,
    # and linking waits for both: 30 + 150 + 25 on one worker, 82 on the other.
    stages = [
        _Toy("german", 30),
        _Toy("german-vectors", 7, needs=("german",)),
        _Toy("vectors", 45),
        _Toy("align", 30),
        _Toy("english", 150, needs=("align",)),
        _Toy("link", 25, needs=("english", "german"), after=("german-vectors",)),
    ]
    seconds = {s.name: s.cost for s in stages}
    assert makespan(stages, seconds, workers=2) == 205
    assert makespan(stages, seconds, workers=1) == sum(seconds.values())
    # Measured times that differ from the estimates change the answer, not the order.
    # vectors (ranked 45) starts beside english once align and german are done: 30 + 200.
    assert makespan(stages, {**seconds, "vectors": 200}, workers=2) == 30 + 200


def test_the_starter_plan_starts_the_english_chain_first(
    tmp_path: Path, sample_sources: dict[str, Path]
) -> None:
    """On the real plan: MultiWordNet's alignment, then the English component, lead; every
    derived-vector stage reads only its own language's component and comes before
    linking, which waits for it."""
    from lexicon_server.builder.config import BuildConfig
    from lexicon_server.builder.inputs import resolve_inputs
    from lexicon_server.builder.plan import plan_build

    names = list(sample_sources)
    inputs = resolve_inputs(
        names,
        sample_sources,
        BuildConfig(cache_dir=tmp_path / "cache"),
        None,
        fetch=False,
        optional=frozenset(names),
    )
    plan = plan_build("starter", inputs, "sample")
    rank = critical_path(plan.stages)
    by_rank = sorted(plan.stages, key=lambda s: -rank[s.name])
    assert [s.name for s in by_rank[:2]] == ["shared.multiwordnet", "en.lexical"]
    order = [s.name for s in plan.stages]
    link = next(s for s in plan.stages if s.name == "shared.target_entries")
    derived = [s for s in plan.stages if s.name.endswith(".semantic") and s.needs]
    assert derived, "the sample plans derived vectors"
    for stage in derived:
        language = stage.name.partition(".")[0]
        assert stage.needs == (f"{language}.lexical",)
        assert stage.name in link.after
        assert order.index(stage.name) < order.index("shared.target_entries")
