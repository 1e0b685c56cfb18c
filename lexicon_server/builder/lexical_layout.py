"""How the lexical component's tables are laid out: the shipped schema split into
statements, the clustered (WITHOUT ROWID) form of `translations` and `examples`, and the
staging tables `LexicalWriter` fills before `finish` resolves them."""

from __future__ import annotations

import re
import sqlite3

from lexicon_server.builder.errors import BuildError
from lexicon_server.corpus.reader import schema_sql

__all__ = [
    "CLUSTERED",
    "COVERED_INDEXES",
    "STAGING",
    "STAGING_TABLES",
    "clustered_table",
    "index_name",
    "schema_statements",
    "staging_table",
    "table_name",
]

STAGING = """
CREATE TABLE _members (synset TEXT NOT NULL, member INTEGER NOT NULL, sense_id INTEGER NOT NULL,
    PRIMARY KEY (synset, member)) WITHOUT ROWID;
CREATE TABLE _pointers (seq INTEGER PRIMARY KEY, relation TEXT NOT NULL, src_synset TEXT NOT NULL,
    src_member INTEGER NOT NULL, dst_synset TEXT NOT NULL, dst_member INTEGER NOT NULL,
    source_id INTEGER NOT NULL);
CREATE TABLE _ranks (sense_key TEXT PRIMARY KEY, sense_number INTEGER NOT NULL,
    tag_count INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE _freq (norm TEXT PRIMARY KEY, zipf REAL NOT NULL) WITHOUT ROWID;
CREATE TABLE _translation_order (old INTEGER PRIMARY KEY, new INTEGER NOT NULL);
CREATE TABLE _infl (seq INTEGER PRIMARY KEY, form_norm TEXT NOT NULL, lemma_norm TEXT NOT NULL,
    lemma_text TEXT NOT NULL, pos TEXT NOT NULL, source_id INTEGER NOT NULL);
"""
STAGING_TABLES = (
    "_members",
    "_pointers",
    "_ranks",
    "_freq",
    "_back",
    "_tfreq",
    "_tpos",
    "_translation_order",
    "_infl",
)

# Tables stored WITHOUT ROWID, keyed by how look-ups read them (every key ends with `id`, so
# rows read in id order within a key prefix), and the schema's indexes that the key makes
# redundant. The schema file keeps the rowid form: readers accept both layouts.
CLUSTERED: dict[str, str] = {
    "translations": "term_id, target_language, id",  # a word's translations, per language
    "examples": "sense_id, id",  # a sense's examples
}
COVERED_INDEXES = frozenset({"translations_term", "examples_sense"})
_ROWID_ID = re.compile(r"\bid(\s+)INTEGER PRIMARY KEY\b")


def schema_statements(name: str) -> tuple[list[str], list[str]]:
    """The shipped schema split into (tables and pragmas, CREATE INDEX statements)."""
    tables: list[str] = []
    indexes: list[str] = []
    pending = ""
    for line in schema_sql(name).splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statement = pending.strip()
            pending = ""
            body = "\n".join(
                ln for ln in statement.splitlines() if not ln.lstrip().startswith("--")
            ).strip()
            if not body:
                continue
            (indexes if body.upper().startswith("CREATE INDEX") else tables).append(statement)
    return tables, indexes


def table_name(statement: str) -> str:
    match = re.search(r"CREATE TABLE (\w+)", statement)
    return match.group(1) if match else ""


def index_name(statement: str) -> str:
    match = re.search(r"CREATE INDEX (\w+)", statement)
    return match.group(1) if match else ""


def clustered_table(statement: str, key: str) -> str:
    """The schema's rowid `CREATE TABLE` turned WITHOUT ROWID with PRIMARY KEY (`key`).

    Columns, types and checks stay those of the schema file, so the two layouts cannot drift
    apart; `id` loses its rowid alias and must be given on insert.
    """
    body = statement.rstrip().rstrip(";").rstrip()
    if not body.endswith(")") or len(_ROWID_ID.findall(body)) != 1:
        raise BuildError(f"cannot cluster {table_name(statement)!r}: unexpected schema text")
    body = _ROWID_ID.sub(r"id\1INTEGER NOT NULL", body)
    return f"{body[:-1].rstrip()},\n    PRIMARY KEY ({key})\n) WITHOUT ROWID;"


def staging_table(statement: str, table: str) -> str:
    """The schema's rowid table under the staging name `_<table>` (ids numbered on insert)."""
    return statement.replace(f"CREATE TABLE {table} ", f"CREATE TABLE _{table} ", 1)
