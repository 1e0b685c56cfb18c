"""A random sample of Moby terms tied to a WordNet sense, for judging by hand.

    uv run python bench/moby_attachments.py --built DIR [--n 220] [--seed 18] > sample.tsv
    uv run python bench/moby_attachments.py --score bench/devsets/moby_attachments/sample.tsv

Draws `n` of the built English component's sense-scoped `synonym` edges whose source is
Moby (docs/thesauri.md), uniformly at random with a fixed seed, and prints them as TSV:
the root, the part of speech and gloss of the sense it was tied to, how many senses the
root has, the term, and an empty `judgement` column for a person to fill in (`ok` or
`wrong`). `--score` reads a judged file and prints the precision with a 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import csv
import math
import random
import sqlite3
import sys
from pathlib import Path

COLUMNS = ("root", "pos", "sense_key", "senses_of_root", "gloss", "term", "judgement")


def sample(built: Path, n: int, seed: int) -> list[dict[str, object]]:
    conn = sqlite3.connect(f"file:{built / 'en' / 'lexical.sqlite'}?mode=ro", uri=True)
    ids = [
        row[0]
        for row in conn.execute(
            "SELECT r.id FROM relations r JOIN sources s ON s.id = r.source_id "
            "WHERE s.name = 'moby' AND r.scope = 'sense' ORDER BY r.id"
        )
    ]
    picked = sorted(random.Random(seed).sample(ids, n))
    out = []
    for rid in picked:
        root, pos, key, gloss, term, term_id = conn.execute(
            "SELECT t.text, e.pos, s.external_id, s.gloss, d.text, e.term_id "
            "FROM relations r JOIN senses s ON s.id = r.src_sense_id "
            "JOIN entries e ON e.id = s.entry_id JOIN terms t ON t.id = e.term_id "
            "JOIN terms d ON d.id = r.dst_term_id "
            "WHERE r.id = ?",
            (rid,),
        ).fetchone()
        count = conn.execute(
            "SELECT count(*) FROM entries e JOIN senses s ON s.entry_id = e.id WHERE e.term_id = ?",
            (term_id,),
        ).fetchone()[0]
        out.append(dict(zip(COLUMNS, (root, pos, key, count, gloss, term, ""), strict=True)))
    return out


def score(path: Path) -> None:
    with open(path, encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    judged = [r["judgement"] for r in rows if r["judgement"]]
    ok = judged.count("ok")
    n = len(judged)
    p = ok / n
    z = 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    print(f"{ok}/{n} ok = {p:.3f} (95% Wilson {centre - half:.3f}-{centre + half:.3f})")
    multi = [r for r in rows if r["judgement"] and int(r["senses_of_root"]) > 1]
    print(f"roots with several senses: {sum(r['judgement'] == 'ok' for r in multi)}/{len(multi)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--built", type=Path)
    parser.add_argument("--n", type=int, default=220)
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--score", type=Path)
    opts = parser.parse_args()
    if opts.score:
        score(opts.score)
        return
    writer = csv.DictWriter(sys.stdout, COLUMNS, delimiter="\t", lineterminator="\n")
    writer.writeheader()
    writer.writerows(sample(opts.built, opts.n, opts.seed))


if __name__ == "__main__":
    main()
