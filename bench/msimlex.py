"""Multilingual SimLex-999 dev set: top-1 / top-5 of dictionary_translate, and coverage.

    uv run python bench/msimlex.py --built DIR          # a built corpus directory
    uv run python bench/msimlex.py --data-dir DIR       # an installed data directory
        [--gold DIR] [--languages de,it] [--coverage 3000] [--show N] [--direct-only]

Scores exactly the rule of ../shared/gold-dev/README.md: for each English word of
`en-<lang>.tsv`, the translation query from English with `limit` 1 (top-1) and 5 (top-5);
every candidate and every listed translation is compared after casefolding, with bracketed
notes removed, a leading reflexive `sich` / `si` and a leading English `to ` dropped and `_`
read as a space; a word is a hit when any candidate equals any listed translation.

`--direct-only` leaves thin English pairs unfilled (query/bridges.py off): the answers the
English component gives by itself, as before the bridges, for an A/B on one build.
`--coverage N` also counts, per installed language English translates into, how many of the
N most frequent English words of wordfreq's `large_en` list (alphabetic words, in the list's
order) get no candidate at all; it reads the list from the build cache's wordfreq wheel
(`--wordfreq FILE` to name the `large_en.msgpack.gz`). `--show N` prints N words per
language whose first candidate changed, or whose miss is worth reading, with both sides.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from types import MappingProxyType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GOLD = ROOT.parent / "shared" / "gold-dev" / "msimlex"
_BRACKETS = re.compile(r"\([^()]*\)|\[[^\[\]]*\]|\{[^{}]*\}|<[^<>]*>")


def normalise(text: str) -> str:
    """The dev set's comparison form (see the module docstring)."""
    text = _BRACKETS.sub(" ", text.replace("_", " ")).casefold()
    text = " ".join(text.split())
    for prefix in ("sich ", "si ", "to "):
        if text.startswith(prefix):
            text = text[len(prefix) :]
    return text.strip()


def read_gold(path: Path) -> list[tuple[str, set[str]]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        word, wanted = line.split("\t")[:2]
        rows.append((word, {normalise(w) for w in wanted.split("|")}))
    return rows


def open_corpus(built: Path | None, data_dir: Path | None) -> Any:
    from lexicon_server.corpus.reader import Corpus
    from lexicon_store.selection import ActiveSelection, load_active

    if built is None:
        return Corpus(load_active(data_dir))
    dataset = json.loads((built / "dataset.json").read_text(encoding="utf-8"))
    caps = {lang: frozenset(info["capabilities"]) for lang, info in dataset["languages"].items()}
    return Corpus(
        ActiveSelection(
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
            files=MappingProxyType({c["path"]: built / c["path"] for c in dataset["components"]}),
        )
    )


def candidates(corpus: Any, word: str, lang: str, limit: int) -> list[str]:
    from lexicon_server.query.translate import translate

    try:
        result = translate(corpus, word, lang, limit=limit)
    except LookupError:
        return []
    return [c.text for group in result.groups for c in group.candidates][:limit]


def score(corpus: Any, gold: list[tuple[str, set[str]]], lang: str) -> tuple[int, int, list[str]]:
    top1 = top5 = 0
    lines = []
    for word, wanted in gold:
        first = candidates(corpus, word, lang, 1)
        five = candidates(corpus, word, lang, 5)
        hit1 = any(normalise(c) in wanted for c in first)
        hit5 = any(normalise(c) in wanted for c in five)
        top1 += hit1
        top5 += hit5
        lines.append(
            f"{word}\t{'1' if hit1 else '5' if hit5 else '-'}\t{'|'.join(sorted(wanted))}"
            f"\t{' | '.join(five)}"
        )
    return top1, top5, lines


def frequent_english(path: Path, n: int) -> list[str]:
    from lexicon_server.builder.parsers.wordfreq import iter_frequencies

    words: list[str] = []
    for row in iter_frequencies(path):
        if row.word.isalpha():
            words.append(row.word)
            if len(words) == n:
                break
    return words


def find_wordfreq() -> Path | None:
    from lexicon_server.builder.config import load_build_config

    found = sorted(load_build_config().extracted.glob("wordfreq-*/**/large_en.msgpack.gz"))
    return found[0] if found else None


def uncovered(corpus: Any, words: list[str], lang: str) -> list[str]:
    return [w for w in words if not candidates(corpus, w, lang, 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--built", type=Path, help="a built corpus directory")
    where.add_argument("--data-dir", type=Path, help="an installed data directory")
    parser.add_argument("--gold", type=Path, default=GOLD)
    parser.add_argument("--languages", default="", help="comma-separated; default: all sets")
    parser.add_argument("--coverage", type=int, default=0, help="N most frequent English words")
    parser.add_argument("--wordfreq", type=Path, default=None)
    parser.add_argument("--dump", type=Path, default=None, help="write per-word lines here")
    parser.add_argument(
        "--direct-only",
        action="store_true",
        help="no thin pair filled through third languages (the answers before query/bridges.py)",
    )
    opts = parser.parse_args()
    if opts.direct_only:
        import lexicon_server.query.translate as translate_module

        translate_module.is_thin = lambda *_args: False  # type: ignore[assignment]

    corpus = open_corpus(opts.built, opts.data_dir)
    installed = set(corpus.selection.installed)
    wanted = {x for x in opts.languages.split(",") if x}
    print(f"dataset {corpus.dataset_version}\n")
    print("| language | words | top-1 | top-5 |")
    print("| --- | ---: | ---: | ---: |")
    dump: list[str] = []
    for path in sorted(opts.gold.glob("en-*.tsv")):
        lang = path.stem.split("-", 1)[1]
        if (wanted and lang not in wanted) or lang not in installed:
            continue
        gold = read_gold(path)
        top1, top5, lines = score(corpus, gold, lang)
        n = len(gold)
        print(f"| {lang} | {n} | {100 * top1 / n:.1f}% ({top1}) | {100 * top5 / n:.1f}% ({top5}) |")
        dump.extend(f"{lang}\t{line}" for line in lines)
    if opts.coverage:
        source = opts.wordfreq or find_wordfreq()
        if source is None:
            sys.exit("no large_en.msgpack.gz in the build cache; pass --wordfreq FILE")
        words = frequent_english(source, opts.coverage)
        print(f"\n{len(words)} most frequent English words (wordfreq large_en, alphabetic)\n")
        print("| language | no candidate |")
        print("| --- | ---: |")
        for lang in sorted(installed - {"en"}):
            if wanted and lang not in wanted:
                continue
            missing = uncovered(corpus, words, lang)
            print(f"| {lang} | {len(missing)} |")
            dump.extend(f"{lang}\tuncovered\t{w}" for w in missing)
    if opts.dump:
        opts.dump.write_text("\n".join(dump) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
