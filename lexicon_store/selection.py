"""Read the active selection of a data dir: the one piece of the store the server imports.

Standard library only, on purpose: importing the server must not pull in httpx,
zstandard or tqdm. The on-disk format read here (the ``current`` pointer and the
activation record it names) is documented in docs/release-format.md and versioned by
the ``format`` field of each file; this module refuses formats it does not know.
"""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from lexicon_store.errors import StoreError

__all__ = [
    "ACTIVATION_FORMAT",
    "CAPABILITIES",
    "POINTER_FORMAT",
    "REASONS",
    "ActiveSelection",
    "NoActiveSelection",
    "default_data_dir",
    "install_command",
    "load_active",
    "object_path",
    "read_activation",
]

POINTER_FORMAT = 1
ACTIVATION_FORMAT = 1
CAPABILITIES = ("lexical", "semantic", "wordplay")
REASONS = (
    "unknown_language",
    "not_available_upstream",
    "language_not_installed",
    "capability_not_installed",
)

# Kept in step with lexicon_store.pins.DEFAULT_VERSION (a test checks it); duplicated so
# that this module stays free of any other import.
_SUGGESTED_VERSION = "starter-2026.11.0"


def default_data_dir() -> Path:
    """$LEXICON_DATA_DIR, else $XDG_DATA_HOME/lexicon, else ~/.local/share/lexicon."""
    explicit = os.environ.get("LEXICON_DATA_DIR")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    if xdg:
        return Path(xdg).expanduser() / "lexicon"
    return Path.home() / ".local" / "share" / "lexicon"


def install_command(data_dir: Path | None = None) -> str:
    """The exact command that installs a dataset into ``data_dir``."""
    prefix = "lexicon-data"
    if data_dir is not None and Path(data_dir) != default_data_dir():
        prefix += f" --data-dir {shlex.quote(str(data_dir))}"
    return (
        f"{prefix} install --version {_SUGGESTED_VERSION} "
        "--languages en --capabilities lexical,semantic,wordplay"
    )


def object_path(data_dir: Path, digest: str) -> Path:
    """Where the object with ``digest`` ("blake3:<hex>") lives in ``data_dir``."""
    algorithm, _, hexdigest = digest.partition(":")
    if algorithm != "blake3" or len(hexdigest) != 64 or not _is_hex(hexdigest):
        raise ValueError(f"not a blake3 digest: {digest!r}")
    return data_dir / "objects" / "blake3" / hexdigest[:2] / hexdigest


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdef" for c in text)


class NoActiveSelection(StoreError, LookupError):
    """The data dir has no usable active selection; the message says how to install one."""

    default_fix = None  # the message itself ends with the install command

    def __init__(self, data_dir: Path, detail: str) -> None:
        self.data_dir = data_dir
        self.detail = detail
        super().__init__(
            f"no active Lexicon dataset in {data_dir}: {detail}. "
            f"Install one with: {install_command(data_dir)} "
            "(add --from DIR for a release on local disk; with no published release at hand, "
            "`lexicon-build start` builds and installs the starter corpus)"
        )


@dataclass(frozen=True)
class ActiveSelection:
    """What the active activation serves, and where its component files are."""

    data_dir: Path
    activation_id: str
    dataset_version: str
    manifest_digest: str
    profile: str | None
    language_names: Mapping[str, str]
    catalogue: Mapping[str, frozenset[str]]
    installed: Mapping[str, frozenset[str]]
    files: Mapping[str, Path]
    created: str = field(default="")
    # the release source (directory or URL) the install used, when the record keeps it
    source: str | None = None
    # dataset-relative path -> (component id, size in bytes) as the record states them
    components: Mapping[str, tuple[str, int]] = field(default_factory=lambda: MappingProxyType({}))

    def availability(self, language: str, capability: str) -> str | None:
        """None when installed, else one of the four reasons (see ``REASONS``)."""
        carried = self.catalogue.get(language)
        if carried is None:
            return "unknown_language"
        if capability not in carried:
            return "not_available_upstream"
        have = self.installed.get(language)
        if have is None:
            return "language_not_installed"
        if capability not in have:
            return "capability_not_installed"
        return None


def _read_json(path: Path) -> Any:
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def _read_pointer(data_dir: Path) -> str:
    pointer = data_dir / "current"
    try:
        body = _read_json(pointer)
    except FileNotFoundError:
        raise NoActiveSelection(data_dir, "nothing has been installed yet") from None
    except (OSError, ValueError) as exc:
        raise NoActiveSelection(data_dir, f"cannot read {pointer} ({exc})") from None
    if not isinstance(body, dict) or body.get("format") != POINTER_FORMAT:
        raise NoActiveSelection(
            data_dir, f"{pointer} has an unknown format (this reader knows {POINTER_FORMAT})"
        )
    activation = body.get("activation")
    if not isinstance(activation, str) or not activation.isalnum():
        raise NoActiveSelection(data_dir, f"{pointer} names no valid activation")
    return activation


def _parse_record(data_dir: Path, activation_id: str, body: Any) -> ActiveSelection:
    where = data_dir / "activations" / f"{activation_id}.json"
    if not isinstance(body, dict) or body.get("format") != ACTIVATION_FORMAT:
        raise NoActiveSelection(
            data_dir, f"{where} has an unknown format (this reader knows {ACTIVATION_FORMAT})"
        )
    try:
        languages = body["languages"]
        names = {code: str(info["name"]) for code, info in languages.items()}
        catalogue = {
            code: frozenset(str(c) for c in info["capabilities"])
            for code, info in languages.items()
        }
        installed = {
            code: frozenset(str(c) for c in caps) for code, caps in body["installed"].items()
        }
        files = {
            str(component["path"]): object_path(data_dir, str(component["object"]))
            for component in body["components"]
        }
        components = {
            str(component["path"]): (str(component["id"]), int(component["size"]))
            for component in body["components"]
        }
        profile = body.get("profile")
        return ActiveSelection(
            data_dir=data_dir,
            activation_id=activation_id,
            dataset_version=str(body["dataset_version"]),
            manifest_digest=str(body["manifest_digest"]),
            profile=None if profile is None else str(profile),
            language_names=MappingProxyType(names),
            catalogue=MappingProxyType(catalogue),
            installed=MappingProxyType(installed),
            files=MappingProxyType(files),
            created=str(body.get("created", "")),
            source=body["source"] if isinstance(body.get("source"), str) else None,
            components=MappingProxyType(components),
        )
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        raise NoActiveSelection(data_dir, f"{where} is malformed ({exc!r})") from None


def read_activation(data_dir: Path, activation_id: str) -> ActiveSelection:
    """The retained activation ``activation_id`` (whether or not it is active)."""
    record = Path(data_dir) / "activations" / f"{activation_id}.json"
    try:
        body = _read_json(record)
    except (OSError, ValueError) as exc:
        raise NoActiveSelection(Path(data_dir), f"cannot read {record} ({exc})") from None
    return _parse_record(Path(data_dir), activation_id, body)


def load_active(data_dir: Path | None = None) -> ActiveSelection:
    """The selection the ``current`` pointer names. Never blocks on a writer.

    A writer may switch the pointer and prune the old record between our two reads; we
    then simply read the pointer again.
    """
    root = Path(data_dir) if data_dir is not None else default_data_dir()
    for _attempt in range(5):
        activation_id = _read_pointer(root)
        record = root / "activations" / f"{activation_id}.json"
        try:
            body = _read_json(record)
        except FileNotFoundError:
            continue
        except (OSError, ValueError) as exc:
            raise NoActiveSelection(root, f"cannot read {record} ({exc})") from None
        return _parse_record(root, activation_id, body)
    raise NoActiveSelection(root, f"the active activation record is missing from {root}")
