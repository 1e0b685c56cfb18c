"""wordplay kind='pattern' and kind='sounds_like' latency, beside the plain ways, in one run.

    uv run python bench/wordplay_patterns.py [--data-dir DIR | --db FILE] [--queries N]
        [--out FILE]

The corpus: a copy of the active selection's (or --data-dir's) `en/wordplay.sqlite`, or of
--db, in a temporary directory (a concurrent build may replace the original mid-run). When
the copy was written before the pattern buckets and sound keys existed, they are added to
the copy by the builder's own `fill_play_keys` (its time is reported: it is what the build
adds), and the pattern answers are also measured without them (buckets made in memory).

Measured, on the same words, warm (each input answered once before timing; the first
pattern answer of a process reads its buckets and is reported on its own):
  * `wordplay(kind='pattern')` (the function under the MCP tool) on patterns made
    from frequent words: one to three letters turned into `?`, a fixed prefix or suffix
    with `*`, and `*x*y*` patterns;
  * a plain SQLite scan (`letters GLOB ?` over `words`, ranked by id), the obvious
    alternative on the same table;
  * `wordplay(kind='sounds_like')` on known words and on respellings CMUdict lacks
    (letter-to-sound rules), against a brute-force phoneme edit distance over every
    pronunciation (a sample of the inputs: it takes about a second each).
Prints a Markdown report and writes it to --out.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import shutil
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _report import write_keeping_notes
from wordplay_latency import corpus_over, fmt, measure, pct

ROOT = Path(__file__).resolve().parents[1]
# Spellings CMUdict does not list, with the word meant: the letter-to-sound path.
RESPELLINGS = {
    "fone": "phone",
    "nite": "night",
    "kwik": "quick",
    "thru": "through",
    "foto": "photo",
    "skool": "school",
    "laff": "laugh",
    "enuf": "enough",
    "luv": "love",
    "becuz": "because",
    "wen": "when",
    "rite": "right",
    "sity": "city",
    "tuff": "tough",
    "kool": "cool",
    "fysics": "physics",
    "nolij": "knowledge",
    "sed": "said",
    "kee": "key",
    "bote": "boat",
}


def source_db(args: argparse.Namespace) -> Path:
    if args.db is not None:
        return Path(args.db)
    from lexicon_store.selection import load_active

    return load_active(args.data_dir).files["en/wordplay.sqlite"]


SHAPES = ("letters and ?", "prefix*", "*suffix", "*x*y*")


def patterns_from(words: Sequence[str], rng: random.Random) -> dict[str, list[str]]:
    made: dict[str, list[str]] = {shape: [] for shape in SHAPES}
    for word in words:
        letters = list(word)
        for index in rng.sample(range(len(word)), min(len(word) - 1, rng.randint(1, 3))):
            letters[index] = "?"
        made["letters and ?"].append("".join(letters))
        made["prefix*"].append(word[: rng.randint(1, 3)] + "*")
        made["*suffix"].append("*" + word[-rng.randint(2, 4) :])
        made["*x*y*"].append("*" + word[1] + "*" + word[-2] + "*")
    return made


def glob_scan(db: Path) -> Callable[[str], list[str]]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)

    def scan(pattern: str) -> list[str]:
        rows = conn.execute(
            "SELECT text FROM words WHERE is_single = 1 AND letters GLOB ? ORDER BY id LIMIT 21",
            (pattern,),
        )
        return [row[0] for row in rows]

    return scan


def brute_sounds(db: Path) -> tuple[Callable[[list[str]], list[str]], int]:
    from lexicon_server.corpus import play_keys

    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    prons = [
        (play_keys.sound_code(phones), word_id, text)
        for word_id, text, phones in conn.execute(
            "SELECT w.id, w.text, p.phones FROM prons p JOIN words w ON w.id = p.word_id"
        )
    ]

    def scan(phones: list[str]) -> list[str]:
        codes = [play_keys.sound_code(p) for p in phones]
        ranked = sorted(
            (min(play_keys.phoneme_distance(c, code) for c in codes), word_id, text)
            for code, word_id, text in prons
        )
        return [text for _, _, text in ranked[:20]]

    return scan, len(prons)


def row(label: str, how: str, samples: tuple[list[float], list[float]]) -> str:
    wall, cpu = samples
    return (
        f"| {label} | {how} | {fmt(pct(cpu, 0.5))} | {fmt(pct(cpu, 0.99))} | "
        f"{fmt(pct(wall, 0.5))} | {fmt(pct(wall, 0.99))} |"
    )


def add_keys(db: Path) -> float | None:
    """Add the keys to the copy if it lacks them; their build time, else None."""
    from lexicon_server.builder.play_keys_writer import fill_play_keys
    from lexicon_server.corpus import play_keys

    conn = sqlite3.connect(db, isolation_level=None)
    meta = conn.execute("SELECT value FROM meta WHERE key = ?", (play_keys.META_KEY,))
    if meta.fetchone() is not None:
        conn.close()
        return None
    start = time.perf_counter()
    conn.execute("BEGIN")
    fill_play_keys(conn)
    conn.execute("COMMIT")
    conn.close()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--queries", type=int, default=100, help="frequent words sampled")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "benchmarks" / "patterns.md")
    args = parser.parse_args()

    from lexicon_server.query.wordplay import wordplay

    load = os.getloadavg()[0]
    original = source_db(args)
    work = Path(tempfile.mkdtemp(prefix="lexicon-patterns-"))
    plain_db = work / "plain" / "wordplay.sqlite"
    keyed_db = work / "keyed" / "wordplay.sqlite"
    for target in (plain_db, keyed_db):
        target.parent.mkdir()
        shutil.copy(original, target)
        target.chmod(0o644)
    key_time = add_keys(keyed_db)
    keyed = corpus_over(keyed_db)
    plain = corpus_over(plain_db) if key_time is not None else None

    conn = sqlite3.connect(f"file:{keyed_db}?mode=ro", uri=True)
    frequent = [
        text
        for (text,) in conn.execute(
            "SELECT text FROM words WHERE is_single = 1 AND length(text) BETWEEN 4 AND 9 "
            "AND text = lower(text) ORDER BY id LIMIT 5000"
        )
    ]
    sizes = conn.execute(
        "SELECT (SELECT sum(pgsize) FROM dbstat WHERE name IN ('pattern_buckets')), "
        "(SELECT sum(pgsize) FROM dbstat WHERE name LIKE 'sound_keys%')"
    ).fetchone()
    conn.close()
    rng = random.Random(20261203)
    words = rng.sample(frequent, args.queries)
    shapes = patterns_from(words, rng)
    patterns = ["c?t", "??ght", "un*able", *(p for shape in SHAPES for p in shapes[shape])]
    known = rng.sample(frequent, args.queries)
    respelled = list(RESPELLINGS)

    first_start = time.perf_counter()
    wordplay(keyed, "c?t", "pattern")
    first = time.perf_counter() - first_start
    for text in patterns:
        wordplay(keyed, text, "pattern")
    for text in known + respelled:
        wordplay(keyed, text, "sounds_like")
    scan = glob_scan(keyed_db)
    for text in patterns:
        scan(text)

    lines = _report_head(original, load, key_time, sizes, first, len(patterns))
    lines.append(
        row(
            "pattern (ours, limit 20)",
            "`wordplay`",
            measure(lambda t: wordplay(keyed, t, "pattern"), patterns),
        )
    )
    for shape in SHAPES:
        lines.append(
            row(
                f"pattern: {shape} only",
                "`wordplay`",
                measure(lambda t: wordplay(keyed, t, "pattern"), shapes[shape]),
            )
        )
    lines.append(
        row("pattern, plain scan", "`letters GLOB ?` over `words`", measure(scan, patterns))
    )
    if plain is not None:
        plain_first = time.perf_counter()
        wordplay(plain, "c?t", "pattern")
        lines.append(
            row(
                f"pattern, no stored buckets (made in memory first: "
                f"{fmt(time.perf_counter() - plain_first)})",
                "`wordplay`",
                measure(lambda t: wordplay(plain, t, "pattern"), patterns),
            )
        )
    lines.append(
        row(
            "sounds_like, known words",
            "`wordplay`",
            measure(lambda t: wordplay(keyed, t, "sounds_like"), known),
        )
    )
    lines.append(
        row(
            "sounds_like, respellings (letter-to-sound)",
            "`wordplay`",
            measure(lambda t: wordplay(keyed, t, "sounds_like"), respelled),
        )
    )
    lines += _quality_and_brute(keyed, keyed_db, respelled)
    text = "\n".join(lines) + "\n"
    print(text)
    write_keeping_notes(args.out, text, "## Notes")
    keyed.close()
    if plain is not None:
        plain.close()
    shutil.rmtree(work, ignore_errors=True)


def _report_head(
    original: Path,
    load: float,
    key_time: float | None,
    sizes: tuple[int | None, int | None],
    first: float,
    count: int,
) -> list[str]:
    added = "stored in it" if key_time is None else f"added to the copy in {key_time:.1f} s"
    return [
        "# Benchmark: wordplay patterns and sounds-like",
        "",
        f"Generated by `bench/wordplay_patterns.py` on a copy of `{original.name}` "
        f"(keys {added}; pattern buckets {(sizes[0] or 0) / 2**20:.1f} MiB, sound keys "
        f"{(sizes[1] or 0) / 2**20:.1f} MiB), {platform.python_implementation()} "
        f"{platform.python_version()}, {os.cpu_count()} CPUs, load average {load:.1f}; "
        f"{count} patterns, 3 rounds. First pattern answer of the process (reads a bucket): "
        f"{fmt(first)}.",
        "",
        "| what | how | on-CPU p50 | on-CPU p99 | wall p50 | wall p99 |",
        "| --- | --- | --- | --- | --- | --- |",
    ]


def _quality_and_brute(keyed: object, db: Path, respelled: list[str]) -> list[str]:
    from lexicon_server.query.wordplay import wordplay

    brute, total = brute_sounds(db)
    sample = respelled[:5]
    timed: list[float] = []
    for text in sample:
        phones = wordplay(keyed, text, "sounds_like").query_phones  # type: ignore[arg-type]
        start = time.perf_counter()
        brute(phones)
        timed.append(time.perf_counter() - start)
    lines = [
        f"| sounds_like, brute force ({len(sample)} respellings) | phoneme edit distance to "
        f"all {total} pronunciations | - | - | "
        f"{fmt(pct(timed, 0.5))} | {fmt(max(timed))} |",
        "",
        "Respellings, the word meant and its place among the first ten (`*`: CMUdict lists "
        "the spelling itself, so its own pronunciation was used, not the rules):",
        "",
    ]
    found = []
    for text, meant in RESPELLINGS.items():
        answer = wordplay(keyed, text, "sounds_like").model_dump(mode="json")  # type: ignore[arg-type]
        words = [s["word"] for s in answer["results"]]
        place = words[:10].index(meant) + 1 if meant in words[:10] else "-"
        star = "*" if answer["phones_from"] == "cmudict" else ""
        found.append(f"`{text}`{star} -> {meant} {place}")
    lines.append(", ".join(found) + ".")
    lines += ["", "The issue's examples (first eight answers, default vocabulary):", ""]
    for text, kind in (("c?t", "pattern"), ("??ght", "pattern"), ("fone", "sounds_like")):
        answer = wordplay(keyed, text, kind).model_dump(mode="json")  # type: ignore[arg-type]
        words = [m["word"] for m in answer["results"]]
        lines.append(f"- `{text}` ({kind}): {', '.join(words[:8])}")
    answer = wordplay(keyed, "nite", "sounds_like").model_dump(mode="json")  # type: ignore[arg-type]
    lines.append(f"- `nite` (sounds_like): {', '.join(s['word'] for s in answer['results'][:8])}")
    return lines


if __name__ == "__main__":
    main()
