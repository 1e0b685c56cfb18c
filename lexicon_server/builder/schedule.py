"""Which ready stage a free build worker takes next.

With two cores and one stage far longer than the rest (the English lexical component),
the order in which stages start decides the wall time: started last, the long stage runs
alone while the other core idles. Each stage is ranked by the longest chain of work that
cannot start before it ends: its own estimated cost plus the costliest chain through the
stages that wait for it (`needs` or `after`). A free worker takes the highest-ranked ready
stage; ties keep the plan's order. The order never changes what a stage writes, only when.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol, TypeVar

__all__ = ["critical_path", "makespan", "next_stages"]


class _Scheduled(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def needs(self) -> tuple[str, ...]: ...
    @property
    def after(self) -> tuple[str, ...]: ...
    @property
    def cost(self) -> float: ...


def critical_path(stages: Sequence[_Scheduled]) -> dict[str, float]:
    """Stage name -> its cost plus the costliest chain of stages that wait for it."""
    waiters: dict[str, list[_Scheduled]] = {s.name: [] for s in stages}
    for stage in stages:
        for before in {*stage.needs, *stage.after}:
            if before in waiters:
                waiters[before].append(stage)
    rank: dict[str, float] = {}

    def chain(stage: _Scheduled) -> float:
        if stage.name not in rank:
            rank[stage.name] = stage.cost + max((chain(w) for w in waiters[stage.name]), default=0)
        return rank[stage.name]

    for stage in stages:
        chain(stage)
    return rank


S = TypeVar("S", bound=_Scheduled)


def next_stages(
    waiting: Iterable[S],
    unfinished: set[str],
    free: int,
    rank: Mapping[str, float],
) -> list[S]:
    """Up to `free` of the `waiting` stages whose predecessors are all finished, best
    ranked first (a stable sort: equal ranks keep the order of `waiting`)."""
    ready = [s for s in waiting if not unfinished & {*s.needs, *s.after}]
    ready.sort(key=lambda s: -rank.get(s.name, 0.0))
    return ready[: max(free, 0)]


def makespan(stages: Sequence[_Scheduled], seconds: Mapping[str, float], workers: int) -> float:
    """The wall time `workers` would take for `stages` lasting `seconds` each (a stage's
    CPU time: what it would take on an otherwise idle core), started in the order the
    builder starts them: the benchmark's answer to "how long on a quiet machine?"."""
    if workers < 1:
        raise ValueError(f"makespan needs at least one worker, got {workers}")
    rank = critical_path(stages)
    waiting = list(stages)
    unfinished = {s.name for s in stages}
    running: list[tuple[float, str]] = []  # (end time, stage)
    now = 0.0
    while waiting or running:
        for stage in next_stages(waiting, unfinished, workers - len(running), rank):
            waiting.remove(stage)
            running.append((now + seconds.get(stage.name, 0.0), stage.name))
        if not running:
            raise ValueError("no stage can start: the plan's needs and after form a cycle")
        running.sort()
        now, name = running.pop(0)
        unfinished.discard(name)
    return now
