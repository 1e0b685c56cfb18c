"""A release served over HTTP(S): the ``ReleaseSource`` the store uses for ``--from URL``.

``lexicon_store.source.open_source`` imports this module only for http(s) specs, so a
local ``--from`` never loads httpx. Even here the HTTP client is built on first use.

Parts are located next to the manifest, or under the manifest's ``base_url`` when the
publisher set one. While the store decompresses one part, the next parts are already
downloading into the store's partial files, so network and decompression overlap: the
parts the store announced through :meth:`HttpSource.prefetch`, else the following parts
of the same component (which it will certainly ask for next). At most
``policy.parallel`` downloads run at once, and none runs further ahead than that.
"""

from __future__ import annotations

import dataclasses
import json
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import httpx

from .digests import digest_bytes, hex_of
from .download import (
    Downloader,
    DownloadItem,
    DownloadPolicy,
    DownloadProgress,
    DownloadResult,
    fetch_bytes,
    make_client,
)
from .errors import ManifestError, SourceError
from .manifest import Part, parse_manifest
from .progress import Progress

__all__ = ["MAX_MANIFEST_BYTES", "HttpSource", "manifest_url_for"]

MAX_MANIFEST_BYTES = 64 << 20
MANIFEST_NAME = "manifest.json"


def manifest_url_for(url: str) -> str:
    """A URL ending in ``.json`` names the manifest; anything else is the release directory."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise SourceError(f"{url!r} is not an http(s) URL", fix="pass --from http(s)://HOST/PATH")
    if parts.path.endswith(".json"):
        return url
    return url.rstrip("/") + "/" + MANIFEST_NAME


class _PartProgress:
    """Turns cumulative download reports into the store's (task, advanced, total) deltas:
    one task per part, plus ``download`` for all parts (its total is known once the
    caller announced the parts, else 0: bytes and rate without an ETA)."""

    def __init__(self, part: Part, progress: Progress, total: int) -> None:
        self._task = f"download {part.path}"
        self._progress = progress
        self._total = total
        self._seen = 0

    def __call__(self, event: DownloadProgress) -> None:
        delta = event.part.done - self._seen
        self._seen = event.part.done
        if delta:
            self._progress(self._task, delta, event.part.total)
            self._progress("download", delta, self._total)


class HttpSource:
    """Manifest and parts of one release at an http(s) URL."""

    def __init__(
        self,
        url: str,
        *,
        policy: DownloadPolicy | None = None,
        client: httpx.Client | None = None,
    ) -> None:
        self.manifest_url = manifest_url_for(url)
        self.policy = policy or DownloadPolicy()
        self._client = client
        self._owns_client = client is None
        self._base_url = urljoin(self.manifest_url, ".")
        self._following: dict[str, tuple[Part, ...]] = {}
        self._order: list[tuple[Part, Path]] = []
        self._jobs: dict[Path, tuple[Future[DownloadResult], Downloader]] = {}
        # Partials already handed to the store: read-ahead for another caller (the store
        # builds several objects at once) must not download them a second time.
        self._handed: set[Path] = set()
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None

    @property
    def description(self) -> str:
        return self.manifest_url

    @property
    def client(self) -> httpx.Client:
        with self._lock:
            if self._client is None:
                self._client = make_client(self.policy)
            return self._client

    def part_url(self, part: Part) -> str:
        return urljoin(self._base_url, part.path)

    def read_manifest(self) -> bytes:
        data = fetch_bytes(
            self.manifest_url, max_size=MAX_MANIFEST_BYTES, policy=self.policy, client=self.client
        )
        self._learn(data)
        return data

    def _learn(self, data: bytes) -> None:
        """Note base_url and each component's part order; the store validates the rest."""
        try:
            raw = json.loads(data)
            manifest = parse_manifest(data, digest_bytes(data))
        except (ValueError, ManifestError):
            return  # the store's own parse reports it properly
        base = raw.get("base_url") if isinstance(raw, dict) else None
        if isinstance(base, str) and base:
            resolved = urljoin(self.manifest_url, base if base.endswith("/") else base + "/")
            if urlsplit(resolved).scheme not in ("http", "https"):
                raise SourceError(
                    f"{self.manifest_url}: base_url {base!r} is not an http(s) URL",
                    fix="ask the publisher to fix base_url, or mirror the release with fetch",
                )
            self._base_url = resolved
        for component in manifest.components:
            for i, part in enumerate(component.parts):
                self._following[part.digest] = component.parts[i + 1 :]

    def local_part(self, part: Part) -> Path | None:
        return None

    def prefetch(self, wanted: list[tuple[Part, Path]]) -> None:
        """The parts (and their partial paths) the caller will ask for, in order.

        Nothing starts here; each ``fetch_part`` then keeps the next few of them downloading.
        """
        with self._lock:
            self._order = list(wanted)

    def _ahead(self, part: Part, dest_partial: Path) -> list[tuple[Part, Path]]:
        """The parts to download next, while the caller works on ``part``."""
        window = max(0, self.policy.parallel - 1)
        with self._lock:
            order = self._order
        for i, (known, path) in enumerate(order):
            if known == part and path == dest_partial:
                return order[i + 1 : i + 1 + window]
        # The store names partials <part hex>.partial; guess only under that convention.
        if dest_partial.name != f"{hex_of(part.digest)}.partial":
            return []
        return [
            (nxt, dest_partial.with_name(f"{hex_of(nxt.digest)}.partial"))
            for nxt in self._following.get(part.digest, ())[:window]
        ]

    def fetch_part(self, part: Part, dest_partial: Path, progress: Progress) -> None:
        future = self._submit(part, dest_partial, progress)
        assert future is not None  # only read-ahead is ever skipped
        for nxt, path in self._ahead(part, dest_partial):
            self._submit(nxt, path, progress, ahead=True)
        try:
            future.result()
        finally:
            with self._lock:
                self._jobs.pop(dest_partial, None)  # the store owns the file from here on
                self._handed.add(dest_partial)

    def _submit(
        self, part: Part, dest: Path, progress: Progress, *, ahead: bool = False
    ) -> Future[DownloadResult] | None:
        """Start (or join) the download of ``part``; read-ahead skips parts already handed out."""
        item = DownloadItem(self.part_url(part), dest, part.size, part.digest, part.path)
        # The store hashes these temporary files while it decompresses them (and deletes
        # them on a mismatch), and fsyncs what it builds: doing either here would be twice.
        policy = dataclasses.replace(self.policy, durable=False, verify=False)
        client = self.client
        # One critical section from the check to the registration, so two callers never
        # start the same part twice.
        with self._lock:
            job = self._jobs.get(dest)
            if job is not None:
                return job[0]
            if ahead and dest in self._handed:
                return None
            total = sum(p.size for p, _ in self._order)
            downloader = Downloader(
                policy, client=client, progress=_PartProgress(part, progress, total)
            )
            if self._pool is None:
                self._pool = ThreadPoolExecutor(
                    max_workers=max(1, self.policy.parallel), thread_name_prefix="lexicon-dl"
                )
            future = self._pool.submit(_single, downloader, item)
            self._jobs[dest] = (future, downloader)
        return future

    def close(self) -> None:
        """Stop prefetches nobody asked for (their partials stay and resume next time)."""
        with self._lock:
            jobs = list(self._jobs.values())
            self._jobs.clear()
            pool, self._pool = self._pool, None
        for _, downloader in jobs:
            downloader.cancel()
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        with self._lock:
            client, self._client = self._client, None
        if self._owns_client and client is not None:
            client.close()  # also unblocks a transfer waiting on a silent server
        if pool is not None:
            pool.shutdown(wait=True)


def _single(downloader: Downloader, item: DownloadItem) -> DownloadResult:
    [result] = downloader.download([item])
    return result
