"""Check sources against sources.lock.json: bytes, logical row count and row digest.

The row digest is sha256 over one canonical line per parsed record (its type name and
fields as compact JSON), so two files that differ only in ways the parsers ignore (for
example gzip framing) still agree, and any change the build would see does not.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from lexicon_server.builder.catalogue import LOCAL_SOURCES, REGISTRY_SOURCES, STARTER_SOURCES
from lexicon_server.builder.config import BuildConfig
from lexicon_server.builder.errors import NoRowReader
from lexicon_server.builder.inputs import SourceInput, resolve_inputs
from lexicon_server.builder.sources import LockEntry, SourceLock, file_sha256

__all__ = [
    "Finding",
    "iter_source_rows",
    "pin_sources",
    "row_digest",
    "verify_sources",
]

Progress = Callable[[str], None]


@dataclass(frozen=True)
class Finding:
    source: str
    field: str  # 'sha256', 'size', 'rows', 'row_digest', or 'missing'
    expected: object
    actual: object
    path: str

    @property
    def ok(self) -> bool:
        return self.expected == self.actual

    def describe(self) -> str:
        if self.ok:
            return f"ok      {self.source}: {self.field} {self.actual}"
        return (
            f"DIFFERS {self.source}: {self.field} is {self.actual!r}, lock pins "
            f"{self.expected!r} ({self.path})"
        )


def _canonical(record: object) -> bytes:
    if dataclasses.is_dataclass(record) and not isinstance(record, type):
        fields = dataclasses.astuple(record)
        line = json.dumps(
            [type(record).__name__, fields], ensure_ascii=False, separators=(",", ":")
        )
        return line.encode("utf-8") + b"\n"
    if isinstance(record, bytes):
        return record + b"\n"
    raise TypeError(f"cannot digest {type(record).__name__}")


def row_digest(records: Iterable[object]) -> tuple[int, str]:
    """(row count, 'sha256:<hex>') over the canonical lines of `records`."""
    digest = hashlib.sha256()
    count = 0
    for record in records:
        digest.update(_canonical(record))
        count += 1
    return count, "sha256:" + digest.hexdigest()


def _glove_rows(src: SourceInput) -> Iterator[bytes]:
    import numpy as np
    import pyarrow.parquet as pq

    words = pq.read_table(src.file("vocab")).column(0).to_pylist()
    matrix = np.load(src.file("vectors"), mmap_mode="r")
    for i, word in enumerate(words):
        yield (
            str(word).encode("utf-8")
            + b"\t"
            + np.asarray(matrix[i], dtype="<f4").tobytes().hex().encode()
        )


def iter_source_rows(src: SourceInput) -> Iterator[object]:
    """Every logical record the builder reads from one source, in build order."""
    name = src.spec.name
    if name in ("wordnet-3.1",):
        from lexicon_server.builder.parsers import wndb

        yield from wndb.iter_synsets(src.file("data.noun").parent, prefix="wn31")
        yield from wndb.iter_sense_index(src.file("index.sense"), prefix="wn31")
    elif name == "wordnet-3.0-exc":
        from lexicon_server.builder.parsers import wndb

        for pos in ("noun", "verb", "adj", "adv"):
            yield from wndb.iter_exceptions(src.file(f"{pos}.exc"), pos)
    elif name in ("cmudict", "cmudict-local"):
        from lexicon_server.builder.parsers import cmudict

        yield from cmudict.iter_pronunciations(src.file("dict"))
    elif name == "wordfreq":
        from lexicon_server.builder.parsers import wordfreq

        for lang in src.spec.files:
            if src.has(lang):
                yield from wordfreq.iter_frequencies(src.file(lang))
    elif name == "glove-6b-50d":
        yield from _glove_rows(src)
    elif name == "islex":
        from lexicon_server.builder.parsers import islex

        yield from islex.iter_entries(src.file("dict"))
    elif name == "gcide":
        from lexicon_server.builder.parsers import gcide

        yield from gcide.iter_entries(src.file("index"), src.file("dict"))
    elif name.startswith("freedict-"):
        from lexicon_server.builder.lexical_stages import iter_bilingual

        yield from iter_bilingual(src)
    elif name == "oewn":
        from lexicon_server.builder.parsers import lmf

        yield from lmf.iter_synsets(src.file("lmf"))
    elif name == "wiktextract":
        from lexicon_server.builder.parsers import kaikki

        yield from kaikki.iter_entries(src.file("jsonl"))
    elif name == "conceptnet":
        from lexicon_server.builder.parsers import conceptnet

        yield from conceptnet.iter_assertions(src.file("assertions"))
    elif name == "moby":
        from lexicon_server.builder.parsers import moby

        yield from moby.iter_entries(src.file("words"))
    elif name.startswith("mythes-"):
        from lexicon_server.builder.parsers import mythes

        yield from mythes.iter_entries(src.file("dat"))
    elif name == "numberbatch":
        from lexicon_server.builder.parsers import vectors

        yield from vectors.iter_vectors(src.file("vectors"))
    elif name == "cldr-annotations":
        from lexicon_server.builder.parsers import emoji
        from lexicon_server.builder.stages import slang_member

        for locale in src.spec.files:
            yield from emoji.iter_annotations(slang_member(src, locale))
    elif name == "emojibase-emoticons":
        from lexicon_server.builder.parsers import emoji
        from lexicon_server.builder.stages import slang_member

        yield from emoji.iter_emoticons(slang_member(src, "en"))
    elif name == "jargon":
        from lexicon_server.builder.parsers import jargon

        yield from jargon.iter_entries(src.file("index"), src.file("dict"))
    elif name == "genz-slang":
        from lexicon_server.builder.parsers import genz

        yield from genz.iter_entries(src.file("slang"))
    else:
        raise NoRowReader(f"no row reader for source {name!r}")


def _artefact_path(config: BuildConfig, entry: LockEntry, src: SourceInput) -> Path:
    return config.downloads / entry.filename if src.from_artefact else src.root


def _byte_identity(path: Path) -> tuple[int, str]:
    """(size, sha256) of a file, or of a directory's files concatenated in name order."""
    if path.is_file():
        return path.stat().st_size, file_sha256(path)
    import hashlib as _h

    digest = _h.sha256()
    size = 0
    for f in sorted(p for p in path.rglob("*") if p.is_file()):
        size += f.stat().st_size
        with open(f, "rb") as handle:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
    return size, digest.hexdigest()


def _all_names(overrides: Mapping[str, Path], config: BuildConfig | None = None) -> list[str]:
    """Starter sources, the registry profile's others (all when pinning, else those in the
    cache: a starter machine has none), and the local ones given."""
    starter = {s.name for s in STARTER_SOURCES}
    registry = [
        s.name
        for s in REGISTRY_SOURCES
        if s.name in starter or config is None or (config.downloads / s.filename).is_file()
    ]
    return registry + [s.name for s in LOCAL_SOURCES if s.name in overrides]


def verify_sources(
    config: BuildConfig,
    lock: SourceLock,
    overrides: Mapping[str, Path],
    *,
    rows: bool = True,
    progress: Progress | None = None,
) -> list[Finding]:
    """One finding per checked field per source; `Finding.ok` tells whether it matches."""
    say = progress or (lambda _m: None)
    names = [n for n in _all_names(overrides, config) if n in lock.entries]
    inputs = resolve_inputs(names, overrides, config, lock, fetch=False, optional=frozenset(names))
    findings: list[Finding] = []
    for name in names:
        entry = lock.entry(name)
        src = inputs.get(name)
        if src is None:
            where = str(config.downloads / entry.filename) if entry.filename else "(not given)"
            findings.append(Finding(name, "missing", "present", "absent", where))
            continue
        path = _artefact_path(config, entry, src)
        size, sha = _byte_identity(path)
        if entry.size is not None:
            findings.append(Finding(name, "size", entry.size, size, str(path)))
        if entry.sha256 is not None:
            findings.append(Finding(name, "sha256", entry.sha256, sha, str(path)))
        if rows and entry.row_digest is not None:
            say(f"{name}: reading rows")
            count, digest = row_digest(iter_source_rows(src))
            findings.append(Finding(name, "rows", entry.rows, count, str(path)))
            findings.append(Finding(name, "row_digest", entry.row_digest, digest, str(path)))
    return findings


def pin_sources(
    config: BuildConfig,
    lock: SourceLock,
    overrides: Mapping[str, Path],
    *,
    progress: Progress | None = None,
) -> SourceLock:
    """A new lock whose entries for every available source carry its current measures."""
    say = progress or (lambda _m: None)
    names = _all_names(overrides)
    inputs = resolve_inputs(names, overrides, config, lock, fetch=True, optional=frozenset(names))
    entries = dict(lock.entries)
    for name in names:
        src = inputs.get(name)
        if src is None:
            continue
        entry = lock.entry(name)
        say(f"{name}: measuring")
        size, sha = _byte_identity(_artefact_path(config, entry, src))
        rows: int | None
        digest: str | None
        try:
            rows, digest = row_digest(iter_source_rows(src))
        except NoRowReader:  # pinned by bytes alone, as before
            rows, digest = entry.rows, entry.row_digest
        entries[name] = dataclasses.replace(
            entry, sha256=sha, size=size, rows=rows, row_digest=digest
        )
    return SourceLock(entries)
