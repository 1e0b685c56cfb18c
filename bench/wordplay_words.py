"""How many anagrams, sounds-like answers and pattern matches of frequent words are not
words a person knows, on two builds side by side.

    uv run python bench/wordplay_words.py --dict /usr/share/dict/american-english \\
        --before DIR --after DIR [--words 300] [--top 10]

The judge and the words are `bench/rhyme_words.py`'s (Debian's `wamerican`, independent
of every source the build reads; the `--words` most frequent English words it lists).
Each word is asked for its anagrams and sounds-like answers, and a pattern keeping its
first and last letters (`house` -> `h???e`); the first `--top` results of each are
judged. Prints each kind's share of non-words before and after, how many answers
changed, and the results that left or came in (`*`: in the word list).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from msimlex import open_corpus
from rhyme_words import frequent_words


def first_results(corpus: Any, text: str, kind: str, top: int) -> list[str]:
    from lexicon_server.query.wordplay import wordplay

    answer = wordplay(corpus, text, kind, limit=top).model_dump(mode="json")
    return [result["word"] for result in answer["results"]][:top]


def marked(words: set[str], known: set[str]) -> str:
    return " ".join(sorted(word + ("*" if word in known else "") for word in words))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dict", type=Path, required=True, help="wamerican's word list")
    parser.add_argument("--before", type=Path, required=True, help="a built dataset dir")
    parser.add_argument("--after", type=Path, required=True, help="a built dataset dir")
    parser.add_argument("--words", type=int, default=300)
    parser.add_argument("--top", type=int, default=10)
    args = parser.parse_args()
    lines = args.dict.read_text(encoding="utf-8").splitlines()
    known = {line for line in lines if line and line == line.lower()}
    before, after = open_corpus(args.before, None), open_corpus(args.after, None)
    words = frequent_words(before, known, args.words)
    patterns = [w[0] + "?" * (len(w) - 2) + w[-1] for w in words if len(w) >= 3]
    queries = {"anagram": words, "sounds_like": words, "pattern": list(dict.fromkeys(patterns))}
    for kind, texts in queries.items():
        shares = []
        left: set[str] = set()
        came: set[str] = set()
        changed = 0
        answers = {t: [first_results(c, t, kind, args.top) for c in (before, after)] for t in texts}
        for index in (0, 1):
            seen = [word for pair in answers.values() for word in pair[index]]
            bad = sum(word not in known for word in seen)
            shares.append(f"{bad}/{len(seen)} ({100 * bad / max(len(seen), 1):.1f} %)")
        for old, new in answers.values():
            changed += old != new
            left.update(set(old) - set(new))
            came.update(set(new) - set(old))
        print(f"{kind}: {len(texts)} queries, not in the word list {shares[0]} -> {shares[1]}")
        print(f"  {changed} answers changed; left: {marked(left, known)}")
        print(f"  came in: {marked(came, known)}")


if __name__ == "__main__":
    main()
