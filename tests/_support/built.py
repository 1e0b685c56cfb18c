"""A Corpus over a built dataset directory, without packaging or installing it."""

from __future__ import annotations

import json
from pathlib import Path
from types import MappingProxyType

from lexicon_server.corpus.reader import Corpus
from lexicon_store.selection import ActiveSelection

__all__ = ["corpus_over", "english_lexical_selection"]


def corpus_over(built: Path) -> Corpus:
    """Every component of `built/dataset.json`, served as if installed."""
    dataset = json.loads((built / "dataset.json").read_text(encoding="utf-8"))
    languages = dataset["languages"]
    caps = {lang: frozenset(info["capabilities"]) for lang, info in languages.items()}
    selection = ActiveSelection(
        data_dir=built,
        activation_id="built",
        dataset_version=dataset["dataset_version"],
        manifest_digest="blake3:" + "0" * 64,
        profile=dataset.get("profile"),
        language_names=MappingProxyType({lang: info["name"] for lang, info in languages.items()}),
        catalogue=MappingProxyType(caps),
        installed=MappingProxyType(caps),
        files=MappingProxyType({c["path"]: built / c["path"] for c in dataset["components"]}),
    )
    return Corpus(selection)


def english_lexical_selection(
    data_dir: Path, db: Path, *, activation_id: str, dataset_version: str, installed: bool = True
) -> ActiveSelection:
    """A selection of one English lexical database `db` (installed, or only catalogued)."""
    lexical = {"en": frozenset({"lexical"})}
    return ActiveSelection(
        data_dir=data_dir,
        activation_id=activation_id,
        dataset_version=dataset_version,
        manifest_digest="blake3:" + "0" * 64,
        profile=None,
        language_names={"en": "English"},
        catalogue=lexical,
        installed=lexical if installed else {},
        files={"en/lexical.sqlite": db},
    )
