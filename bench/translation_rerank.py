"""Re-rank a built English component's translations with today's translation_rank, offline.

    uv run python bench/translation_rerank.py --built BUILD_DIR --out OUT_DIR
        --index-sense PATH/index.sense [--weight name=value ...]

Makes OUT_DIR a copy of BUILD_DIR (every file hard-linked but `en/lexical.sqlite`, which is
copied), stages in the copy the evidence the builder stages while it writes the English
component, and renumbers its translations with `translation_rank.rank_translations`, so a
ranking rule (and, with `--senses`, the order of senses by use) can be scored
(bench/msimlex.py --built OUT_DIR, translation_quality.py --built OUT_DIR) without a
rebuild. The evidence is rebuilt from the built files: each
`xxx/lexical.sqlite`'s FreeDict `xxx-eng` rows give the back translations (in their ids'
order) and the targets' parts of speech (their entries'), its terms the targets' Zipf,
and WordNet's `index.sense` the tag counts. Two things differ from a build: the rows'
"source order" is the built order (ranked already), and the look-up documents
(`term_docs`) are left as built. Scores from a rebuilt corpus are the ones to report.

    uv run python bench/translation_rerank.py --built BUILD_DIR --kept KEPT.sqlite
        --out OUT_DIR [--only FILE ...] [--weight name=value ...]

With `--kept`, the ranking input kept from the build of BUILD_DIR
(bench/translation_rank_keep.py) is ranked instead: the build's own staged order and
evidence, so today's code gives exactly the built order and a change to the rule is
measured against that. Each word's rows are renumbered within the ids the build gave
them; with `--only`, only the listed words are re-ranked (the others keep the built
order).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lexicon_server.builder import lexical_finish, translation_rank
from lexicon_server.builder.parsers import wndb


def copy_dataset(built: Path, out: Path) -> Path:
    if out.exists():
        shutil.rmtree(out)
    for root, _, files in os.walk(built):
        rel = Path(root).relative_to(built)
        if rel.parts[:1] == (".build",):
            continue
        (out / rel).mkdir(parents=True, exist_ok=True)
        for name in files:
            if rel == Path("en") and name == "lexical.sqlite":
                shutil.copy2(Path(root) / name, out / rel / name)
            else:
                os.link(Path(root) / name, out / rel / name)
    return out / "en" / "lexical.sqlite"


def stage(conn: sqlite3.Connection, built: Path, index_sense: Path) -> None:
    conn.executescript(translation_rank.STAGING)
    conn.executescript(
        "CREATE TABLE _ranks (sense_key TEXT PRIMARY KEY, sense_number INTEGER NOT NULL, "
        "tag_count INTEGER NOT NULL) WITHOUT ROWID;"
        "CREATE TABLE _translation_order (old INTEGER PRIMARY KEY, new INTEGER NOT NULL);"
    )
    conn.executemany(
        "INSERT OR REPLACE INTO _ranks VALUES (?, ?, ?)",
        (
            (r.sense_key, r.sense_number, r.tag_count)
            for r in wndb.iter_sense_index(index_sense, prefix="wn31")
        ),
    )
    languages = [
        lang
        for (lang,) in conn.execute(
            "SELECT DISTINCT target_language FROM translations WHERE target_language <> 'en'"
        )
    ]
    for lang in languages:
        db = built / lang / "lexical.sqlite"
        if not db.exists():
            continue
        conn.execute("ATTACH ? AS x", (f"file:{db}?mode=ro",))
        reverse = conn.execute(
            "SELECT id FROM x.sources WHERE name LIKE 'freedict-%-eng'"
        ).fetchone()
        if reverse is not None:
            rows = conn.execute(
                "SELECT w.norm, t.target_norm FROM x.translations t JOIN x.terms w "
                "ON w.id = t.term_id WHERE t.target_language = 'en' AND t.source_id = ? "
                "ORDER BY w.norm, t.id",
                reverse,
            ).fetchall()
            translation_rank.stage_all_back_translations(conn, lang, rows)
            translation_rank.stage_target_pos(
                conn,
                lang,
                conn.execute(
                    "SELECT DISTINCT w.norm, e.pos FROM x.entries e JOIN x.terms w "
                    "ON w.id = e.term_id WHERE e.source_id = ? AND e.pos <> 'unknown'",
                    reverse,
                ).fetchall(),
            )
        conn.execute(
            "INSERT OR IGNORE INTO _tfreq SELECT ?, norm, max(zipf) FROM x.terms "
            "WHERE zipf > 0 GROUP BY norm",
            (lang,),
        )
        conn.commit()
        conn.execute("DETACH x")


def renumber(conn: sqlite3.Connection, weights: dict[str, float]) -> None:
    ddl = conn.execute(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'translations'"
    ).fetchone()[0]
    indexes = [
        sql
        for (sql,) in conn.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'translations' "
            "AND sql IS NOT NULL"
        )
    ]
    conn.execute("ALTER TABLE translations RENAME TO _translations")
    for sql in indexes:
        conn.execute(f"DROP INDEX {sql.split()[2]}")
    translation_rank.rank_translations(conn, "_translation_order", weights)
    conn.execute(ddl)
    names = [r[1] for r in conn.execute("SELECT * FROM pragma_table_info('translations')")]
    picked = ", ".join("o.new" if n == "id" else f"t.{n}" for n in names)
    conn.execute(
        f"INSERT INTO translations ({', '.join(names)}) SELECT {picked} FROM _translations t "
        "JOIN _translation_order o ON o.old = t.id ORDER BY o.new"
    )
    for sql in indexes:
        conn.execute(sql)
    for table in ("_translations", "_back", "_tfreq", "_tpos", "_ranks", "_translation_order"):
        conn.execute(f"DROP TABLE {table}")
    conn.commit()


def kept_order(
    kept: Path, built: Path, keep: set[str] | None, weights: dict[str, float]
) -> dict[tuple[int, str], list[int]]:
    """Rank a kept input (bench/translation_rank_keep.py) with today's code: per (term id,
    language), the build's ids of the block's rows in the new order. The entries and
    senses are read from the built component (`built`, its en/lexical.sqlite: the same ids
    as when the build ranked, and every column)."""
    conn = sqlite3.connect(":memory:")
    conn.execute("ATTACH ? AS k", (f"file:{kept}?mode=ro",))
    conn.execute("ATTACH ? AS b", (f"file:{built / 'en' / 'lexical.sqlite'}?mode=ro",))
    conn.execute("ATTACH '' AS m")  # a scratch database for what ranking writes
    for table in ("terms", "_back", "_tfreq", "_tpos", "_ranks"):
        conn.execute(f"CREATE TEMP VIEW {table} AS SELECT * FROM k.{table}")
    for table in ("entries", "senses"):
        conn.execute(f"CREATE TEMP VIEW {table} AS SELECT * FROM b.{table}")
    # Temporary tables, so the unqualified names the ranking reads find these first.
    conn.execute("CREATE TEMP TABLE meta AS SELECT * FROM k.meta")
    conn.execute("CREATE TABLE m._order (old INTEGER PRIMARY KEY, new INTEGER NOT NULL)")
    rows = "SELECT * FROM k._translations"
    if keep is not None:
        conn.execute("CREATE TABLE m._keep (norm TEXT PRIMARY KEY)")
        conn.executemany("INSERT OR IGNORE INTO m._keep VALUES (?)", ((w,) for w in keep))
        rows += " WHERE term_id IN (SELECT t.id FROM k.terms t JOIN m._keep USING (norm))"
    conn.execute(f"CREATE TEMP TABLE _translations AS {rows} ORDER BY id")
    conn.execute("CREATE INDEX temp._translations_id ON _translations (id)")
    translation_rank.rank_translations(conn, "m._order", weights)
    blocks: dict[tuple[int, str], list[tuple[int, int]]] = {}
    for term_id, lang, new, built in conn.execute(
        "SELECT t.term_id, t.target_language, o.new, b.new FROM m._order o "
        "JOIN temp._translations t ON t.id = o.old JOIN k.built_order b ON b.old = o.old"
    ):
        blocks.setdefault((term_id, lang), []).append((new, built))
    return {key: [b for _, b in sorted(pairs)] for key, pairs in blocks.items()}


def apply_kept(conn: sqlite3.Connection, blocks: dict[tuple[int, str], list[int]]) -> None:
    """Renumber each block's rows within the ids they hold, in the new order."""
    moves = []
    for ordered in blocks.values():
        moves.extend(zip(ordered, sorted(ordered), strict=True))
    conn.execute("CREATE TEMP TABLE _move (old INTEGER PRIMARY KEY, new INTEGER NOT NULL)")
    conn.executemany("INSERT INTO _move VALUES (?, ?)", moves)
    conn.execute(
        "UPDATE translations SET id = -(SELECT new FROM _move WHERE old = id) "
        "WHERE id IN (SELECT old FROM _move)"
    )
    conn.execute("UPDATE translations SET id = -id WHERE id < 0")
    conn.commit()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--built", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--index-sense", type=Path, help="WordNet's index.sense (without --kept)")
    ap.add_argument("--weight", action="append", default=[], help="name=value, to try")
    ap.add_argument("--senses", action="store_true", help="also order senses by use")
    ap.add_argument(
        "--kept",
        type=Path,
        help="the ranking input kept from the build of --built "
        "(bench/translation_rank_keep.py): rank from it instead",
    )
    ap.add_argument(
        "--only",
        type=Path,
        action="append",
        default=[],
        help="a TSV whose first column lists English words: re-rank only their translations "
        "(a quicker try; other words then have none, or with --kept their built order)",
    )
    opts = ap.parse_args()
    weights = dict(translation_rank.WEIGHTS)
    for item in opts.weight:
        name, value = item.split("=")
        weights[name] = float(value)
    db = copy_dataset(opts.built, opts.out)
    conn = sqlite3.connect(db)
    keep = None
    if opts.only:
        keep = {
            line.split("\t")[0].strip().casefold()
            for path in opts.only
            for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")
        }
    if keep is not None and opts.kept is None:  # with --kept, other words keep the built order
        conn.execute("CREATE TEMP TABLE _keep (norm TEXT PRIMARY KEY)")
        conn.executemany("INSERT OR IGNORE INTO _keep VALUES (?)", ((k,) for k in keep))
        conn.execute(
            "DELETE FROM translations WHERE term_id NOT IN "
            "(SELECT t.id FROM terms t JOIN _keep k ON k.norm = t.norm)"
        )
        conn.commit()
    if opts.kept is not None:
        apply_kept(conn, kept_order(opts.kept, opts.built, keep, weights))
        conn.close()
        print(f"re-ranked {db} from {opts.kept} with {weights}")
        return
    if opts.index_sense is None:
        ap.error("--index-sense is needed without --kept")
    stage(conn, opts.built, opts.index_sense)
    if opts.senses:  # as the build's resolve pass does, before ranking
        lexical_finish.order_senses_by_use(conn)
    renumber(conn, weights)
    conn.close()
    print(f"re-ranked {db} with {weights}")


if __name__ == "__main__":
    main()
