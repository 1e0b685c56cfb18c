"""A plain prune never costs a rollback; forgetting is explicit, planned and refused for
the current and pinned activations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lexicon_store import gc, integrity, ops
from lexicon_store.errors import NotInstalled, StoreError
from lexicon_store.selection import load_active


def _install(release, data_dir: Path, langs: list[str]) -> str:  # type: ignore[no-untyped-def]
    return ops.install(
        data_dir=data_dir, source=release.dir, languages=langs, manifest_digest=release.digest
    ).activation_id


def test_the_issue_scenario_keeps_the_en_fr_rollback(release, data_dir: Path, cli) -> None:
    en = _install(release, data_dir, ["en"])
    en_fr = _install(release, data_dir, ["en", "fr"])
    ops.activate(en, data_dir=data_dir)

    dry = cli("--data-dir", str(data_dir), "prune", "--dry-run", "--json")
    assert dry.returncode == 0, dry.stderr
    assert json.loads(dry.stdout)["dropped_activations"] == []
    done = cli("--data-dir", str(data_dir), "prune")
    assert done.returncode == 0, done.stderr

    back = cli("--data-dir", str(data_dir), "activate", "--activation", en_fr)
    assert back.returncode == 0, back.stderr
    assert load_active(data_dir).installed.keys() == {"en", "fr"}
    assert integrity.verify(data_dir).ok


def test_plain_prune_frees_only_what_no_retained_activation_needs(
    release, make_release, data_dir: Path
) -> None:
    _install(release, data_dir, ["en", "fr", "de"])
    ops.remove_language(data_dir=data_dir, languages=["de"])
    newer = make_release("test-2.0.0", seeds={"fr.lexical": 42})
    ops.install(
        data_dir=data_dir, source=newer.dir, languages=["en", "fr"], manifest_digest=newer.digest
    )
    records = sorted(p.name for p in (data_dir / "activations").iterdir())
    assert gc.prune(data_dir).objects == ()  # every object is still referenced by someone

    # Once the only record naming an object is forgotten, a plain prune frees it.
    retained, _ = ops.retained_activations(data_dir)
    oldest = retained[0].activation_id
    plan = gc.forget([oldest], data_dir, dry_run=True)
    assert plan.dropped_activations == (oldest,) and not plan.executed
    assert sorted(p.name for p in (data_dir / "activations").iterdir()) == records
    de_object = retained[0].files["de/lexical.sqlite"]
    assert [p for p, _ in plan.objects] == [de_object]
    gc.forget([oldest], data_dir)
    assert not de_object.exists()
    for kept in ops.retained_activations(data_dir)[0]:
        ops.activate(kept.activation_id, data_dir=data_dir)
        assert integrity.verify(data_dir).ok


def test_forget_refuses_current_pinned_and_unknown(release, data_dir: Path, cli) -> None:
    first = _install(release, data_dir, ["de"])
    second = _install(release, data_dir, ["fr"])
    ops.pin(first, data_dir=data_dir)
    with pytest.raises(StoreError, match="current one") as current:
        gc.forget([second], data_dir)
    assert "lexicon-data --data-dir" in (current.value.fix or "")
    assert " activate --activation" in (current.value.fix or "")
    with pytest.raises(StoreError, match="pinned") as pinned:
        gc.forget([first], data_dir)
    assert f"pin --activation {first} --remove" in (pinned.value.fix or "")
    with pytest.raises(NotInstalled):
        gc.forget(["0123456789abcdef"], data_dir)
    # --drop-activations never takes the current or pinned ones either.
    plan = gc.prune(data_dir, forget=gc.Forget(keep_recent=0))
    assert plan.dropped_activations == () and set(plan.kept_activations) == {first, second}

    refused = cli("--data-dir", str(data_dir), "forget", "--activation", second)
    assert refused.returncode == 1 and "fix: activate another one first" in refused.stderr


def test_unreadable_record_stops_prune_instead_of_guessing(release, data_dir: Path) -> None:
    _install(release, data_dir, ["de"])
    keep = _install(release, data_dir, ["fr"])
    broken = data_dir / "activations" / "00000000deadbeef.json"
    broken.write_text("{not json")
    with pytest.raises(StoreError, match="cannot read activation record") as refused:
        gc.prune(data_dir)
    assert "forget --activation 00000000deadbeef" in (refused.value.fix or "")
    assert ops.status(data_dir).reclaimable_bytes == 0  # status still answers
    gc.forget(["00000000deadbeef"], data_dir)
    assert not broken.exists()
    assert load_active(data_dir).activation_id == keep
