"""Issue 29's checks on first translation candidates, counted over a word list.

    uv run python bench/translation_first_checks.py --built DIR [--words FILE ...]

For each English word of the lists (first column of TSVs; default: the judged sample's
`words.tsv` and the gold-dev msimlex words) and each language English translates into,
reads the word's translations in the built English component in id order (the order the
translation query shows them) and counts, per language:

- `sense-only first`: the first candidate is sense-tied (MultiWordNet) and no other
  source gives the same target for the word ("a sense-tied row that no other source
  confirms ... is not put first");
- `recurring first`: the first candidate is sense-tied and its target is given under more
  than half of the word's senses that have a translation into the language (at least
  three such senses) ("... or whose target recurs under most senses of the word");
- `ungrouped`: a target's rows are not numbered together (its rows resume after another
  target's), so an answer could name it twice; 0 when the merged order holds.
"""

from __future__ import annotations

import argparse
import sqlite3
from collections import Counter
from itertools import pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_WORDS = (
    ROOT / "bench" / "devsets" / "translation_judged" / "words.tsv",
    ROOT.parent / "shared" / "gold-dev" / "msimlex" / "en-de.tsv",
)

_ROWS = """
SELECT tr.target_language, tr.target_norm, tr.sense_id, tr.source_id
FROM translations tr JOIN terms t ON t.id = tr.term_id
WHERE t.text = ? AND tr.target_language <> 'en' ORDER BY tr.target_language, tr.id
"""


def read_words(paths: list[Path]) -> list[str]:
    words: dict[str, None] = {}
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            head = line.split("\t")[0].strip().casefold()
            if head and not line.startswith("#") and head != "word":
                words[head] = None
    return list(words)


def check_block(rows: list[tuple[str, int | None, int]]) -> Counter[str]:
    """rows: one word's (target, sense id, source id) into one language, in id order."""
    out: Counter[str] = Counter()
    first = rows[0][0]
    mine = [r for r in rows if r[0] == first]
    tied = any(sense is not None for _, sense, _ in mine)
    sources = {source for _, _, source in mine}
    if tied and len(sources) == 1:
        out["sense-only first"] += 1
    senses = {sense for _, sense, _ in rows if sense is not None}
    under = {sense for _, sense, _ in mine if sense is not None}
    if tied and len(senses) >= 3 and 2 * len(under) > len(senses):
        out["recurring first"] += 1
    # The query shows each target once, where its rows start: a target met again after
    # another one would mean its rows are not numbered together.
    closed: set[str] = set()
    for before, target in pairwise(rows):
        if target[0] != before[0]:
            closed.add(before[0])
            if target[0] in closed:
                out["ungrouped"] += 1
                break
    out["words"] += 1
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--built", type=Path, required=True)
    ap.add_argument("--words", type=Path, action="append", default=[])
    opts = ap.parse_args()
    words = read_words(opts.words or list(DEFAULT_WORDS))
    db = opts.built / "en" / "lexical.sqlite"
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    totals: dict[str, Counter[str]] = {}
    for word in words:
        blocks: dict[str, list[tuple[str, int | None, int]]] = {}
        for lang, target, sense, source in conn.execute(_ROWS, (word,)):
            blocks.setdefault(lang, []).append((target, sense, source))
        for lang, rows in blocks.items():
            totals.setdefault(lang, Counter()).update(check_block(rows))
    print(f"{len(words)} words")
    print("| language | words answered | sense-only first | recurring first | ungrouped |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for lang in sorted(totals):
        c = totals[lang]
        print(
            f"| {lang} | {c['words']} | {c['sense-only first']} | {c['recurring first']} "
            f"| {c['ungrouped']} |"
        )


if __name__ == "__main__":
    main()
