"""The release manifest: typed records, strict validation, canonical serialisation.

Format described in docs/release-format.md. Everything a hostile or damaged manifest
could use to escape the release dir or the data dir is rejected here, before any
file is touched.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from .digests import hex_of
from .errors import ManifestError
from .selection import CAPABILITIES

__all__ = [
    "MANIFEST_FORMAT",
    "MAX_OBJECT_SIZE",
    "MAX_PART_SIZE",
    "Component",
    "Manifest",
    "ObjectRef",
    "Part",
    "check_relative_path",
    "parse_manifest",
]

MANIFEST_FORMAT = 1
MAX_PART_SIZE = 1 << 30  # every part must be strictly smaller than 1 GiB
# Larger than any file system holds, small enough for every offset and mmap the code does.
MAX_OBJECT_SIZE = 1 << 60
_MAX_SCHEMA = 1 << 31
SHARED = "shared"

_VERSION = re.compile(r"^[A-Za-z0-9._+-]{1,100}$")
_ID = re.compile(r"^[A-Za-z0-9._-]{1,200}$")
_LANG = re.compile(r"^[A-Za-z0-9_-]{1,35}$")
_PATH_CHARS = re.compile(r"^[A-Za-z0-9._/-]+$")
_DRIVE = re.compile(r"^[A-Za-z]:")


@dataclass(frozen=True)
class ObjectRef:
    digest: str
    size: int

    @property
    def hex(self) -> str:
        return self.digest.partition(":")[2]


@dataclass(frozen=True)
class Part:
    path: str
    digest: str
    size: int


@dataclass(frozen=True)
class Component:
    id: str
    language: str | None
    capability: str
    path: str
    object: ObjectRef
    parts: tuple[Part, ...]

    @property
    def compressed_size(self) -> int:
        return sum(p.size for p in self.parts)


@dataclass(frozen=True)
class Manifest:
    dataset_version: str
    profile: str | None
    schemas: Mapping[str, int]
    language_names: Mapping[str, str]
    catalogue: Mapping[str, frozenset[str]]
    components: tuple[Component, ...]
    digest: str  # blake3 of the manifest bytes as read
    raw: Mapping[str, Any]

    def component(self, component_id: str) -> Component:
        for c in self.components:
            if c.id == component_id:
                return c
        raise KeyError(component_id)


def check_relative_path(path: Any, where: str) -> str:
    """A safe relative POSIX path, or ManifestError saying why not."""
    if not isinstance(path, str) or not path:
        raise ManifestError(f"{where}: path must be a non-empty string, got {path!r}")
    if "\\" in path:
        raise ManifestError(f"{where}: path {path!r} contains a backslash")
    if path.startswith("/"):
        raise ManifestError(f"{where}: path {path!r} is absolute")
    if _DRIVE.match(path):
        raise ManifestError(f"{where}: path {path!r} starts with a drive letter")
    if not _PATH_CHARS.match(path):
        raise ManifestError(f"{where}: path {path!r} has characters outside [A-Za-z0-9._/-]")
    for segment in path.split("/"):
        if segment in ("", ".", ".."):
            raise ManifestError(f"{where}: path {path!r} has an empty, '.' or '..' segment")
    return path


def _integer(value: Any, where: str, what: str, limit: int) -> int:
    """A JSON integer in ``[0, limit)`` (booleans, floats and huge numbers refused)."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < limit:
        shown = repr(value) if not isinstance(value, int) or value < limit else "a huge number"
        raise ManifestError(
            f"{where}: {what} must be a non-negative integer below {limit}, got {shown[:80]}"
        )
    return value


def _size(value: Any, where: str) -> int:
    return _integer(value, where, "size", MAX_OBJECT_SIZE)


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise ManifestError(f"{where} must be a string, got {type(value).__name__}")
    return value


def _mapping(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise ManifestError(f"{where} must be a JSON object")
    return value


def _parse_part(raw: Any, where: str) -> Part:
    body = _mapping(raw, where)
    path = check_relative_path(body.get("path"), where)
    digest = body.get("digest")
    hex_of(digest, f"{where}.digest")
    size = _size(body.get("size"), f"{where}.size")
    if size >= MAX_PART_SIZE:
        raise ManifestError(
            f"{where}: part {path!r} declares {size} bytes; parts must be smaller than 1 GiB"
        )
    return Part(path=path, digest=str(digest), size=size)


def _parse_component(raw: Any, index: int, catalogue: Mapping[str, frozenset[str]]) -> Component:
    where = f"components[{index}]"
    body = _mapping(raw, where)
    cid = body.get("id")
    if not isinstance(cid, str) or not _ID.match(cid):
        raise ManifestError(f"{where}: id {cid!r} must match [A-Za-z0-9._-]")
    where = f"component {cid!r}"
    language = body.get("language")
    capability = _text(body.get("capability"), f"{where}.capability")
    if language is not None:
        language = _text(language, f"{where}.language")
    if language is None:
        if capability != SHARED:
            raise ManifestError(f"{where}: a component without a language must be 'shared'")
    else:
        if language not in catalogue:
            raise ManifestError(f"{where}: language {language!r} is not in the catalogue")
        if capability not in catalogue[language]:
            raise ManifestError(
                f"{where}: capability {capability!r} is not listed for language {language!r}"
            )
    path = check_relative_path(body.get("path"), where)
    obj = _mapping(body.get("object"), f"{where}.object")
    hex_of(obj.get("digest"), f"{where}.object.digest")
    ref = ObjectRef(str(obj["digest"]), _size(obj.get("size"), f"{where}.object.size"))
    raw_parts = body.get("parts")
    if not isinstance(raw_parts, list) or not raw_parts:
        raise ManifestError(f"{where}: parts must be a non-empty list")
    parts = tuple(_parse_part(p, f"{where}.parts[{i}]") for i, p in enumerate(raw_parts))
    return Component(
        id=cid,
        language=language,
        capability=capability,
        path=path,
        object=ref,
        parts=parts,
    )


def parse_manifest(data: bytes, digest: str) -> Manifest:
    """Validate manifest bytes (whose blake3 ``digest`` the caller computed)."""
    try:
        body = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise ManifestError(f"manifest is not valid UTF-8 JSON ({exc})") from None
    except RecursionError:
        raise ManifestError("manifest nests JSON too deeply to be a release manifest") from None
    try:
        return _parse_body(_mapping(body, "manifest"), digest)
    except (TypeError, ValueError, OverflowError, RecursionError) as exc:
        if isinstance(exc, ManifestError):
            raise
        # Every field is checked above by type; this is the net under those checks.
        raise ManifestError(f"manifest has a value of the wrong type ({exc})") from None


def _parse_body(body: Mapping[str, Any], digest: str) -> Manifest:
    fmt = body.get("format")
    if not isinstance(fmt, int) or isinstance(fmt, bool) or fmt != MANIFEST_FORMAT:
        raise ManifestError(
            f"manifest format {body.get('format')!r} is not supported (this code reads "
            f"{MANIFEST_FORMAT})",
            fix="upgrade lexicon (uv tool upgrade lexicon-mcp, or pip install -U "
            "lexicon-mcp) or use a release of a supported format",
        )
    version = body.get("dataset_version")
    if not isinstance(version, str) or not _VERSION.match(version):
        raise ManifestError(f"dataset_version {version!r} must match [A-Za-z0-9._+-]{{1,100}}")
    profile = body.get("profile")
    if profile is not None and not isinstance(profile, str):
        raise ManifestError(f"profile must be a string or null, got {profile!r}")
    names: dict[str, str] = {}
    catalogue: dict[str, frozenset[str]] = {}
    for code, info in _mapping(body.get("languages"), "languages").items():
        if not _LANG.match(code):
            raise ManifestError(f"language code {code!r} must match [A-Za-z0-9_-]{{1,35}}")
        info = _mapping(info, f"languages.{code}")
        caps = info.get("capabilities")
        if not isinstance(caps, list) or any(c not in CAPABILITIES for c in caps):
            raise ManifestError(
                f"languages.{code}.capabilities must be a list drawn from {list(CAPABILITIES)}"
            )
        names[code] = _text(info.get("name", code), f"languages.{code}.name")
        catalogue[code] = frozenset(caps)
    raw_components = body.get("components")
    if not isinstance(raw_components, list):
        raise ManifestError("components must be a list")
    components = tuple(_parse_component(c, i, catalogue) for i, c in enumerate(raw_components))
    seen_ids: set[str] = set()
    seen_paths: set[str] = set()
    seen_parts: set[str] = set()
    for c in components:
        if c.id in seen_ids:
            raise ManifestError(f"component id {c.id!r} appears twice")
        if c.path in seen_paths:
            raise ManifestError(f"component path {c.path!r} appears twice")
        seen_ids.add(c.id)
        seen_paths.add(c.path)
        for p in c.parts:
            if p.path in seen_parts or p.path == "manifest.json":
                raise ManifestError(f"part path {p.path!r} is used twice")
            seen_parts.add(p.path)
    for code, caps in catalogue.items():
        for cap in caps:
            if not any(c.language == code and c.capability == cap for c in components):
                raise ManifestError(f"languages.{code} lists {cap!r} but no component provides it")
    schemas = {
        name: _integer(value, f"schemas.{name}", "a schema version", _MAX_SCHEMA)
        for name, value in _mapping(body.get("schemas", {}), "schemas").items()
    }
    return Manifest(
        dataset_version=version,
        profile=profile,
        schemas=MappingProxyType(schemas),
        language_names=MappingProxyType(names),
        catalogue=MappingProxyType(catalogue),
        components=components,
        digest=digest,
        raw=MappingProxyType(body),
    )
