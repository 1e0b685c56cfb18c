"""Build a corpus and keep the English component's translation-ranking input, for
`bench/translation_rerank.py --kept`.

    uv run python bench/translation_rank_keep.py --kept KEPT.sqlite -- \
        --profile starter --out BUILD_DIR --no-fetch

Runs `lexicon-build build` (the arguments after `--`) in this process, with the lexical
writer's ranking pass wrapped: for the English lexical component (`en/lexical.sqlite`),
it copies into KEPT.sqlite, just before ranking,
everything `translation_rank.rank_translations` reads (the staged rows in staged order,
the evidence tables, the terms, entries and senses they join) and, just after, the order
the build gave them (`_translation_order`). The build's stages run in forked workers, so
the wrapper is in effect there too. A re-rank from KEPT then starts from the build's own
staged order and evidence, which a re-rank from the built files cannot (they are in
ranked order already).
"""

from __future__ import annotations

import argparse
import re
import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lexicon_server.builder import lexical_writer

# What `translation_rank._ROWS` and `_WORD_USE` read, copied whole.
KEPT_TABLES = ("_translations", "_back", "_tfreq", "_tpos", "_ranks", "meta")
KEPT_SELECTS = {
    "terms": "SELECT id, norm FROM main.terms",
    "entries": "SELECT id, term_id, pos FROM main.entries",
    "senses": "SELECT id, entry_id, synset_id, rank, external_id FROM main.senses",
}


def keep_input(conn: sqlite3.Connection, path: Path) -> None:
    """Copy the ranking input of `conn` into a fresh database at `path` (the staged
    tables with their own keys, so look-ups by key stay fast)."""
    path.unlink(missing_ok=True)
    conn.execute("ATTACH ? AS kept", (str(path),))
    for table in KEPT_TABLES:
        ddl = conn.execute(
            "SELECT sql FROM main.sqlite_master WHERE type = 'table' AND name = ?", (table,)
        ).fetchone()[0]
        conn.execute(re.sub(r"^CREATE TABLE\s+", "CREATE TABLE kept.", ddl, count=1))
        conn.execute(f"INSERT INTO kept.{table} SELECT * FROM main.{table}")
    for table, select in KEPT_SELECTS.items():
        conn.execute(f"CREATE TABLE kept.{table} AS {select}")
        conn.execute(f"CREATE INDEX kept.{table}_id ON {table} (id)")


def keep_order(conn: sqlite3.Connection) -> None:
    """The order the build gave the kept rows. `kept` stays attached, inside the build's
    own transaction (the writer commits once, at the end of `finish`; committing or
    detaching here would end that transaction early)."""
    conn.execute("CREATE TABLE kept.built_order AS SELECT old, new FROM main._translation_order")
    conn.execute("CREATE INDEX kept.built_order_old ON built_order (old)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kept", type=Path, required=True)
    ap.add_argument("build_args", nargs=argparse.REMAINDER)
    opts = ap.parse_args()
    kept = opts.kept.resolve()
    ranked = lexical_writer.rank_translations

    def wrapped(conn: sqlite3.Connection) -> None:
        file = Path(conn.execute("PRAGMA database_list").fetchone()[2])
        # The writer's temporary file, `.lexical.sqlite.<pid>.tmp` (en/gcide.sqlite is a
        # lexical component too, and is not the one kept).
        if file.parent.name != "en" or not file.name.startswith(".lexical.sqlite"):
            ranked(conn)
            return
        keep_input(conn, kept)
        ranked(conn)
        keep_order(conn)
        print(f"kept the English ranking input in {kept}", file=sys.stderr)

    lexical_writer.rank_translations = wrapped  # type: ignore[assignment]
    from lexicon_server.build_cli import main as build_main

    args = [a for a in opts.build_args if a != "--"]
    sys.argv = ["lexicon-build", "build", *args]
    build_main()


if __name__ == "__main__":
    main()
