"""What a release must answer to be accepted: its anchors and the gates' thresholds.

A profile is a JSON file (format 1). The builder ships one per release profile in
``lexicon_server/release/acceptance/<profile>.json``; ``lexicon-build accept --gates FILE``
takes another (the tests use one with anchors the small sample corpus has).

An anchor runs one query function (the code under one MCP tool) and checks its answer::

    {"name": "dog hypernyms, two hops", "query": "relations",
     "args": {"word": "dog", "relation": "hypernym", "max_depth": 2},
     "expect": [{"at": "results.*.words.*", "includes": ["carnivore"]}]}

``at`` is a dotted path into the answer (``*`` walks a list); ``includes`` are values that
must appear there, ``contains_text`` substrings some value must contain, ``excludes``
values that must not appear, ``min_count`` how many values there must be at least.
``sense_gloss`` (for ``translate``) first looks the word up and passes the id of the sense
whose gloss contains that text as ``sense_id``: a sense-tied translation check.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lexicon_server.builder.errors import BuildError

__all__ = ["Anchor", "Expectation", "GateProfile", "check_answer", "load_profile", "values_at"]

PROFILE_FORMAT = 1
QUERIES = ("lookup", "translate", "relations", "rhymes", "wordplay", "semantic", "synonyms")
_SHIPPED = Path(__file__).parent / "acceptance"


@dataclass(frozen=True)
class Expectation:
    at: str
    includes: tuple[str, ...] = ()
    contains_text: tuple[str, ...] = ()
    excludes: tuple[str, ...] = ()
    min_count: int = 0


@dataclass(frozen=True)
class Anchor:
    name: str
    query: str
    args: Mapping[str, Any]
    expect: tuple[Expectation, ...]
    sense_gloss: str | None = None


@dataclass(frozen=True)
class GateProfile:
    name: str
    anchors: tuple[Anchor, ...]
    recall_min: float = 0.99
    recall_queries: int = 200
    cycles: int = 10
    cycle_word: str = "dog"
    bench_words: int = 200
    # ours / NLTK's first look-up, p50 on-CPU: at least as fast (issue 5's aim).
    lookup_ratio_max: float = 1.0
    wordnet_dir: Path | None = field(default=None, compare=False)


def _strings(raw: Any, where: str) -> tuple[str, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(v, str) for v in raw):
        raise BuildError(f"{where} must be a list of strings")
    return tuple(raw)


def _anchor(raw: Any, where: str) -> Anchor:
    if not isinstance(raw, dict) or not isinstance(raw.get("name"), str):
        raise BuildError(f"{where} must be an object with a name")
    if raw.get("query") not in QUERIES:
        raise BuildError(f"{where}: query must be one of {', '.join(QUERIES)}")
    expects = []
    for n, e in enumerate(raw.get("expect") or []):
        if not isinstance(e, dict) or not isinstance(e.get("at"), str):
            raise BuildError(f"{where}.expect[{n}] needs a path 'at'")
        expects.append(
            Expectation(
                e["at"],
                _strings(e.get("includes"), f"{where}.expect[{n}].includes"),
                _strings(e.get("contains_text"), f"{where}.expect[{n}].contains_text"),
                _strings(e.get("excludes"), f"{where}.expect[{n}].excludes"),
                int(e.get("min_count", 0)),
            )
        )
    if not expects:
        raise BuildError(f"{where} ({raw['name']}) expects nothing; an anchor must check something")
    args = raw.get("args") or {}
    if not isinstance(args, dict):
        raise BuildError(f"{where}.args must be an object")
    gloss = raw.get("sense_gloss")
    if gloss is not None and (not isinstance(gloss, str) or raw["query"] != "translate"):
        raise BuildError(f"{where}: sense_gloss is a text, and only for a translate anchor")
    return Anchor(raw["name"], raw["query"], args, tuple(expects), gloss)


def load_profile(path: Path | None, release_profile: str | None) -> GateProfile:
    """``path``, else the profile shipped for the release's own profile name."""
    if path is None:
        name = release_profile or "starter"
        path = _SHIPPED / f"{name}.json"
        if not path.is_file():
            raise BuildError(
                f"no acceptance profile is shipped for release profile {name!r}; "
                "pass one with --gates FILE (see docs/releasing.md)"
            )
    try:
        body = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise BuildError(f"cannot read the acceptance profile {path}: {exc}") from None
    if not isinstance(body, dict) or body.get("format") != PROFILE_FORMAT:
        raise BuildError(f"{path} is not a format {PROFILE_FORMAT} acceptance profile")
    anchors = tuple(
        _anchor(a, f"{path.name}: anchors[{n}]") for n, a in enumerate(body.get("anchors") or [])
    )
    if not anchors:
        raise BuildError(f"{path} lists no anchors")
    gates = body.get("gates") or {}
    return GateProfile(
        name=str(body.get("name", path.stem)),
        anchors=anchors,
        recall_min=float(gates.get("recall_min", 0.99)),
        recall_queries=int(gates.get("recall_queries", 200)),
        cycles=int(gates.get("cycles", 10)),
        cycle_word=str(gates.get("cycle_word", "dog")),
        bench_words=int(gates.get("bench_words", 200)),
        lookup_ratio_max=float(gates.get("lookup_ratio_max", 1.0)),
    )


def values_at(data: Any, path: str) -> list[Any]:
    """Every value at a dotted path; ``*`` walks each item of a list."""

    def walk(node: Any, keys: list[str]) -> Iterator[Any]:
        if not keys:
            yield node
            return
        key, rest = keys[0], keys[1:]
        if key == "*":
            if isinstance(node, list):
                for item in node:
                    yield from walk(item, rest)
        elif isinstance(node, dict) and key in node:
            yield from walk(node[key], rest)

    return list(walk(data, path.split(".")))


def check_answer(data: Any, expect: Expectation) -> list[str]:
    """What ``data`` fails of ``expect`` (empty when it passes)."""
    found = values_at(data, expect.at)
    texts = [v for v in found if isinstance(v, str)]
    failures = [f"{expect.at} lacks {v!r}" for v in expect.includes if v not in texts]
    failures += [
        f"no {expect.at} contains {t!r}"
        for t in expect.contains_text
        if not any(t.lower() in v.lower() for v in texts)
    ]
    failures += [f"{expect.at} has {v!r}" for v in expect.excludes if v in texts]
    if len(found) < expect.min_count:
        failures.append(f"{expect.at} has {len(found)} values, at least {expect.min_count} wanted")
    return failures
