"""Resumable, verified HTTP downloads of release parts.

Every part is written to ``<dest>.partial`` (held under an exclusive lock so two
processes never write the same partial), streamed through its digest, and given its
final name with ``os.replace`` only once size and digest match. Bytes already in a
partial are re-read and re-hashed before a resume: a partial is never trusted. (A
caller that hashes the finished file itself, as the store's ingest does, turns the
digest off with ``DownloadPolicy(verify=False)`` so no byte is hashed twice.)

The library never prints; callers pass a progress callback.
"""

from __future__ import annotations

import contextlib
import email.utils
import json
import os
import random
import re
import ssl
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_EXCEPTION, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import httpx

from .digests import Hasher, file_digest, new_hasher
from .errors import DigestMismatch, DownloadError, InsufficientSpace, StoreError, os_error
from .fsutil import fsync_dir, open_nofollow, regular_file

__all__ = [
    "PARTIAL_SUFFIX",
    "DigestMismatch",
    "DownloadError",
    "DownloadItem",
    "DownloadPolicy",
    "DownloadProgress",
    "DownloadResult",
    "Downloader",
    "TransferStats",
    "fetch_bytes",
    "file_digest",
    "make_client",
    "new_hasher",
    "partial_path",
    "stale_partials",
]

PARTIAL_SUFFIX = ".partial"
_META_SUFFIX = ".partial.json"
_READ_BLOCK = 1 << 20
_RETRY_STATUSES = frozenset({408, 425, 429, 500, 502, 503, 504})
_CONTENT_RANGE = re.compile(r"^\s*bytes\s+(\d+)-(\d+)/(\d+|\*)\s*$", re.IGNORECASE)


_RERUN = "rerun the same command: finished parts are kept and partial ones resume"


class _NoHash:
    """Stands in for a hasher when the caller verifies the file itself."""

    def update(self, data: bytes | memoryview, /) -> None:
        return None

    def hexdigest(self) -> str:
        return ""


def _split_digest(digest: str) -> tuple[str, str]:
    algorithm, sep, hexdigest = digest.partition(":")
    if not sep or not re.fullmatch(r"[0-9a-f]{16,128}", hexdigest):
        raise DownloadError(f"malformed digest {digest!r}; expected '<algorithm>:<lowercase hex>'")
    return algorithm, hexdigest


@dataclass(frozen=True)
class DownloadItem:
    """One file to download: where from, where to, and the size and digest it must have."""

    url: str
    dest: Path
    size: int
    digest: str
    name: str = ""

    @property
    def label(self) -> str:
        return self.name or self.dest.name


@dataclass(frozen=True)
class TransferStats:
    """Bytes done of total, with the current rate (bytes/s) and seconds left if known."""

    done: int
    total: int
    rate: float
    eta: float | None


@dataclass(frozen=True)
class DownloadProgress:
    """One progress report: the part it concerns and the totals over all parts."""

    name: str
    part: TransferStats
    overall: TransferStats
    finished: bool = False


ProgressCallback = Callable[[DownloadProgress], None]


@dataclass(frozen=True)
class DownloadResult:
    """What happened to one item: downloaded (and how many bytes came over the wire) or kept."""

    item: DownloadItem
    bytes_received: int
    resumed_from: int
    reused: bool
    attempts: int


def _default_sleep(seconds: float) -> None:
    time.sleep(seconds)


@dataclass(frozen=True)
class DownloadPolicy:
    """Timeouts, retry bounds and parallelism. ``sleep`` is injectable so tests need no clock."""

    parallel: int = 4
    connect_timeout: float = 15.0
    read_timeout: float = 30.0
    max_attempts: int = 6
    max_total_attempts: int = 40
    max_corrupt_attempts: int = 2
    backoff_base: float = 0.5
    backoff_max: float = 20.0
    retry_after_cap: float = 60.0
    progress_interval: float = 0.1
    # fsync each finished file (and its directory) before naming it. The store turns this
    # off for its own temporary part files: it re-verifies them and fsyncs the objects.
    durable: bool = True
    # Like curl's --speed-limit/--speed-time: a transfer slower than this many bytes/s
    # over this many seconds is dropped and resumed on a new connection.
    low_speed_limit: int = 1024
    low_speed_time: float = 60.0
    # Check each file's digest before naming it. Off only where the caller hashes the file
    # anyway before trusting it (the store's ingest does), so the bytes are hashed once.
    verify: bool = True
    sleep: Callable[[float], None] = field(default=_default_sleep, compare=False)
    user_agent: str = "lexicon-data"


def partial_path(dest: Path) -> Path:
    """Where the in-progress bytes of ``dest`` live."""
    return dest.with_name(dest.name + PARTIAL_SUFFIX)


def _meta_path(dest: Path) -> Path:
    return dest.with_name(dest.name + _META_SUFFIX)


# --- locking -------------------------------------------------------------------------------

if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True


@contextlib.contextmanager
def _locked_partial(path: Path, poll: float, stop: threading.Event) -> Iterator[IO[bytes]]:
    """Open ``path`` read/write, holding an exclusive lock that dies with the process.

    The lock lives on the partial itself; a lock taken on a file that has meanwhile been
    renamed into place (the winner finished) is dropped and the open retried, so a waiter
    never writes into a finished file.
    """
    while True:
        # Never through a link: a planted one would send the bytes outside the mirror.
        fd = open_nofollow(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            while not _try_lock(fd):
                if stop.is_set():
                    raise DownloadError(f"cancelled while waiting for {path}", fix=_RERUN)
                time.sleep(poll)
            try:
                same = os.path.samestat(os.fstat(fd), os.lstat(path))
            except FileNotFoundError:
                same = False
        except BaseException:
            os.close(fd)
            raise
        if same:
            break
        os.close(fd)
    f = os.fdopen(fd, "r+b", buffering=0)
    with f:
        yield f


def stale_partials(directory: Path) -> list[Path]:
    """Partial files (and their sidecars) under ``directory`` that no live process holds.

    A partial whose lock can be taken has no writer; ``prune`` may delete it. The lock is
    released right away, so a download starting meanwhile simply begins again.
    """
    found: list[Path] = []
    if not directory.is_dir():
        return found
    for path in sorted(directory.rglob("*" + PARTIAL_SUFFIX)):
        if not path.is_file() or path.is_symlink():
            continue
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            continue
        try:
            if _try_lock(fd):
                found.append(path)
                meta = path.with_name(path.name[: -len(PARTIAL_SUFFIX)] + _META_SUFFIX)
                if meta.exists():
                    found.append(meta)
        finally:
            os.close(fd)
    for meta in sorted(directory.rglob("*" + _META_SUFFIX)):
        partial = meta.with_name(meta.name[: -len(_META_SUFFIX)] + PARTIAL_SUFFIX)
        if meta not in found and not partial.exists():
            found.append(meta)  # its partial is gone; the sidecar alone is useless
    return found


# --- progress --------------------------------------------------------------------------------


class _Meter:
    """Thread-safe byte counters that turn into throttled progress callbacks."""

    def __init__(self, total: int, callback: ProgressCallback | None, interval: float) -> None:
        self._total = total
        self._callback = callback
        self._interval = interval
        self._lock = threading.Lock()
        self._done: dict[str, int] = {}
        self._fresh = 0
        self._start = time.monotonic()
        self._last: dict[str, float] = {}

    @staticmethod
    def _stats(done: int, total: int, fresh: int, elapsed: float) -> TransferStats:
        rate = fresh / elapsed if elapsed > 0 else 0.0
        eta = (total - done) / rate if rate > 0 else None
        return TransferStats(done=done, total=total, rate=rate, eta=eta)

    def report(
        self,
        item: DownloadItem,
        done: int,
        fresh: int,
        start: float,
        fresh_delta: int,
        *,
        finished: bool = False,
        force: bool = False,
    ) -> None:
        """Record that ``item`` now has ``done`` bytes, ``fresh`` of them from the network."""
        name = item.label
        with self._lock:
            self._done[name] = done
            self._fresh += fresh_delta
            if self._callback is None:
                return
            now = time.monotonic()
            if not (force or finished) and now - self._last.get(name, 0.0) < self._interval:
                return
            self._last[name] = now
            event = DownloadProgress(
                name=name,
                part=self._stats(done, item.size, fresh, now - start),
                overall=self._stats(
                    sum(self._done.values()), self._total, self._fresh, now - self._start
                ),
                finished=finished,
            )
            self._callback(event)


# --- one attempt -----------------------------------------------------------------------------


class _Retryable(StoreError):
    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class _Corrupt(StoreError):
    """The finished bytes do not match; start the part over from nothing."""


def _parse_retry_after(value: str | None) -> float | None:
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _strong_validator(response: httpx.Response) -> str | None:
    """A validator usable in If-Range: a strong ETag, else Last-Modified."""
    etag: str | None = response.headers.get("etag")
    if etag and not etag.startswith("W/"):
        return etag
    modified: str | None = response.headers.get("last-modified")
    return modified


@dataclass
class _PartState:
    item: DownloadItem
    algorithm: str
    expected_hex: str
    file: IO[bytes]
    hasher: Hasher
    offset: int = 0
    validator: str | None = None
    use_range: bool = True
    received: int = 0
    resumed_from: int = 0
    start: float = field(default_factory=time.monotonic)

    verify: bool = True

    def restart(self) -> None:
        self.file.seek(0)
        self.file.truncate(0)
        self.hasher = new_hasher(self.algorithm) if self.verify else _NoHash()
        self.offset = 0


class Downloader:
    """Downloads many items in parallel with resume, bounded retries and verification.

    Pass an ``httpx.Client`` to share connection settings; otherwise one is made for the
    duration of each :meth:`download` call (and never before it).
    """

    def __init__(
        self,
        policy: DownloadPolicy | None = None,
        *,
        client: httpx.Client | None = None,
        progress: ProgressCallback | None = None,
    ) -> None:
        self.policy = policy or DownloadPolicy()
        self._client = client
        self._progress = progress
        self._stop = threading.Event()
        self._cancelled = False

    # public ------------------------------------------------------------------------------

    def download(self, items: Sequence[DownloadItem]) -> list[DownloadResult]:
        """Download every item to its ``dest``; results come back in input order.

        Raises the first :class:`DownloadError`; partials of parts that were in flight stay
        on disk, so a rerun resumes them.
        """
        dests = [item.dest for item in items]
        if len(set(dests)) != len(dests):
            raise DownloadError("two download items share one destination")
        for item in items:
            _split_digest(item.digest)
        meter = _Meter(sum(i.size for i in items), self._progress, self.policy.progress_interval)
        if not self._cancelled:
            self._stop.clear()  # a failed earlier call stopped its own workers only
        with self._client_scope() as client:
            if self.policy.parallel <= 1 or len(items) <= 1:
                return [self._download_one(client, item, meter) for item in items]
            with ThreadPoolExecutor(max_workers=self.policy.parallel) as pool:
                futures: list[Future[DownloadResult]] = [
                    pool.submit(self._download_one, client, item, meter) for item in items
                ]
                done, _ = wait(futures, return_when=FIRST_EXCEPTION)
                failed = [f for f in done if f.exception() is not None]
                if failed:
                    self._stop.set()
                    for f in futures:
                        f.cancel()
                    wait(futures)
                    exc = failed[0].exception()
                    assert exc is not None
                    raise exc
                return [f.result() for f in futures]

    def cancel(self) -> None:
        """Stop every transfer of this downloader at its next chunk; partials are kept."""
        self._cancelled = True
        self._stop.set()

    # internals ---------------------------------------------------------------------------

    @contextlib.contextmanager
    def _client_scope(self) -> Iterator[httpx.Client]:
        if self._client is not None:
            yield self._client
            return
        client = make_client(self.policy)
        with client:
            yield client

    def _download_one(
        self, client: httpx.Client, item: DownloadItem, meter: _Meter
    ) -> DownloadResult:
        try:
            return self._download_one_file(client, item, meter)
        except OSError as exc:
            mapped = os_error(exc, doing=f"writing {item.dest}")
            if isinstance(mapped, InsufficientSpace):
                raise mapped from exc
            raise DownloadError(
                f"cannot write {item.dest}: {exc}",
                url=item.url,
                fix="free disk space (or fix the directory's permissions), then rerun",
            ) from exc

    def _download_one_file(
        self, client: httpx.Client, item: DownloadItem, meter: _Meter
    ) -> DownloadResult:
        algorithm, expected_hex = _split_digest(item.digest)
        item.dest.parent.mkdir(parents=True, exist_ok=True)
        partial = partial_path(item.dest)
        with _locked_partial(partial, 0.05, self._stop) as f:
            if self._final_is_valid(item, algorithm, expected_hex):
                # Another process finished it, or an earlier run did: keep it.
                partial.unlink(missing_ok=True)
                _meta_path(item.dest).unlink(missing_ok=True)
                meter.report(item, item.size, 0, time.monotonic(), 0, finished=True)
                return DownloadResult(item, 0, item.size, reused=True, attempts=0)
            verify = self.policy.verify
            hasher = new_hasher(algorithm) if verify else _NoHash()
            state = _PartState(item, algorithm, expected_hex, f, hasher, verify=verify)
            self._adopt_partial(state)
            meter.report(item, state.offset, 0, state.start, 0, force=True)
            try:
                attempts = self._run_attempts(client, state, meter)
            except DigestMismatch:
                # Bad bytes are worth nothing to a later run; drop them while still locked.
                partial.unlink(missing_ok=True)
                _meta_path(item.dest).unlink(missing_ok=True)
                raise
            self._commit(state)
        meter.report(item, item.size, state.received, state.start, 0, finished=True)
        return DownloadResult(item, state.received, state.resumed_from, False, attempts)

    def _final_is_valid(self, item: DownloadItem, algorithm: str, expected_hex: str) -> bool:
        st = regular_file(item.dest)  # a link or directory there is an error naming it
        if st is None or st.st_size != item.size:
            return False
        if not self.policy.verify:
            return True  # the caller hashes it before use
        return file_digest(item.dest, algorithm) == f"{algorithm}:{expected_hex}"

    def _adopt_partial(self, state: _PartState) -> None:
        """Re-hash what an earlier run left, after checking it was for these exact bytes."""
        item, f = state.item, state.file
        meta = _read_meta(_meta_path(item.dest))
        if meta is None or meta.get("digest") != item.digest or meta.get("size") != item.size:
            state.restart()
            return
        f.seek(0, os.SEEK_END)
        on_disk = f.tell()
        if on_disk > item.size:
            state.restart()
            return
        if not state.verify:
            state.offset = state.resumed_from = on_disk
            validator = meta.get("validator")
            state.validator = validator if isinstance(validator, str) else None
            return
        f.seek(0)
        remaining = on_disk
        while remaining:
            block = f.read(min(_READ_BLOCK, remaining))
            if not block:
                break
            state.hasher.update(block)
            remaining -= len(block)
        state.offset = on_disk - remaining
        f.seek(state.offset)
        f.truncate(state.offset)
        validator = meta.get("validator")
        state.validator = validator if isinstance(validator, str) else None
        state.resumed_from = state.offset

    def _run_attempts(self, client: httpx.Client, state: _PartState, meter: _Meter) -> int:
        policy = self.policy
        failures = total = corrupt = 0
        while True:
            total += 1
            before = state.received
            try:
                self._attempt(client, state, meter)
                self._check_complete(state)
                return total
            except _Corrupt as exc:
                corrupt += 1
                state.restart()
                _meta_path(state.item.dest).unlink(missing_ok=True)
                if corrupt >= policy.max_corrupt_attempts:
                    raise DigestMismatch(
                        f"{state.item.label} from {state.item.url}: {exc} on "
                        f"{corrupt} full downloads; the server or mirror serves different bytes "
                        "than the release manifest pins",
                        url=state.item.url,
                        fix="use the publisher's release URL, or re-create the mirror with "
                        "`lexicon-data fetch`",
                    ) from None
                delay = 0.0
            except _Retryable as exc:
                failures = 0 if state.received > before else failures + 1
                if failures >= policy.max_attempts or total >= policy.max_total_attempts:
                    raise DownloadError(
                        f"giving up on {state.item.label} from {state.item.url} after "
                        f"{total} attempts: {exc}",
                        url=state.item.url,
                        fix=_RERUN,
                    ) from None
                # A transfer that moved forward before breaking resumes at once.
                progressed = state.received > before and exc.retry_after is None
                delay = 0.0 if progressed else self._delay(failures, exc.retry_after)
            if self._stop.is_set():
                raise DownloadError(f"cancelled {state.item.label}", url=state.item.url, fix=_RERUN)
            if delay > 0:
                policy.sleep(delay)

    def _delay(self, failures: int, retry_after: float | None) -> float:
        policy = self.policy
        if retry_after is not None:
            return min(retry_after, policy.retry_after_cap)
        backoff = min(policy.backoff_max, policy.backoff_base * 2.0 ** max(0, failures - 1))
        # Jitter keeps parallel parts from retrying in lock-step against a busy server.
        return backoff * random.uniform(0.5, 1.0)

    def _attempt(self, client: httpx.Client, state: _PartState, meter: _Meter) -> None:
        item = state.item
        if state.offset >= item.size:
            return
        headers = {"Accept-Encoding": "identity"}
        ranged = state.offset > 0 and state.use_range
        if ranged:
            headers["Range"] = f"bytes={state.offset}-"
            if state.validator:
                headers["If-Range"] = state.validator
        elif state.offset > 0:
            state.restart()
        try:
            with client.stream("GET", item.url, headers=headers) as response:
                self._accept(state, response, ranged)
                self._write_meta(state)
                self._consume(state, response, meter)
        except httpx.TimeoutException as exc:
            raise _Retryable(f"stalled or timed out ({type(exc).__name__})") from None
        except httpx.TransportError as exc:
            _raise_if_tls(exc, item.url)
            raise _Retryable(f"connection error ({type(exc).__name__}: {exc})") from None
        except (httpx.HTTPError, httpx.InvalidURL) as exc:
            raise _http_failure(exc, item.url) from None

    def _accept(self, state: _PartState, response: httpx.Response, ranged: bool) -> None:
        """Decide from the status and headers where the body's bytes belong."""
        item, status = state.item, response.status_code
        if status in _RETRY_STATUSES:
            raise _Retryable(
                f"HTTP {status}", _parse_retry_after(response.headers.get("retry-after"))
            )
        if status == 416 and ranged:
            # The server says our offset is past its end: its file is not the one we began.
            state.restart()
            raise _Retryable("HTTP 416 for a resume; restarting the part from the beginning")
        if status == 206 and ranged:
            got = _CONTENT_RANGE.match(response.headers.get("content-range", ""))
            valid = (
                got is not None
                and int(got.group(1)) == state.offset
                and state.offset <= int(got.group(2)) < item.size
                and got.group(3) in ("*", str(item.size))
            )
            if not valid:
                # Distrust this server's ranges for the part from now on.
                state.use_range = False
                state.restart()
                raise _Retryable(
                    f"invalid Content-Range {response.headers.get('content-range')!r} "
                    f"for a resume at byte {state.offset}"
                )
            etag = response.headers.get("etag")
            if (
                etag
                and state.validator
                and state.validator.startswith('"')
                and etag != state.validator
            ):
                # The server ignored If-Range and the resource changed under us.
                state.restart()
                raise _Retryable(f"resource changed (ETag {state.validator} -> {etag})")
            return
        if status == 200:
            if ranged:
                # Range ignored, or If-Range said the resource changed: the body starts at 0.
                state.restart()
            state.validator = _strong_validator(response)
            length = response.headers.get("content-length")
            if length is not None and length.isdigit() and int(length) != item.size:
                raise DigestMismatch(
                    f"{item.url} serves {length} bytes but the manifest pins {item.size} for "
                    f"{item.label}; the server or mirror does not hold this release's part",
                    url=item.url,
                    fix="use the publisher's release URL, or re-create the mirror with "
                    "`lexicon-data fetch`",
                )
            return
        raise DownloadError(
            f"HTTP {status} for {item.url} ({item.label})",
            url=item.url,
            fix="check the release URL or mirror given to --from (or LEXICON_MANIFEST_URL)",
        )

    def _consume(self, state: _PartState, response: httpx.Response, meter: _Meter) -> None:
        item, f = state.item, state.file
        limit, span = self.policy.low_speed_limit, self.policy.low_speed_time
        f.seek(state.offset)
        window_start, window_bytes = time.monotonic(), 0
        for chunk in response.iter_raw():
            if self._stop.is_set():
                raise DownloadError(f"cancelled {item.label}", url=item.url, fix=_RERUN)
            if state.offset + len(chunk) > item.size:
                raise _Corrupt(f"more than the pinned {item.size} bytes")
            f.write(chunk)
            state.hasher.update(chunk)
            n = len(chunk)
            state.offset += n
            state.received += n
            meter.report(item, state.offset, state.received, state.start, n)
            # A trickle never trips the read timeout; a new connection often does better.
            window_bytes += n
            elapsed = time.monotonic() - window_start
            if elapsed >= span:
                if window_bytes < limit * elapsed:
                    raise _Retryable(
                        f"slower than {limit} bytes/s for {elapsed:.0f} s; reconnecting"
                    )
                window_start, window_bytes = time.monotonic(), 0

    def _check_complete(self, state: _PartState) -> None:
        if state.offset < state.item.size:
            raise _Retryable(f"body ended at byte {state.offset} of {state.item.size}")
        if not state.verify:
            return
        actual = state.hasher.hexdigest()
        if actual != state.expected_hex:
            raise _Corrupt(f"digest {state.algorithm}:{actual} instead of {state.item.digest}")

    def _write_meta(self, state: _PartState) -> None:
        meta = {
            "url": state.item.url,
            "digest": state.item.digest,
            "size": state.item.size,
            "validator": state.validator,
        }
        # Written in place: a torn write is unreadable JSON, which only costs a restart.
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
        with os.fdopen(open_nofollow(_meta_path(state.item.dest), flags), "w") as handle:
            handle.write(json.dumps(meta))

    def _commit(self, state: _PartState) -> None:
        """fsync the verified bytes, then give them their final name."""
        durable = self.policy.durable
        if durable:
            os.fsync(state.file.fileno())
        dest = state.item.dest
        os.replace(partial_path(dest), dest)
        _meta_path(dest).unlink(missing_ok=True)
        if durable:
            fsync_dir(dest.parent)


def _raise_if_tls(exc: BaseException, url: str) -> None:
    """A certificate or TLS failure will not heal by retrying: say so at once."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, ssl.SSLError):
            raise DownloadError(
                f"TLS failure talking to {url}: {seen}",
                url=url,
                fix="if the server uses a private certificate authority, point SSL_CERT_FILE "
                "(or SSL_CERT_DIR) at its certificate and rerun",
            ) from None
        seen = seen.__cause__ or seen.__context__
    return None


def _http_failure(exc: Exception, url: str) -> DownloadError:
    """An HTTP failure no retry can mend (a redirect loop, a bad URL, an undecodable body)."""
    if isinstance(exc, httpx.TooManyRedirects):
        what = "redirects in a loop (or through too many hops)"
    else:
        what = f"cannot be fetched ({type(exc).__name__}: {exc})"
    return DownloadError(
        f"{url} {what}",
        url=url,
        fix="point --from (or LEXICON_MANIFEST_URL) at the release's final URL, "
        "or ask its host to fix the redirects",
    )


def _read_meta(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def make_client(policy: DownloadPolicy | None = None) -> httpx.Client:
    """An httpx client with the policy's timeouts; redirects followed (mirrors use them)."""
    policy = policy or DownloadPolicy()
    timeout = httpx.Timeout(
        connect=policy.connect_timeout,
        read=policy.read_timeout,
        write=policy.read_timeout,
        pool=None,
    )
    limits = httpx.Limits(max_connections=max(policy.parallel, 1) * 2)
    return httpx.Client(
        timeout=timeout,
        limits=limits,
        follow_redirects=True,
        headers={"User-Agent": policy.user_agent},
    )


def fetch_bytes(
    url: str,
    *,
    max_size: int,
    policy: DownloadPolicy | None = None,
    client: httpx.Client | None = None,
) -> bytes:
    """GET a small document (a manifest) with the same retry rules; refuse oversized ones."""
    policy = policy or DownloadPolicy()
    owned = client is None
    active = client or make_client(policy)
    failures = 0
    try:
        while True:
            try:
                with active.stream("GET", url) as response:
                    if response.status_code in _RETRY_STATUSES:
                        raise _Retryable(
                            f"HTTP {response.status_code}",
                            _parse_retry_after(response.headers.get("retry-after")),
                        )
                    if response.status_code != 200:
                        raise DownloadError(
                            f"HTTP {response.status_code} for {url}",
                            url=url,
                            fix="check the URL given to --from (or LEXICON_MANIFEST_URL)",
                        )
                    body = bytearray()
                    for chunk in response.iter_bytes():
                        body += chunk
                        if len(body) > max_size:
                            raise DownloadError(
                                f"{url} is larger than {max_size} bytes; that is not a release "
                                "manifest",
                                url=url,
                                fix="point --from at the release's manifest.json",
                            )
                    return bytes(body)
            except (_Retryable, httpx.HTTPError, httpx.InvalidURL) as exc:
                if isinstance(exc, httpx.TransportError):
                    _raise_if_tls(exc, url)
                elif not isinstance(exc, _Retryable):
                    raise _http_failure(exc, url) from None
                failures += 1
                if failures >= policy.max_attempts:
                    raise DownloadError(
                        f"could not fetch {url} after {failures} attempts: {exc}",
                        url=url,
                        fix="check the network and the URL, then rerun the same command",
                    ) from None
                retry_after = exc.retry_after if isinstance(exc, _Retryable) else None
                if retry_after is not None:
                    policy.sleep(min(retry_after, policy.retry_after_cap))
                else:
                    backoff = min(policy.backoff_max, policy.backoff_base * 2.0 ** (failures - 1))
                    policy.sleep(backoff * random.uniform(0.5, 1.0))
    finally:
        if owned:
            active.close()
