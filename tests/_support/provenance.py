"""The `sources` rule every result follows: its `sources` map names exactly the sources its
facts cite by key, each with its licence (titles and versions are in lexicon://manifest)."""

from __future__ import annotations

from typing import Any

__all__ = ["assert_sources_complete"]


def _names_a_source(field: str) -> bool:
    # `source`, or `<fact>_source` where a candidate names its facts' sources in fields
    # of their own (a rhyme's `spelling_source` and `pronunciation_source`).
    return field == "source" or field.endswith("_source")


def _cited(node: Any, path: str, found: dict[str, str]) -> None:
    """Collect every string source key under `node` (key -> first JSON path naming it)."""
    if isinstance(node, dict):
        for name, value in node.items():
            if name == "sources" and path == "":
                continue  # the map itself, not a fact
            where = f"{path}.{name}" if path else name
            if name.endswith("_sources") and isinstance(value, list):
                # Several keys for one kind of fact (a spoonerism's headword spellings).
                for key in value:
                    assert isinstance(key, str), f"{where} should hold source keys"
                    found.setdefault(key, where)
            elif _names_a_source(name):
                # A fact names its source by key (or null, e.g. an exact resolution).
                assert value is None or isinstance(value, str), (
                    f"{where} should be a source key, not {value!r}"
                )
                if value is not None:
                    found.setdefault(value, where)
            else:
                _cited(value, where, found)
    elif isinstance(node, list):
        for n, item in enumerate(node):
            _cited(item, f"{path}[{n}]", found)


def assert_sources_complete(result_json: dict[str, Any]) -> None:
    """Fail unless every `source` key anywhere in the dumped result (facts, resolutions,
    provenance, ...) is a key of `result_json["sources"]`, every key of `sources` is cited
    somewhere, each entry of `sources` is a licence (a non-empty string), and the map is
    sorted by key."""
    assert "sources" in result_json, "the result has no `sources` map"
    table = result_json["sources"]
    assert isinstance(table, dict), f"`sources` is not a map: {table!r}"
    found: dict[str, str] = {}
    _cited(result_json, "", found)
    missing = {key: where for key, where in found.items() if key not in table}
    assert not missing, f"source keys cited but not in `sources`: {missing}"
    unused = sorted(set(table) - set(found))
    assert not unused, f"`sources` lists keys no fact cites: {unused}"
    for key, licence in table.items():
        assert isinstance(licence, str) and licence.strip(), (
            f"sources[{key!r}] should be the source's licence: {licence!r}"
        )
    assert list(table) == sorted(table), f"`sources` is not sorted by key: {list(table)}"
