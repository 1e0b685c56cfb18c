"""Tune and check the build-time translation ranking on the hand-made dev set, offline.

    uv run python bench/translation_rank_tune.py --dicts DIR --wordfreq DIR
        [--split dev|heldout] [--search] [--show N] [--languages de,it]

Reads the real FreeDict files (`DIR/freedict-eng-xx.index|.dict.dz` and the reverse
`freedict-xx-eng`) and the wordfreq `large_xx.msgpack.gz` lists, computes for every dev-set
word the same evidence the builder stages (lexicon_server/builder/translation_rank.py),
and prints top-1/top-5 for three orders: the source's order, the old rule (translations
that translate back first, then source order) and the evidence score. `--search` does a
coordinate search over the weights on the chosen split (use dev only) and prints the
best. The builder's own figures come from bench/translation_quality.py on a built corpus;
this script exists so that tuning does not need a rebuild per try.
"""

from __future__ import annotations

import argparse
import pickle
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from translation_quality import DEVSETS, read_devset
from translation_quality import norm as dev_norm

from lexicon_server.builder.parsers import dictd, wordfreq
from lexicon_server.builder.translation_rank import (
    WEIGHTS,
    Evidence,
    is_label,
    score,
    usable_reverse,
)
from lexicon_server.corpus.normalize import norm

ISO = {"de": "deu", "fr": "fra", "es": "spa", "it": "ita", "pt": "por", "fi": "fin",
       "pl": "pol", "nl": "nld", "sv": "swe"}  # fmt: skip

Candidate = tuple[str, Evidence]


def zipfs(freq_dir: Path, lang: str, targets: set[str]) -> dict[str, float]:
    """wordfreq Zipf of the `targets` (norms) in `lang`; the first spelling of a norm wins."""
    out: dict[str, float] = {}
    path = freq_dir / f"large_{lang}.msgpack.gz"
    if path.exists():
        for r in wordfreq.iter_frequencies(path):
            k = norm(r.word)
            if k in targets and k not in out:
                out[k] = r.zipf
    return out


def load(
    lang: str, dicts: Path, freq_dir: Path, words: set[str], invert: bool = True
) -> dict[str, list[Candidate]]:
    code = ISO[lang]
    fwd: dict[str, list[tuple[str, str | None]]] = {}
    base = dicts / f"freedict-eng-{code}"
    for e in dictd.iter_entries(f"{base}.index", f"{base}.dict.dz", ("en", lang)):
        key = norm(e.headword)
        if key in words:
            for text, note in zip(e.translations, e.sense_notes, strict=False):
                clean = " ".join(text.split())
                if clean:
                    fwd.setdefault(key, []).append((clean, note))
    targets = {norm(t) for rows in fwd.values() for t, _ in rows}
    forward_counts = {word: len(rows) for word, rows in fwd.items()}
    back: dict[str, dict[str, int]] = {}
    rev = dicts / f"freedict-{code}-eng"
    if rev.exists() or Path(f"{rev}.index").exists():
        for e in dictd.iter_entries(f"{rev}.index", f"{rev}.dict.dz", (lang, "en")):
            key = norm(e.headword)
            ranks = back.setdefault(key, {})
            for text in e.translations:  # ranks run on over a headword's entries, as built
                ranks.setdefault(norm(text), len(ranks))
                english = norm(text.removeprefix("to "))
                if invert and english in words and usable_reverse(e.headword):
                    # The reverse dictionary read the other way: a candidate of its own.
                    fwd.setdefault(english, []).append((" ".join(e.headword.split()), None))
                    targets.add(key)
    zipf = zipfs(freq_dir, lang, targets)
    out: dict[str, list[Candidate]] = {}
    for word, rows in fwd.items():
        seen: dict[str, int] = {}
        cands: list[Candidate] = []
        n_forward = forward_counts.get(word, 0)
        for i, (text, note) in enumerate(rows):
            key = norm(text)
            if key in seen:
                if i >= n_forward and not cands[seen[key]][1].sources > 1:
                    t, ev = cands[seen[key]]
                    cands[seen[key]] = (t, replace(ev, sources=2))
                continue
            seen[key] = len(cands)
            ev = Evidence(
                position=len(cands),
                back_rank=_back_rank(back.get(key, {}), word),
                sources=1,
                zipf=zipf.get(key, 0.0),
                label=is_label(note),
                note=note is not None,
                words=key.count(" ") + 1,
            )
            cands.append((text, ev))
        out[word] = cands
    return out


def _back_rank(ranks: dict[str, int], word: str) -> int | None:
    found = [r for form in (word, "to " + word) if (r := ranks.get(form)) is not None]
    return min(found) if found else None


def evaluate(
    data: dict[str, dict[str, list[Candidate]]],
    devsets: dict[str, list],
    split: str,
    order: str,
    weights: dict[str, float] = WEIGHTS,
) -> dict[str, tuple[float, float]]:
    result = {}
    for lang, rows in devsets.items():
        n = top1 = top5 = 0
        for row in rows:
            if row.split != split:
                continue
            n += 1
            cands = data[lang].get(norm(row.word), [])
            if order == "back":
                cands = sorted(cands, key=lambda c: (c[1].back_rank is None, c[1].position))
            elif order == "score":
                cands = sorted(cands, key=lambda c: (-score(c[1], weights), c[1].position))
            texts = [dev_norm(t) for t, _ in cands]
            wanted = {dev_norm(t) for t in row.acceptable}
            ranks = [i for i, t in enumerate(texts) if t in wanted]
            top1 += bool(ranks) and ranks[0] == 0
            top5 += bool(ranks) and ranks[0] < 5
        result[lang] = (top1 / n, top5 / n)
    return result


def objective(res: dict[str, tuple[float, float]]) -> float:
    return sum(a + b for a, b in res.values())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dicts", type=Path, required=True)
    ap.add_argument("--wordfreq", type=Path, required=True)
    ap.add_argument("--split", default="dev", choices=("dev", "heldout"))
    ap.add_argument("--languages", default="de,fr,es,it,pt,fi,pl,nl")
    ap.add_argument("--search", action="store_true")
    ap.add_argument("--show", type=int, default=0)
    ap.add_argument("--cache", type=Path, default=None, help="pickle of the parsed evidence")
    opts = ap.parse_args()
    langs = opts.languages.split(",")
    devsets = {lang: read_devset(DEVSETS / f"{lang}.tsv") for lang in langs}
    if opts.cache and opts.cache.exists():
        data = pickle.loads(opts.cache.read_bytes())
    else:
        data = {}
        for lang in langs:
            words = {norm(r.word) for r in devsets[lang]}
            data[lang] = load(lang, opts.dicts, opts.wordfreq, words)
        if opts.cache:
            opts.cache.write_bytes(pickle.dumps(data))
    print(f"split {opts.split}\n\n| language | source order | back first | score |")
    print("| --- | --- | --- | --- |")
    table = {o: evaluate(data, devsets, opts.split, o) for o in ("source", "back", "score")}
    for lang in langs:
        cells = " | ".join(
            f"{100 * a:.1f} / {100 * b:.1f}" for a, b in (t[lang] for t in table.values())
        )
        print(f"| {lang} | {cells} |")
    if opts.search:
        best = dict(WEIGHTS)
        best_value = objective(evaluate(data, devsets, opts.split, "score", best))
        for _ in range(3):
            for key in best:
                for factor in (0.0, 0.25, 0.5, 0.75, 1.5, 2.0, 3.0):
                    trial = dict(best, **{key: best[key] * factor if best[key] else factor})
                    value = objective(evaluate(data, devsets, opts.split, "score", trial))
                    if value > best_value + 1e-9:
                        best, best_value = trial, value
        print(f"\nbest weights on {opts.split}: {best} (objective {best_value:.3f})")
        for lang, (a, b) in evaluate(data, devsets, opts.split, "score", best).items():
            print(f"  {lang}: {100 * a:.1f} / {100 * b:.1f}")
    if opts.show:
        for lang in langs:
            print(f"\n{lang}: first candidates that changed (source -> score)")
            shown = 0
            for row in devsets[lang]:
                if row.split != opts.split or shown >= opts.show:
                    continue
                cands = data[lang].get(norm(row.word), [])
                if not cands:
                    continue
                ranked = sorted(cands, key=lambda c: (-score(c[1]), c[1].position))
                if ranked[0][0] != cands[0][0]:
                    ok = (
                        "+"
                        if dev_norm(ranked[0][0]) in {dev_norm(t) for t in row.acceptable}
                        else "-"
                    )
                    print(
                        f"  {ok} {row.word}: {cands[0][0]} -> {ranked[0][0]}  "
                        f"[{' | '.join(t for t, _ in ranked[1:5])}]"
                    )
                    shown += 1


if __name__ == "__main__":
    main()
