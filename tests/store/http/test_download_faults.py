"""Each server fault ends in verified data or a clear error, never in a trusted bad file."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from lexicon_store.download import (
    DigestMismatch,
    Downloader,
    DownloadError,
    DownloadPolicy,
    file_digest,
    partial_path,
)

SIZE = 3 * 1024 * 1024 + 123


def _ok(item: Any) -> None:
    assert item.dest.read_bytes() == (item.dest.parent.parent / "served" / item.name).read_bytes()
    assert file_digest(item.dest) == item.digest
    assert not partial_path(item.dest).exists()


def test_dropped_connection_resumes_with_range(
    server: Any, files: Any, policy: DownloadPolicy
) -> None:
    item = files.add("p.zst", SIZE)
    server.fault("drop", after=1_000_000)
    [result] = Downloader(policy).download([item])
    _ok(item)
    first, second = server.requests
    assert first.range is None and first.fault == "drop"
    # The resume asks for what the client kept, and only if the file is unchanged (If-Range).
    assert second.status == 206 and second.if_range is not None and second.range is not None
    kept = int(second.range.removeprefix("bytes=").rstrip("-"))
    assert 0 < kept <= 1_000_000
    assert server.bytes_sent() == 1_000_000 + SIZE - kept
    assert result.bytes_received == SIZE


@pytest.mark.parametrize("status", [500, 502, 503])
def test_server_errors_are_retried(
    server: Any, files: Any, policy: DownloadPolicy, sleeps: Any, status: int
) -> None:
    item = files.add("p.zst", SIZE)
    server.fault("status", status=status, times=2)
    [result] = Downloader(policy).download([item])
    _ok(item)
    assert result.attempts == 3
    assert [r.status for r in server.requests] == [status, status, 200]
    assert len(sleeps.calls) == 2 and all(0 < s <= policy.backoff_max for s in sleeps.calls)


def test_429_honours_retry_after_within_cap(
    server: Any, files: Any, policy: DownloadPolicy, sleeps: Any
) -> None:
    item = files.add("p.zst", 1000)
    server.fault("status", status=429, retry_after="2")
    server.fault("status", status=429, retry_after="3600")
    Downloader(policy).download([item])
    _ok(item)
    assert sleeps.calls == [2.0, policy.retry_after_cap]


def test_persistent_503_gives_up_with_clear_error(
    server: Any, files: Any, policy: DownloadPolicy
) -> None:
    item = files.add("p.zst", 1000)
    server.fault("status", status=503, times=-1)
    with pytest.raises(DownloadError, match=r"giving up on p\.zst .* after 4 attempts.*HTTP 503"):
        Downloader(policy).download([item])
    assert len(server.requests) == policy.max_attempts
    assert not item.dest.exists()


def test_404_is_not_retried(server: Any, files: Any, policy: DownloadPolicy) -> None:
    item = files.add("p.zst", 1000)
    missing = type(item)(item.url + ".nope", item.dest, item.size, item.digest, item.name)
    with pytest.raises(DownloadError, match="HTTP 404"):
        Downloader(policy).download([missing])
    assert len(server.requests) == 1


def test_416_on_resume_restarts_from_zero(server: Any, files: Any, policy: DownloadPolicy) -> None:
    item = files.add("p.zst", SIZE)
    server.fault("drop", after=500_000)
    server.fault("status", status=416, only_ranged=True)
    Downloader(policy).download([item])
    _ok(item)
    statuses = [(r.status, r.range is not None) for r in server.requests]
    assert statuses == [(200, False), (416, True), (200, False)]


def test_range_ignored_falls_back_to_full_download(
    server: Any, files: Any, policy: DownloadPolicy
) -> None:
    item = files.add("p.zst", SIZE)
    server.fault("drop", after=700_000)
    server.fault("ignore_range", only_ranged=True)
    Downloader(policy).download([item])
    _ok(item)
    second = server.requests[1]
    assert second.range is not None and second.status == 200
    assert server.bytes_sent() == 700_000 + SIZE


def test_wrong_content_range_is_rejected(server: Any, files: Any, policy: DownloadPolicy) -> None:
    item = files.add("p.zst", SIZE)
    server.fault("drop", after=600_000)
    server.fault("bad_content_range", only_ranged=True)
    Downloader(policy).download([item])
    _ok(item)
    reqs = server.requests
    assert reqs[1].status == 206 and reqs[1].fault == "bad_content_range"
    # After a bad Content-Range the client stops trusting ranges for this part.
    assert reqs[2].range is None and reqs[2].status == 200
    assert len(reqs) == 3


def test_wrong_bytes_once_are_redownloaded(server: Any, files: Any, policy: DownloadPolicy) -> None:
    item = files.add("p.zst", SIZE)
    server.fault("corrupt", after=12345)
    Downloader(policy).download([item])
    _ok(item)
    assert [r.fault for r in server.requests] == ["corrupt", None]


def test_wrong_bytes_always_is_a_clear_error(
    server: Any, files: Any, policy: DownloadPolicy
) -> None:
    item = files.add("p.zst", SIZE)
    server.fault("corrupt", after=SIZE - 1, times=-1)
    with pytest.raises(DigestMismatch, match="serves different bytes than the release manifest"):
        Downloader(policy).download([item])
    assert not item.dest.exists()
    # Nothing of the bad bytes is kept for a later run to trust.
    partial = partial_path(item.dest)
    assert not partial.exists()


def test_wrong_length_is_a_clear_error(server: Any, files: Any, policy: DownloadPolicy) -> None:
    item = files.add("p.zst", 5000)
    longer = type(item)(item.url, item.dest, item.size - 1, item.digest, item.name)
    with pytest.raises(DigestMismatch, match="serves 5000 bytes but the manifest pins 4999"):
        Downloader(policy).download([longer])
    assert not item.dest.exists()


def test_stalled_stream_times_out_and_resumes(
    server: Any, files: Any, policy: DownloadPolicy
) -> None:
    item = files.add("p.zst", SIZE)
    server.fault("stall", after=800_000)
    [result] = Downloader(policy).download([item])
    _ok(item)
    assert result.attempts == 2
    assert server.requests[1].range is not None and server.requests[1].status == 206


def test_etag_change_between_attempts_restarts(
    server: Any, files: Any, policy: DownloadPolicy
) -> None:
    item = files.add("p.zst", SIZE)
    server.fault("drop", after=900_000)
    server.fault("etag_change", only_ranged=True)
    Downloader(policy).download([item])
    _ok(item)
    second = server.requests[1]
    # The client asked to resume only if unchanged; the server said it changed (200).
    assert second.if_range is not None and second.range is not None and second.status == 200
    assert server.bytes_sent() == 900_000 + SIZE


def test_etag_change_detected_when_server_ignores_if_range(
    server: Any, files: Any, policy: DownloadPolicy
) -> None:
    item = files.add("p.zst", SIZE)
    server.state.ignore_if_range = True
    server.fault("drop", after=900_000)
    server.fault("etag_change", only_ranged=True)
    Downloader(policy).download([item])
    _ok(item)
    assert [(r.status, r.range is not None) for r in server.requests] == [
        (200, False),
        (206, True),
        (200, False),
    ]


def test_tampered_partial_is_not_trusted(
    server: Any, files: Any, policy: DownloadPolicy, tmp_path: Path
) -> None:
    item = files.add("p.zst", SIZE)
    server.fault("drop", after=1_000_000)
    server.fault("status", status=404, only_ranged=True)
    with pytest.raises(DownloadError, match="HTTP 404"):
        Downloader(policy).download([item])
    partial = partial_path(item.dest)
    kept = partial.stat().st_size
    assert kept > 0
    with partial.open("r+b") as f:  # flip one byte of what was kept
        f.seek(kept // 2)
        b = f.read(1)
        f.seek(kept // 2)
        f.write(bytes([b[0] ^ 1]))
    server.clear()
    Downloader(policy).download([item])
    _ok(item)
    # Resume, detect the mismatch over the whole file, then one clean full download.
    assert [r.range is not None for r in server.requests] == [True, False]


def test_trickling_transfer_is_dropped_and_resumed(
    server: Any, files: Any, policy: DownloadPolicy
) -> None:
    item = files.add("p.zst", SIZE)
    server.fault("trickle", after=400_000)
    slow = dataclasses.replace(policy, low_speed_limit=100_000, low_speed_time=0.3)
    [result] = Downloader(slow).download([item])
    _ok(item)
    first, second = server.requests
    assert first.fault == "trickle" and second.range is not None and second.status == 206
    assert result.attempts == 2
