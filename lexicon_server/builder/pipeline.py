"""Plan and run a build: profile -> stages -> a built dataset directory.

Each stage writes its output files atomically (temp file, fsync, rename) and then a
checkpoint `<out>/.build/<stage>.json` recording a fingerprint of everything that
decides its bytes (builder revision, dataset version, the inputs' digests) and the size
and sha256 of each output. A rerun skips a stage whose checkpoint matches and whose
outputs are intact, so a killed build resumes at the stage it was in. A stage may need
others (`Stage.needs`): it runs after them and again whenever one of them reruns; the one
such stage, `shared.target_entries`, rewrites the lexical components in place once all
are written. `dataset.json` is written last: its presence means the directory is a
complete build.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from lexicon_server.builder.catalogue import (
    LANGUAGE_NAMES,
    LOCAL_SOURCES,
    REGISTRY_SOURCES,
    SLANG_SOURCES,
    STARTER_SOURCES,
)
from lexicon_server.builder.config import BuildConfig, crash_point, exclusive
from lexicon_server.builder.errors import BuildError
from lexicon_server.builder.inputs import Inputs, SourceInput, resolve_inputs
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
DATASET_VERSIONS = {
    "starter": "starter-2026.11.0",
    "english": "english-2026.11.0",
    "full": "full-2026.11.0",
    "registry": "registry-2026.12.0",
}
PROFILES = tuple(DATASET_VERSIONS)
STATE_DIR = ".build"
SEMANTIC_VOCAB = 100_000  # see docs/benchmarks/build.md for the time/recall trade-off
OTHER_LANGUAGES = ("fr", "de", "es", "it", "pt", "fi", "ja", "pl")  # the english/full ones
SLANG_NAMES = tuple(s.name for s in SLANG_SOURCES)

Progress = Callable[[str], None]


@dataclass(frozen=True)
class Stage:
    name: str  # the component id it writes, e.g. 'en.lexical'
    outputs: tuple[str, ...]  # dataset-relative paths
    sources: tuple[str, ...]  # source names whose bytes decide the outputs
    run: Callable[[BuildContext], Mapping[str, Any]]
    # Stages whose outputs this one reads and rewrites in place (target entries read and
    # update every lexical component): it runs after them, is redone whenever one of them
    # is, and refreshes their checkpoints' output digests when it finishes.
    needs: tuple[str, ...] = ()


@dataclass(frozen=True)
class BuildContext:
    out: Path
    inputs: Inputs
    profile: str
    dataset_version: str
    say: Progress


@dataclass(frozen=True)
class BuildPlan:
    profile: str
    dataset_version: str
    stages: tuple[Stage, ...]
    languages: Mapping[str, tuple[str, ...]]  # language -> capabilities, in dataset.json order


@dataclass
class BuildResult:
    out: Path
    dataset_version: str
    ran: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    stats: dict[str, Mapping[str, Any]] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)


def profile_sources(profile: str) -> tuple[list[str], frozenset[str]]:
    """(source names, the optional ones) for a profile."""
    if profile == "starter":
        return [s.name for s in STARTER_SOURCES], frozenset()
    if profile == "registry":
        return [s.name for s in REGISTRY_SOURCES], frozenset()
    if profile in ("english", "full"):
        local = [s.name for s in LOCAL_SOURCES]
        # wordfreq ranks terms when it has been fetched; the registry copy is optional here.
        return [*local, "wordfreq"], frozenset({*local, "wordfreq"}) - {"oewn", "cmudict-local"}
    raise BuildError(f"unknown profile {profile!r}; choose one of {', '.join(PROFILES)}")


def freedict_components(names: Iterable[str], *, invert: bool) -> dict[str, tuple[str, ...]]:
    """Language -> the FreeDict dictionaries its lexical component is built from: those
    whose headwords are in it; with `invert` (the registry profile), a language only ever
    translated into (Russian, Hindi...) is built from the dictionaries into it, read the
    other way round. English is not here (it has its own stage). Ordered by tag."""
    from lexicon_server.builder.stages import tag_of

    pairs = [n[9:].split("-") for n in names if n.startswith("freedict-")]
    heads = {tag_of(a) for a, _ in pairs if a != "eng"}
    out: dict[str, list[str]] = {}
    for a, b in pairs:
        if a != "eng":
            out.setdefault(tag_of(a), []).append(f"freedict-{a}-{b}")
        elif invert and tag_of(b) not in heads:
            out.setdefault(tag_of(b), []).append(f"freedict-{a}-{b}")
    for a, b in pairs:
        if invert and a != "eng" and b != "eng" and tag_of(b) not in heads:
            out.setdefault(tag_of(b), []).append(f"freedict-{a}-{b}")
    return {lang: tuple(srcs) for lang, srcs in sorted(out.items())}


def plan_build(profile: str, inputs: Inputs, dataset_version: str) -> BuildPlan:
    from lexicon_server.builder import stages as st

    present = set(inputs.sources)
    stages: list[Stage] = []
    languages: dict[str, list[str]] = {}

    def add(stage: Stage, language: str | None, capability: str | None) -> None:
        stages.append(stage)
        if language and capability:
            languages.setdefault(language, []).append(capability)

    english = {"wordnet-3.1", "oewn", "wordnet-3.0-exc", "cmudict", "cmudict-local",
               "wiktextract", "conceptnet", "wordfreq", "moby", "glove-6b-50d"}  # fmt: skip
    # FreeDict's xxx-eng dictionaries rank English translations (back-translations first).
    en_sources = tuple(
        n
        for n in inputs.sources
        if n in english or n.startswith("freedict-eng-") or re.fullmatch(r"freedict-\w+-eng", n)
    )
    add(
        Stage("en.lexical", ("en/lexical.sqlite",), en_sources, st.english_lexical), "en", "lexical"
    )
    if profile in ("starter", "registry"):
        for lang, srcs in freedict_components(inputs.sources, invert=profile == "registry").items():
            add(Stage(f"{lang}.lexical", (f"{lang}/lexical.sqlite",), (*srcs, "wordfreq"),
                      st.bilingual_lexical(lang)), lang, "lexical")  # fmt: skip
    elif profile == "full" and "wiktextract" in present:
        found = _languages_in(inputs.require("wiktextract"), _WIKT_LANG, "jsonl")
        for lang in (lang for lang in OTHER_LANGUAGES if lang in found):
            add(Stage(f"{lang}.lexical", (f"{lang}/lexical.sqlite",),
                      ("wiktextract", "conceptnet", "wordfreq"),
                      st.wiktionary_lexical(lang)), lang, "lexical")  # fmt: skip
    vectors = "glove-6b-50d" if "glove-6b-50d" in present else "numberbatch"
    if vectors in present:
        sem_langs: tuple[str, ...] = ("en",)
        if profile == "full" and vectors == "numberbatch":
            found = _languages_in(inputs.require(vectors), _URI_LANG, "vectors")
            sem_langs = tuple(lang for lang in ("en", *OTHER_LANGUAGES) if lang in found)
        for lang in sem_langs:
            outs = tuple(
                f"{lang}/{f}" for f in ("semantic.sqlite", "semantic.f16.npy", "semantic.usearch")
            )
            add(Stage(f"{lang}.semantic", outs, (vectors, "wordfreq"),
                      st.semantic(lang, vectors, SEMANTIC_VOCAB)), lang, "semantic")  # fmt: skip
    if present & {"cmudict", "cmudict-local"}:
        wp_sources = tuple(
            n
            for n in ("wordnet-3.1", "oewn", "cmudict", "cmudict-local", "wordfreq")
            if n in present
        )
        add(
            Stage("en.wordplay", ("en/wordplay.sqlite",), wp_sources, st.english_wordplay),
            "en",
            "wordplay",
        )
    slang_sources = tuple(n for n in SLANG_NAMES if n in present)
    if slang_sources:
        add(Stage("shared.slang", ("slang.sqlite",), slang_sources, st.slang), None, None)
    lexical = {s.name.partition(".")[0]: s for s in stages if s.name.endswith(".lexical")}
    if lexical:
        # After the components it links; placed after every writer so that, run one stage
        # at a time, a killed build has checkpointed all of them before it starts.
        paths = {lang: stage.outputs[0] for lang, stage in lexical.items()}
        needs = tuple(stage.name for stage in lexical.values())
        add(
            Stage("shared.target_entries", (), (), st.target_entries(paths), needs=needs),
            None,
            None,
        )
    add(
        Stage("shared.licenses", ("DATA_LICENSES.md",), tuple(inputs.sources), st.licences),
        None,
        None,
    )
    add(
        Stage("shared.sources", ("sources.lock.json",), tuple(inputs.sources), st.consumed_lock),
        None,
        None,
    )
    ordered = {lang: tuple(sorted(caps)) for lang, caps in languages.items()}
    return BuildPlan(profile, dataset_version, tuple(stages), ordered)


_WIKT_LANG = re.compile(rb'"lang_code":\s*"([a-z-]+)"')
_URI_LANG = re.compile(rb"^/c/([a-z-]+)/")
_PROBES: dict[tuple[str, str], frozenset[str]] = {}


def _languages_in(src: SourceInput, pattern: re.Pattern[bytes], role: str) -> frozenset[str]:
    """Languages a multilingual dump carries (one cheap scan per source per process).

    The full profile plans one component per language that is really there, so no
    release claims a capability it has no data for.
    """
    key = (src.spec.name, src.fingerprint)
    if key not in _PROBES:
        import gzip

        path = src.file(role)
        with open(path, "rb") as raw:
            gz = raw.read(2) == b"\x1f\x8b"
        found: set[str] = set()
        with gzip.open(path, "rb") if gz else open(path, "rb") as handle:
            for line in handle:
                match = pattern.search(line)
                if match:
                    found.add(match.group(1).decode())
        _PROBES[key] = frozenset(found)
    return _PROBES[key]


# The modules whose code decides output bytes: a change to any of them invalidates every
# checkpoint, so a cached build never outlives the parser or writer that made it.
_BYTE_DECIDING = (
    # Every builder and corpus module: a stale checkpoint costs a wrong release, a rebuild
    # costs minutes, so any change here rebuilds (the CLI and checks included).
    "builder/*.py",
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

    def finished(stage: Stage, fingerprint: str, stats: dict[str, Any], elapsed: float) -> None:
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
        waiting = list(pending)
        unfinished = {stage.name for stage, _ in pending}
        running: dict[Future[tuple[dict[str, Any], float]], tuple[Stage, str]] = {}
        with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork")) as pool:
            for stage, _ in pending:
                say(f"{stage.name}: queued")
            while waiting or running:
                for item in [w for w in waiting if not unfinished & set(w[0].needs)]:
                    waiting.remove(item)
                    running[pool.submit(_run_stage, worker_ctx, item[0].name)] = item
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    stage, fingerprint = running.pop(future)
                    stats, elapsed = future.result()
                    finished(stage, fingerprint, stats, elapsed)
                    unfinished.discard(stage.name)
    else:
        for stage, fingerprint in pending:
            say(f"{stage.name}: building")
            stats, elapsed = _run_stage(ctx, stage.name)
            finished(stage, fingerprint, stats, elapsed)
            if stop_after == stage.name:
                return result
    _write_json_atomic(current, expected)
    return result


def _quiet(_message: str) -> None:
    pass


def _run_stage(ctx: BuildContext, name: str) -> tuple[dict[str, Any], float]:
    """Run one stage of the plan (in this process or a worker); returns (stats, seconds)."""
    plan = plan_build(ctx.profile, ctx.inputs, ctx.dataset_version)
    stage = next(s for s in plan.stages if s.name == name)
    crash_point(f"{stage.name}:start")
    started = time.perf_counter()
    stats = dict(stage.run(ctx))
    return stats, time.perf_counter() - started


def dataset_json(plan: BuildPlan) -> dict[str, Any]:
    """The built directory's description (docs/architecture.md section 1)."""
    components: list[dict[str, Any]] = []
    for stage in plan.stages:
        language, _, capability = stage.name.partition(".")
        for rel in stage.outputs:
            if language == "shared":
                cid, lang, cap = stage.name, None, "shared"
            else:
                suffix = {
                    "semantic.sqlite": "vocab",
                    "semantic.f16.npy": "vectors",
                    "semantic.usearch": "index",
                }.get(Path(rel).name)
                cid = f"{stage.name}.{suffix}" if suffix else stage.name
                lang, cap = language, capability
            components.append({"id": cid, "language": lang, "capability": cap, "path": rel})
    return {
        "format": 1,
        "dataset_version": plan.dataset_version,
        "profile": plan.profile,
        "schemas": dict(SCHEMA_VERSIONS),
        "languages": {
            lang: {"name": LANGUAGE_NAMES.get(lang, lang), "capabilities": list(caps)}
            for lang, caps in sorted(plan.languages.items())
        },
        "components": components,
    }
