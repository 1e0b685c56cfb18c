"""Translations between two non-English languages, scored on the gold-dev set.

    uv run python bench/pivot_pairs.py --data-dir DIR | --built DIR
        [--pairs de:it,it:de] [--answer-rate 80] [--show N]

Multilingual SimLex-999 gives each English word a human German and a human Italian
translation (`../shared/gold-dev/msimlex/en-de.tsv`, `en-it.tsv`): so a German word has
a human Italian translation, and back. For every English word in both files, the first
listed translation on one side is asked (`dictionary_translate` from that language, limit
1 and 5) and scored against every listed translation on the other side, with the
normalisation of `bench/msimlex.py` (strict: a right synonym counts as a miss). Words the
source language does not know are counted apart.

`--answer-rate N` also asks N frequent words of each source language (the gold file's
first N, in file order) into every other installed non-English language and reports the
share answered with at least one candidate (the issue's aim: 80 %).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from msimlex import GOLD, normalise, open_corpus


def gold_pairs(source: str, target: str) -> list[tuple[str, set[str]]]:
    """(source word, target translations) for the English words both files list."""

    def read(lang: str) -> dict[str, list[str]]:
        rows = {}
        for line in (GOLD / f"en-{lang}.tsv").read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                english, wanted = line.split("\t")[:2]
                rows[english] = wanted.split("|")
        return rows

    src, tgt = read(source), read(target)
    return [(src[w][0], {normalise(t) for t in tgt[w]}) for w in src if w in tgt]


def translations(corpus, word: str, source: str, target: str, limit: int) -> tuple[bool, list]:
    from lexicon_server.query.translate import translate

    try:
        result = translate(corpus, word, target, source, limit=limit)
    except LookupError:
        return False, []
    return result.found, [c for g in result.groups for c in g.candidates][:limit]


def score_pair(corpus, source: str, target: str, show: int) -> None:
    pairs = gold_pairs(source, target)
    known = top1 = top5 = pivots = 0
    shown = 0
    for word, wanted in pairs:
        found, five = translations(corpus, word, source, target, 5)
        if not found:
            continue
        known += 1
        texts = [normalise(c.text) for c in five]
        top1 += bool(texts) and texts[0] in wanted
        top5 += any(t in wanted for t in texts)
        pivots += any(c.sense_scope == "pivot" for c in five)
        if shown < show and not (texts and texts[0] in wanted):
            shown += 1
            print(f"  {word} -> {'|'.join(sorted(wanted))}: {[c.text for c in five]}")
    print(
        f"{source}->{target}: {len(pairs)} pairs, {known} source words known; "
        f"top-1 {top1 / known:.3f}, top-5 {top5 / known:.3f}; "
        f"answers holding a pivot {pivots}"
    )


def answer_rate(corpus, source: str, count: int) -> None:
    languages = sorted(
        lang
        for lang in corpus.selection.installed
        if lang not in ("en", source) and "lexical" in corpus.selection.installed[lang]
    )
    words = [w for w, _ in gold_pairs(source, "it" if source != "it" else "de")][:count]
    asked = answered = 0
    for lang in languages:
        for word in words:
            found, cands = translations(corpus, word, source, lang, 5)
            if found:
                asked += 1
                answered += bool(cands)
    print(f"{source} -> {len(languages)} languages, {asked} found calls: {answered / asked:.1%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data-dir", type=Path)
    parser.add_argument("--built", type=Path)
    parser.add_argument("--pairs", default="de:it,it:de")
    parser.add_argument("--answer-rate", type=int, default=0)
    parser.add_argument("--show", type=int, default=0)
    args = parser.parse_args()
    corpus = open_corpus(args.built, args.data_dir)
    for pair in args.pairs.split(","):
        source, target = pair.split(":")
        score_pair(corpus, source, target, args.show)
    if args.answer_rate:
        for source in sorted({p.split(":")[0] for p in args.pairs.split(",")}):
            answer_rate(corpus, source, args.answer_rate)


if __name__ == "__main__":
    main()
