"""How near-rhyme ranking by sound changes the first answers, against frequency alone.

    uv run python bench/rhyme_sound_rank.py --db FILE [--words N] [--top K]

For the N most frequent words of the wordplay database that have a pronunciation (ids
are frequency ranks), every near rhyme is read straight from `near_rhymes` (a word is a
near rhyme when no pronunciation of it rhymes perfectly, shown by its closest row), then
ordered two ways: by frequency alone (the ranking before) and by sound class, then
frequency (the ranking now). For the first K of each it reports
the share that keeps every vowel (`vowel_kept`), the share that changes the stressed
vowel, and how many words now answer differently. The classes are computed by the same
`sound_class` the query uses, so this measures what the ranking does, not whether a
listener agrees: no near-rhyme judgement set is available offline here.
"""

from __future__ import annotations

import argparse
import sqlite3
from collections import defaultdict
from pathlib import Path

from lexicon_server.corpus.rhyme_walk import SOUND_CLASSES, sound_class


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--words", type=int, default=500)
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--show", type=int, default=8, help="print this many words' lists")
    args = parser.parse_args()
    conn = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    words = conn.execute(
        "SELECT w.id, w.text FROM words w WHERE EXISTS (SELECT 1 FROM prons p "
        "WHERE p.word_id = w.id) AND w.text GLOB '[a-z]*' ORDER BY w.id LIMIT ?",
        (args.words,),
    ).fetchall()
    shares = {"before": defaultdict(int), "after": defaultdict(int)}
    listed = {"before": 0, "after": 0}
    changed = 0
    examples: list[tuple[str, list[str], list[str]]] = []
    for word_id, _text in words:
        query = conn.execute(
            "SELECT DISTINCT r.rhyme, r.id FROM prons p JOIN rhymes r ON r.id = p.rhyme_id "
            "WHERE p.word_id = ?",
            (word_id,),
        ).fetchall()
        best: dict[int, tuple[int, str]] = {}  # candidate word id -> (class, text)
        perfect: set[int] = set()
        for rhyme, rhyme_id in query:
            for cand_id, text, edit, cand_rhyme in conn.execute(
                "SELECT m.word_id, m.text, n.edit, m.rhyme FROM near_rhymes n "
                "JOIN rhyme_members m ON m.rhyme_id = n.member_rhyme_id AND m.pron_id = n.pron_id "
                "WHERE n.rhyme_id = ?",
                (rhyme_id,),
            ):
                if edit == 0:
                    perfect.add(cand_id)
                    continue
                cls = sound_class(rhyme, cand_rhyme, edit)
                if cand_id not in best or cls < best[cand_id][0]:
                    best[cand_id] = (cls, text)
        near = sorted((i, c) for i, (c, _t) in best.items() if i not in perfect and i != word_id)
        before = near[: args.top]
        after = sorted(near, key=lambda item: (item[1], item[0]))[: args.top]
        changed += [i for i, _ in before] != [i for i, _ in after]
        if args.show and len(examples) < args.show and before != after:
            examples.append(
                (_text, [best[i][1] for i, _ in before], [best[i][1] for i, _ in after])
            )
        for label, chosen in (("before", before), ("after", after)):
            listed[label] += len(chosen)
            for _i, cls in chosen:
                shares[label][cls] += 1
    print(f"{len(words)} most frequent words, first {args.top} near rhymes each\n")
    print("| ranking | vowel_kept | unstressed_vowel_changed | stressed_vowel_changed |")
    print("| --- | ---: | ---: | ---: |")
    for label, name in (("before", "frequency alone"), ("after", "sound class, then frequency")):
        total = listed[label] or 1
        cells = [f"{100 * shares[label][c] / total:.1f} %" for c in (1, 2, 3)]
        print(f"| {name} | {' | '.join(cells)} |")
    print(f"\nwords whose first {args.top} changed: {changed} of {len(words)}\n")
    for text, before_words, after_words in examples:
        print(f"- {text}: before {', '.join(before_words)}; now {', '.join(after_words)}")
    assert SOUND_CLASSES[1] == "vowel_kept"


if __name__ == "__main__":
    main()
