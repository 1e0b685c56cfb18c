"""A hand-judged sample of first translation candidates (issue 29's measure).

    uv run python bench/translation_judged.py sample [--data-dir DIR | --built DIR]
        [--out DIR] [--judged DIR] [--languages de,fr] [--redraw]
    uv run python bench/translation_judged.py score [DIR] [--languages de,fr]

`sample` draws, with a fixed seed, SIZE (80) English words from the TOP (3,000) most
frequent alphabetic words of wordfreq's `large_en` list (the build cache's wordfreq
wheel) that are English content words: not in the function-word list below, a lemma in
WordNet 3.1's noun, verb or adjective index spelled in lower case by some synset (so
`london` and `american` are out), not an irregular inflected form of WordNet's exception
lists, not a regular inflection of a lemma with more tagged uses (`going` -> `go`), and
not mostly an adverb by WordNet's sense tag counts (index.sense), and not one of a short
list of names, brands and bare prefixes (NOT_WORDS). The part of speech written beside
each word is the one with the most tagged uses. The draw is written once to
`DIR/words.tsv` and reused on later runs (the same 80 words for every language and every
rerun; with `--judged OLD` and no words file yet, OLD's is copied) unless `--redraw` is
given; `--words-only` stops there.

It then asks the translation query in process, with its default arguments, for each word
into each installed language and writes `DIR/<lang>.tsv`:

    word  pos  first  next_four  judgement  class  comment

`first` is the first candidate in the order the tool returns them (groups in order, each
group's candidates in order), `next_four` the next four joined by " | ". A row without a
candidate is judged `empty` at once. With `--judged OLD` a row whose first candidate is
the same as in OLD/<lang>.tsv keeps OLD's judgement, class and comment, so after a change
only the changed rows need a judge; the others are left blank.

`score` reads judged TSVs (the `judgement` column: correct / acceptable / wrong / empty)
and prints per language the counts and shares, wrong-or-empty, the classes of the
wrong ones (the `class` column), and how many rows repeat a candidate (casefolded) within
their first five. Blank judgements are counted as unjudged, outside the shares.
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEVSET = ROOT / "bench" / "devsets" / "translation_judged"
SEED = 29  # issue 29
SIZE = 80
TOP = 3000
JUDGEMENTS = ("correct", "acceptable", "wrong", "empty")
COLUMNS = ("word", "pos", "first", "next_four", "judgement", "class", "comment")
_POS = {"n": "noun", "v": "verb", "a": "adj"}


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Function words (and a few other non-content words) that WordNet also lists under a noun,
# verb or adjective sense (`in` = inch, `will` = testament, `have`, `do`); auxiliaries,
# modals, pronouns, determiners, prepositions, conjunctions, number words, interjections.
FUNCTION_WORDS = _words(
    """
    a an the this that these those some any each every either neither no none all both
    few many much more most less least several such what which who whom whose whoever
    whatever whichever i me my mine we us our ours you your yours he him his she her hers
    it its they them their theirs myself yourself himself herself itself ourselves
    themselves one ones other another own
    be am is are was were been being have has had having do does did done doing
    will would shall should can could may might must ought need dare used
    and or but nor so yet for if then than because as while though although unless
    until till since whether once
    in on at by to of off from with without within into onto upon about above across
    after against along among around before behind below beneath beside besides between
    beyond down during except inside near outside over past per through throughout
    toward towards under underneath up via
    not yes oh ok okay hey hi hello please thanks thank lol
    how when where why there here now then also just only like too very well out
    according instead rather ago
    shit fuck fucking damn ass bitch wow
    someone somebody nobody nothing anything everything everyone anybody everybody
    plus despite unlike
    zero two three four five six seven eight nine ten eleven twelve twenty thirty forty
    fifty sixty seventy eighty ninety hundred thousand million billion first second third
    fourth fifth ii iii
    mr mrs ms dr st tv uk us usa eu de la le
    """
)

# Names, brands, month names and bare prefixes or abbreviations that WordNet also spells in
# lower case (`john` = toilet, `china` = porcelain, `march` = walk), seen among the 3,000
# most frequent words; read from the candidate pool (never from translation answers).
NOT_WORDS = _words(
    """
    john tom jack mike henry martin lee ben smith matt ford miller max nick bob harry
    frank dick don trump google twitter amazon china japan brazil jersey turkey christ
    august march re ma mm em en el ex ft id mid anti pro semi sub super
    """
)

# WordNet's morphy detachment rules, per part of speech (ending, replacement).
_DETACH = {
    "n": (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"),
          ("shes", "sh"), ("men", "man"), ("ies", "y")),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""),
          ("ing", "e"), ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
}  # fmt: skip


@dataclass
class WordNet:
    lemmas: dict[str, frozenset[str]]  # pos (n/v/a/r) -> lemmas of that index
    uses: dict[str, Counter[str]]  # pos -> lemma -> tagged uses (index.sense tag counts)
    lower: dict[str, frozenset[str]]  # pos -> lemmas some synset spells in lower case
    inflected: frozenset[str]  # irregular inflected forms (the .exc files' first column)


_SS_TYPE = {"1": "n", "2": "v", "3": "a", "4": "r", "5": "a"}


def read_wordnet(dict_dir: Path, exc_dir: Path) -> WordNet:
    lemmas: dict[str, frozenset[str]] = {}
    lower: dict[str, frozenset[str]] = {}
    for pos, name in (("n", "noun"), ("v", "verb"), ("a", "adj"), ("r", "adv")):
        index = (dict_dir / f"index.{name}").read_text(encoding="utf-8").splitlines()
        lemmas[pos] = frozenset(line.split()[0] for line in index if not line.startswith(" "))
        spelled: set[str] = set()
        for line in (dict_dir / f"data.{name}").read_text(encoding="utf-8").splitlines():
            if line.startswith(" "):
                continue
            fields = line.split()
            count = int(fields[3], 16)
            for i in range(count):
                lemma = fields[4 + 2 * i].split("(")[0]  # adj markers: (a), (p), (ip)
                if lemma == lemma.lower():
                    spelled.add(lemma)
        lower[pos] = frozenset(spelled)
    uses: dict[str, Counter[str]] = {pos: Counter() for pos in "nvar"}
    for line in (dict_dir / "index.sense").read_text(encoding="utf-8").splitlines():
        key, _offset, _number, tag_cnt = line.split()
        lemma, _, rest = key.partition("%")
        uses[_SS_TYPE[rest[0]]][lemma] += int(tag_cnt)
    inflected: set[str] = set()
    for path in exc_dir.glob("*.exc"):
        for line in path.read_text(encoding="utf-8").splitlines():
            parts = line.split()
            if len(parts) >= 2 and parts[0] != parts[1]:
                inflected.add(parts[0])
    return WordNet(lemmas, uses, lower, frozenset(inflected))


def find_wordnet() -> tuple[Path, Path]:
    from lexicon_server.builder.config import load_build_config

    extracted = load_build_config().extracted
    dicts = sorted(extracted.glob("wordnet-3.1-*/package/dict"))
    excs = sorted(extracted.glob("wordnet-3.0-exc-*/usr/share/wordnet"))
    if not dicts or not excs:
        sys.exit("no WordNet 3.1 index or 3.0 exception files in the build cache")
    return dicts[0], excs[0]


def content_pos(word: str, wn: WordNet, rank: dict[str, int]) -> str | None:
    """The word's part of speech (noun/verb/adj) if it is a content-word lemma, else None.

    Only lower-case lemmas count (`london`, `american` are names); the part of speech is
    the one with the most tagged uses, then the most frequent by the index's own order
    (noun, verb, adjective). A word with more tagged adverb uses than any content use
    (`very`, `still`) is out, and so is a regular inflection of a lemma with more tagged
    uses than the word itself (`going` -> `go`, `things` -> `thing`).
    """
    if word in FUNCTION_WORDS or word in NOT_WORDS or word in wn.inflected or len(word) < 2:
        return None
    options = [
        (wn.uses[pos][word], -"nva".index(pos), pos) for pos in "nva" if word in wn.lower[pos]
    ]
    if not options:
        return None
    best_uses, _, best = max(options)
    if wn.uses["r"][word] > best_uses:
        return None
    own = max(u for u, _, _ in options)
    for pos in "nva":
        for ending, replacement in _DETACH[pos]:
            if not word.endswith(ending):
                continue
            base = word[: len(word) - len(ending)] + replacement
            if base in (word, "be") or base not in wn.lower[pos]:  # bed is no `be`
                continue
            base_uses = wn.uses[pos][base]
            if base_uses > own or (
                base_uses == own and rank.get(base, len(rank)) < rank.get(word, len(rank))
            ):
                return None
    return _POS[best]


def frequent_words(path: Path, top: int) -> list[str]:
    from lexicon_server.builder.parsers.wordfreq import iter_frequencies

    words: list[str] = []
    for row in iter_frequencies(path):
        if row.word.isalpha() and row.word.isascii():
            words.append(row.word)
            if len(words) == top:
                break
    return words


def draw(words: Sequence[str], wn: WordNet, size: int, seed: int) -> list[tuple[str, str, int]]:
    """`size` content words drawn with `seed`, as (word, pos, frequency rank), in rank order."""
    rank = {w: i for i, w in enumerate(words)}
    pool = []
    for i, word in enumerate(words):
        pos = content_pos(word, wn, rank)
        if pos is not None:
            pool.append((word, pos, i + 1))
    chosen = random.Random(seed).sample(pool, size)
    return sorted(chosen, key=lambda row: row[2])


def _cell(text: str) -> str:
    return " ".join(text.replace("\t", " ").split())


def read_tsv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        rows = csv.DictReader(
            (line for line in handle if not line.startswith("#")),
            delimiter="\t",
            quoting=csv.QUOTE_NONE,
        )
        return [{k: (v or "") for k, v in row.items()} for row in rows]


def write_tsv(path: Path, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    lines = ["\t".join(columns)]
    lines.extend("\t".join(_cell(str(x)) for x in row) for row in rows)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def answers(corpus: Any, word: str, lang: str) -> list[str]:
    """The candidates of the translation query with its default arguments, in order."""
    from lexicon_server.query.translate import translate

    try:
        result = translate(corpus, word, lang)
    except LookupError:
        return []
    return [c.text for group in result.groups for c in group.candidates]


def cmd_sample(opts: argparse.Namespace) -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    from msimlex import find_wordfreq, open_corpus

    out: Path = opts.out
    out.mkdir(parents=True, exist_ok=True)
    words_file = out / "words.tsv"
    earlier = opts.judged / "words.tsv" if opts.judged is not None else None
    if not words_file.exists() and earlier is not None and earlier.exists():
        words_file.write_text(earlier.read_text(encoding="utf-8"), encoding="utf-8")
    if words_file.exists() and not opts.redraw:
        sample = [(r["word"], r["pos"], int(r["rank"])) for r in read_tsv(words_file)]
    else:
        source = opts.wordfreq or find_wordfreq()
        if source is None:
            sys.exit("no large_en.msgpack.gz in the build cache; pass --wordfreq FILE")
        wn = read_wordnet(*find_wordnet())
        sample = draw(frequent_words(source, opts.top), wn, opts.size, opts.seed)
        write_tsv(words_file, ("word", "pos", "rank"), sample)
        print(f"drew {len(sample)} words (seed {opts.seed}, top {opts.top}) -> {words_file}")
    if opts.words_only:
        return
    corpus = open_corpus(opts.built, opts.data_dir)
    print(f"dataset {corpus.dataset_version}")
    wanted = [x for x in opts.languages.split(",") if x]
    langs = wanted or sorted(set(corpus.selection.installed) - {"en"})
    for lang in langs:
        old: dict[str, dict[str, str]] = {}
        if opts.judged is not None and (opts.judged / f"{lang}.tsv").exists():
            old = {r["word"]: r for r in read_tsv(opts.judged / f"{lang}.tsv")}
        rows = []
        kept = 0
        for word, pos, _rank in sample:
            found = answers(corpus, word, lang)
            first = found[0] if found else ""
            judgement = cls = comment = ""
            if not first:
                judgement = "empty"
            elif word in old and old[word]["first"] == _cell(first):
                judgement, cls, comment = (old[word][k] for k in ("judgement", "class", "comment"))
                kept += bool(judgement)
            rows.append((word, pos, first, " | ".join(found[1:5]), judgement, cls, comment))
        write_tsv(out / f"{lang}.tsv", COLUMNS, rows)
        blank = sum(1 for r in rows if not r[4])
        print(f"{lang}: {len(rows)} rows, {kept} judgements carried over, {blank} to judge")


@dataclass(frozen=True)
class Tally:
    counts: Counter[str]
    classes: Counter[str]
    unjudged: int
    repeats: int = 0  # rows whose first five candidates repeat one (casefolded)

    @property
    def judged(self) -> int:
        return sum(self.counts[j] for j in JUDGEMENTS)

    def share(self, *kinds: str) -> float:
        return sum(self.counts[k] for k in kinds) / self.judged if self.judged else 0.0


def tally(rows: Iterable[dict[str, str]]) -> Tally:
    """Counts of each judgement, of the wrong ones' classes, of blank rows, and of rows
    whose first five candidates (`first` and `next_four`) name one twice."""
    counts: Counter[str] = Counter()
    classes: Counter[str] = Counter()
    unjudged = repeats = 0
    for row in rows:
        five = [row.get("first", ""), *row.get("next_four", "").split(" | ")]
        seen = [c.strip().casefold() for c in five if c.strip()]
        repeats += len(set(seen)) < len(seen)
        judgement = row.get("judgement", "").strip().lower()
        if not judgement:
            unjudged += 1
            continue
        if judgement not in JUDGEMENTS:
            raise ValueError(f"{row.get('word')!r}: judgement {judgement!r} not in {JUDGEMENTS}")
        counts[judgement] += 1
        if judgement == "wrong":
            classes[row.get("class", "").strip() or "unclassed"] += 1
    return Tally(counts, classes, unjudged, repeats)


def cmd_score(opts: argparse.Namespace) -> None:
    wanted = {x for x in opts.languages.split(",") if x}
    print(
        "| language | judged | correct | acceptable | wrong | empty | wrong or empty"
        " | repeats in first five |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    notes = []
    for path in sorted(opts.dir.glob("*.tsv")):
        lang = path.stem
        if lang == "words" or (wanted and lang not in wanted):
            continue
        t = tally(read_tsv(path))
        if not t.judged:
            notes.append(f"{lang}: not judged ({t.unjudged} rows)")
            continue
        cells = [f"{100 * t.share(k):.1f}% ({t.counts[k]})" for k in JUDGEMENTS]
        bad = t.counts["wrong"] + t.counts["empty"]
        print(
            f"| {lang} | {t.judged} | "
            + " | ".join(cells)
            + f" | {100 * t.share('wrong', 'empty'):.1f}% ({bad}) | {t.repeats} |"
        )
        if t.unjudged:
            notes.append(f"{lang}: {t.unjudged} rows unjudged")
        if t.classes:
            notes.append(
                f"{lang} wrong: " + ", ".join(f"{c} {n}" for c, n in t.classes.most_common())
            )
    if notes:
        print()
        print("\n".join(notes))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("sample", help="draw the words and write each language's answers")
    where = s.add_mutually_exclusive_group()
    where.add_argument("--built", type=Path, help="a built corpus directory")
    where.add_argument("--data-dir", type=Path, help="an installed data directory")
    s.add_argument("--out", type=Path, default=DEVSET)
    s.add_argument("--judged", type=Path, default=None, help="carry judgements from here")
    s.add_argument("--languages", default="", help="comma-separated; default: all installed")
    s.add_argument("--wordfreq", type=Path, default=None)
    s.add_argument("--seed", type=int, default=SEED)
    s.add_argument("--size", type=int, default=SIZE)
    s.add_argument("--top", type=int, default=TOP)
    s.add_argument("--redraw", action="store_true", help="draw anew over words.tsv")
    s.add_argument("--words-only", action="store_true", help="draw, ask no query")
    s.set_defaults(func=cmd_sample)
    c = sub.add_parser("score", help="per-language shares of a judged directory")
    c.add_argument("dir", type=Path, nargs="?", default=DEVSET)
    c.add_argument("--languages", default="")
    c.set_defaults(func=cmd_score)
    opts = parser.parse_args(argv)
    opts.func(opts)


if __name__ == "__main__":
    main()
