"""Run a build plan (builder/plan.py) into a built dataset directory.

Each stage writes its output files atomically (temp file, fsync, rename) and then a
checkpoint `<out>/.build/<stage>.json` recording a fingerprint of everything that
decides its bytes (builder revision, dataset version, the inputs' digests) and the size
and sha256 of each output. A rerun skips a stage whose checkpoint matches and whose
outputs are intact, so a killed build resumes at the stage it was in. A stage may need
others (`Stage.needs`): it runs after them and again whenever one of them reruns
(`shared.target_entries` rewrites the lexical components in place once all are written;
a language's derived vectors read its lexical component); `Stage.after` only orders.
Free workers take the ready stage with the longest chain of work behind it
(builder/schedule.py). `dataset.json` is written last: its presence means the directory
is a complete build.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from lexicon_server.builder.config import BuildConfig, crash_point, exclusive
from lexicon_server.builder.inputs import Inputs, resolve_inputs
from lexicon_server.builder.plan import (
    DATASET_VERSIONS,
    PROFILES,
    STATE_DIR,
    BuildContext,
    BuildPlan,
    Progress,
    Stage,
    dataset_json,
    freedict_components,
    plan_build,
    profile_sources,
)
from lexicon_server.builder.schedule import critical_path, next_stages
from lexicon_server.builder.shared_parses import SHARED_PARSES_DIR, shared_parses
from lexicon_server.builder.sources import SourceLock, file_sha256
from lexicon_server.corpus.reader import SCHEMA_VERSIONS

__all__ = [
    "BUILDER_REVISION",
    "DATASET_VERSIONS",
    "PROFILES",
    "BuildContext",
    "BuildPlan",
    "BuildResult",
    "Stage",
    "build",
    "code_digest",
    "dataset_json",
    "freedict_components",
    "plan_build",
    "profile_sources",
]

# Bump when a change to the builder changes output bytes: it invalidates checkpoints.
BUILDER_REVISION = "6"


@dataclass
class BuildResult:
    out: Path
    dataset_version: str
    ran: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    stats: dict[str, Mapping[str, Any]] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)


# The modules whose code decides output bytes: a change to any of them invalidates every
# checkpoint, so a cached build never outlives the parser or writer that made it.
_BYTE_DECIDING = (
    # Every builder and corpus module: a stale checkpoint costs a wrong release, a rebuild
    # costs minutes, so any change here rebuilds (the CLI and checks included).
    "builder/*.py",
    "builder/*.toml",  # the source table
    "builder/parsers/*.py",
    "corpus/*.py",
    "corpus/schema/*.sql",
)


@lru_cache(maxsize=1)
def code_digest() -> str:
    """sha256 over the source of the modules that decide what a build writes."""
    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for pattern in _BYTE_DECIDING:
        for path in sorted(package.glob(pattern)):
            digest.update(str(path.relative_to(package)).encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _fingerprint(stage: Stage, ctx: BuildContext, needed: Mapping[str, str]) -> str:
    """`needed`: the fingerprints of the stages named in `stage.needs`."""
    body = {
        "stage": stage.name,
        "builder": BUILDER_REVISION,
        "code": code_digest(),
        "schemas": SCHEMA_VERSIONS,
        "profile": ctx.profile,
        "dataset_version": ctx.dataset_version,
        "sources": {
            n: ctx.inputs.sources[n].fingerprint
            for n in sorted(stage.sources)
            if n in ctx.inputs.sources
        },
    }
    if stage.needs:
        body["needs"] = {name: needed[name] for name in sorted(stage.needs)}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def _checkpoint_path(out: Path, stage: Stage) -> Path:
    return out / STATE_DIR / f"{stage.name}.json"


def _is_done(out: Path, stage: Stage, fingerprint: str) -> bool:
    path = _checkpoint_path(out, stage)
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return False
    if record.get("fingerprint") != fingerprint:
        return False
    for rel, expected in record.get("outputs", {}).items():
        target = out / rel
        if not target.is_file() or target.stat().st_size != expected["size"]:
            return False
    return True


def _output_digests(out: Path, stage: Stage) -> dict[str, dict[str, Any]]:
    return {
        rel: {"size": (out / rel).stat().st_size, "sha256": file_sha256(out / rel)}
        for rel in stage.outputs
    }


def _refresh_outputs(out: Path, stages: list[Stage]) -> None:
    """Record the current digests of outputs a later stage rewrote in place.

    The rewrite keeps every file's size, so a build killed before this refresh still
    finds those stages done; it then redoes the rewriting stage and refreshes.
    """
    for stage in stages:
        path = _checkpoint_path(out, stage)
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except (FileNotFoundError, ValueError):
            continue
        record["outputs"] = _output_digests(out, stage)
        _write_json_atomic(path, record)


def _remove_stale_temporaries(out: Path, stage: Stage) -> None:
    """Delete temp files a killed run of this stage left (`.<name>.<pid>.tmp`)."""
    for rel in stage.outputs:
        target = out / rel
        if target.parent.is_dir():
            for stale in target.parent.glob(f".{target.name}.*.tmp"):
                stale.unlink(missing_ok=True)


def _write_json_atomic(path: Path, body: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.write(json.dumps(body, indent=2, sort_keys=False, ensure_ascii=False) + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


def build(
    profile: str,
    out: Path,
    *,
    config: BuildConfig,
    lock: SourceLock | None,
    overrides: Mapping[str, Path] | None = None,
    dataset_version: str | None = None,
    fetch: bool = True,
    progress: Progress | None = None,
    stop_after: str | None = None,
    only_given: bool = False,
    jobs: int = 1,
) -> BuildResult:
    """Build (or resume building) `profile` into `out`; returns what ran and what was skipped.

    Sources named in `overrides` but outside the profile are added to it (for example a
    Wiktextract sample into a starter-shaped test build). With `only_given`, sources not
    in `overrides` are left out instead of fetched, and the stages that need them with
    them. `stop_after` ends the run after the named stage (used to exercise resumption).
    """
    say = progress or (lambda _m: None)
    version = dataset_version or DATASET_VERSIONS.get(profile) or f"{profile}-dev"
    names, optional = profile_sources(profile)
    overrides = dict(overrides or {})
    names = [*names, *(n for n in overrides if n not in names)]
    if only_given:
        names = [n for n in names if n in overrides]
    optional = frozenset(names) if only_given else optional
    inputs = resolve_inputs(
        names,
        overrides,
        config,
        lock,
        fetch=fetch and not only_given,
        optional=optional,
        progress=say,
    )
    plan = plan_build(profile, inputs, version)
    out.mkdir(parents=True, exist_ok=True)
    with exclusive(out / STATE_DIR / "lock"):
        return _build_locked(plan, out, inputs, profile, version, say, jobs, stop_after)


def _build_locked(
    plan: BuildPlan,
    out: Path,
    inputs: Inputs,
    profile: str,
    version: str,
    say: Progress,
    jobs: int,
    stop_after: str | None,
) -> BuildResult:
    # A finished build is only complete again once every stage is verified below.
    ctx = BuildContext(out, inputs, profile, version, say)
    # Parsed dictionaries live for one run: a run cut short (a crash, a power loss) leaves
    # none for the next to trust.
    shutil.rmtree(out / STATE_DIR / SHARED_PARSES_DIR, ignore_errors=True)
    result = BuildResult(out, version)
    pending: list[tuple[Stage, str]] = []
    fingerprints: dict[str, str] = {}
    for stage in plan.stages:
        fingerprint = fingerprints[stage.name] = _fingerprint(stage, ctx, fingerprints)
        redo_needed = any(name == p.name for p, _ in pending for name in stage.needs)
        if not redo_needed and _is_done(out, stage, fingerprint):
            result.skipped.append(stage.name)
            say(f"{stage.name}: up to date")
            continue
        _checkpoint_path(out, stage).unlink(missing_ok=True)
        _remove_stale_temporaries(out, stage)
        for needed in plan.stages:
            if needed.name in stage.needs:
                _remove_stale_temporaries(out, needed)  # the copies it was rewriting
        pending.append((stage, fingerprint))
    expected = dataset_json(plan)
    current = out / "dataset.json"
    if not pending and current.is_file():
        try:
            if json.loads(current.read_text(encoding="utf-8")) == expected:
                return result  # complete and current: leave every file untouched
        except ValueError:
            pass
    # From here the directory is incomplete until dataset.json is written again.
    current.unlink(missing_ok=True)

    def finished(
        stage: Stage, fingerprint: str, stats: dict[str, Any], elapsed: float, cpu: float
    ) -> None:
        outputs = _output_digests(out, stage)
        if stage.needs:  # before this stage's checkpoint: a rerun of it refreshes again
            _refresh_outputs(out, [s for s in plan.stages if s.name in stage.needs])
        crash_point(f"{stage.name}:written")
        _write_json_atomic(
            _checkpoint_path(out, stage),
            {
                "stage": stage.name,
                "fingerprint": fingerprint,
                "outputs": outputs,
                "stats": stats,
                "seconds": round(elapsed, 2),
                # The stage's own CPU time: on a shared machine the wall time varies with
                # the neighbours' load, this does not (bench/build_starter.py).
                "cpu_seconds": round(cpu, 2),
            },
        )
        result.ran.append(stage.name)
        result.stats[stage.name] = stats
        result.seconds[stage.name] = round(elapsed, 2)
        say(f"{stage.name}: done in {elapsed:.1f} s {stats}")

    if jobs > 1 and len(pending) > 1:
        # Stages write disjoint files, so they run side by side; each is deterministic on
        # its own, so the bytes do not depend on the schedule. A stage with `needs` starts
        # once those are finished. Checkpoints are written here, in the parent, once a
        # stage's outputs are in place.
        import multiprocessing
        from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

        worker_ctx = BuildContext(out, inputs, profile, version, _quiet)
        waiting = [stage for stage, _ in pending]
        fingerprint_of = dict((stage.name, fp) for stage, fp in pending)
        unfinished = set(fingerprint_of)
        rank = critical_path(plan.stages)
        running: dict[Future[tuple[dict[str, Any], float, float]], Stage] = {}
        with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork")) as pool:
            for stage in waiting:
                say(f"{stage.name}: queued")
            while waiting or running:
                # Submit only to free workers, so the longest chain starts first instead
                # of queueing behind everything that happened to be ready before it.
                for stage in next_stages(waiting, unfinished, jobs - len(running), rank):
                    waiting.remove(stage)
                    running[pool.submit(_run_stage, worker_ctx, stage.name)] = stage
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    stage = running.pop(future)
                    finished(stage, fingerprint_of[stage.name], *future.result())
                    unfinished.discard(stage.name)
    else:
        for stage, fingerprint in pending:
            say(f"{stage.name}: building")
            finished(stage, fingerprint, *_run_stage(ctx, stage.name))
            if stop_after == stage.name:
                return result
    # ... and only while this run's stages may still read them.
    shutil.rmtree(out / STATE_DIR / SHARED_PARSES_DIR, ignore_errors=True)
    _write_json_atomic(current, expected)
    return result


def _quiet(_message: str) -> None:
    pass


def _run_stage(ctx: BuildContext, name: str) -> tuple[dict[str, Any], float, float]:
    """Run one stage of the plan (in this process or a worker); returns (stats, seconds,
    CPU seconds)."""
    plan = plan_build(ctx.profile, ctx.inputs, ctx.dataset_version)
    stage = next(s for s in plan.stages if s.name == name)
    crash_point(f"{stage.name}:start")
    started, cpu = time.perf_counter(), time.process_time()
    with shared_parses(ctx.out / STATE_DIR / SHARED_PARSES_DIR):
        stats = dict(stage.run(ctx))
    return stats, time.perf_counter() - started, time.process_time() - cpu
