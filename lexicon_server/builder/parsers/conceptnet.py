"""ConceptNet 5.7 assertions CSV (``conceptnet-assertions-5.7.0.csv[.gz]``) -> :class:`Assertion`.

Each line has five tab-separated columns: the edge URI, the relation (``/r/IsA``), the start
and end terms (``/c/<lang>/<text>[/<pos>[/<sense>...]]``) and a JSON object with
``weight``, ``dataset``, ``license`` and ``sources``. Term texts are returned as published
(lower case, underscores for spaces); part-of-speech and sense suffixes are dropped.
Edges whose ends are not ConceptNet terms (``/r/ExternalURL`` to web addresses) are skipped.
The language filter runs before the JSON column is decoded, which is most of the cost.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from lexicon_server.builder.parsers._io import ParseError, open_text
from lexicon_server.builder.records import Assertion

__all__ = ["iter_assertions", "split_term"]


def split_term(uri: str) -> tuple[str, str] | None:
    """``/c/en/ice_cream/n/wn/food`` -> ``('en', 'ice_cream')``; None for non-term URIs."""
    if not uri.startswith("/c/"):
        return None
    parts = uri.split("/", 5)
    if len(parts) < 4 or not parts[2] or not parts[3]:
        return None
    return parts[2], parts[3]


def iter_assertions(
    path: str | Path,
    *,
    languages: Iterable[str] | None = None,
    relations: Iterable[str] | None = None,
) -> Iterator[Assertion]:
    """Yield edges in file order; with ``languages``, only edges whose two ends are in them."""
    wanted = frozenset(languages) if languages is not None else None
    kinds = frozenset(relations) if relations is not None else None
    with open_text(path) as handle:
        for line_no, line in enumerate(handle, 1):
            columns = line.rstrip("\r\n").split("\t")
            if len(columns) != 5:
                if not line.strip():
                    continue
                raise ParseError(
                    path, line_no, f"expected 5 tab-separated columns, got {len(columns)}"
                )
            _uri, rel, start_uri, end_uri, info = columns
            start, end = split_term(start_uri), split_term(end_uri)
            if start is None or end is None or not rel.startswith("/r/"):
                continue
            if wanted is not None and (start[0] not in wanted or end[0] not in wanted):
                continue
            relation = rel[3:]
            if kinds is not None and relation not in kinds:
                continue
            weight, dataset = _info(info, path, line_no)
            yield Assertion(
                relation=relation,
                start_language=start[0],
                start_text=start[1],
                end_language=end[0],
                end_text=end[1],
                weight=weight,
                dataset=dataset,
            )


# The two top-level keys the records need, read without decoding the whole JSON object
# (json.loads was most of the per-line cost); anything unusual falls back to json.loads.
_WEIGHT = re.compile(r'"weight": ([0-9.eE+-]+)[,}]')
_DATASET = re.compile(r'"dataset": "([^"\\]*)"')


def _info(info: str, path: str | Path, line_no: int) -> tuple[float, str]:
    weight, dataset = _WEIGHT.search(info), _DATASET.search(info)
    if weight and dataset and info.count('"weight"') == 1 and info.count('"dataset"') == 1:
        try:
            return float(weight[1]), dataset[1]
        except ValueError:
            pass
    try:
        meta = json.loads(info)
        found = meta.get("dataset")
        return float(meta.get("weight", 1.0)), found if isinstance(found, str) else ""
    except (ValueError, TypeError, AttributeError) as exc:
        raise ParseError(path, line_no, f"bad JSON info column ({exc})") from exc
