"""How many of the first rhymes and anagrams of frequent words are words a person knows.

    apt-get download wamerican && dpkg-deb -x wamerican_*.deb /tmp/wam
    uv run python bench/rhyme_words.py --dict /tmp/wam/usr/share/dict/american-english
        [--data-dir DIR | --built DIR] [--words 300] [--top 10] [--show N]

The judge is independent of every source the build reads: the lower-case entries of
Debian's `wamerican` word list (SCOWL; names there are capitalised). For the `--words` most
frequent English words (the wordplay component's own Zipf order) that the list has, the
first `--top` perfect rhymes and near rhymes (`rhymes`, default arguments otherwise) are
read, and each result whose text is not a lower-case entry of the list counts as a
non-word. Prints the share for each mode and `--show N` examples of non-words.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from msimlex import open_corpus


def frequent_words(corpus, known: set[str] | None, count: int) -> list[str]:
    """The `count` most frequent single lower-case words with a pronunciation (those in
    `known` only, when given)."""
    path = corpus.selection.files["en/wordplay.sqlite"]
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        rows = conn.execute(
            "SELECT w.text FROM words w WHERE w.is_single = 1 AND w.text = lower(w.text) "
            "AND EXISTS (SELECT 1 FROM prons p WHERE p.word_id = w.id) ORDER BY w.zipf DESC"
        )
        words = [text for (text,) in rows if known is None or text in known]
    return words[:count]


def main() -> None:
    from lexicon_server.query.rhymes import rhymes

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dict", type=Path, required=True, help="wamerican's word list")
    parser.add_argument("--data-dir", type=Path)
    parser.add_argument("--built", type=Path)
    parser.add_argument("--words", type=int, default=300)
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--show", type=int, default=0)
    args = parser.parse_args()
    lines = args.dict.read_text(encoding="utf-8").splitlines()
    known = {line for line in lines if line and line == line.lower()}
    corpus = open_corpus(args.built, args.data_dir)
    words = frequent_words(corpus, known, args.words)
    for mode in ("perfect", "near"):
        seen = bad = 0
        examples: Counter[str] = Counter()
        for word in words:
            answer = rhymes(corpus, word, mode=mode, limit=args.top).model_dump(mode="json")
            for result in answer.get("results", [])[: args.top]:
                seen += 1
                if result["word"] not in known:
                    bad += 1
                    examples[result["word"]] += 1
        print(
            f"{mode}: {len(words)} words, {seen} rhymes, not in the word list "
            f"{bad} ({100 * bad / max(seen, 1):.1f} %)"
        )
        if args.show:
            print("  ", ", ".join(w for w, _ in examples.most_common(args.show)))


if __name__ == "__main__":
    main()
