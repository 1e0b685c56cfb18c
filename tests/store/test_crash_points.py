"""Kill -9 at every named crash point: the active selection is the old one or the new one,
everything it references verifies, and a rerun finishes without re-copying verified objects."""

from __future__ import annotations

import signal
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import blake3
import pytest

from lexicon_store import gc, integrity, ops
from lexicon_store.activations import activation_id_for
from lexicon_store.crash import CRASH_POINTS
from lexicon_store.digests import hex_of
from lexicon_store.selection import ActiveSelection, load_active


@dataclass(frozen=True)
class Scenario:
    setup: Callable[[Path, object], None]
    args: Callable[[Path, object], list[str]]
    rerun: Callable[[Path, object], object]


def _install(langs: list[str]) -> Callable[[Path, object], object]:
    def run(data_dir: Path, rel: object) -> object:
        return ops.install(
            data_dir=data_dir,
            source=rel.dir,
            languages=langs,  # type: ignore[attr-defined]
            manifest_digest=rel.digest,
        )  # type: ignore[attr-defined]

    return run


def _setup_en(data_dir: Path, rel: object) -> None:
    _install(["en"])(data_dir, rel)


def _setup_en_fr(data_dir: Path, rel: object) -> None:
    _install(["en", "fr"])(data_dir, rel)


def _setup_two_activations(data_dir: Path, rel: object) -> None:
    _install(["en"])(data_dir, rel)
    _install(["en", "fr"])(data_dir, rel)


def _setup_for_prune(data_dir: Path, rel: object) -> None:
    _install(["en", "fr", "de"])(data_dir, rel)
    ops.remove_language(data_dir=data_dir, languages=["fr", "de"])
    (data_dir / "tmp" / "ingest-99999-dead").mkdir(parents=True)
    (data_dir / "tmp" / "ingest-99999-dead" / "x").write_bytes(b"stale")
    # An object no record references (left by a crashed forget, say): a plain prune frees it.
    orphan = b"orphaned object"
    name = blake3.blake3(orphan).hexdigest()
    (data_dir / "objects" / "blake3" / name[:2]).mkdir(parents=True, exist_ok=True)
    (data_dir / "objects" / "blake3" / name[:2] / name).write_bytes(orphan)


def _first_activation(data_dir: Path) -> str:
    retained, _current = ops.retained_activations(data_dir)
    return retained[0].activation_id


INSTALL = Scenario(
    _setup_en,
    lambda d, r: [
        "install",
        "--from",
        str(r.dir),
        "--languages",
        "en,fr,de",  # type: ignore[attr-defined]
        "--manifest-digest",
        r.digest,
    ],  # type: ignore[attr-defined]
    _install(["en", "fr", "de"]),
)
ADD = Scenario(
    _setup_en,
    lambda d, r: ["add-language", "--from", str(r.dir), "--languages", "fr,de"],  # type: ignore[attr-defined]
    lambda d, r: ops.add_language(data_dir=d, source=r.dir, languages=["fr", "de"]),  # type: ignore[attr-defined]
)
REMOVE = Scenario(
    _setup_en_fr,
    lambda d, r: ["remove-language", "--languages", "fr"],
    lambda d, r: ops.remove_language(data_dir=d, languages=["fr"]),
)
ACTIVATE = Scenario(
    _setup_two_activations,
    lambda d, r: ["activate", "--activation", _first_activation(d)],
    lambda d, r: ops.activate(_first_activation(d), data_dir=d),
)
PRUNE = Scenario(
    _setup_for_prune,
    lambda d, r: ["prune"],
    lambda d, r: gc.prune(d),
)

FORGET = Scenario(
    _setup_for_prune,
    lambda d, r: ["forget", "--activation", _first_activation(d)],
    lambda d, r: gc.prune(d),  # the record may already be gone; a plain prune finishes
)
DROP = Scenario(
    _setup_for_prune,
    lambda d, r: ["prune", "--drop-activations", "--keep", "0"],
    lambda d, r: gc.prune(d, forget=gc.Forget(keep_recent=0)),
)

CASES: list[tuple[str, Scenario]] = [
    ("install.after_lock", INSTALL),
    ("ingest.partial", INSTALL),
    ("ingest.before_rename", INSTALL),
    ("ingest.after_rename", INSTALL),
    ("ingest.after_rename:2", INSTALL),
    ("install.before_record", INSTALL),
    ("install.before_pointer", INSTALL),
    ("install.after_pointer", INSTALL),
    ("pointer.tmp_written", INSTALL),
    ("ingest.partial", ADD),
    ("ingest.after_rename", ADD),
    ("add_language.before_record", ADD),
    ("add_language.before_pointer", ADD),
    ("add_language.after_pointer", ADD),
    ("remove_language.before_record", REMOVE),
    ("remove_language.before_pointer", REMOVE),
    ("remove_language.after_pointer", REMOVE),
    ("pointer.tmp_written", REMOVE),
    ("activate.before_pointer", ACTIVATE),
    ("pointer.tmp_written", ACTIVATE),
    ("prune.before_records", PRUNE),
    ("prune.after_records", PRUNE),
    ("prune.mid_objects", PRUNE),
    ("prune.after_objects", PRUNE),
    ("prune.before_records", FORGET),
    ("prune.after_records", FORGET),
    ("prune.mid_objects", FORGET),
    ("prune.after_objects", FORGET),
    ("prune.after_records", DROP),
    ("prune.mid_objects", DROP),
]


def test_every_crash_point_is_exercised() -> None:
    # The publishing points (stage.*, publish.*) are exercised in tests/server/release.
    data_dir_points = {p for p in CRASH_POINTS if not p.startswith(("stage.", "publish."))}
    assert {point.partition(":")[0] for point, _ in CASES} == data_dir_points


def _referenced(retained: list[ActiveSelection]) -> set[str]:
    return {p.name for s in retained for p in s.files.values()} | {
        s.manifest_digest[7:] for s in retained
    }


def _objects(data_dir: Path) -> set[str]:
    return {p.name for p in (data_dir / "objects").rglob("*") if p.is_file()}


@pytest.mark.parametrize(
    ("point", "scenario"), CASES, ids=[f"{p}-{i}" for i, (p, _) in enumerate(CASES)]
)
def test_crash_then_rerun(point: str, scenario: Scenario, release, data_dir: Path, cli) -> None:
    scenario.setup(data_dir, release)
    old = load_active(data_dir)
    args = scenario.args(data_dir, release)

    crashed = cli("--data-dir", str(data_dir), *args, env={"LEXICON_CRASH_AT": point})
    assert crashed.returncode == -signal.SIGKILL, (crashed.stdout, crashed.stderr)

    # Old or new, never a mix; whatever is active verifies in full.
    now = load_active(data_dir)
    assert integrity.verify(data_dir).ok
    after_crash = _objects(data_dir)

    result = scenario.rerun(data_dir, release)
    final = load_active(data_dir)
    assert integrity.verify(data_dir).ok
    assert now.activation_id in {old.activation_id, final.activation_id}

    # A rerun copies only objects that were not already in place after the crash.
    stats = getattr(result, "stats", None)
    if stats is not None:
        manifest = release.result.manifest
        copied = {hex_of(manifest.component(cid).object.digest) for cid in stats.copied}
        assert not copied & after_crash

    if scenario is PRUNE:
        # A plain prune forgets nothing: both activations stay whole and switchable.
        retained, _ = ops.retained_activations(data_dir)
        assert len(retained) == 2
        assert _objects(data_dir) == _referenced(retained)
        assert not any((data_dir / "tmp").iterdir())
    if scenario in (FORGET, DROP):
        if point == "prune.before_records" and scenario is FORGET:
            gc.forget([_first_activation(data_dir)], data_dir)  # the crashed command, again
        retained, _ = ops.retained_activations(data_dir)
        assert [s.activation_id for s in retained] == [final.activation_id]
        assert _objects(data_dir) == _referenced(retained)
        assert not any((data_dir / "tmp").iterdir())
    for kept in ops.retained_activations(data_dir)[0]:
        ops.activate(kept.activation_id, data_dir=data_dir)
        assert integrity.verify(data_dir).ok
    if scenario in (INSTALL, ADD):
        expected = activation_id_for(
            release.digest,
            {
                "en": frozenset({"lexical", "semantic", "wordplay"}),
                "fr": frozenset({"lexical"}),
                "de": frozenset({"lexical"}),
            },
        )
        assert final.activation_id == expected
