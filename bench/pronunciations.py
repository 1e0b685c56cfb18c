"""Whose pronunciations a look-up shows for frequent words, judged by CMUdict.

    uv run python bench/pronunciations.py [--built DIR | --data-dir DIR] [--words 300]
        [--cmudict FILE] [--wordfreq FILE] [--show N]

Words: the `--words` most frequent alphabetic words of wordfreq's `large_en` (as
`msimlex.py --coverage` reads them); those CMUdict lacks are left out and counted.

Judge: CMUdict (`cmudict.dict`, the build cache's unless `--cmudict`). A shown ARPAbet value
is the asked word's when it is one of the word's lines; an IPA value when, stress aside
(`corpus.ipa.same_pronunciation`), it equals one of those lines mapped to IPA
(`corpus.ipa.cmudict_ipa`). Not the word's, it is *another word's* when CMUdict has it for
some other word (stress aside: `house`'s haʊs shown for `houses`), else *unconfirmed*
(CMUdict has it for no word: an ISLEX form CMUdict lacks, `run`'s `ɹn̩` with stress).
CMUdict is also a source of the build, so this measures whether an answer shows a word
its own CMUdict lines first, not whether CMUdict is right.

Shown as the word's: the pronunciations a reader takes for the asked form, that is the
result's own `pronunciations` and the first sense's, except that a first sense naming
another headword (`word`: the lemma) carries that word's, labelled; those count only when
the result shows none of its own, so that the lemma's stand in for the form's.

Prints the words judged, the shown pronunciations by class, the words whose first IPA is
not the word's, and `--show N` words with a pronunciation not theirs.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from msimlex import find_wordfreq, frequent_english, open_corpus

from lexicon_server.corpus.ipa import cmudict_ipa, comparable


def find_cmudict() -> Path:
    from lexicon_server.builder.config import load_build_config
    from lexicon_server.builder.inputs import resolve_inputs
    from lexicon_server.builder.sources import read_lock

    found = resolve_inputs(["cmudict"], {}, load_build_config(), read_lock()).sources
    return Path(found["cmudict"].file("dict"))


def _keys(ipa: str) -> set[str]:
    """An IPA form's comparison keys, stress aside (the marks, and the vowels only stress
    tells apart in CMUdict: ʌ/ə, ɝ/ɚ), a flap read as t and as d."""
    text = comparable(ipa, stress=False).replace("ʌ", "ə").replace("ɝ", "ɚ")
    return {text.replace("ɾ", "t"), text.replace("ɾ", "d")}


class Judge:
    """CMUdict's lines by word, and which words each pronunciation belongs to."""

    def __init__(self, path: Path) -> None:
        from lexicon_server.builder.parsers.cmudict import iter_pronunciations

        self.arpabet: dict[str, set[str]] = defaultdict(set)
        self.ipa: dict[str, set[str]] = defaultdict(set)
        self.owners: dict[str, set[str]] = defaultdict(set)  # key -> words
        for row in iter_pronunciations(path):
            bare = " ".join(p.rstrip("012") for p in row.phones)
            self.arpabet[row.word].add(" ".join(row.phones))
            self.owners["arpabet:" + bare].add(row.word)
            for key in _keys(cmudict_ipa(row.phones)):
                self.ipa[row.word].add(key)
                self.owners["ipa:" + key].add(row.word)

    def __contains__(self, word: str) -> bool:
        return word in self.arpabet

    def whose(self, word: str, notation: str, value: str) -> str:
        """'own', 'other' (another word's) or 'unconfirmed', for `value` shown for `word`."""
        if notation == "arpabet":
            if value in self.arpabet[word]:
                return "own"
            keys = {"arpabet:" + " ".join(p.rstrip("012") for p in value.split())}
        else:
            found = _keys(value)
            if found & self.ipa[word]:
                return "own"
            keys = {"ipa:" + key for key in found}
        return "other" if any(self.owners.get(key) for key in keys) else "unconfirmed"


def shown_as_word(answer: dict[str, Any]) -> list[dict[str, Any]]:
    """The pronunciations a reader takes for the asked form (see the module docstring)."""
    own = list(answer.get("pronunciations", ()))
    senses = answer.get("senses") or [{}]
    first = senses[0]
    if "word" not in first or not own:
        own += first.get("pronunciations", ())
    return own


def main() -> None:
    from lexicon_server.query.lookup import lookup

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--built", type=Path)
    parser.add_argument("--data-dir", type=Path)
    parser.add_argument("--words", type=int, default=300)
    parser.add_argument("--cmudict", type=Path)
    parser.add_argument("--wordfreq", type=Path)
    parser.add_argument("--show", type=int, default=0)
    args = parser.parse_args()
    judge = Judge(args.cmudict or find_cmudict())
    wordfreq = args.wordfreq or find_wordfreq()
    if wordfreq is None:
        sys.exit("no large_en.msgpack.gz in the build cache; pass --wordfreq FILE")
    pool = frequent_english(wordfreq, args.words)
    words = [w for w in pool if w in judge]
    corpus = open_corpus(args.built, args.data_dir)
    classes: Counter[str] = Counter()
    first_not_own: list[str] = []
    notes: list[str] = []
    for word in words:
        answer = lookup(corpus, word).model_dump(mode="json", exclude_none=True)
        shown = shown_as_word(answer)
        kinds = [judge.whose(word, p["notation"], p["value"]) for p in shown]
        classes.update(kinds)
        ipa = [(p, k) for p, k in zip(shown, kinds, strict=True) if p["notation"] == "ipa"]
        if ipa and ipa[0][1] != "own":
            first_not_own.append(f"{word} {ipa[0][0]['value']}")
        bad = [f"{p['value']} ({k})" for p, k in zip(shown, kinds, strict=True) if k != "own"]
        if bad:
            notes.append(f"{word}: {', '.join(bad)}")
    total = sum(classes.values())
    print(f"{len(pool)} most frequent words, {len(words)} in CMUdict; {total} pronunciations shown")
    for kind in ("own", "other", "unconfirmed"):
        print(f"  {kind:12} {classes[kind]}")
    print(f"first IPA not the word's by CMUdict: {len(first_not_own)} words")
    if args.show:
        print("  ", "; ".join(first_not_own[: args.show]))
        print("\n".join(notes[: args.show]))


if __name__ == "__main__":
    main()
