"""dictionary_lookup gives the same answer whichever query plan or cache it takes.

A release built before the `translations_sense` index existed is read with the older
statement; answers about target entries are cached per database and must not change
what a look-up returns, cold or warm. Whether a translation's target word has an entry
comes from the builder's `translations.target_entry` where the release has it, and from
probing the target language where it does not.
"""

from __future__ import annotations

import dataclasses
import shutil
import sqlite3
from pathlib import Path
from types import MappingProxyType

import pytest
from _support.dumped import dumped
from _support.lookup import all_translations, sense_translations
from pydantic_core import to_json

from lexicon_server.corpus.reader import Corpus
from lexicon_server.corpus.rows import terms
from lexicon_server.corpus.rows.facts import clear_caches, has_index
from lexicon_server.query.lookup import lookup
from lexicon_server.query.targets import entry_installed, installed_entries, target_entry_column
from lexicon_server.query.translate import translate

WORDS = ("dog", "house", "dogs", "run", "maison", "nosuchword")


def _answers(corpus: Corpus) -> list[dict[str, object]]:
    return [lookup(corpus, word, limit=3, translations_limit=100).model_dump() for word in WORDS]


def test_old_release_without_the_index_reads_the_same(
    corpus: Corpus, unindexed_corpus: Corpus
) -> None:
    assert has_index(corpus.db("en", "lexical"), "translations_sense")
    assert not has_index(unindexed_corpus.db("en", "lexical"), "translations_sense")
    new = _answers(corpus)
    assert any(sense_translations(r) for r in new)
    assert _answers(unindexed_corpus) == new


def test_cached_target_entries_change_nothing(corpus: Corpus) -> None:
    clear_caches(corpus)
    cold = _answers(corpus)
    warm = _answers(corpus)
    assert cold == warm
    flags = {t["text"]: t["target_entry_installed"] for r in warm for t in sense_translations(r)}
    assert flags["maison"] is True and flags["domicile"] is False


@pytest.mark.parametrize("word", [*WORDS, "chien"])
@pytest.mark.parametrize(
    "budgets",
    [{}, {"limit": 1, "examples_limit": 0}, {"limit": 100, "translations_limit": 1}],
)
def test_tool_json_is_the_model_dump(corpus: Corpus, word: str, budgets: dict[str, int]) -> None:
    """What the tool serialises (plain data, one `to_json`) is byte-for-byte what the
    validated model dumps."""
    language = "fr" if word in ("maison", "chien") else "en"
    expected = lookup(corpus, word, language, **budgets).model_dump_json()
    assert to_json(dumped(lookup(corpus, word, language, **budgets))).decode() == expected


def test_batched_target_entry_probes_match_one_by_one(corpus: Corpus) -> None:
    # More words than one batched statement takes, with the real entries at both ends.
    norms = ["maison", *(f"pas-un-mot-{n}" for n in range(2 * terms.ENTRY_BATCH + 7)), "chien"]
    expected = {n for n in norms if entry_installed(corpus, "fr", n)}
    assert expected == {"maison", "chien"}
    clear_caches(corpus)
    assert installed_entries(corpus, "fr", norms) == expected  # cold: every answer probed
    assert installed_entries(corpus, "fr", norms) == expected  # warm: every answer cached
    assert installed_entries(corpus, "fr", ["maison", "chat"]) == {"maison"}
    # A language whose lexical data is not installed has no installed entries at all.
    assert installed_entries(corpus, "zz", ["maison"]) == set()


def _copy(corpus: Corpus, mini_root: Path, dest: Path, *statements: str) -> Corpus:
    """The mini corpus (`corpus`, read from `mini_root`) copied to `dest`, with
    `statements` run on each of its lexical databases."""
    shutil.copytree(mini_root, dest)
    for lang in ("en", "fr"):
        conn = sqlite3.connect(dest / lang / "lexical.sqlite")
        for statement in statements:
            conn.execute(statement)
        conn.commit()
        conn.close()
    files = {rel: dest / rel for rel in corpus.selection.files}
    return Corpus(dataclasses.replace(corpus.selection, files=MappingProxyType(files)))


def _with_column(corpus: Corpus, mini_root: Path, dest: Path, value: str) -> Corpus:
    """A copy whose `translations.target_entry` holds `value` on every row."""
    columns = {
        row[1] for row in corpus.db("en", "lexical").execute("PRAGMA table_info(translations)")
    }
    add = [] if "target_entry" in columns else ["ALTER TABLE translations ADD target_entry INT"]
    return _copy(corpus, mini_root, dest, *add, f"UPDATE translations SET target_entry = {value}")


def _flags(corpus: Corpus) -> dict[str, bool]:
    """target_entry_installed of every translation of 'house' (lookup and translate agree)."""
    result = lookup(corpus, "house", translations_limit=100)
    shown = all_translations(result)
    french = translate(corpus, "house", "fr", limit=100).groups
    assert {c.text: c.target_entry_installed for g in french for c in g.candidates} == {
        t["text"]: t["target_entry_installed"] for t in shown if t["target_language"] == "fr"
    }
    return {t["text"]: t["target_entry_installed"] for t in shown}


# What probing the installed languages says: 'fr' has 'maison' only, 'de' is not installed.
PROBED = {"maison": True, "domicile": False, "famille": False, "Haus": False, "Gebäude": False}


# The translations table as releases before `target_entry` had it.
_WITHOUT_COLUMN = (
    "CREATE TABLE old (id INTEGER PRIMARY KEY, term_id INTEGER NOT NULL, sense_id INTEGER, "
    "target_language TEXT NOT NULL, target_text TEXT NOT NULL, target_norm TEXT NOT NULL, "
    "note TEXT, source_id INTEGER NOT NULL)",
    "INSERT INTO old SELECT id, term_id, sense_id, target_language, target_text, target_norm, "
    "note, source_id FROM translations",
    "DROP TABLE translations",
    "ALTER TABLE old RENAME TO translations",
    "CREATE INDEX translations_term ON translations (term_id, target_language)",
    "CREATE INDEX translations_sense ON translations (sense_id) WHERE sense_id IS NOT NULL",
)


def test_release_without_the_column_probes_the_target_language(
    corpus: Corpus, mini_root: Path, tmp_path: Path
) -> None:
    old = _copy(corpus, mini_root, tmp_path / "old", *_WITHOUT_COLUMN)
    try:
        assert not target_entry_column(old.db("en", "lexical"))
        assert _answers(old) == _answers(corpus)
        assert {t: f for t, f in _flags(old).items() if t in PROBED} == PROBED
    finally:
        old.close()


def test_recorded_target_entries_are_read_not_probed(
    corpus: Corpus, mini_root: Path, tmp_path: Path
) -> None:
    """The builder's answer is what counts (here deliberately unlike the data), and only
    for a target language that is installed ('de' is not)."""
    every = _with_column(corpus, mini_root, tmp_path / "every", "1")
    none = _with_column(corpus, mini_root, tmp_path / "none", "0")
    try:
        assert target_entry_column(every.db("en", "lexical"))
        flags = _flags(every)
        assert flags == {text: text not in ("Haus", "Gebäude") for text in flags}
        assert not any(_flags(none).values())
    finally:
        every.close()
        none.close()


def test_unlinked_rows_are_probed(corpus: Corpus, mini_root: Path, tmp_path: Path) -> None:
    """NULL (the build had no component for the language, or a database the builder did
    not link) is answered by probing, as a release without the column is."""
    unlinked = _with_column(corpus, mini_root, tmp_path / "null", "NULL")
    try:
        assert target_entry_column(unlinked.db("en", "lexical"))
        assert _answers(unlinked) == _answers(corpus)
        assert {t: f for t, f in _flags(unlinked).items() if t in PROBED} == PROBED
    finally:
        unlinked.close()
