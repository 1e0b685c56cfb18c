"""Publication targets: where a maintainer stages a release, and how it is read back.

Two kinds, both written one whole file at a time, each write replacing the file
atomically (readers see the old bytes or the new, never a mix):

- ``DirTarget``: a local directory that a static HTTP host serves. Writes go to a
  temporary file beside the final name, are fsynced and ``os.replace``d.
- ``DavTarget``: an HTTP endpoint accepting ``PUT`` (WebDAV). The server must store a PUT
  atomically, as nginx's WebDAV module does (it writes a temporary file and renames it).

Reading back is separate (``HttpReader`` over the public URL, or the target's own
``reader()``), because verification should see what users will download.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from .errors import PublishError
from .fsutil import fsync_dir

if TYPE_CHECKING:
    import httpx

__all__ = ["DavTarget", "DirReader", "DirTarget", "HttpReader", "Reader", "Target", "open_target"]

CHUNK = 1 << 20


class Reader(Protocol):
    description: str

    def read(self, name: str) -> Iterator[bytes] | None:
        """The bytes published under ``name`` (a relative path), or None if absent."""
        ...

    def close(self) -> None: ...


class Target(Protocol):
    description: str

    def put(self, name: str, source: Path | bytes) -> None:
        """Publish ``source`` under ``name``, replacing any previous file atomically."""
        ...

    def reader(self) -> Reader:
        """A reader of this target itself (used when no public URL is given)."""
        ...

    def close(self) -> None: ...


def _chunks(path: Path) -> Iterator[bytes]:
    with open(path, "rb") as handle:
        while block := handle.read(CHUNK):
            yield block


class DirReader:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.description = str(root)

    def read(self, name: str) -> Iterator[bytes] | None:
        path = self.root / name
        return _chunks(path) if path.is_file() else None

    def close(self) -> None:
        pass


class DirTarget:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.description = str(root)

    def put(self, name: str, source: Path | bytes) -> None:
        final = self.root / name
        final.parent.mkdir(parents=True, exist_ok=True)
        tmp = final.with_name(f".{final.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
        try:
            with open(tmp, "wb") as out:
                if isinstance(source, bytes):
                    out.write(source)
                else:
                    for block in _chunks(source):
                        out.write(block)
                out.flush()
                os.fsync(out.fileno())
            os.chmod(tmp, 0o644)  # a static host must be able to read it
            os.replace(tmp, final)
        finally:
            tmp.unlink(missing_ok=True)
        fsync_dir(final.parent)

    def reader(self) -> Reader:
        return DirReader(self.root)

    def close(self) -> None:
        pass


def _client() -> httpx.Client:
    import httpx

    return httpx.Client(timeout=httpx.Timeout(60.0, connect=10.0), follow_redirects=True)


def _url(base: str, name: str) -> str:
    return base.rstrip("/") + "/" + name


class HttpReader:
    """GET each asset from where users will download it."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.description = base_url
        self._http = _client()

    def read(self, name: str) -> Iterator[bytes] | None:
        import httpx

        url = _url(self.base_url, name)
        request = self._http.build_request("GET", url, headers={"Cache-Control": "no-cache"})
        try:
            response = self._http.send(request, stream=True)
        except httpx.HTTPError as exc:
            raise PublishError(
                f"cannot read {url}: {exc}", fix="check that the server is up and the URL right"
            ) from None
        if response.status_code == 404:
            response.close()
            return None
        if response.status_code != 200:
            response.close()
            raise PublishError(
                f"GET {url} answered {response.status_code}",
                fix="check the public URL and the server's configuration",
            )

        def body() -> Iterator[bytes]:
            try:
                yield from response.iter_bytes(CHUNK)
            finally:
                response.close()

        return body()

    def close(self) -> None:
        self._http.close()


class DavTarget:
    """PUT each asset to a WebDAV endpoint (missing collections are the server's to make)."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.description = base_url
        self._http = _client()

    def put(self, name: str, source: Path | bytes) -> None:
        import httpx

        url = _url(self.base_url, name)
        if isinstance(source, bytes):
            content: bytes | Iterator[bytes] = source
            length = len(source)
        else:
            content, length = _chunks(source), source.stat().st_size
        try:
            response = self._http.put(url, content=content, headers={"Content-Length": str(length)})
        except httpx.HTTPError as exc:
            raise PublishError(
                f"PUT {url} failed: {exc}", fix="check the server, then rerun the same command"
            ) from None
        if response.status_code not in (200, 201, 204):
            raise PublishError(
                f"PUT {url} answered {response.status_code}",
                fix="check that the endpoint accepts PUT (WebDAV) and creates missing folders",
            )

    def reader(self) -> Reader:
        return HttpReader(self.base_url)

    def close(self) -> None:
        self._http.close()


def open_target(spec: str) -> Target:
    """``http(s)://...`` is a WebDAV endpoint; anything else a local directory."""
    if spec.startswith(("http://", "https://")):
        return DavTarget(spec)
    return DirTarget(Path(spec))
