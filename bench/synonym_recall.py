"""Synonym recall on the hand-written dev set: is the partner in the answer?

    uv run python bench/synonym_recall.py --built DIR [--built DIR ...] [--nltk]
        [--split dev|heldout|all] [--show N] [--limit N] [--max-senses N] [--unsensed-limit N]

For each pair of bench/devsets/synonyms/{graded,exact}.tsv (word, partner, split) asks
`dictionary_synonyms` (the query function, at its defaults but for the arguments given)
on each built dataset directory's English lexical component and counts a hit when a candidate of any
group, compared after `normalize`, is the partner. `--nltk` adds NLTK's reader over the
same WordNet 3.1 files the builder fetched: the partner counts as found when it is a
lemma of one of `wn.synsets(word)` or of their `similar_tos()` (the adjective clusters,
which Lexicon also follows). Prints a Markdown table of recall per set and split; `--show
N` prints N misses per set and, with two `--built` directories, the words that changed.

The pairs were written by hand without looking at Moby or WordNet (README beside them).
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from types import MappingProxyType
from typing import Any

HERE = Path(__file__).resolve().parent
DEVSET = HERE / "devsets" / "synonyms"
SETS = ("graded", "exact")


def read_pairs() -> list[tuple[str, str, str, str]]:
    """(set, word, partner, split) for every pair."""
    out = []
    for name in SETS:
        with open(DEVSET / f"{name}.tsv", encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                out.append((name, row["word"], row["partner"], row["split"]))
    return out


def open_built(built: Path) -> Any:
    """A Corpus over a built dataset directory (no install needed for a benchmark)."""
    from lexicon_server.corpus.reader import Corpus
    from lexicon_store.selection import ActiveSelection

    dataset = json.loads((built / "dataset.json").read_text(encoding="utf-8"))
    files = {c["path"]: built / c["path"] for c in dataset["components"]}
    caps = {lang: frozenset(info["capabilities"]) for lang, info in dataset["languages"].items()}
    selection = ActiveSelection(
        data_dir=built,
        activation_id="bench",
        dataset_version=dataset["dataset_version"],
        manifest_digest="blake3:" + "0" * 64,
        profile=dataset.get("profile"),
        language_names=MappingProxyType(
            {lang: info["name"] for lang, info in dataset["languages"].items()}
        ),
        catalogue=MappingProxyType(caps),
        installed=MappingProxyType(caps),
        files=MappingProxyType(files),
    )
    return Corpus(selection)


def lexicon_answers(built: Path, words: list[str], given: dict[str, int]) -> dict[str, list[str]]:
    """Each word's candidates, at the tool's defaults but for the arguments `given`."""
    from lexicon_server.query.headwords import normalize
    from lexicon_server.query.synonyms import synonyms

    corpus = open_built(built)
    out = {}
    for word in words:
        data = synonyms(corpus, word, "en", **given)
        out[word] = [normalize(c) for g in data.groups for c in g.candidates]
    corpus.close()
    return out


_NLTK = r"""
import json, sys, warnings
import nltk
from nltk.corpus.reader.wordnet import WordNetCorpusReader
nltk.data.path.append(sys.argv[1])
class Reader(WordNetCorpusReader):
    def map_wn(self, version="wordnet"):
        return None
with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    wn = Reader(sys.argv[1], None)
out = {}
for word in json.loads(sys.stdin.read()):
    names = []
    for s in wn.synsets(word):
        for t in [s, *s.similar_tos()]:
            names.extend(n.replace("_", " ").lower() for n in t.lemma_names())
    out[word] = names
print(json.dumps(out))
"""


def nltk_answers(words: list[str]) -> dict[str, list[str]]:
    sys.path.insert(0, str(HERE))
    from server_latency import find_wordnet_dir, nltk_dir  # type: ignore[import-not-found]

    wordnet_dir = find_wordnet_dir()
    if wordnet_dir is None:
        raise SystemExit("no WordNet 3.1 files in the build cache; run lexicon-build start")
    with tempfile.TemporaryDirectory() as tmp:
        root = nltk_dir(wordnet_dir, Path(tmp))
        done = subprocess.run(
            [sys.executable, "-c", _NLTK, str(root)],
            input=json.dumps(words),
            capture_output=True,
            text=True,
            check=True,
        )
    answers: dict[str, list[str]] = json.loads(done.stdout)
    return answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--built", type=Path, action="append", default=[])
    parser.add_argument("--nltk", action="store_true")
    parser.add_argument("--split", choices=("dev", "heldout", "all"), default="dev")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--max-senses", type=int, default=None)
    parser.add_argument("--unsensed-limit", type=int, default=None)
    parser.add_argument("--show", type=int, default=0)
    opts = parser.parse_args()
    from lexicon_server.query.headwords import normalize

    pairs = [p for p in read_pairs() if opts.split == "all" or p[3] == opts.split]
    words = sorted({p[1] for p in pairs})
    systems: dict[str, dict[str, list[str]]] = {}
    # Arguments left out take the tool's defaults (docs/tools.md).
    given = {
        k: v
        for k, v in (
            ("limit", opts.limit),
            ("max_senses", opts.max_senses),
            ("unsensed_limit", opts.unsensed_limit),
        )
        if v is not None
    }
    for built in opts.built:
        name = f"Lexicon ({built.name}/{built.parent.parent.name})"
        systems[name] = lexicon_answers(built, words, given)
    if opts.nltk:
        systems["NLTK (WordNet 3.1)"] = nltk_answers(words)
    print(f"split: {opts.split}, arguments: {given or 'the defaults'}\n")
    print("| system | " + " | ".join(f"{s} recall" for s in SETS) + " |")
    print("| --- |" + " --- |" * len(SETS))
    hits: dict[str, dict[tuple[str, str], bool]] = {}
    for name, answers in systems.items():
        found = {(s, w): normalize(p) in answers.get(w, []) for s, w, p, _ in pairs}
        hits[name] = found
        cells = []
        for s in SETS:
            mine = [found[(x, w)] for x, w, _, _ in pairs if x == s]
            cells.append(f"{sum(mine)}/{len(mine)} = {sum(mine) / max(len(mine), 1):.3f}")
        print(f"| {name} | " + " | ".join(cells) + " |")
    if opts.show:
        partner = {(s, w): p for s, w, p, _ in pairs}
        for name, found in hits.items():
            misses = [k for k, ok in found.items() if not ok]
            step = max(1, len(misses) // opts.show)
            print(
                f"\n{name}: {len(misses)} misses, e.g. "
                + ", ".join(f"{w}->{partner[(s, w)]}" for s, w in misses[::step][: opts.show])
            )
        names = [n for n in hits if n.startswith("Lexicon")]
        if len(names) == 2:
            a, b = names
            gained = [k for k in hits[a] if hits[b][k] and not hits[a][k]]
            lost = [k for k in hits[a] if hits[a][k] and not hits[b][k]]
            print(
                f"\ngained ({len(gained)}): "
                + ", ".join(f"{w}->{partner[(s, w)]}" for s, w in gained)
            )
            print(f"lost ({len(lost)}): " + ", ".join(f"{w}->{partner[(s, w)]}" for s, w in lost))


if __name__ == "__main__":
    main()
