"""Parallel downloads, progress reports, idempotent reruns and partial bookkeeping."""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path
from typing import Any

import pytest

from lexicon_store.download import (
    Downloader,
    DownloadError,
    DownloadItem,
    DownloadPolicy,
    DownloadProgress,
    file_digest,
    partial_path,
    stale_partials,
)


def test_parallel_parts_arrive_verified_with_progress(
    server: Any, files: Any, policy: DownloadPolicy
) -> None:
    items = [files.add(f"en/part-{i}.zst", 700_000 + i * 1000) for i in range(5)]
    events: list[DownloadProgress] = []
    lock = threading.Lock()

    def record(event: DownloadProgress) -> None:
        with lock:
            events.append(event)

    every_chunk = dataclasses.replace(policy, progress_interval=0.0)
    results = Downloader(every_chunk, progress=record).download(items)
    assert [r.item for r in results] == items
    for item in items:
        assert file_digest(item.dest) == item.digest
        assert not partial_path(item.dest).exists()
    total = sum(i.size for i in items)
    assert server.bytes_sent() == total
    finished = [e for e in events if e.finished]
    assert sorted(e.name for e in finished) == sorted(i.name for i in items)
    assert all(e.part.done == e.part.total for e in finished)
    assert events[-1].overall.done == total and events[-1].overall.total == total
    for name in (i.name for i in items):
        done = [e.part.done for e in events if e.name == name]
        assert done == sorted(done)
    assert any(e.part.rate > 0 and e.part.eta is not None for e in events if not e.finished)


def test_rerun_keeps_valid_files_without_requests(
    server: Any, files: Any, policy: DownloadPolicy
) -> None:
    items = [files.add(f"p{i}.zst", 50_000) for i in range(3)]
    Downloader(policy).download(items)
    server.clear()
    results = Downloader(policy).download(items)
    assert all(r.reused and r.bytes_received == 0 for r in results)
    assert server.requests == []


def test_corrupt_destination_is_replaced(server: Any, files: Any, policy: DownloadPolicy) -> None:
    item = files.add("p.zst", 80_000)
    item.dest.parent.mkdir(parents=True)
    item.dest.write_bytes(b"\0" * item.size)
    [result] = Downloader(policy).download([item])
    assert not result.reused
    assert file_digest(item.dest) == item.digest


def test_partial_for_other_bytes_is_discarded(
    server: Any, files: Any, policy: DownloadPolicy
) -> None:
    old = files.add("p.zst", 2_000_000, seed=1)
    server.fault("drop", after=1_000_000)
    server.fault("status", status=404, only_ranged=True)
    with pytest.raises(DownloadError):
        Downloader(policy).download([old])
    assert partial_path(old.dest).stat().st_size > 0
    # The release moved on: same file name, new bytes and digest.
    new = files.add("p.zst", 2_000_000, seed=2)
    server.clear()
    [result] = Downloader(policy).download([new])
    assert result.resumed_from == 0
    assert [r.range for r in server.requests] == [None]
    assert file_digest(new.dest) == new.digest


def test_duplicate_destinations_are_refused(files: Any, policy: DownloadPolicy) -> None:
    item = files.add("p.zst", 10)
    with pytest.raises(DownloadError, match="share one destination"):
        Downloader(policy).download([item, item])


def test_malformed_digest_is_refused_before_any_request(
    server: Any, files: Any, policy: DownloadPolicy
) -> None:
    item = files.add("p.zst", 10)
    bad = DownloadItem(item.url, item.dest, item.size, "md5:abc", item.name)
    with pytest.raises(DownloadError, match="malformed digest"):
        Downloader(policy).download([bad])
    assert server.requests == []


def test_stale_partials_lists_unlocked_leftovers(tmp_path: Path) -> None:
    dest = tmp_path / "d" / "x.zst"
    dest.parent.mkdir()
    partial_path(dest).write_bytes(b"abc")
    assert stale_partials(tmp_path) == [partial_path(dest)]
    assert stale_partials(tmp_path / "missing") == []


def test_unverified_mode_leaves_the_digest_to_the_caller(
    server: Any, files: Any, policy: DownloadPolicy
) -> None:
    quick = dataclasses.replace(policy, verify=False, durable=False)
    item = files.add("p.zst", 2_000_000)
    server.fault("drop", after=700_000)
    server.fault("corrupt", after=100_000, only_ranged=True)  # body offset
    [result] = Downloader(quick).download([item])
    # Resumed with Range and not re-hashed: the flipped byte is there for the caller to find.
    assert server.requests[1].range == "bytes=700000-"
    assert item.dest.stat().st_size == item.size
    assert file_digest(item.dest) != item.digest
    assert result.bytes_received == item.size
    server.clear()
    # A complete file of the right size is kept as it is (the caller verifies it).
    [again] = Downloader(quick).download([item])
    assert again.reused and server.requests == []


def test_unwritable_destination_is_a_clear_error(
    server: Any, files: Any, policy: DownloadPolicy, tmp_path: Path
) -> None:
    item = files.add("p.zst", 1000)
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    bad = DownloadItem(item.url, blocker / "p.zst", item.size, item.digest, item.name)
    with pytest.raises(DownloadError, match="cannot write") as info:
        Downloader(policy).download([bad])
    assert info.value.fix is not None and "rerun" in info.value.fix
