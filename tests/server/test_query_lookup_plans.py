"""dictionary_lookup gives the same answer whichever query plan or cache it takes.

A release built before the `translations_sense` index existed is read with the older
statement; answers about target entries are cached per database and must not change
what a look-up returns, cold or warm.
"""

from __future__ import annotations

import pytest

from lexicon_server.corpus.reader import Corpus
from lexicon_server.query import common
from lexicon_server.query.common import (
    clear_caches,
    entry_installed,
    has_index,
    installed_entries,
)
from lexicon_server.query.lookup import lookup, lookup_json

WORDS = ("dog", "house", "dogs", "run", "maison", "nosuchword")


def _answers(corpus: Corpus) -> list[dict[str, object]]:
    return [lookup(corpus, word, limit=3, translations_limit=100).model_dump() for word in WORDS]


def test_old_release_without_the_index_reads_the_same(
    corpus: Corpus, unindexed_corpus: Corpus
) -> None:
    assert has_index(corpus.db("en", "lexical"), "translations_sense")
    assert not has_index(unindexed_corpus.db("en", "lexical"), "translations_sense")
    new = _answers(corpus)
    assert any(s["translations"] for r in new for s in r["senses"])  # type: ignore[attr-defined]
    assert _answers(unindexed_corpus) == new


def test_cached_target_entries_change_nothing(corpus: Corpus) -> None:
    clear_caches()
    cold = _answers(corpus)
    warm = _answers(corpus)
    assert cold == warm
    flags = {
        t["text"]: t["target_entry_installed"]
        for r in warm
        for s in r["senses"]  # type: ignore[attr-defined]
        for t in s["translations"]
    }
    assert flags["maison"] is True and flags["domicile"] is False


@pytest.mark.parametrize("word", [*WORDS, "chien"])
@pytest.mark.parametrize(
    "budgets",
    [{}, {"limit": 1, "examples_limit": 0}, {"limit": 100, "translations_limit": 1}],
)
def test_tool_json_is_the_model_dump(corpus: Corpus, word: str, budgets: dict[str, int]) -> None:
    """The tool's direct serialisation is byte-for-byte what the validated model dumps."""
    language = "fr" if word in ("maison", "chien") else "en"
    expected = lookup(corpus, word, language, **budgets).model_dump_json()
    assert lookup_json(corpus, word, language, **budgets) == expected


def test_batched_target_entry_probes_match_one_by_one(corpus: Corpus) -> None:
    # More words than one batched statement takes, with the real entries at both ends.
    norms = ["maison", *(f"pas-un-mot-{n}" for n in range(2 * common._ENTRY_BATCH + 7)), "chien"]
    expected = {n for n in norms if entry_installed(corpus, "fr", n)}
    assert expected == {"maison", "chien"}
    clear_caches()
    assert installed_entries(corpus, "fr", norms) == expected  # cold: every answer probed
    assert installed_entries(corpus, "fr", norms) == expected  # warm: every answer cached
    assert installed_entries(corpus, "fr", ["maison", "chat"]) == {"maison"}
    # A language whose lexical data is not installed has no installed entries at all.
    assert installed_entries(corpus, "zz", ["maison"]) == set()
