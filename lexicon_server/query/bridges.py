"""Thin pairs filled through third languages: English -> Swedish through German.

A pair is thin when the source translates few of its words into the target: fewer than
half as many as it translates into the median of its other installed languages (the
builder counts each component's terms per target language, meta `translation_terms`).
On the starter that is English -> Swedish and Dutch (eng-swe, eng-nld are small); on the
registry build English -> Russian. A thin pair's short answer is filled through the
installed languages that translate into the target (deu-swe, fra-swe...): the word's
first translations into each such bridge language (the builder's ranked order), then each
bridge word's first translations into the target. A path weighs 1/(i+1) · 1/(j+1) by
the ranks of its two hops, as in `pivot.py`. Bridges through different languages are
independent dictionaries: a target that two of them reach ranks above one that a single
language reaches, then the summed weight decides.
"""

from __future__ import annotations

import statistics
from typing import TYPE_CHECKING, Any

from lexicon_server.corpus.rows.facts import sources
from lexicon_server.corpus.rows.translations import pair_sizes
from lexicon_server.query.headwords import resolve_headwords
from lexicon_server.query.pivot import Pivoted, first_targets

if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Sequence

    from lexicon_server.corpus.reader import Corpus
    from lexicon_server.query.provenance import Cited

__all__ = ["bridge", "bridge_languages", "is_thin"]

# A pair under this share of the source's median pair is thin.
THIN_SHARE = 0.5
# The bridge languages read, largest pair into the target first, and per bridge how many
# of the word's translations lead on and how many targets each of them brings.
_BRIDGES = 4
_FIRST_HOP = 3
_SECOND_HOP = 4


def _sizes(corpus: Corpus, language: str) -> dict[str, int]:
    return pair_sizes(corpus.db(language, "lexical"))


def _lexical_languages(corpus: Corpus) -> list[str]:
    return sorted(lang for lang, caps in corpus.selection.installed.items() if "lexical" in caps)


def is_thin(corpus: Corpus, source: str, target: str) -> bool:
    """Whether `source` translates fewer than THIN_SHARE of its median pair into `target`."""
    sizes = _sizes(corpus, source)
    others = [sizes.get(lang, 0) for lang in _lexical_languages(corpus) if lang != source]
    if not others:
        return False
    return sizes.get(target, 0) < THIN_SHARE * statistics.median(others)


def bridge_languages(corpus: Corpus, source: str, target: str) -> list[str]:
    """The installed languages both sides reach (the source translates into them, they
    translate into the target), largest pair into the target first."""
    into_bridge = _sizes(corpus, source)
    found = []
    for lang in _lexical_languages(corpus):
        if lang in (source, target) or not into_bridge.get(lang):
            continue
        size = _sizes(corpus, lang).get(target, 0)
        if size:
            found.append((size, lang))
    return [lang for _, lang in sorted(found, key=lambda f: (-f[0], f[1]))[:_BRIDGES]]


def bridge(
    corpus: Corpus,
    conn: sqlite3.Connection,
    term_ids: Sequence[int],
    source: str,
    target: str,
    cited: Cited,
) -> list[Pivoted]:
    """The targets the terms reach through the bridge languages, best first."""
    if not term_ids:
        return []
    table = sources(conn)
    reached: dict[str, Pivoted] = {}
    for lang in bridge_languages(corpus, source, target):
        first = first_targets(conn, term_ids, lang, _FIRST_HOP)
        if not first:
            continue
        other = corpus.db(lang, "lexical")
        other_table = sources(other)
        for i, hop in enumerate(first):
            heads = resolve_headwords(other, hop[1], lang)
            seconds = first_targets(other, heads.term_ids, target, _SECOND_HOP)
            if not seconds:
                continue
            step = (hop[1], lang, cited.key(table, hop[4]))
            for j, row in enumerate(seconds):
                _reach(reached, row, 1.0 / (i + 1) / (j + 1), other_table, step)
    return sorted(reached.values(), key=lambda p: (-len(set(p.via_languages)), -p.score))


def _reach(
    reached: dict[str, Pivoted],
    row: tuple[Any, ...],
    weight: float,
    table: Any,
    step: tuple[str, str, str],
) -> None:
    """Add one path's `weight` to the target of `row`, reached through `step` (the bridge
    word, its language and the source key of the hop to it)."""
    word, language, key = step
    got = reached.get(row[2])
    if got is None:
        reached[row[2]] = Pivoted(row, weight, table, [word], [language], [key])
        return
    got.score += weight
    if (word, language) not in zip(got.via, got.via_languages, strict=True):
        got.via.append(word)
        got.via_languages.append(language)
        got.via_sources.append(key)
