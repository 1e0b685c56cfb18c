"""A long-running server follows the active selection, and damage fails one call only.

Real `lexicon-mcp` processes over stdio through the SDK's own client; the maintainer's
side (install, activate, repair) through the store's library.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import anyio
from _support.installs import install_english_lexical
from mcp import Client, StdioServerParameters

from lexicon_store import integrity, ops
from lexicon_store.leases import live_leases
from lexicon_store.selection import load_active


def _params(data_dir: Path) -> StdioServerParameters:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEXICON_")}
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "lexicon_server.cli", "--data-dir", str(data_dir)],
        env=env,
    )


def _text(result: Any) -> str:
    return " ".join(getattr(block, "text", "") for block in result.content)


def test_server_follows_install_and_activate(
    data_dir: Path, sample_release: tuple[Path, str]
) -> None:
    release, digest = sample_release
    everything = load_active(data_dir).activation_id
    hund = {"word": "Hund", "language": "de"}

    async def main() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with Client(_params(data_dir)) as client:
            seen["before"] = await client.call_tool("dictionary_lookup", hund)
            install_english_lexical(release, digest, data_dir)
            seen["narrowed"] = await client.call_tool("dictionary_lookup", hund)
            seen["leases_narrowed"] = [lease.activation_id for lease in live_leases(data_dir)]
            ops.activate(everything, data_dir=data_dir)
            seen["back"] = await client.call_tool("dictionary_lookup", hund)
            seen["leases_back"] = [lease.activation_id for lease in live_leases(data_dir)]
        return seen

    seen = anyio.run(main)
    assert not seen["before"].is_error and seen["before"].structured_content["found"]
    # After the install, new calls see the new selection: German is not installed there.
    assert seen["narrowed"].is_error
    assert "language_not_installed" in _text(seen["narrowed"])
    # The old selection's lease was released once no call used it; only the new one is held.
    (narrowed_id,) = seen["leases_narrowed"]
    assert narrowed_id != everything
    assert seen["leases_back"] == [everything]
    assert not seen["back"].is_error and seen["back"].structured_content["found"]


def test_truncated_vectors_fail_one_call_and_repair_heals(
    data_dir: Path, sample_release: tuple[Path, str]
) -> None:
    release, _digest = sample_release
    selection = load_active(data_dir)
    vectors = selection.files["en/semantic.f16.npy"]
    component = selection.components["en/semantic.f16.npy"][0]
    semantic = {"word": "king", "limit": 3}

    async def main() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with Client(_params(data_dir)) as client:
            seen["healthy"] = await client.call_tool("dictionary_semantic_neighbors", semantic)
            # Damage the object under the running server, which has it open already.
            vectors.chmod(0o644)
            os.truncate(vectors, 160)
            seen["damaged"] = await client.call_tool("dictionary_semantic_neighbors", semantic)
            seen["lookup"] = await client.call_tool("dictionary_lookup", {"word": "dog"})
            seen["repair"] = integrity.repair(source=str(release), data_dir=data_dir)
            seen["repaired"] = await client.call_tool("dictionary_semantic_neighbors", semantic)
        return seen

    seen = anyio.run(main)
    assert not seen["healthy"].is_error
    damaged = seen["damaged"]
    assert damaged.is_error
    message = _text(damaged)
    assert f"component {component} (en/semantic.f16.npy" in message
    assert f"lexicon-data --data-dir {data_dir} verify" in message
    assert f"lexicon-data --data-dir {data_dir} repair --from" in message
    # The process survived (no SIGBUS) and other tools still answer.
    assert not seen["lookup"].is_error, _text(seen["lookup"])
    assert seen["repair"].after.ok
    # repair rewrote the pointer, so the server reopened the repaired object by itself.
    assert not seen["repaired"].is_error, _text(seen["repaired"])
    assert seen["repaired"].structured_content == seen["healthy"].structured_content


def test_start_up_checks_sizes_against_the_record(data_dir: Path) -> None:
    """The size check at start-up finds a truncated file; the server serves the rest
    (tests/server/corpus/test_damage_faults.py drives it through a client)."""
    from lexicon_server.corpus.live import open_serving

    selection = load_active(data_dir)
    target = selection.files["en/lexical.sqlite"]
    size = target.stat().st_size
    target.chmod(0o644)
    os.truncate(target, size - 4096)
    corpus = open_serving(data_dir)
    try:
        (damage,) = corpus.damaged.values()
        component = selection.components["en/lexical.sqlite"][0]
        assert f"component {component} (en/lexical.sqlite" in str(damage)
        assert f"is {size - 4096} bytes, the activation record says {size}" in str(damage)
        assert [lease.activation_id for lease in live_leases(data_dir)] == [selection.activation_id]
    finally:
        corpus.close()
    assert live_leases(data_dir) == []  # the lease goes with the corpus


def test_a_call_in_flight_finishes_on_the_old_selection(
    data_dir: Path, sample_release: tuple[Path, str]
) -> None:
    """Library level, deterministic: one call is held open on the old selection while the
    data dir switches and another call runs; the old lease goes when the first call ends."""
    import contextvars
    import threading

    from lexicon_server.corpus.live import open_serving

    release, digest = sample_release
    corpus = open_serving(data_dir)
    old = corpus.selection.activation_id
    try:
        with corpus.pinned() as first:
            conn = corpus.db("de", "lexical")
            install_english_lexical(release, digest, data_dir)
            seen: dict[str, Any] = {}

            def second_call() -> None:
                with corpus.pinned() as selection:
                    seen["selection"] = selection.activation_id
                    seen["leases"] = sorted(lease.activation_id for lease in live_leases(data_dir))

            worker = threading.Thread(target=contextvars.Context().run, args=(second_call,))
            worker.start()
            worker.join(timeout=60)
            # The new call ran on the new selection while this one still holds the old.
            assert (
                seen["selection"] != old
                and seen["selection"] == load_active(data_dir).activation_id
            )
            assert sorted(seen["leases"]) == sorted([old, seen["selection"]])
            assert first.activation_id == old and corpus.selection.activation_id == old
            assert conn.execute("SELECT count(*) FROM terms").fetchone()[0] > 0
        # The last call on the old selection ended: its lease and handles are gone.
        assert [lease.activation_id for lease in live_leases(data_dir)] == [seen["selection"]]
    finally:
        corpus.close()
    assert live_leases(data_dir) == []
