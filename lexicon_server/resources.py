"""Read-only facts about the active selection, served as MCP resources.

Licences travel with the data (DATA_LICENSES.md is a shared component of every
release); the manifest summary and the language table tell a client what this install
can answer before it asks. The manifest's `sources` describes every source key a tool
answer can name (title, version, licence): answers name each key's licence only.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from lexicon_server.corpus.rows.facts import source_details

if TYPE_CHECKING:
    from lexicon_server.corpus.reader import Corpus

__all__ = [
    "LICENSES_FILE",
    "languages_json",
    "licenses_text",
    "manifest_json",
    "source_descriptions",
]

# The installed capabilities that are component databases, each with a `sources` table.
_DATABASES = ("lexical", "semantic", "wordplay")

LICENSES_FILE = "DATA_LICENSES.md"


def licenses_text(corpus: Corpus) -> str:
    """The data licences of the active release, as shipped with it."""
    path = corpus.selection.files.get(LICENSES_FILE)
    if path is None:
        return (
            f"# Data licences\n\nThe active selection ({corpus.dataset_version}) carries no "
            f"{LICENSES_FILE}; every tool result still names its source and licence.\n"
        )
    return path.read_text(encoding="utf-8")


def manifest_json(corpus: Corpus) -> str:
    """What is active: dataset version, manifest digest, activation and component paths."""
    selection = corpus.selection
    body = {
        "dataset_version": selection.dataset_version,
        "manifest_digest": selection.manifest_digest,
        "activation_id": selection.activation_id,
        "profile": selection.profile,
        "installed": {lang: sorted(caps) for lang, caps in sorted(selection.installed.items())},
        "components": sorted(selection.files),
        "sources": source_descriptions(corpus),
    }
    return json.dumps(body, indent=2, ensure_ascii=False)


def source_descriptions(corpus: Corpus) -> dict[str, dict[str, str]]:
    """Every source key of the installed component databases: title, version, licence."""
    from lexicon_server.corpus.reader import DamagedComponent

    out: dict[str, dict[str, str]] = {}
    selection = corpus.selection
    for language, capabilities in sorted(selection.installed.items()):
        for capability in _DATABASES:
            if capability not in capabilities:
                continue
            try:
                rows = source_details(corpus.db(language, capability))
            except DamagedComponent:
                continue  # lexicon://languages names it; the other sources are still listed
            for name, title, version, licence in rows:
                out.setdefault(name, {"title": title, "version": version, "licence": licence})
    return dict(sorted(out.items()))


def languages_json(corpus: Corpus) -> str:
    """Every language the release carries, what it has, and what this install serves.

    A capability with a component file found damaged when the selection was opened has
    the status `damaged`, and `damaged` lists those components (no server paths)."""
    selection = corpus.selection
    damaged = corpus.damaged
    broken: set[tuple[str, str]] = set()
    for damage in damaged.values():
        language, _, rest = damage.component.partition(".")
        broken.add((language, rest.partition(".")[0]))
    rows = []
    for code in sorted(selection.catalogue):
        carried = sorted(selection.catalogue[code])
        rows.append(
            {
                "language": code,
                "name": selection.language_names.get(code, code),
                "capabilities": carried,
                "installed": sorted(selection.installed.get(code, frozenset())),
                "status": {
                    cap: selection.availability(code, cap)
                    or ("damaged" if (code, cap) in broken else "installed")
                    for cap in ("lexical", "semantic", "wordplay")
                },
            }
        )
    body: dict[str, object] = {"dataset_version": selection.dataset_version, "languages": rows}
    if damaged:
        body["damaged"] = [
            {"component": d.component, "file": d.relative, "message": d.remote_message}
            for d in damaged.values()
        ]
    return json.dumps(body, indent=2, ensure_ascii=False)
