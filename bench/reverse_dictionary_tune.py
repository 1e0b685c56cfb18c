"""Reverse dictionary weights: dump every candidate's features once, then score weightings.

    uv run python bench/reverse_dictionary_tune.py dump OUT.pickle [--split dev,dev2,dev3]
        [--data-dir DIR] [--lexical FILE --gcide FILE] [--moby N] [--expand N]
        [--drop-rarest]
    uv run python bench/reverse_dictionary_tune.py grid OUT.pickle [--set NAME=VALUE ...]

`dump` runs the reverse dictionary's candidate search (`describe._candidates`) for each
description of the splits and keeps, for every candidate, what its score is made of
(each search's relevance, the definition match, the definitions' and its own cosine with
the description, Zipf frequency), the cosine read for every candidate, not only the
leading ones. `grid` scores `describe`'s weights on that dump (top-1 / top-10 per split,
as bench/reverse_dictionary.py counts them), each `--set` one weighting to compare with the
module's own: `--set FREQUENCY=1.0,MATCH=2.5`. Only the tuning splits are meant here; the
held-out splits are scored once with bench/reverse_dictionary.py. Three experiments of issue
30's fourth round, left out of the module, can be dumped too: `--moby N` adds each
description word's N best Moby terms as candidates (weight `W_MOBY`), `--expand N` a
second WordNet search with those terms among the searched words (`W_EXPANDED`),
`--drop-rarest` one without the description's rarest word (weight `W_LEXICAL2`).
"""

from __future__ import annotations

import argparse
import pickle
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reverse_dictionary import SPLITS, read_devset, store_from_args

# Module constants a weighting may change (describe.py's names without the underscore).
_KNOBS = ("MATCH", "GLOSS_COSINE", "COSINE", "NO_VECTOR", "FREQUENCY", "PHRASE_FACTOR", "POS_FITS")


def dump(args: argparse.Namespace) -> None:
    from lexicon_server.query import describe
    from lexicon_server.query.headwords import normalize

    store = store_from_args(args)
    asked = set(args.split.split(","))
    rows = []
    for text, word, split in read_devset():
        if split not in asked:
            continue
        made = describe._candidates(store, text, "en", None)
        found = made[2] if made else {}
        if args.expand and made:
            _expand(store, made[1], text, found, args.expand)
        if args.drop_rarest and made:
            _drop_rarest(store, made[1], text, found)
        if args.moby and made:
            _moby(made[1], text, found, args.moby)
        query = describe._phrase(store, "en", *_words_idf(store, text))[1] if found else None
        vectors = store.get("en")
        cosines = describe._cosines(vectors, query, list(found)) if query is not None else {}
        candidates = [
            (
                c.norm,
                dict(c.relevance),
                c.match,
                c.gloss_cosine,
                cosines.get(c.norm),
                c.zipf,
                c.fits,
            )
            for c in found.values()
        ]
        rows.append((text, normalize(word), split, candidates))
    args.out.write_bytes(pickle.dumps(rows))
    print(f"{len(rows)} descriptions, {sum(len(r[3]) for r in rows)} candidates -> {args.out}")


_MOBY = (
    "SELECT t.norm, t.text, t.zipf FROM relations r JOIN terms t ON t.id = r.dst_term_id"
    " WHERE r.src_term_id IN (SELECT id FROM terms WHERE norm = ?) AND r.relation = 'synonym'"
    " AND r.scope = 'term' AND r.dst_language = 'en' ORDER BY r.weight DESC LIMIT ?"
)


def _moby(conn: Any, text: str, found: dict[str, Any], limit: int) -> None:
    """Experiment: each description word's best Moby terms as candidates ('moby')."""
    from lexicon_server.query import describe

    words = describe.description_tokens(text) or []
    excluded = describe._exclusion(conn, words)
    for word in words:
        for rank, (norm, written, zipf) in enumerate(conn.execute(_MOBY, (word, limit))):
            if excluded(norm) or " " in norm:
                continue
            held = found.get(norm) or describe._Candidate(norm, written, zipf=zipf or 0.0)
            found[norm] = held
            held.relevance["moby"] = max(held.relevance.get("moby", 0.0), 1 - rank / limit)


def _drop_rarest(store: Any, conn: Any, text: str, found: dict[str, Any]) -> None:
    """Experiment: WordNet searched again without the description's rarest word
    ('lexical2'), for definitions that hold its commoner words only ("wanting to eat")."""
    from lexicon_server.corpus.rows.glosses import document_counts
    from lexicon_server.query import describe
    from lexicon_server.query.gloss_match import GlossMatcher

    words = describe.description_tokens(text) or []
    searched = describe._search_words(conn, words)
    counts = document_counts(conn, searched)
    present = [w for w in searched if counts[w]]
    if len(present) < 2:
        return
    rest = [w for w in present if w != min(present, key=lambda w: counts[w])]
    idf = describe._idf(conn, words)
    vectors, query = describe._phrase(store, "en", words, idf)
    matcher = GlossMatcher(conn, words, idf, vectors, query)
    describe._MATCH_BUDGETS["lexical2"] = describe._MATCH_BUDGETS["lexical"]
    excluded = describe._exclusion(conn, words)
    describe._gloss_candidates("lexical2", conn, rest, None, excluded, found, matcher)


def _expand(store: Any, conn: Any, text: str, found: dict[str, Any], k: int) -> None:
    """Experiment: WordNet searched again with each description word's `k` best Moby
    terms added to its words ('expanded'), the match still read against its own words."""
    from lexicon_server.query import describe
    from lexicon_server.query.gloss_match import GlossMatcher

    words = describe.description_tokens(text) or []
    extra = []
    for word in words:
        for norm, _, _ in conn.execute(_MOBY, (word, k)):
            if " " not in norm and norm not in words and norm not in extra:
                extra.append(norm)
    if not extra:
        return
    searched = describe._search_words(conn, words) + extra
    idf = describe._idf(conn, words)
    vectors, query = describe._phrase(store, "en", words, idf)
    matcher = GlossMatcher(conn, words, idf, vectors, query)
    describe._MATCH_BUDGETS["expanded"] = 3000
    excluded = describe._exclusion(conn, words)
    describe._gloss_candidates("expanded", conn, searched, None, excluded, found, matcher)


def _words_idf(store: Any, text: str) -> tuple[list[str], dict[str, float]]:
    from lexicon_server.query import describe

    words = describe.description_tokens(text) or []
    lexical = describe._components(store.corpus, "en")[0][1]
    return words, describe._idf(lexical, words)


def _score(candidate: tuple[Any, ...], knobs: dict[str, float], weights: dict[str, float]) -> float:
    norm, relevance, match, gloss_cosine, cosine, zipf, fits = candidate
    total = sum(weights[name] * value for name, value in relevance.items())
    total += knobs["MATCH"] * max(match, 0.0) + knobs["GLOSS_COSINE"] * max(gloss_cosine, 0.0)
    own = knobs["NO_VECTOR"] if cosine is None else max(0.0, cosine)
    total += knobs["COSINE"] * own + knobs["FREQUENCY"] * min(max(zipf, 0.0), 7.0) / 7.0
    total += knobs["POS_FITS"] if fits else 0.0
    return float(total) * (knobs["PHRASE_FACTOR"] if " " in norm or "-" in norm else 1.0)


def grid(args: argparse.Namespace) -> None:
    from lexicon_server.query import describe

    rows = pickle.loads(args.out.read_bytes())
    base = {k: float(getattr(describe, "_" + k)) for k in _KNOBS}
    base_weights = {**describe._WEIGHTS, "moby": 0.0, "lexical2": 0.0, "expanded": 0.0}
    print("| weighting | " + " | ".join(sorted({r[2] for r in rows})) + " | all |")
    for setting in ["", *args.set]:
        knobs, weights = dict(base), dict(base_weights)
        for part in filter(None, setting.split(",")):
            name, value = part.split("=")
            if name.startswith("W_"):
                weights[name[2:].lower()] = float(value)
            else:
                knobs[name] = float(value)
        counts: dict[str, list[int]] = {}
        for _, word, split, candidates in rows:
            ranked = sorted(candidates, key=lambda c: (-_score(c, knobs, weights), c[0]))[:10]
            norms = [c[0] for c in ranked]
            for key in (split, "all"):
                held = counts.setdefault(key, [0, 0, 0])
                held[0] += 1
                held[1] += bool(norms) and norms[0] == word
                held[2] += word in norms
        cells = [f"{counts[k][1]}/{counts[k][2]}" for k in sorted(counts) if k != "all"]
        print(
            f"| {setting or 'module'} | " + " | ".join(cells) + f" | {counts['all'][1]}/"
            f"{counts['all'][2]} of {counts['all'][0]} |"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("action", choices=("dump", "grid"))
    parser.add_argument("out", type=Path)
    parser.add_argument("--split", default="dev,dev2,dev3")
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--lexical", type=Path, default=None)
    parser.add_argument("--gcide", type=Path, default=None)
    parser.add_argument("--set", action="append", default=[])
    parser.add_argument("--expand", type=int, default=0, help="experiment: Moby terms a word")
    parser.add_argument("--drop-rarest", action="store_true", help="experiment")
    parser.add_argument("--moby", type=int, default=0, help="experiment: Moby terms a word")
    args = parser.parse_args(argv)
    if any(s not in SPLITS for s in args.split.split(",")):
        parser.error(f"--split: use {', '.join(SPLITS)}")
    (dump if args.action == "dump" else grid)(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
