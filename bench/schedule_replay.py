"""Replay a finished build's plan on idle workers: an estimate of its quiet-machine wall.

    uv run python bench/schedule_replay.py --built OUT/built --log OUT/build.log --cpu 796

Each stage's checkpointed wall seconds are scaled by CPU / (sum of stage walls), i.e. the
estimate assumes the load slowed every stage alike. Stages are taken in the order the log
queued them, with the prerequisites the registry and starter plans use (the MultiWordNet
languages' lexical stages and en.lexical after shared.multiwordnet, target entries after
every lexical stage, derived vectors after target entries). `fifo` is today's scheduler
(every ready stage handed to the pool at once); `capped` hands it no more than it has
free workers. An estimate, not a measurement.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path


def replay(order: list[str], dur: dict[str, float], needs: dict[str, set[str]],
           jobs: int, capped: bool) -> dict[str, float]:  # fmt: skip
    """Stage -> the time it ends."""
    waiting, now = list(order), 0.0
    queue: list[str] = []
    done: dict[str, float] = {}
    workers: list[tuple[str, float] | None] = [None] * jobs
    while waiting or queue or any(workers):
        ready = [s for s in waiting if needs[s] <= done.keys()]
        free = sum(w is None for w in workers)
        for s in ready[: max(free - len(queue), 0)] if capped else ready:
            waiting.remove(s)
            queue.append(s)
        for i, w in enumerate(workers):
            if w is None and queue:
                s = queue.pop(0)
                workers[i] = (s, now + dur[s])
        i, (s, now) = min(((i, w) for i, w in enumerate(workers) if w), key=lambda x: x[1][1])
        done[s] = now
        workers[i] = None
    return done


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--built", type=Path, required=True)
    ap.add_argument("--log", type=Path, required=True)
    ap.add_argument("--cpu", type=float, required=True, help="CPU seconds of the whole build")
    ap.add_argument("--jobs", type=int, default=2)
    opts = ap.parse_args()
    order = re.findall(r"^(\S+): queued$", opts.log.read_text(encoding="utf-8"), re.M)
    walls = {}
    for path in (opts.built / ".build").glob("*.json"):
        record = json.loads(path.read_text(encoding="utf-8"))
        walls[record["stage"]] = record["seconds"]
    scale = opts.cpu / sum(walls.values())
    dur = {k: v * scale for k, v in walls.items()}
    lexical = {s for s in order if s.endswith(".lexical")}
    needs: dict[str, set[str]] = {s: set() for s in order}
    for s in ("en.lexical", "es.lexical", "fr.lexical", "it.lexical", "pt.lexical"):
        if s in needs and "shared.multiwordnet" in needs:
            needs[s] = {"shared.multiwordnet"}
    needs["shared.target_entries"] = lexical
    for s in order:
        if s.endswith(".semantic") and s != "en.semantic":
            needs[s] = {"shared.target_entries"}
    print(f"scale {scale:.3f}: en.lexical {dur.get('en.lexical', 0):.0f} s")
    for capped in (False, True):
        done = replay(order, dur, needs, opts.jobs, capped)
        en = done.get("en.lexical", 0.0)
        print(f"{'capped' if capped else 'fifo'}: {max(done.values()):.0f} s "
              f"(en.lexical {en - dur.get('en.lexical', 0):.0f}-{en:.0f} s)")  # fmt: skip


if __name__ == "__main__":
    main()
