"""How often dictionary_translate's first candidates are translations a person would expect.

    uv run python bench/translation_quality.py [--data-dir DIR | --built DIR]
        [--split dev|heldout|all] [--show N]

For each language with a dev set in bench/devsets/translations/ (LANG.tsv: English word,
part of speech, acceptable translations separated by |, split), asks the translation
query on the active corpus (or --data-dir) for each English word and counts a hit when a
candidate's text, compared after Unicode NFC, stripping and lower-casing, equals any
acceptable translation. Candidates are read in the order the tool returns them (its
groups in order, each group's candidates in order). Prints a Markdown table of top-1 and
top-5 accuracy and coverage (words with any candidate) per language and split; `--show N`
prints N misses (words whose first candidate is not acceptable) per language, spread over
the word list, with the acceptable translations and the first five candidates, for reading.

The dev sets were written by hand, independently of the dictionaries ranked (see the
README beside them): a miss can be the data's fault or the dev set's, so read them.
"""

from __future__ import annotations

import argparse
import sys
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lexicon_server.corpus.reader import Corpus

DEVSETS = Path(__file__).resolve().parent / "devsets" / "translations"
SPLITS = ("dev", "heldout")


@dataclass(frozen=True)
class Row:
    word: str
    pos: str
    acceptable: tuple[str, ...]
    split: str


@dataclass
class Tally:
    words: int = 0
    top1: int = 0
    top5: int = 0
    covered: int = 0
    misses: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.words += other.words
        self.top1 += other.top1
        self.top5 += other.top5
        self.covered += other.covered

    def cells(self) -> str:
        def pct(n: int) -> str:
            return f"{100 * n / self.words:.1f}%" if self.words else "-"

        return f"{self.words} | {pct(self.top1)} | {pct(self.top5)} | {pct(self.covered)}"


def norm(text: str) -> str:
    return unicodedata.normalize("NFC", text).strip().lower()


def read_devset(path: Path) -> list[Row]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        word, pos, acceptable, split = line.split("\t")
        assert split in SPLITS, f"{path.name}: {word}: split {split!r}"
        rows.append(Row(word, pos, tuple(acceptable.split("|")), split))
    return rows


def candidates(corpus: Corpus, word: str, lang: str) -> list[str]:
    """The candidates' texts in the order dictionary_translate returns them."""
    from lexicon_server.query.translate import translate

    result = translate(corpus, word, lang)
    return [c.text for group in result.groups for c in group.candidates]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--built", type=Path, default=None, help="a built dataset directory")
    parser.add_argument("--split", choices=(*SPLITS, "all"), default="dev")
    parser.add_argument(
        "--show", type=int, default=0, help="print N misses per language, spread over the list"
    )
    opts = parser.parse_args()

    from lexicon_server.corpus.reader import Corpus
    from lexicon_store.selection import load_active

    if opts.built is not None:  # served as if installed (tests/_support/built.py)
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        from tests._support.built import corpus_over

        corpus = corpus_over(opts.built)
    else:
        corpus = Corpus(load_active(opts.data_dir))
    splits = SPLITS if opts.split == "all" else (opts.split,)
    installed = set(corpus.selection.installed)
    print(f"dataset {corpus.dataset_version}; split {opts.split}\n")
    print("| language | split | words | top-1 | top-5 | coverage |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    misses: dict[str, list[str]] = {}
    for path in sorted(DEVSETS.glob("*.tsv")):
        lang = path.stem
        if lang not in installed:
            print(f"| {lang} | not installed | | | | |")
            continue
        tallies = {split: Tally() for split in splits}
        for row in read_devset(path):
            if row.split not in tallies:
                continue
            tally = tallies[row.split]
            texts = [norm(t) for t in candidates(corpus, row.word, lang)]
            wanted = {norm(t) for t in row.acceptable}
            ranks = [i for i, t in enumerate(texts) if t in wanted]
            tally.words += 1
            tally.covered += bool(texts)
            tally.top1 += bool(ranks) and ranks[0] == 0
            tally.top5 += bool(ranks) and ranks[0] < 5
            if not ranks or ranks[0] > 0:
                rank = f"first hit at {ranks[0] + 1}" if ranks else "no hit"
                tally.misses.append(
                    f"{row.word} ({row.pos}): want {'|'.join(row.acceptable)}; "
                    f"got {' | '.join(texts[:5]) or '-'} ({rank} of {len(texts)})"
                )
        for split, tally in tallies.items():
            print(f"| {lang} | {split} | {tally.cells()} |")
        if len(tallies) > 1:
            total = Tally()
            for t in tallies.values():
                total.add(t)
            print(f"| {lang} | all | {total.cells()} |")
        misses[lang] = [m for t in tallies.values() for m in t.misses]
    for lang, lines in misses.items():
        if opts.show and lines:
            print(f"\n{lang}: {len(lines)} words whose first candidate is not acceptable")
            step = max(1, len(lines) // opts.show)  # spread over the list, not its top
            for line in lines[::step][: opts.show]:
                print(f"- {line}")


if __name__ == "__main__":
    main()
