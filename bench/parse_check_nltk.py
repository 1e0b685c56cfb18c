"""Compare the WNDB parser with NLTK's WordNet reader on the whole of WordNet 3.1.

Fetches WordNet 3.1 through the builder's pinned sources (like bench/parse_throughput.py),
reads every synset with both, and counts the synsets where lemmas, sense keys, hypernyms,
examples or definitions differ, printing a few differences of each kind.

    uv run python bench/parse_check_nltk.py
"""

from __future__ import annotations

import sys
import tempfile
import warnings
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from parse_throughput import _inputs, _nltk_root


def main() -> None:
    import nltk
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    from lexicon_server.builder.parsers import wndb

    class Reader(WordNetCorpusReader):  # type: ignore[misc]
        def map_wn(self, version: str = "wordnet") -> None:
            return None  # 3.1: skip the mapping to the 3.0 corpus NLTK would download

    dict_dir = _inputs(["wordnet-3.1"])["wordnet-3.1"].file("data.noun").parent
    with tempfile.TemporaryDirectory() as tmp:
        root = _nltk_root(Path(tmp), str(dict_dir))
        nltk.data.path.append(str(root))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            reader = Reader(str(root), None)
            theirs = list(reader.all_synsets())
    ours = {s.external_id: s for s in wndb.iter_synsets(dict_dir, prefix="wn31")}
    differ: Counter[str] = Counter()
    shown: Counter[str] = Counter()
    for synset in theirs:
        mine = ours[f"wn31-{synset.offset():08d}-{synset.pos().replace('s', 'a')}"]
        checks = {
            "lemmas": ([m.lemma for m in mine.members], [x.name() for x in synset.lemmas()]),
            "sense keys": ([m.sense_key for m in mine.members], [x.key() for x in synset.lemmas()]),
            "hypernyms": (
                sorted(p.target_synset for p in mine.pointers if p.relation == "hypernym"),
                sorted(f"wn31-{h.offset():08d}-{h.pos()}" for h in synset.hypernyms()),
            ),
            "examples": (list(mine.examples), [e.strip() for e in synset.examples()]),
            "definition": (mine.gloss, synset.definition()),
        }
        for name, (a, b) in checks.items():
            if a != b:
                differ[name] += 1
                if shown[name] < 3:
                    shown[name] += 1
                    print(f"{name}: ours {a!r}\n{' ' * len(name)}  nltk {b!r}")
    print(f"\n{len(theirs)} synsets from NLTK, {len(ours)} from ours")
    for name in ("lemmas", "sense keys", "hypernyms", "examples", "definition"):
        print(f"{name:>11}: {differ[name]} differ")


if __name__ == "__main__":
    main()
