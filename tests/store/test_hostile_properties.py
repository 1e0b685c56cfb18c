"""The adversarial probe of issue 27, kept in the suite: generated hostile manifests,
mirror layouts and data-dir layouts never give a traceback, only a StoreError with a
message and a fix, and never touch the previous install or anything outside."""

from __future__ import annotations

import contextlib
import copy
import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexicon_store import integrity, ops
from lexicon_store.errors import StoreError
from lexicon_store.fetch import fetch_release
from lexicon_store.selection import load_active

_SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.fixture(scope="module")
def world(
    _pristine_release: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Any]]:
    """The standard test release and a data dir with English installed from it."""
    data = tmp_path_factory.mktemp("hostile") / "data"
    release = _pristine_release
    ops.install(data_dir=data, source=release.dir, languages=["en"], manifest_digest=release.digest)
    yield {
        "release": release.dir,
        "digest": release.digest,
        "manifest": json.loads((release.dir / "manifest.json").read_text()),
        "data": data,
        "activation": load_active(data).activation_id,
    }


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key or index path inside a JSON value."""
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _paths(inner, (*prefix, index))
    return found


_leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([10**400, -1, 0, 1 << 30, 1 << 63, 2**64 + 1]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(
        ["../x", "/etc/passwd", "C:/x", "a\\b", "", ".", "blake3:" + "0" * 64, "sha1:00", "shared"]
    ),
)
_hostile = st.recursive(
    _leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


def _assert_store_error(exc: BaseException) -> None:
    assert isinstance(exc, StoreError), f"{type(exc).__name__}: {exc}"
    assert exc.message and exc.fix, exc


def _intact(world: dict[str, Any], data: Path) -> None:
    assert load_active(data).activation_id == world["activation"]
    assert integrity.verify(data).ok


@contextlib.contextmanager
def _scratch() -> Iterator[Path]:
    """A fresh directory per generated example (a fixture would be shared by them all)."""
    with tempfile.TemporaryDirectory(prefix="hostile-") as name:
        yield Path(name)


@_SETTINGS
@given(data=st.data())
def test_hostile_manifests(world: dict[str, Any], data: st.DataObject) -> None:
    with _scratch() as scratch:
        body = copy.deepcopy(world["manifest"])
        path = data.draw(st.sampled_from(_paths(body)), label="path")
        parent = body
        for key in path[:-1]:
            parent = parent[key]
        if data.draw(st.booleans(), label="delete") and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = data.draw(_hostile, label="value")
        target = scratch / "data"
        shutil.copytree(world["data"], target)
        manifest = world["release"] / f"manifest-{scratch.name}.json"
        manifest.write_text(json.dumps(body))
        try:
            ops.install(data_dir=target, source=manifest, all_languages=True, allow_unpinned=True)
        except BaseException as exc:
            _assert_store_error(exc)
            _intact(world, target)
        else:
            assert integrity.verify(target).ok  # whatever was accepted is whole
        finally:
            manifest.unlink()


_MIRROR_HAZARDS = [
    "link_partial_to_file",
    "link_final_to_file",
    "link_final_to_valid_copy",
    "dir_at_final",
    "dir_at_partial",
    "wrong_size_final",
    "garbage_partial",
    "link_parent_dir",
]


def _plant(hazard: str, name: Path, victim: Path, outside: Path, valid: Path) -> None:
    partial = name.with_name(name.name + ".partial")
    if hazard == "link_parent_dir":
        if not name.parent.exists() and not name.parent.is_symlink():
            name.parent.symlink_to(outside, target_is_directory=True)
        return
    if name.parent.is_symlink():
        return
    name.parent.mkdir(parents=True, exist_ok=True)
    if name.exists() or name.is_symlink() or partial.exists() or partial.is_symlink():
        return
    if hazard == "link_partial_to_file":
        partial.symlink_to(victim)
    elif hazard == "link_final_to_file":
        name.symlink_to(victim)
    elif hazard == "link_final_to_valid_copy":
        copy_ = outside.parent / f"copy-{name.name}"
        shutil.copyfile(valid, copy_)
        name.symlink_to(copy_)
    elif hazard == "dir_at_final":
        name.mkdir()
    elif hazard == "dir_at_partial":
        partial.mkdir()
    elif hazard == "wrong_size_final":
        name.write_bytes(b"short")
    elif hazard == "garbage_partial":
        partial.write_bytes(b"garbage" * 100)


@_SETTINGS
@given(
    hazards=st.lists(
        st.tuples(st.integers(min_value=0, max_value=50), st.sampled_from(_MIRROR_HAZARDS)),
        min_size=1,
        max_size=4,
    )
)
def test_hostile_mirror_layouts(world: dict[str, Any], hazards: list[tuple[int, str]]) -> None:
    with _scratch() as scratch:
        release: Path = world["release"]
        parts = [p["path"] for c in world["manifest"]["components"] for p in c["parts"]]
        mirror, outside, victim = scratch / "mirror", scratch / "outside", scratch / "victim"
        outside.mkdir()
        victim.write_bytes(b"not yours")
        mirror.mkdir()
        for index, hazard in hazards:
            part = parts[index % len(parts)]
            _plant(hazard, mirror / part, victim, outside, release / part)
        copies = {p: p.read_bytes() for p in scratch.glob("copy-*")}
        try:
            fetch_release(mirror, source=release, profile="test", manifest_digest=world["digest"])
        except BaseException as exc:
            _assert_store_error(exc)
            assert not (mirror / "manifest.json").exists()
        else:
            for part in parts:  # every part a regular file with the published bytes
                assert not (mirror / part).is_symlink()
                assert (mirror / part).read_bytes() == (release / part).read_bytes()
        assert victim.read_bytes() == b"not yours"
        assert list(outside.iterdir()) == []
        assert {p: p.read_bytes() for p in scratch.glob("copy-*")} == copies


_DATA_HAZARDS = [
    "link_object_to_file",
    "link_object_to_dir",
    "dir_at_object",
    "wrong_size_object",
    "link_shard_to_dir",
    "link_tmp_to_dir",
]


@_SETTINGS
@given(hazard=st.sampled_from(_DATA_HAZARDS))
def test_hostile_data_dir_layouts(world: dict[str, Any], hazard: str) -> None:
    with _scratch() as scratch:
        target, outside, victim = scratch / "data", scratch / "outside", scratch / "victim"
        shutil.copytree(world["data"], target)
        outside.mkdir()
        victim.write_bytes(b"not yours")
        fr = next(c for c in world["manifest"]["components"] if c["id"] == "fr.lexical")
        hexdigest = fr["object"]["digest"].partition(":")[2]
        shard = target / "objects" / "blake3" / hexdigest[:2]
        obj = shard / hexdigest
        if hazard == "link_shard_to_dir":
            if shard.exists():
                return  # shared with an installed object: nothing to plant there
            shard.symlink_to(outside, target_is_directory=True)
        elif hazard == "link_tmp_to_dir":
            shutil.rmtree(target / "tmp", ignore_errors=True)
            (target / "tmp").symlink_to(outside, target_is_directory=True)
        else:
            shard.mkdir(parents=True, exist_ok=True)
            if hazard == "link_object_to_file":
                obj.symlink_to(victim)
            elif hazard == "link_object_to_dir":
                obj.symlink_to(outside, target_is_directory=True)
            elif hazard == "dir_at_object":
                obj.mkdir()
            else:
                obj.write_bytes(b"short")
        try:
            ops.install(
                data_dir=target, source=world["release"], languages=["en", "fr"],
                manifest_digest=world["digest"],
            )  # fmt: skip
        except BaseException as exc:
            _assert_store_error(exc)
            _intact(world, target)
        else:
            assert hazard == "wrong_size_object"  # a damaged object is rebuilt, never trusted
            assert integrity.verify(target).ok
        assert victim.read_bytes() == b"not yours"
        assert list(outside.iterdir()) == []
