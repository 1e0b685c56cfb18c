"""Switching back writes no object; prune frees exactly what nothing retained references."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lexicon_store import gc, integrity, ops
from lexicon_store.errors import IntegrityError, NotInstalled
from lexicon_store.selection import load_active


def _objects(data_dir: Path) -> dict[str, tuple[int, int]]:
    """Object name -> (inode, mtime_ns): any rewrite shows up as a change."""
    return {
        p.name: (p.stat().st_ino, p.stat().st_mtime_ns)
        for p in (data_dir / "objects").rglob("*")
        if p.is_file()
    }


def _referenced(data_dir: Path, activation_ids: list[str]) -> set[str]:
    from lexicon_store.selection import read_activation

    names: set[str] = set()
    for activation_id in activation_ids:
        sel = read_activation(data_dir, activation_id)
        names |= {p.name for p in sel.files.values()} | {sel.manifest_digest[7:]}
    return names


def test_activate_back_is_a_pointer_swap(release, data_dir: Path):
    first = ops.install(
        data_dir=data_dir, source=release.dir, languages=["en"], manifest_digest=release.digest
    )
    second = ops.install(
        data_dir=data_dir,
        source=release.dir,
        languages=["en", "fr"],
        manifest_digest=release.digest,
    )
    objects_before = _objects(data_dir)
    records_before = sorted(p.name for p in (data_dir / "activations").iterdir())
    back = ops.activate(first.activation_id, data_dir=data_dir)
    assert back.previous_activation == second.activation_id
    assert load_active(data_dir).activation_id == first.activation_id
    assert _objects(data_dir) == objects_before
    assert sorted(p.name for p in (data_dir / "activations").iterdir()) == records_before
    ops.activate(second.activation_id, data_dir=data_dir)
    assert load_active(data_dir).installed.keys() == {"en", "fr"}


def test_activate_unknown_or_damaged(release, data_dir: Path):
    first = ops.install(
        data_dir=data_dir, source=release.dir, languages=["fr"], manifest_digest=release.digest
    )
    ops.install(
        data_dir=data_dir, source=release.dir, languages=["en"], manifest_digest=release.digest
    )
    with pytest.raises(NotInstalled, match="lexicon-data activations"):
        ops.activate("0123456789abcdef", data_dir=data_dir)
    from lexicon_store.selection import read_activation

    fr_object = read_activation(data_dir, first.activation_id).files["fr/lexical.sqlite"]
    fr_object.unlink()
    with pytest.raises(IntegrityError, match="missing"):
        ops.activate(first.activation_id, data_dir=data_dir)
    assert load_active(data_dir).installed.keys() == {"en"}


def test_prune_frees_exactly_the_unreferenced(release, make_release, data_dir: Path):
    a = ops.install(
        data_dir=data_dir,
        source=release.dir,
        languages=["en", "fr", "de"],
        manifest_digest=release.digest,
    )
    b = ops.remove_language(data_dir=data_dir, languages=["de"])
    newer = make_release("test-2.0.0", seeds={"fr.lexical": 42})
    c = ops.install(
        data_dir=data_dir, source=newer.dir, languages=["en", "fr"], manifest_digest=newer.digest
    )
    stale = data_dir / "tmp" / "ingest-1-abcd"
    stale.mkdir(parents=True)
    (stale / "half-written").write_bytes(b"x" * 100)
    (data_dir / "tmp" / "parts").mkdir()
    (data_dir / "tmp" / "parts" / ("ab" * 32 + ".partial")).write_bytes(b"y" * 10)
    foreign = data_dir / "objects" / "blake3" / "zz-not-ours"
    foreign.write_bytes(b"keep me")
    all_before = set(_objects(data_dir))

    # Keep the current (c) and the most recent other (b): a's de object goes.
    keep_b = _referenced(data_dir, [c.activation_id, b.activation_id])
    plan = gc.prune(data_dir, forget=gc.Forget(keep_recent=1), dry_run=True)
    assert set(_objects(data_dir)) == all_before and stale.exists()  # dry run: nothing deleted
    assert plan.dropped_activations == (a.activation_id,)
    assert {p.name for p, _ in plan.objects} == all_before - keep_b - {"zz-not-ours"}
    assert plan.freed_bytes == sum(s for _, s in plan.objects) + 110

    done = gc.prune(data_dir, forget=gc.Forget(keep_recent=1))
    assert done.executed
    assert set(_objects(data_dir)) == keep_b | {"zz-not-ours"}
    assert not any((data_dir / "tmp").iterdir())
    assert integrity.verify(data_dir).ok
    ops.activate(b.activation_id, data_dir=data_dir)  # still retained and whole
    ops.activate(c.activation_id, data_dir=data_dir)

    # keep_recent=0: only the current activation survives.
    gc.prune(data_dir, forget=gc.Forget(keep_recent=0))
    assert set(_objects(data_dir)) == _referenced(data_dir, [c.activation_id]) | {"zz-not-ours"}
    assert [s.activation_id for s in ops.retained_activations(data_dir)[0]] == [c.activation_id]
    assert integrity.verify(data_dir).ok
    assert os.listdir(data_dir / "activations") == [f"{c.activation_id}.json"]


def test_prune_on_empty_data_dir(tmp_path: Path):
    plan = gc.prune(tmp_path / "nothing-here")
    assert plan.freed_bytes == 0 and not plan.objects


def test_pinned_activation_survives_prune(release, data_dir: Path):
    a = ops.install(
        data_dir=data_dir, source=release.dir, languages=["de"], manifest_digest=release.digest
    )
    b = ops.install(
        data_dir=data_dir, source=release.dir, languages=["fr"], manifest_digest=release.digest
    )
    c = ops.install(
        data_dir=data_dir, source=release.dir, languages=["en"], manifest_digest=release.digest
    )
    ops.pin(a.activation_id, data_dir=data_dir)
    # A plain prune frees nothing: every object belongs to some retained activation.
    assert ops.status(data_dir).reclaimable_bytes == 0
    plan = gc.prune(data_dir, forget=gc.Forget(keep_recent=0))
    assert plan.dropped_activations == (b.activation_id,)
    assert set(plan.kept_activations) == {a.activation_id, c.activation_id}
    ops.activate(a.activation_id, data_dir=data_dir)  # still whole
    assert integrity.verify(data_dir).ok
    ops.activate(c.activation_id, data_dir=data_dir)
    ops.pin(a.activation_id, data_dir=data_dir, pinned=False)
    assert gc.prune(data_dir).dropped_activations == ()  # a plain prune forgets nothing
    assert gc.forget([a.activation_id], data_dir).dropped_activations == (a.activation_id,)
    assert ops.status(data_dir).reclaimable_bytes == 0
    with pytest.raises(NotInstalled):
        ops.pin(b.activation_id, data_dir=data_dir)
