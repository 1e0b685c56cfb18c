"""Each FreeDict dictionary parsed once per build, by whichever stage reads it first.

Most pairs are read by two stages: the lexical component of its headwords' language and
that of its translations' language (the reverse dictionary; an `eng-xxx` whose `xxx` has
an `xxx-eng` of its own is read by English alone, and its copy costs a marshal dump for
nothing). Parsing is up to half of such a stage, so the first reader keeps what it parsed
in the build's state directory and the other reads that copy back (marshal, a block of
entries at a time, so memory stays bounded). A copy is keyed by the source's fingerprint,
the parser's own code and the Python version, so a changed file or parser is parsed
afresh; it appears under its name only once complete (written aside, then renamed), and
two stages parsing the same file at once both leave the same entries. The build empties
the directory when a run starts and when it ends (`pipeline`): copies never outlive the
run that wrote them.

Outside a build (tests, scripts calling the writers directly) nothing is kept.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

from lexicon_server.builder.errors import BuildError
from lexicon_server.builder.records import BilingualEntry

__all__ = ["SHARED_PARSES_DIR", "bilingual_entries", "shared_parses"]

SHARED_PARSES_DIR = "parsed"  # under the build's state directory
_BLOCK = 4096  # entries per marshal record

_directory: ContextVar[Path | None] = ContextVar("shared_parses", default=None)


@contextmanager
def shared_parses(directory: Path) -> Iterator[None]:
    """Keep and reuse parsed dictionaries in `directory` for the block (one stage's run)."""
    token = _directory.set(directory)
    try:
        yield
    finally:
        _directory.reset(token)


def bilingual_entries(
    name: str, fingerprint: str, parse: Callable[[], Iterable[BilingualEntry]]
) -> Iterator[BilingualEntry]:
    """The entries `parse()` yields, read from the kept copy when another stage made one."""
    directory = _directory.get()
    if directory is None:
        yield from parse()
        return
    path = directory / f"{name}.{_key(fingerprint)}.marshal"
    try:
        handle = open(path, "rb")  # noqa: SIM115 (closed below, after the last block)
    except FileNotFoundError:
        yield from _parse_and_keep(path, parse())
        return
    with handle:
        while True:
            try:
                block = marshal.load(handle)
            except EOFError:
                return
            except ValueError as exc:  # cannot happen to a copy this run renamed into place
                raise BuildError(
                    f"kept parse {path} is damaged ({exc}); delete it and rerun the build"
                ) from exc
            for row in block:
                yield BilingualEntry(*row)


def _parse_and_keep(path: Path, entries: Iterable[BilingualEntry]) -> Iterator[BilingualEntry]:
    path.parent.mkdir(parents=True, exist_ok=True)
    aside = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    complete = False
    try:
        with open(aside, "wb") as handle:
            block: list[tuple[object, ...]] = []
            for e in entries:
                yield e
                block.append(
                    (
                        e.source_language,
                        e.target_language,
                        e.headword,
                        e.pos,
                        e.translations,
                        e.sense_notes,
                        e.cleaned,
                    )
                )
                if len(block) == _BLOCK:
                    marshal.dump(block, handle)
                    block = []
            if block:
                marshal.dump(block, handle)
        complete = True
    finally:
        # A reader that stopped early or a parse that failed leaves nothing behind.
        if complete:
            os.replace(aside, path)
        else:
            aside.unlink(missing_ok=True)


@cache
def _parser_digest() -> str:
    """The code that decides the entries (the parser, the records, the language tags) and
    the Python whose marshal format the copy is in."""
    from lexicon_server.builder import language_tables, records
    from lexicon_server.builder.parsers import dictd, entry_grammar

    code = hashlib.sha256(sys.version.encode())
    for module in (dictd, entry_grammar, records, language_tables):
        code.update(Path(module.__file__ or "").read_bytes())
    return code.hexdigest()


def _key(fingerprint: str) -> str:
    return hashlib.sha256(f"{fingerprint}:{_parser_digest()}".encode()).hexdigest()[:24]
