"""How many common verbs show a verb sense among a look-up's first three senses.

    uv run python bench/verb_senses.py --built DIR --index-sense PATH/index.sense
        [--top 3000] [--share 0.5] [--show N]

Common verbs: among the `--top` most frequent English terms (the component's wordfreq
Zipf), those with a WordNet verb entry whose senses carry at least `--share` of the word's
use (WordNet 3.1's index.sense tag counts over all its parts of speech). For each, reads
the senses in the order every dictionary tool shows them (query/senses.py `read_senses`)
and counts the words with a verb among the first three. Prints the figure for `--share`
and for a quarter of it, and `--show N` of the words without one (their first three
senses' parts of speech).
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lexicon_server.builder.parsers import wndb
from lexicon_server.corpus.connection import Connection
from lexicon_server.query.senses import read_senses

_POS = {"1": "noun", "2": "verb", "3": "adj", "4": "adv", "5": "adj"}


# The first three senses of the lower-case term, by the stored rank across its entries.
_BY_RANK = (
    "SELECT e.pos FROM terms t JOIN entries e ON e.term_id = t.id JOIN senses s "
    "ON s.entry_id = e.id WHERE t.text = ? ORDER BY s.rank, e.id, s.id LIMIT 3"
)


def use_by_pos(index_sense: Path) -> dict[str, dict[str, int]]:
    """lemma -> part of speech -> summed tag count, from sense keys (`run%2:38:00::`)."""
    out: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for r in wndb.iter_sense_index(index_sense, prefix="wn31"):
        lemma, _, rest = r.sense_key.partition("%")
        out[lemma.replace("_", " ")][_POS[rest[0]]] += r.tag_count
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--built", type=Path, required=True)
    ap.add_argument("--index-sense", type=Path, required=True)
    ap.add_argument("--top", type=int, default=3000)
    ap.add_argument("--share", type=float, default=0.5)
    ap.add_argument("--show", type=int, default=10)
    ap.add_argument(
        "--by-rank",
        action="store_true",
        help="read the senses by the stored rank first (term-wide), not entry then rank: "
        "the order a reader sorting by rank gets",
    )
    opts = ap.parse_args()
    db = opts.built / "en" / "lexical.sqlite"
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, factory=Connection)
    use = use_by_pos(opts.index_sense)
    words = [
        w
        for (w,) in conn.execute(
            "SELECT norm FROM terms WHERE norm GLOB '[a-z]*' AND norm NOT GLOB '*[^a-z]*' "
            "GROUP BY norm ORDER BY max(zipf) DESC LIMIT ?",
            (opts.top,),
        )
    ]
    for share in (opts.share, opts.share / 4):
        verbs = []
        for w in words:
            counts = use.get(w, {})
            total = sum(counts.values())
            if total and counts.get("verb", 0) >= share * total:
                verbs.append(w)
        missing = []
        for w in verbs:
            if opts.by_rank:
                parts = [p for (p,) in conn.execute(_BY_RANK, (w,))]
            else:
                parts = [s.pos for s in read_senses(conn, w, "en", limit=3)[1]]
            if "verb" not in parts:
                missing.append(f"{w}: {' '.join(parts)}")
        ok = len(verbs) - len(missing)
        print(
            f"verb share >= {share:.3g}: {ok} of {len(verbs)} common verbs "
            f"({100 * ok / max(len(verbs), 1):.1f}%) show a verb among the first three senses"
        )
        for line in missing[: opts.show]:
            print(f"  {line}")


if __name__ == "__main__":
    main()
