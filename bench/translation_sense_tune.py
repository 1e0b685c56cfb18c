"""Try orders of the sense-tied translations on a built English component, offline.

    uv run python bench/translation_sense_tune.py --db BUILD/en/lexical.sqlite
        --dicts DIR --wordfreq DIR [--split dev] [--languages it,es] [--show N]
        [--misses ORDER] [--weight name=value]

Reads every dev-set word's translation rows from a built `en/lexical.sqlite` and deals
them as `dictionary_translate` does (sense groups, then the unsensed rows, round-robin to
20) under four orders: `built` (the database's ids, sense groups in sense order),
`score` (each sense's rows by translation_rank.score over the evidence the builder
stages: target Zipf, back-translation, distinct sources over all the word's rows),
`supported` (as score, rows no second source or back-translation supports last) and
`groups` (as score, and the sense groups by their best row, ties in sense order: what the
builder and the query now do). `--show N` prints N changed first candidates per language
(built -> `--show-order`, + right, - wrong). `DIR`s as for translation_rank_tune.py.
Run it on a database built before the sense-tied ranking, so `built` is the old order; it
exists so that trying a rule needs no rebuild. The figures to report come from
translation_quality.py on the rebuilt corpus.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from translation_quality import DEVSETS, read_devset
from translation_quality import norm as dev_norm
from translation_rank_tune import ISO, _back_rank, zipfs

from lexicon_server.builder.parsers import dictd
from lexicon_server.builder.translation_rank import WEIGHTS, Evidence, score
from lexicon_server.corpus.connection import Connection
from lexicon_server.corpus.normalize import norm
from lexicon_server.corpus.rows.senses import sense_rows
from lexicon_server.query.budget import round_robin
from lexicon_server.query.headwords import resolve_headwords

ORDERS = ("built", "score", "supported", "groups")


def word_rows(
    conn: sqlite3.Connection, word: str, lang: str
) -> tuple[list[int], list[tuple], list[int]]:
    """The word's sense ids in query order, its rows (id, term, sense, text, norm,
    source, note) into `lang` as the query reads them, and its terms in query order."""
    heads = resolve_headwords(conn, word, "en")
    if not heads.term_ids:
        return [], [], []
    senses = [s.id for s in sense_rows(conn, heads.term_ids, entries=heads.entries)]
    marks = ",".join("?" * len(heads.term_ids))
    rows = conn.execute(
        f"SELECT id, term_id, sense_id, target_text, target_norm, source_id, note "
        f"FROM translations WHERE term_id IN ({marks}) AND target_language = ? ORDER BY id",
        (*heads.term_ids, lang),
    ).fetchall()
    return senses, rows, list(heads.term_ids)


def back_ranks(dicts: Path, lang: str, targets: set[str]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    rev = dicts / f"freedict-{ISO[lang]}-eng"
    if not Path(f"{rev}.index").exists():
        return out
    for e in dictd.iter_entries(f"{rev}.index", f"{rev}.dict.dz", (lang, "en")):
        key = norm(e.headword)
        if key in targets:
            ranks = out.setdefault(key, {})
            for text in e.translations:
                ranks.setdefault(norm(text), len(ranks))
    return out


def deal(
    senses: list[int], rows: list[tuple], key, limit: int = 20, group_key=None, terms=()
) -> list[str]:
    """The query's candidate texts: sense groups in sense order, then unsensed."""
    by_sense: dict[int, list[tuple]] = defaultdict(list)
    unsensed: list[tuple] = []
    seen: set[tuple] = set()
    for row in rows:
        if (row[2], row[4]) in seen:
            continue
        seen.add((row[2], row[4]))
        (unsensed if row[2] is None else by_sense[row[2]]).append(row)
    groups = [sorted(by_sense[s], key=key) for s in senses if by_sense[s]]
    if group_key is not None:  # an experiment: groups by their first row, not sense order
        # As the query: ids compare within one term, so the terms keep their order.
        groups.sort(key=lambda g: (list(terms).index(g[0][1]), group_key(g[0])))
    takes = round_robin([len(g) for g in groups] + [len(unsensed)], limit)
    texts = [r[3] for g, t in zip(groups, takes, strict=False) for r in g[:t]]
    return texts + [r[3] for r in unsensed[: takes[-1]]]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", type=Path, required=True)
    ap.add_argument("--dicts", type=Path, required=True)
    ap.add_argument("--wordfreq", type=Path, required=True)
    ap.add_argument("--split", default="dev", choices=("dev", "heldout"))
    ap.add_argument("--languages", default="de,es,fi,fr,it,nl,pl,pt")
    ap.add_argument("--show", type=int, default=0)
    ap.add_argument("--show-order", default="groups", choices=ORDERS)
    ap.add_argument("--misses", default="", help="ORDER: print every miss of that order")
    ap.add_argument("--weight", action="append", default=[], help="name=value, to try")
    opts = ap.parse_args()
    weights = dict(WEIGHTS)
    for item in opts.weight:
        name, value = item.split("=")
        weights[name] = float(value)
    conn = sqlite3.connect(f"file:{opts.db}?mode=ro", uri=True, factory=Connection)
    print(f"split {opts.split}; weights {weights}\n")
    print("| language | words | " + " | ".join(ORDERS) + " |")
    print("| --- | ---: | " + " | ".join("---" for _ in ORDERS) + " |")
    shows: list[str] = []
    for lang in opts.languages.split(","):
        dev = [r for r in read_devset(DEVSETS / f"{lang}.tsv") if r.split == opts.split]
        data = {r.word: word_rows(conn, r.word, lang) for r in dev}
        targets = {row[4] for _, rows, _ in data.values() for row in rows}
        back, zipf = back_ranks(opts.dicts, lang, targets), zipfs(opts.wordfreq, lang, targets)
        tally = {o: [0, 0] for o in ORDERS}
        for r in dev:
            senses, rows, terms = data[r.word]
            sources: dict[str, set[int]] = defaultdict(set)
            position: dict[int, int] = {}
            per_sense: dict[int | None, int] = defaultdict(int)
            for row in rows:
                sources[row[4]].add(row[5])
                position[row[0]] = per_sense[row[2]]
                per_sense[row[2]] += 1

            word = norm(r.word)

            def evidence(  # the loop's values bound now: the keys below call it at once
                row: tuple, position=position, sources=sources, word=word, back=back, zipf=zipf
            ) -> Evidence:
                return Evidence(
                    position=position[row[0]],
                    back_rank=_back_rank(back.get(row[4], {}), word),
                    sources=len(sources[row[4]]),
                    zipf=zipf.get(row[4], 0.0),
                    label=False,
                    note=row[6] is not None,
                    words=row[4].count(" ") + 1,
                )

            keys = {
                "built": lambda row: row[0],
                "score": lambda row: (-score(evidence(row), weights), row[0]),
                "supported": lambda row: (
                    (e := evidence(row)).sources == 1 and e.back_rank is None,
                    -score(e, weights),
                    row[0],
                ),
            }
            keys["groups"] = keys["score"]
            wanted = {dev_norm(t) for t in r.acceptable}
            firsts = {}
            for order, key in keys.items():
                gkey = (lambda row: -score(evidence(row), weights)) if order == "groups" else None
                texts = [dev_norm(t) for t in deal(senses, rows, key, group_key=gkey, terms=terms)]
                hits = [i for i, t in enumerate(texts) if t in wanted]
                tally[order][0] += bool(hits) and hits[0] == 0
                tally[order][1] += bool(hits) and hits[0] < 5
                firsts[order] = texts[:5]
                if order == opts.misses and not (hits and hits[0] == 0):
                    print(
                        f"  miss {lang} {r.word}: want {'|'.join(r.acceptable)}; got "
                        f"{' | '.join(texts[:5])}"
                    )
            new = firsts[opts.show_order]
            if firsts["built"][:1] != new[:1] and opts.show:
                ok = "+" if new[:1] and new[0] in wanted else "-"
                was = "+" if firsts["built"][:1] and firsts["built"][0] in wanted else "-"
                shows.append(
                    f"{lang} {was}{ok} {r.word}: {' | '.join(firsts['built'][:3])} -> "
                    f"{' | '.join(new[:3])}"
                )
        n = len(dev)
        cells = " | ".join(f"{100 * a / n:.1f} / {100 * b / n:.1f}" for a, b in tally.values())
        print(f"| {lang} | {n} | {cells} |")
    if opts.show:
        print()
        by_lang: dict[str, list[str]] = defaultdict(list)
        for line in shows:
            by_lang[line.split()[0]].append(line)
        for lines in by_lang.values():
            step = max(1, len(lines) // opts.show)
            for line in lines[::step][: opts.show]:
                print(line)


if __name__ == "__main__":
    main()
