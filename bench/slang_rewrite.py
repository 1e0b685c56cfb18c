"""Slang rewrite: lexicon's `rewrite` against what people write today, on the same text.

Compared in one run, on the same 10,000-UTF-16-unit text and the same 20-pair glossary:

- lexicon:      ``lexicon_server.slang.rewrite`` (Unicode letter/number/mark/underscore
                boundaries, earliest then longest, no re-rewriting, UTF-16 + code-point offsets)
- re-alternation: one compiled ``\\b(?:longest|...|shortest)\\b`` pattern with
                ``re.IGNORECASE`` and ``re.sub`` with a dict look-up: the usual hand-written way
- re-per-pair:  ``re.sub`` once per glossary pair in turn (also common; it re-rewrites)

It prints the best and median time per call, then, on a set of tricky inputs, how often each
baseline's output differs from lexicon's and why.

    uv run python bench/slang_rewrite.py [--rounds 30] [--data-dir DIR]

With --data-dir (a data dir with an active selection, e.g. the starter corpus installed by
`lexicon-data install --from`), interpret is also timed with the corpus as a source.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from lexicon_server.slang import interpret, lookup, open_corpus, rewrite
from lexicon_server.slang.offsets import utf16_len

PAIRS = [
    ("no cap", "honestly"),
    ("fr", "for real"),
    ("fr fr", "truly"),
    ("ngl", "not going to lie"),
    ("lowkey", "somewhat"),
    ("highkey", "very"),
    ("bussin", "delicious"),
    ("mid", "mediocre"),
    ("sus", "suspicious"),
    ("rizz", "charm"),
    ("slaps", "is excellent"),
    ("bet", "agreed"),
    ("tbh", "to be honest"),
    ("idk", "I do not know"),
    ("imo", "in my opinion"),
    ("goat", "greatest of all time"),
    ("vibe check", "mood assessment"),
    ("ate", "did very well"),
    ("deadass", "seriously"),
    ("say less", "understood"),
]

FILLER = [
    "the",
    "build",
    "on",
    "café",
    "servers",
    "🚀",
    "passed",
    "and",
    "naïve",
    "tests",
    "ran",
    "with",
    "été",
    "data",
]


def make_text(units: int, seed: int = 7) -> str:
    rng = random.Random(seed)
    words: list[str] = []
    while utf16_len(" ".join(words)) < units - 40:
        if rng.random() < 0.25:
            words.append(
                rng.choice(PAIRS)[0].upper() if rng.random() < 0.2 else rng.choice(PAIRS)[0]
            )
        else:
            words.append(rng.choice(FILLER))
        if rng.random() < 0.1:
            words[-1] += rng.choice([",", ".", "!", "?"])
    return " ".join(words)


def re_alternation(pairs: list[tuple[str, str]]) -> Callable[[str], str]:
    table = {s.lower(): p for s, p in pairs}
    alternatives = sorted((re.escape(s) for s, _ in pairs), key=len, reverse=True)
    pattern = re.compile(r"\b(?:" + "|".join(alternatives) + r")\b", re.IGNORECASE)
    return lambda text: pattern.sub(lambda m: table[m.group(0).lower()], text)


def re_per_pair(pairs: list[tuple[str, str]]) -> Callable[[str], str]:
    compiled = [(re.compile(r"\b" + re.escape(s) + r"\b", re.IGNORECASE), p) for s, p in pairs]

    def run(text: str) -> str:
        for pattern, plain in compiled:
            text = pattern.sub(plain.replace("\\", "\\\\"), text)
        return text

    return run


def timings_ms(fn: Callable[[], object], rounds: int) -> tuple[float, float]:
    """(best, median) milliseconds per call; best is the steadier figure on a shared machine."""
    fn()  # warm caches (compiled patterns) the same way for every contender
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times) * 1000, statistics.median(times) * 1000


# (text, pairs, why it is tricky)
TRICKY: list[tuple[str, list[tuple[str, str]], str]] = [
    ("un cafe\u0301 noir", [("cafe", "coffee")], "combining mark after the phrase"),
    ("fr_ or fr", [("fr", "for real")], "underscore glued to the phrase"),
    ("fr", [("fr", "for real"), ("real", "legit")], "replacement contains another phrase"),
    ("sus and mid", [("sus", "mid"), ("mid", "mediocre")], "chain a->b, b->c"),
    ("fr fr!", [("fr", "for real"), ("fr fr", "truly")], "longest at the same start"),
    ("big mood swing", [("big mood", "relatable"), ("mood swing", "change")], "earliest wins"),
    ("naïve fr", [("na", "X")], "letter outside ASCII after the phrase"),
    ("🔥fr🔥", [("fr", "for real")], "emoji around the phrase"),
    ("C++ rocks", [("c++", "cpp")], "phrase ending in punctuation"),
    ("No cap, this works fr!", PAIRS, "the brief's example"),
]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--data-dir", type=Path, default=None)
    args = parser.parse_args()

    text = make_text(10_000)
    alternation, per_pair = re_alternation(PAIRS), re_per_pair(PAIRS)
    worst = "a " * 4_999  # every other character starts a match of every phrase below
    worst_pairs = [("a" + " a" * i, f"x{i}") for i in range(20)]
    # Every hit touches a combining mark, so each one falls back to trying all 20 phrases.
    marked = "a\u0301 " * 3_333
    marked_pairs = [("a", "x"), *((f"a{i}", f"y{i}") for i in range(19))]
    terms = [s for s, _ in PAIRS]

    print(f"text: {utf16_len(text)} UTF-16 units, {len(PAIRS)} pairs, {args.rounds} rounds")
    print(f"{'contender':<40}{'best ms':>10}{'median ms':>11}")
    with tempfile.TemporaryDirectory() as tmp:
        glossary = Path(tmp) / "glossary.jsonl"
        glossary.write_text('{"term": "fr", "description": "for real"}\n', encoding="utf-8")
        rows: list[tuple[str, Callable[[], object]]] = [
            ("lexicon rewrite", lambda: rewrite(text, PAIRS)),
            ("re alternation (\\b, re.I)", lambda: alternation(text)),
            ("re.sub per pair", lambda: per_pair(text)),
            ("lexicon rewrite, 'a a a ...' worst case", lambda: rewrite(worst, worst_pairs)),
            ("lexicon rewrite, 'a\u0301 ...' worst case", lambda: rewrite(marked, marked_pairs)),
            (
                "lexicon interpret, 20 terms, glossary",
                lambda: interpret(text, terms, glossary=glossary),
            ),
        ]
        if args.data_dir is not None:
            corpus = open_corpus(args.data_dir)
            words = ["heist", "dekko", "cat", "dough", "cop", "bread", "queen", "fuzz"]
            corpus_text = " ".join(words * 5)
            rows.append(
                (
                    f"lexicon interpret, {len(words)} terms, corpus",
                    lambda: interpret(corpus_text, words, corpus=corpus, glossary=glossary),
                )
            )
            rows.append(("lexicon lookup 'heist', corpus", lambda: lookup("heist", corpus=corpus)))
        for name, fn in rows:
            best, median = timings_ms(fn, args.rounds)
            print(f"{name:<40}{best:>10.2f}{median:>11.2f}")

    print()
    print(f"{'tricky input':<44}{'re alternation':>16}{'re per pair':>14}")
    differs = {"alt": 0, "pair": 0}
    for sample, pairs, why in TRICKY:
        ours = rewrite(sample, pairs).output
        alt = re_alternation(pairs)(sample)
        pair = re_per_pair(pairs)(sample)
        differs["alt"] += alt != ours
        differs["pair"] += pair != ours
        mark = {True: "differs", False: "same"}
        print(f"{why:<44}{mark[alt != ours]:>16}{mark[pair != ours]:>14}")
    n = len(TRICKY)
    print(
        f"{'outputs that differ from lexicon':<44}{differs['alt']:>13}/{n}{differs['pair']:>11}/{n}"
    )


if __name__ == "__main__":
    main()
