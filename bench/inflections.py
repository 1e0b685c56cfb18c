"""Per-class accuracy of inflected-form resolution, Lexicon beside NLTK's WordNet reader.

    uv run python bench/inflections.py [--data-dir DIR] [--split heldout|dev|all]

For each row of bench/devsets/inflections/inflections.tsv (hand-written form, lemma and
part of speech; see its README), a hit is an answer that includes a sense of the lemma
with that part of speech: for Lexicon, the senses `dictionary_lookup` reads
(`query.senses.read_senses`, every sense, no limit); for NLTK, `wn.synsets(form)` over
the same WordNet database files (the starter's WordNet 3.1 with WordNet 3.0's exception
lists, as bench/server_latency.py prepares them for NLTK).
"""

from __future__ import annotations

import argparse
import csv
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from server_latency import find_wordnet_dir, nltk_dir, open_corpus

ROOT = Path(__file__).resolve().parent
DEVSET = ROOT / "devsets" / "inflections" / "inflections.tsv"
CLASSES = ("plural", "comparative", "superlative", "third_person", "ing", "past")
_NLTK_POS = {"noun": ("n",), "verb": ("v",), "adj": ("a", "s"), "adv": ("r",)}


def rows(split: str) -> list[dict[str, str]]:
    with DEVSET.open(encoding="utf-8") as f:
        found = list(csv.DictReader(f, delimiter="\t"))
    return [r for r in found if split == "all" or r["split"] == split]


def lexicon_hit(conn: Any, row: dict[str, str]) -> bool:
    from lexicon_server.query.senses import read_senses

    _heads, senses = read_senses(conn, row["form"], "en")
    return any(s.word.lower() == row["lemma"] and s.pos == row["pos"] for s in senses)


def nltk_hit(wn: Any, row: dict[str, str]) -> bool:
    wanted = _NLTK_POS[row["pos"]]
    return any(
        s.pos() in wanted and row["lemma"] in {n.lower() for n in s.lemma_names()}
        for s in wn.synsets(row["form"])
    )


def table(results: dict[str, Counter[str]], totals: Counter[str]) -> str:
    names = list(results)
    lines = [
        "| class | pairs | " + " | ".join(names) + " |",
        "| --- | ---: | " + " | ".join("---:" for _ in names) + " |",
    ]
    for cls in CLASSES:
        shares = " | ".join(f"{results[n][cls] / totals[cls]:.3f}" for n in names)
        lines.append(f"| {cls} | {totals[cls]} | {shares} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--wordnet-dir", type=Path, default=None)
    parser.add_argument("--exc-dir", type=Path, default=None, help="WordNet *.exc files")
    parser.add_argument("--split", choices=("heldout", "dev", "all"), default="heldout")
    parser.add_argument("--misses", action="store_true", help="list the rows missed")
    opts = parser.parse_args()

    corpus = open_corpus(opts.data_dir)
    conn = corpus.db("en", "lexical")
    wanted = rows(opts.split)
    totals = Counter(r["class"] for r in wanted)
    results: dict[str, Counter[str]] = {"Lexicon": Counter()}
    missed: dict[str, list[str]] = {"Lexicon": []}
    wordnet_dir = opts.wordnet_dir or find_wordnet_dir()
    wn = None
    if wordnet_dir is not None:
        import warnings

        import nltk
        from nltk.corpus.reader.wordnet import WordNetCorpusReader

        exc_dir = opts.exc_dir
        if exc_dir is None:  # the exception lists the builder fetched (its cache)
            from lexicon_server.builder.config import load_build_config

            exc = sorted(load_build_config().cache_dir.rglob("verb.exc"))
            exc_dir = exc[0].parent if exc else None
        work = Path(tempfile.mkdtemp(prefix="lexicon-inflections-"))
        root = nltk_dir(wordnet_dir, work, exc_dir)
        nltk.data.path.extend([str(work), str(wordnet_dir.resolve())])  # authorises the root

        class Reader(WordNetCorpusReader):  # type: ignore[misc]
            # No OMW: nothing to map to WordNet 3.0; English look-ups do not use it.
            def map_wn(self, version: str = "wordnet") -> None:
                return None

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            wn = Reader(str(root), None)
        results["NLTK wn.synsets"] = Counter()
        missed["NLTK wn.synsets"] = []
    else:
        print("no WordNet database files found: NLTK left out", file=sys.stderr)
    for row in wanted:
        answers = {"Lexicon": lexicon_hit(conn, row)}
        if wn is not None:
            answers["NLTK wn.synsets"] = nltk_hit(wn, row)
        for name, hit in answers.items():
            if hit:
                results[name][row["class"]] += 1
            else:
                missed[name].append(f"{row['class']}: {row['form']} -> {row['lemma']}")
    print(f"split: {opts.split}, {len(wanted)} pairs")
    print(table(results, totals))
    if opts.misses:
        for name, lines in missed.items():
            print(f"\n{name} misses ({len(lines)}):")
            print("\n".join(f"  {line}" for line in lines))
    corpus.close()


if __name__ == "__main__":
    main()
