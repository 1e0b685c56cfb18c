"""Server latency, cold start and memory, beside the tools people use today, in one run.

    uv run python bench/server_latency.py [--data-dir DIR] [--wordnet-dir DIR] [--out FILE]

Measures on the active corpus (or --data-dir):
  * in-process p50/p99 of each query function (the code under each tool), interleaved
    word by word, then look-ups and rhymes each alone on fresh connections (as NLTK's
    worker runs its look-ups);
  * NLTK's WordNet reader on the same WordNet database files (first look-up in a fresh
    process, then warm look-ups doing comparable work: synsets, glosses, examples, lemmas);
  * semantic neighbours against exact numpy search over the same float16 vectors
    (latency, and recall@10 of our answers: stored exact neighbours where the release has
    them, else HNSW, both re-ranked exactly);
  * every tool through a stdio client, next to a minimal MCP server with one trivial
    tool (the protocol's floor); cold start (spawn to first answer, with the bytecode
    cached as on a user's second start, and without where the machine keeps none) and
    resident memory.
Prints a Markdown report and writes it to --out (docs/benchmarks/server.md by default),
keeping that file's written notes from its "## Where the aims stand" heading on.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import anyio
import numpy as np
import psutil  # type: ignore[import-untyped]
from _report import write_keeping_notes

ROOT = Path(__file__).resolve().parent.parent


def machine_speed() -> float:
    """Milliseconds a fixed pure-Python workload takes (median of 7): the shared machine's
    speed varies by up to 1.7x within a minute, which load average does not show, so each
    report says how fast the machine was while it ran."""
    times = []
    for _ in range(7):
        start = time.perf_counter()
        counts: dict[int, int] = {}
        for i in range(200_000):
            counts[i % 1000] = counts.get(i % 1000, 0) + i
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def pct(samples: Sequence[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def us(seconds: float) -> str:
    return f"{seconds * 1e6:,.0f} µs" if seconds < 0.01 else f"{seconds * 1e3:,.1f} ms"


def timed(fn: Callable[[], object], repeat: int = 1) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


# --- the corpus ---------------------------------------------------------------------------


def open_corpus(data_dir: Path | None) -> Any:
    from lexicon_server.corpus.reader import Corpus
    from lexicon_store.selection import load_active

    return Corpus(load_active(data_dir))


def sample_words(corpus: Any, count: int) -> list[str]:
    """The most frequent single-word English headwords (fallback: first by id)."""
    conn = corpus.db("en", "lexical")
    rows = conn.execute(
        "SELECT t.text FROM terms t WHERE t.text GLOB '[a-z]*' AND t.text NOT GLOB '*[^a-z]*' "
        "AND EXISTS (SELECT 1 FROM entries e WHERE e.term_id = t.id) "
        "ORDER BY t.zipf DESC, t.id LIMIT ?",
        (count,),
    ).fetchall()
    return [r[0] for r in rows]


# NLTK's reader in a worker process of its own, timing one look-up per word it is sent.
# Its own process, so that neither library's garbage collector runs on the other's clock
# (NLTK keeps millions of objects; in one shared process full collections of them landed
# in our calls and set both p99s).
_NLTK_WORKER = r"""
import json, sys, time, warnings
import nltk
from nltk.corpus.reader.wordnet import WordNetCorpusReader
nltk.data.path.extend(sys.argv[2:])  # NLTK's own way to authorise a data directory
class Reader(WordNetCorpusReader):
    # Without OMW there is nothing to map to WordNet 3.0 (that mapping would need NLTK's
    # own 3.0 download); the English look-ups do not use it.
    def map_wn(self, version="wordnet"):
        return None
with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)  # "multilingual functions not available"
    wn = Reader(sys.argv[1], None)
def work(w):
    return [(s.definition(), s.examples(), s.lemma_names(), s.hypernyms()) for s in wn.synsets(w)]
print("ready", flush=True)
for line in sys.stdin:
    word = line.rstrip("\n")
    c0 = time.thread_time()
    t0 = time.perf_counter()
    work(word)
    wall, cpu = time.perf_counter() - t0, time.thread_time() - c0
    print(json.dumps([wall, cpu]), flush=True)
"""


class NltkWorker:
    """NLTK's WordNet reader in a separate process: `time(word)` -> (wall, on-CPU) s."""

    def __init__(self, nltk_root: Path, roots: Sequence[Path]) -> None:
        self._proc = subprocess.Popen(
            [sys.executable, "-c", _NLTK_WORKER, str(nltk_root), *map(str, roots)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._in, self._out = self._proc.stdin, self._proc.stdout
        if self._out.readline().strip() != "ready":
            raise RuntimeError("the NLTK worker did not start")

    def time(self, word: str) -> tuple[float, float]:
        import json

        self._in.write(word + "\n")
        self._in.flush()
        wall, cpu = json.loads(self._out.readline())
        return float(wall), float(cpu)

    def close(self) -> None:
        self._in.close()
        self._proc.wait()


def inprocess(
    corpus: Any,
    words: list[str],
    warm: list[str],
    nltk: NltkWorker | None,
    cold_corpus: Any = None,
) -> dict[str, tuple[list[float], list[float]]]:
    """(wall, on-CPU) seconds per call, every call interleaved word by word so a change
    of load on the shared machine hits all of them alike (NLTK taking its turn in its
    own process)."""
    from lexicon_server.corpus.rows.facts import clear_caches
    from lexicon_server.query.lookup import lookup
    from lexicon_server.query.relations import relations
    from lexicon_server.query.rhymes import rhymes
    from lexicon_server.query.semantic import VectorStore, semantic_neighbors
    from lexicon_server.query.synonyms import synonyms
    from lexicon_server.query.translate import translate

    store = VectorStore(corpus)
    # The cold row forgets what its own connections keep, so the other rows' kept facts
    # and memos stay as they would in a serving process.
    cold = corpus if cold_corpus is None else cold_corpus

    def lookup_cold(w: str) -> object:
        clear_caches(cold)
        return lookup(cold, w)

    # The query functions, as the tools call them: each returns its typed result.
    calls: dict[str, Callable[[str], object]] = {
        "dictionary_lookup (lookup, under the tool)": lambda w: lookup(corpus, w),
        "dictionary_lookup, same word again (pages cached, kept facts and memos emptied)": (
            lookup_cold
        ),
        "dictionary_synonyms": lambda w: synonyms(corpus, w),
        "dictionary_translate": lambda w: translate(corpus, w, "fr"),
        "dictionary_relations (hypernym, depth 1)": lambda w: relations(corpus, w, "hypernym"),
        "dictionary_relations (hypernym, depth 2)": lambda w: relations(
            corpus, w, "hypernym", max_depth=2
        ),
    }
    if corpus.selection.availability("en", "semantic") is None:
        calls["dictionary_semantic_neighbors"] = lambda w: semantic_neighbors(store, w)
    if corpus.selection.availability("en", "wordplay") is None:
        calls["rhymes (perfect)"] = lambda w: rhymes(corpus, w)
        calls["rhymes (near)"] = lambda w: rhymes(corpus, w, mode="near")
    for fn in calls.values():
        for w in warm:  # other words: warms page and statement caches, not these answers
            fn(w)
    first = "NLTK WordNetCorpusReader, first look-up of the word (own process)"
    again = "NLTK WordNetCorpusReader, repeated look-up (its cache)"
    out: dict[str, tuple[list[float], list[float]]] = {n: ([], []) for n in calls}
    if nltk is not None:
        out[first] = ([], [])
        out[again] = ([], [])
    for w in words:
        for name, fn in calls.items():
            c0 = time.thread_time()
            t0 = time.perf_counter()
            fn(w)
            out[name][0].append(time.perf_counter() - t0)
            out[name][1].append(time.thread_time() - c0)
        if nltk is not None:
            wall, cpu = nltk.time(w)
            out[first][0].append(wall)
            out[first][1].append(cpu)
    if nltk is not None:
        for w in words:
            wall, cpu = nltk.time(w)
            out[again][0].append(wall)
            out[again][1].append(cpu)
    return out


def one_tool_at_a_time(
    data_dir: Path | None, words: list[str], warm: list[str]
) -> dict[str, tuple[list[float], list[float]]]:
    """Each tool alone, the way NLTK's worker runs its look-ups: a fresh corpus (new
    connections, so nothing cached from the interleaved loop), one call on another word to
    open the databases, then the first call for each word with no other call between."""
    from lexicon_server.corpus.rows.facts import clear_caches
    from lexicon_server.query.lookup import lookup
    from lexicon_server.query.rhymes import rhymes

    calls: dict[str, Callable[[Any, str], object]] = {
        "dictionary_lookup, look-ups only (as NLTK's worker runs)": lookup,
        "rhymes (perfect), rhymes only": rhymes,
        "rhymes (near), rhymes only": lambda c, w: rhymes(c, w, mode="near"),
    }
    out: dict[str, tuple[list[float], list[float]]] = {}
    for name, fn in calls.items():
        corpus = open_corpus(data_dir)
        if name.startswith("rhymes") and corpus.selection.availability("en", "wordplay"):
            corpus.close()
            continue
        clear_caches(corpus)
        fn(corpus, warm[0])
        wall: list[float] = []
        cpu: list[float] = []
        for w in words:
            c0 = time.thread_time()
            t0 = time.perf_counter()
            fn(corpus, w)
            wall.append(time.perf_counter() - t0)
            cpu.append(time.thread_time() - c0)
        corpus.close()
        out[name] = (wall, cpu)
    return out


# --- NLTK on the same WordNet files ----------------------------------------------------------

_NLTK_SCRIPT = r"""
import sys, time, resource, json
t0 = time.perf_counter()
import nltk
from nltk.corpus.reader.wordnet import WordNetCorpusReader
nltk.data.path.extend(sys.argv[3:])  # NLTK's own way to authorise a data directory
class Reader(WordNetCorpusReader):
    # Without OMW there is nothing to map to WordNet 3.0, and the mapping would need
    # NLTK's own 3.0 download; skip it (the English look-ups do not use it).
    def map_wn(self, version="wordnet"):
        return None
wn = Reader(sys.argv[1], None)
def work(w):
    return [(s.definition(), s.examples(), s.lemma_names(), s.hypernyms()) for s in wn.synsets(w)]
work(sys.argv[2])
first = time.perf_counter() - t0
words = json.loads(sys.stdin.read())
first_each = []
for w in words:  # each word's first look-up (NLTK caches synsets it has read)
    t = time.perf_counter(); work(w); first_each.append(time.perf_counter() - t)
samples = []
for w in words:
    t = time.perf_counter(); work(w); samples.append(time.perf_counter() - t)
print(json.dumps({"first": first, "samples": samples, "first_each": first_each,
                  "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}))
"""


def nltk_wordnet(
    wordnet_dir: Path, words: list[str], roots: Sequence[Path] = ()
) -> dict[str, Any] | None:
    import json

    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", _NLTK_SCRIPT, str(wordnet_dir), words[0], *map(str, roots)],
        input=json.dumps(words),
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        print(f"NLTK run failed: {proc.stderr[-500:]}", file=sys.stderr)
        return None
    data: dict[str, Any] = json.loads(proc.stdout)
    data["wall"] = wall
    return data


def find_wordnet_dir() -> Path | None:
    """The WordNet database files the builder fetched (its cache), if present."""
    from lexicon_server.builder.config import load_build_config

    cache = load_build_config().cache_dir
    for candidate in sorted(cache.rglob("index.sense")):
        if (candidate.parent / "data.noun").exists():
            return candidate.parent
    return None


_POS_NUMBER = {"adj": 3, "adv": 4, "noun": 1, "verb": 2}


def nltk_dir(wordnet_dir: Path, work: Path, exc_dir: Path | None = None) -> Path:
    """A copy of the same data.*/index.* files, plus what NLTK's reader insists on: a `lexnames`
    file (written from the WNDB table) and the four `*.exc` files (taken from beside the
    database when present, else empty, which only disables NLTK's irregular forms)."""
    from lexicon_server.builder.parsers.wndb import LEXNAMES

    out = work / "nltk-wordnet"
    out.mkdir(parents=True, exist_ok=True)
    paths = list(wordnet_dir.iterdir()) + (list(exc_dir.glob("*.exc")) if exc_dir else [])
    for path in paths:
        if path.name.startswith(("data.", "index.")) or path.name.endswith(".exc"):
            target = out / path.name
            if not target.exists():
                # a copy: NLTK refuses symlinks that leave its root
                shutil.copyfile(path, target)
    lex = out / "lexnames"
    if not lex.exists():
        lex.write_text(
            "".join(
                f"{i:02d}\t{name}\t{_POS_NUMBER[name.split('.')[0]]}\n"
                for i, name in enumerate(LEXNAMES)
            )
        )
    for pos in _POS_NUMBER:
        (out / f"{pos}.exc").touch(exist_ok=True)
    return out


# --- semantic vs exact numpy --------------------------------------------------------------


def semantic_vs_exact(corpus: Any, queries: int = 200) -> dict[str, Any] | None:
    """The tool's own neighbours (`semantic_neighbors`, whichever way it finds them: the
    release's stored exact neighbours for frequent words, else the HNSW index) against
    exact cosine search over the same float16 vectors, on the most frequent words and on
    words drawn at random from the whole vocabulary (mostly rare ones)."""
    import random

    from lexicon_server.query.semantic import VectorStore, semantic_neighbors

    if corpus.selection.availability("en", "semantic") is not None:
        return None
    store = VectorStore(corpus)
    vectors = store.get("en")
    matrix = np.asarray(vectors.matrix, dtype=np.float32)
    norms = np.maximum(np.linalg.norm(matrix, axis=1), 1e-12)
    conn = vectors.conn
    every = conn.execute(
        "SELECT id, text FROM vocab WHERE text GLOB '[a-z]*' ORDER BY zipf DESC, id"
    ).fetchall()
    samples = {
        "most frequent": every[:queries],
        "random": random.Random(7).sample(every, min(queries, len(every))),
    }
    ours: dict[str, list[float]] = {}
    exact: list[float] = []
    recall: dict[str, float] = {}
    for band, rows in samples.items():
        hits = total = 0
        ours[band] = []
        for row_id, text in rows:
            start = time.perf_counter()
            scores = (matrix @ matrix[row_id]) / norms
            scores[row_id] = -np.inf
            top = np.argpartition(-scores, 10)[:10]
            exact.append(time.perf_counter() - start)
            truth = {t for t, _ in vectors.texts([int(r) for r in top]).values()}
            start = time.perf_counter()
            answer = semantic_neighbors(store, text, limit=10)
            ours[band].append(time.perf_counter() - start)
            got = {n.text for n in answer.neighbors}
            hits += len(truth & got)
            total += len(truth)
        recall[band] = hits / max(total, 1)
    return {
        "ours": ours,
        "exact": exact,
        "recall": recall,
        "stored": vectors.stored > 0,
        "rows": len(matrix),
        "dims": matrix.shape[1],
    }


# --- through stdio -------------------------------------------------------------------------


Call = tuple[str, Callable[[str], dict[str, Any]]]  # tool name, arguments for a word


def stdio_compare(
    server_cmd: list[str],
    trivial_cmd: list[str],
    calls: list[Call],
    words: list[str],
    repeat: int,
) -> dict[Any, Any]:
    """Round trips through the SDK client to both servers, interleaved call by call so a
    busy machine slows both alike; round i asks about words[i % len(words)], so each
    figure spans ordinary words rather than one. Each call is timed twice: as the client
    normally runs (checking the structured result against the tool's outputSchema with
    the pure-Python jsonschema package, a client-side cost that grows with the result),
    and with that check switched off (transport + server)."""
    from mcp import Client, StdioServerParameters
    from mcp.client.session import ClientSession

    original = ClientSession.validate_tool_result

    async def skip(self: ClientSession, name: str, result: Any) -> None:
        return None

    def params(cmd: list[str]) -> StdioServerParameters:
        return StdioServerParameters(command=cmd[0], args=cmd[1:], env=dict(os.environ))

    async def main() -> dict[Any, Any]:
        out: dict[Any, Any] = {}
        async with Client(params(server_cmd)) as ours, Client(params(trivial_cmd)) as floor:
            for word in words[-20:]:  # warm-up on other words than the first measured
                for name, args in calls:
                    await ours.call_tool(name, args(word))
                await floor.call_tool("echo", {"text": word})
            for check in (True, False):
                ClientSession.validate_tool_result = original if check else skip  # type: ignore[method-assign]
                per_tool: list[list[float]] = [[] for _ in calls]
                base: list[float] = []
                for round_ in range(repeat):
                    word = words[round_ % len(words)]
                    for i, (name, args) in enumerate(calls):
                        t = time.perf_counter()
                        result = await ours.call_tool(name, args(word))
                        per_tool[i].append(time.perf_counter() - t)
                        assert not result.is_error, (name, word, result.content)
                    t = time.perf_counter()
                    await floor.call_tool("echo", {"text": word})
                    base.append(time.perf_counter() - t)
                out[check] = (per_tool, base)
        return out

    try:
        return anyio.run(main)
    finally:
        ClientSession.validate_tool_result = original  # type: ignore[method-assign]


def same_calls_inprocess(corpus: Any, calls: list[Call], words: list[str]) -> list[list[float]]:
    """Wall time of the query function under each tool for the same calls the stdio
    rounds make (one warm-up pass first, as the stdio rounds have): what the server
    spends answering, so the rest of a round trip is protocol and transport."""
    from lexicon_server.query.lookup import lookup
    from lexicon_server.query.relations import relations
    from lexicon_server.query.rhymes import rhymes
    from lexicon_server.query.semantic import VectorStore, semantic_neighbors
    from lexicon_server.query.synonyms import synonyms
    from lexicon_server.query.translate import translate
    from lexicon_server.query.wordplay import wordplay

    store = VectorStore(corpus)
    local: dict[str, Callable[[dict[str, Any]], object]] = {
        "dictionary_lookup": lambda a: lookup(corpus, **a),
        "dictionary_synonyms": lambda a: synonyms(corpus, **a),
        "dictionary_translate": lambda a: translate(corpus, **a),
        "dictionary_relations": lambda a: relations(corpus, **a),
        "dictionary_semantic_neighbors": lambda a: semantic_neighbors(store, **a),
        "rhymes": lambda a: rhymes(corpus, **a),
        "wordplay": lambda a: wordplay(corpus, **a),
    }
    out: list[list[float]] = [[] for _ in calls]
    for round_ in range(2):
        for word in words:
            for i, (name, args) in enumerate(calls):
                t = time.perf_counter()
                local[name](args(word))
                if round_:
                    out[i].append(time.perf_counter() - t)
    return out


def stdio_run(
    command: list[str],
    calls: list[tuple[str, dict[str, Any]]],
    env: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Spawn a server, time spawn-to-first-answer, note its resident memory."""
    from mcp import Client, StdioServerParameters

    env = dict(os.environ) if env is None else env
    params = StdioServerParameters(command=command[0], args=command[1:], env=env)

    async def main() -> dict[str, Any]:
        start = time.perf_counter()
        async with Client(params) as client:
            await client.call_tool(*calls[0])
            cold = time.perf_counter() - start
            for name, args in calls[1:]:
                await client.call_tool(name, args)
            children = psutil.Process().children(recursive=True)
            child = max(children, key=lambda c: c.memory_info().rss)
            rss = child.memory_info().rss
            split = _rss_split(child.pid)
        return {"cold_start": cold, "rss": rss, "split": split}

    return anyio.run(main)


def _rss_split(pid: int) -> dict[str, int]:
    """RssAnon / RssFile / RssShmem from /proc: file pages (shared libraries, memory-mapped
    data) are clean and reclaimable, anonymous ones are the process's own."""
    out: dict[str, int] = {}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("RssAnon", "RssFile", "RssShmem"):
                out[key] = int(value.split()[0]) * 1024
    except OSError:
        pass
    return out


COLD_STARTS = 9


def cold_starts(
    servers: list[tuple[list[str], tuple[str, dict[str, Any]]]],
    times: int,
    env: dict[str, str] | None = None,
) -> list[list[float]]:
    """Spawn-to-first-answer of each (command, call), the servers taking turns so a
    change of load on the shared machine hits them alike."""
    out: list[list[float]] = [[] for _ in servers]
    for _ in range(times):
        for i, (command, call) in enumerate(servers):
            out[i].append(stdio_run(command, [call], env)["cold_start"])
    return out


def bytecode_cached_env(cache: Path) -> dict[str, str]:
    """The environment of a user's second start: Python writes the bytecode it compiles
    (here into `cache`, so neither the checkout nor the environment is touched) and
    reads it back on later starts. Machines that set PYTHONDONTWRITEBYTECODE, as this one
    does, otherwise compile every module of the project (and any uncached SDK module)
    on every start."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(cache)
    return env


# --- report --------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--wordnet-dir", type=Path, default=None)
    parser.add_argument("--exc-dir", type=Path, default=None, help="WordNet *.exc files for NLTK")
    parser.add_argument("--words", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument(
        "--stdio-words", type=int, default=100, help="how many words the stdio rounds cycle"
    )
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "benchmarks" / "server.md")
    opts = parser.parse_args()

    corpus = open_corpus(opts.data_dir)
    words = sample_words(corpus, opts.words)
    lines: list[str] = []

    def emit(text: str = "") -> None:
        print(text, flush=True)
        lines.append(text)

    emit("# Server benchmarks")
    emit()
    emit(
        f"Dataset `{corpus.dataset_version}`; {os.cpu_count()} CPUs "
        f"({platform.processor() or platform.machine()}), "
        f"Python {platform.python_version()}, shared machine (load average "
        f"{os.getloadavg()[0]:.1f} at start). Reproduce with "
        "`uv run python bench/server_latency.py`."
    )
    emit()
    wordnet_dir = opts.wordnet_dir or find_wordnet_dir()
    nltk_root: Path | None = None
    roots: list[Path] = []
    if wordnet_dir is not None:
        work = Path(tempfile.mkdtemp(prefix="lexicon-bench-"))
        nltk_root = nltk_dir(wordnet_dir, work, opts.exc_dir)
        roots = [work, wordnet_dir.resolve()]
    nltk_worker = NltkWorker(nltk_root, roots) if nltk_root is not None else None
    emit(
        f"## In-process query functions ({len(words)} most frequent English headwords, "
        "interleaved word by word)"
    )
    emit()
    emit(
        "Each word's calls run back to back in this process, then NLTK's reader looks the "
        "same word up in a worker process of its own (so neither library's garbage "
        "collections land on the other's clock). Words are the most frequent first: many "
        "senses each, and every call is the first for its word. The rows marked *only* come "
        "after: one tool at a time on fresh connections, first calls for the same words "
        "with nothing else between them, as NLTK's worker runs its look-ups."
    )
    emit()
    warm = sample_words(corpus, len(words) + 100)[len(words) :]
    speed_before = machine_speed()
    cold_corpus = open_corpus(opts.data_dir)
    timings = inprocess(corpus, words, warm, nltk_worker, cold_corpus)
    cold_corpus.close()
    timings.update(one_tool_at_a_time(opts.data_dir, words, warm))
    speed_after = machine_speed()
    if nltk_worker is not None:
        nltk_worker.close()
    emit(
        f"Machine speed check (a fixed pure-Python workload; ~27 ms on this machine when "
        f"quiet, lower is faster): {speed_before:.1f} ms before these calls, "
        f"{speed_after:.1f} ms after."
    )
    emit()
    emit("| call | p50 wall | p99 wall | p50 on-CPU | p99 on-CPU |")
    emit("| --- | ---: | ---: | ---: | ---: |")
    for name, (wall, cpu) in timings.items():
        emit(
            f"| {name} | {us(pct(wall, 0.5))} | {us(pct(wall, 0.99))} "
            f"| {us(pct(cpu, 0.5))} | {us(pct(cpu, 0.99))} |"
        )
    if nltk_root is not None:
        nltk = nltk_wordnet(nltk_root, words[:20], roots)
        if nltk:
            emit()
            emit(
                f"NLTK on the same WordNet files (`{wordnet_dir}`), in a fresh process: "
                f"import + reader + first look-up {nltk['first']:.2f} s, process start to "
                f"exit {nltk['wall']:.2f} s, peak RSS {nltk['rss'] / 2**20:,.0f} MiB."
            )
    else:
        emit()
        emit("NLTK comparison skipped: no WordNet database files found (pass --wordnet-dir).")

    sem = semantic_vs_exact(corpus)
    if sem:
        emit()
        emit(
            f"## Semantic neighbours ({sem['rows']:,} vectors × {sem['dims']} dims, "
            "the 200 most frequent words and 200 drawn at random, k=10)"
        )
        emit()
        recall = sem["recall"]
        emit("| words | method | p50 | p99 | recall@10 |")
        emit("| --- | --- | ---: | ---: | ---: |")
        method = "stored exact neighbours" if sem["stored"] else "usearch HNSW (mmap)"
        for band in ("most frequent", "random"):
            times = sem["ours"][band]
            emit(
                f"| 200 {band} | lexicon `semantic_neighbors`: {method}, float16 re-rank "
                f"| {us(pct(times, 0.5))} | {us(pct(times, 0.99))} | {recall[band]:.3f} |"
            )
        every = sem["ours"]["most frequent"] + sem["ours"]["random"]
        emit(
            f"| all 400 | lexicon `semantic_neighbors` | {us(pct(every, 0.5))} "
            f"| {us(pct(every, 0.99))} | |"
        )
        emit(
            f"| all 400 | exact numpy search (float32 matrix in RAM) "
            f"| {us(pct(sem['exact'], 0.5))} | {us(pct(sem['exact'], 0.99))} | 1.000 |"
        )
        emit()
        emit(
            "Releases that store every word's exact neighbours answer searches in the word's "
            "own language (limit ≤ 16) from them; others search the HNSW index, with more "
            "effort for rare words (most of the random ones)."
        )

    calls: list[Call] = [
        ("dictionary_lookup", lambda w: {"word": w}),
        ("dictionary_synonyms", lambda w: {"word": w}),
        ("dictionary_translate", lambda w: {"word": w, "target_language": "fr"}),
        ("dictionary_relations", lambda w: {"word": w, "relation": "hypernym", "max_depth": 2}),
    ]
    if corpus.selection.availability("en", "semantic") is None:
        calls.append(("dictionary_semantic_neighbors", lambda w: {"word": w}))
    if corpus.selection.availability("en", "wordplay") is None:
        calls += [
            ("rhymes", lambda w: {"word": w}),
            ("rhymes", lambda w: {"word": w, "mode": "near"}),
            ("wordplay", lambda w: {"text": w, "kind": "anagram"}),
        ]
    stdio_words = words[: opts.stdio_words]
    server_cmd = [sys.executable, "-m", "lexicon_server.cli"]
    if opts.data_dir is not None:
        server_cmd += ["--data-dir", str(opts.data_dir)]
    trivial_cmd = [sys.executable, str(ROOT / "bench" / "server_trivial.py")]
    compared = stdio_compare(server_cmd, trivial_cmd, calls, stdio_words, opts.repeat)
    per_tool, base = compared[True]
    raw_tool, raw_base = compared[False]
    floor_p50 = pct(base, 0.5)
    raw_floor_p50 = pct(raw_base, 0.5)
    emit()
    emit(
        f"## Through a stdio client (SDK `Client`, {opts.repeat} calls each, interleaved "
        f"with the trivial server; round i asks about the i-th of the {len(stdio_words)} "
        "most frequent headwords)"
    )
    emit()
    emit(
        "The SDK client checks every structured result against the tool's `outputSchema` "
        "with the pure-Python `jsonschema` package; that cost grows with the result and is "
        "paid in the client. The columns after the first three switch that check off "
        "(transport + server). *Query* is the p50 wall time of the query function under "
        "the tool for the same calls, in this process; *protocol* is the round trip minus "
        "the trivial round trip minus the query: what the MCP path adds for this tool "
        "beyond the protocol's floor (mostly serialising and parsing a larger result)."
    )
    emit()
    emit(
        "| tool | p50 | p99 | − trivial | p50, no client check | − trivial, no check "
        "| query | protocol |"
    )
    emit("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    emit(
        f"| trivial server: echo | {us(floor_p50)} | {us(pct(base, 0.99))} "
        f"| - | {us(raw_floor_p50)} | - | - | - |"
    )
    local = same_calls_inprocess(corpus, calls, stdio_words)
    for i, (name, args) in enumerate(calls):
        extra = {k: v for k, v in args("WORD").items() if "WORD" not in str(v)}
        label = f"{name} {extra}" if extra else name
        over = pct(raw_tool[i], 0.5) - raw_floor_p50
        query = pct(local[i], 0.5)
        emit(
            f"| {label} | {us(pct(per_tool[i], 0.5))} | {us(pct(per_tool[i], 0.99))} "
            f"| {us(pct(per_tool[i], 0.5) - floor_p50)} | {us(pct(raw_tool[i], 0.5))} "
            f"| {us(over)} | {us(query)} | {us(over - query)} |"
        )
    first = [(name, args(stdio_words[0])) for name, args in calls]
    ours = stdio_run(server_cmd, first)
    floor = stdio_run(trivial_cmd, [("echo", {"text": "hello"})])
    servers = [(server_cmd, first[0]), (trivial_cmd, ("echo", {"text": "hello"}))]
    as_set = "PYTHONDONTWRITEBYTECODE" in os.environ
    uncached = cold_starts(servers, COLD_STARTS) if as_set else None
    with tempfile.TemporaryDirectory(prefix="lexicon-pycache-") as cache:
        env = bytecode_cached_env(Path(cache))
        cold_starts(servers, 1, env)  # the first start writes the bytecode
        ours_cold, floor_cold = cold_starts(servers, COLD_STARTS, env)
    emit()
    emit("## Cold start and memory")
    emit()
    emit(
        f"Spawn to first answer: median of {COLD_STARTS}, the two servers taking turns, "
        "with the bytecode Python cached on an earlier start (every start after a user's "
        "first)."
        + (
            " This machine sets PYTHONDONTWRITEBYTECODE, so its own starts compile the "
            "project's modules every time; that column is beside it."
            if uncached
            else ""
        )
    )
    emit()
    emit(
        "| server | spawn to first answer |"
        + (" without cached bytecode |" if uncached else "")
        + " resident after every tool ran | of which anonymous | of which file-backed |"
    )
    emit("| --- | ---: |" + (" ---: |" if uncached else "") + " ---: | ---: | ---: |")
    rows = (
        (f"lexicon-mcp (first call {first[0][0]})", ours_cold, ours, 0),
        ("trivial MCP server (echo)", floor_cold, floor, 1),
    )
    for label, cold, info, index in rows:
        split = info["split"]
        plain = f" {statistics.median(uncached[index]):.2f} s |" if uncached else ""
        emit(
            f"| {label} | {statistics.median(cold):.2f} s |{plain} "
            f"{info['rss'] / 2**20:,.0f} MiB "
            f"| {split.get('RssAnon', 0) / 2**20:,.0f} MiB "
            f"| {split.get('RssFile', 0) / 2**20:,.0f} MiB |"
        )
    write_keeping_notes(opts.out, "\n".join(lines) + "\n", "## Where the aims stand")


if __name__ == "__main__":
    main()
