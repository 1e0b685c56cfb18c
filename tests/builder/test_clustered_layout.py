"""`translations` and `examples` are built WITHOUT ROWID, keyed the way look-ups read them:
same columns and ids as the schema file's rowid tables, and the same answers."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

from _support.dumped import dumped

from lexicon_server.builder.lexical_writer import CLUSTERED, schema_statements
from lexicon_server.corpus.reader import Corpus
from lexicon_server.corpus.rows.facts import clear_caches
from lexicon_server.query.lookup import lookup
from lexicon_server.query.translate import translate
from lexicon_store.selection import ActiveSelection


def _lexical(out: Path) -> dict[str, Path]:
    dataset = json.loads((out / "dataset.json").read_text())
    return {
        c["language"]: out / c["path"] for c in dataset["components"] if c["id"].endswith("lexical")
    }


def _columns(conn: sqlite3.Connection, table: str) -> list[tuple[object, ...]]:
    # name, declared type, default; NOT NULL differs for `id` only (the rowid alias
    # is implicitly not null).
    return [
        (r[1], r[2], r[4])
        for r in conn.execute("SELECT * FROM pragma_table_info(?) ORDER BY cid", (table,))
    ]


def _to_rowid_layout(path: Path) -> None:
    """Rewrite the clustered tables in the schema file's rowid form (an older release)."""
    tables, indexes = schema_statements("lexical")
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        for table in CLUSTERED:
            create = next(t for t in tables if f"CREATE TABLE {table} " in t)
            conn.execute(f"ALTER TABLE {table} RENAME TO _clustered")
            conn.execute(create)
            conn.execute(f"INSERT INTO {table} SELECT * FROM _clustered ORDER BY id")
            conn.execute("DROP TABLE _clustered")
            for index in indexes:
                name = index.split()[2]
                exists = conn.execute(
                    "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?", (name,)
                ).fetchone()
                if f" ON {table} " in index and exists is None:
                    conn.execute(index)
        conn.execute("ANALYZE")
        conn.execute("VACUUM")
    finally:
        conn.close()


class _Relocated(Corpus):
    """The same selection with some of its databases read from other files."""

    def __init__(self, selection: ActiveSelection, *, moved: dict[str, Path]) -> None:
        super().__init__(selection)
        self.moved = moved

    def path(self, relative: str) -> Path:
        return self.moved.get(relative) or super().path(relative)


def test_clustered_tables_keep_the_schema_columns_and_ids(sample_dataset: Path) -> None:
    schema = sqlite3.connect(":memory:")
    for statement in schema_statements("lexical")[0]:
        schema.execute(statement)
    for language, path in _lexical(sample_dataset).items():
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
            for table, key in CLUSTERED.items():
                sql = conn.execute(
                    "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
                ).fetchone()[0]
                assert sql.rstrip().endswith("WITHOUT ROWID"), (language, table)
                assert f"PRIMARY KEY ({key})" in sql
                assert _columns(conn, table) == _columns(schema, table), (language, table)
            names = {
                r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")
            }
            assert "translations_sense" in names
            assert not names & {"translations_term", "examples_sense"}, language
            # Ids are still numbered 1..n in arrival order, none lost.
            for table in CLUSTERED:
                count, low, high = conn.execute(
                    f"SELECT count(*), min(id), max(id) FROM {table}"
                ).fetchone()
                if count:
                    assert (low, high) == (1, count), (language, table)
    schema.close()


def test_answers_match_the_rowid_layout(sample_data_dir: Path, tmp_path: Path) -> None:
    from lexicon_store.selection import load_active

    clustered = Corpus(load_active(sample_data_dir))
    selection = clustered.selection
    moved: dict[str, Path] = {}
    languages = sorted(
        rel.split("/")[0] for rel in selection.files if rel.endswith("/lexical.sqlite")
    )
    assert {"en", "fr"} <= set(languages)
    for language in languages:
        relative = f"{language}/lexical.sqlite"
        copy = tmp_path / f"{language}.sqlite"
        shutil.copyfile(selection.files[relative], copy)
        copy.chmod(0o644)
        _to_rowid_layout(copy)
        moved[relative] = copy
    rowid = _Relocated(selection, moved=moved)
    compared = 0
    try:
        for language in languages:
            conn = clustered.db(language, "lexical")
            words = [
                r[0]
                for r in conn.execute(
                    "SELECT t.text FROM terms t WHERE t.id IN (SELECT term_id FROM translations)"
                    " OR t.id IN (SELECT term_id FROM entries) ORDER BY t.id"
                )
            ]
            for word in words:
                answers = []
                for corpus in (clustered, rowid):
                    clear_caches(corpus)
                    answer = [dumped(lookup(corpus, word, language))]
                    for target in languages:
                        if target != language:
                            result = translate(corpus, word, target, language=language)
                            answer.append(result.model_dump(mode="json"))
                    answers.append(json.dumps(answer, ensure_ascii=False))
                assert answers[0] == answers[1], (language, word)
                compared += 1
    finally:
        clustered.close()
        rowid.close()
    assert compared > 50
