"""The acceptance gates a data release must pass before it is published.

Each gate returns a ``Gate``: its name, whether it passed, the figures it measured and a
sentence saying what it found. They run against a data dir that the ``clean_install``
gate filled from the release alone; ``lexicon_server.release.accept`` runs them in order with
the network denied and writes the report.
"""

from __future__ import annotations

import hashlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lexicon_server.release.acceptance_profile import Anchor, GateProfile, check_answer
from lexicon_server.release.netguard import guarded_command

if TYPE_CHECKING:
    from pydantic import BaseModel

__all__ = [
    "Gate",
    "anchors_gate",
    "bench_gate",
    "clean_install_gate",
    "cycles_gate",
    "fingerprint",
    "python_version",
    "recall_gate",
]


@dataclass(frozen=True)
class Gate:
    name: str
    passed: bool
    detail: str
    figures: dict[str, Any] = field(default_factory=dict)


def clean_install_gate(release_dir: Path, digest: str, data_dir: Path) -> Gate:
    """Install every language from the release alone into an empty data dir, then verify."""
    from lexicon_store import integrity, ops
    from lexicon_store.errors import StoreError

    if data_dir.exists() and any(data_dir.iterdir()):
        return Gate("clean_install", False, f"{data_dir} is not empty")
    try:
        result = ops.install(
            data_dir=data_dir, source=str(release_dir), all_languages=True, manifest_digest=digest
        )
        report = integrity.verify(data_dir)
    except StoreError as exc:
        return Gate("clean_install", False, f"install --from failed: {exc.message}")
    figures = {
        "activation": result.activation_id,
        "objects": report.checked,
        "bytes": report.checked_bytes,
        "problems": [f"{p.kind}: {p.path}" for p in report.problems],
    }
    detail = (
        f"installed and verified {report.checked} objects ({report.checked_bytes} bytes)"
        if report.ok
        else f"verify found {len(report.problems)} problems"
    )
    return Gate("clean_install", report.ok, detail, figures)


def _run_anchor(corpus: Any, store: Any, anchor: Anchor) -> Any:
    from lexicon_server.query.lookup import lookup
    from lexicon_server.query.relations import relations
    from lexicon_server.query.rhymes import rhymes
    from lexicon_server.query.semantic import semantic_neighbors
    from lexicon_server.query.synonyms import synonyms
    from lexicon_server.query.translate import translate
    from lexicon_server.query.wordplay import wordplay

    args = dict(anchor.args)
    if anchor.query == "translate":
        if anchor.sense_gloss is not None:
            looked = lookup(corpus, args["word"], args.get("language", "en"), 50).model_dump(
                mode="json"
            )
            ids = [
                s["id"]
                for s in looked.get("senses", [])
                if anchor.sense_gloss.lower() in str(s.get("gloss", "")).lower()
            ]
            if not ids:
                raise LookupError(f"no sense of {args['word']!r} has {anchor.sense_gloss!r}")
            args["sense_id"] = ids[0]
        return translate(corpus, **args).model_dump(mode="json")
    calls: dict[str, Callable[[], BaseModel]] = {
        "lookup": lambda: lookup(corpus, **args),
        "relations": lambda: relations(corpus, **args),
        "rhymes": lambda: rhymes(corpus, **args),
        "wordplay": lambda: wordplay(corpus, **args),
        "semantic": lambda: semantic_neighbors(store, **args),
        "synonyms": lambda: synonyms(corpus, **args),
    }
    return calls[anchor.query]().model_dump(mode="json")


def anchors_gate(corpus: Any, profile: GateProfile) -> Gate:
    """Every pinned query of the profile gives its expected answer."""
    from lexicon_server.query.semantic import VectorStore

    store = VectorStore(corpus)
    results: dict[str, list[str]] = {}
    try:
        for anchor in profile.anchors:
            try:
                data = _run_anchor(corpus, store, anchor)
            except Exception as exc:  # a query error is a failed anchor, named in the report
                results[anchor.name] = [f"{type(exc).__name__}: {exc}"]
                continue
            results[anchor.name] = [f for e in anchor.expect for f in check_answer(data, e)]
    finally:
        store.close()
    failed = {name: f for name, f in results.items() if f}
    detail = (
        f"all {len(results)} anchors answered as expected"
        if not failed
        else f"{len(failed)} of {len(results)} anchors failed: "
        + "; ".join(f"{n}: {', '.join(f)}" for n, f in failed.items())
    )
    return Gate("anchors", not failed, detail, {"anchors": results})


def recall_gate(corpus: Any, profile: GateProfile) -> Gate:
    """HNSW recall@10 against exact cosine search over the same float16 vectors.

    Measured on the index itself (the stored exact neighbours of frequent words would
    make it trivially 1), on the most frequent words and on words drawn at random.
    """
    import random

    import numpy as np

    from lexicon_server.query.semantic import VectorStore

    if corpus.selection.availability("en", "semantic") is not None:
        return Gate("ann_recall", False, "the release has no English vectors to check")
    store = VectorStore(corpus)
    try:
        vectors = store.get("en")
        matrix = np.asarray(vectors.matrix, dtype=np.float32)
        norms = np.maximum(np.linalg.norm(matrix, axis=1), 1e-12)
        rows = vectors.conn.execute("SELECT id, zipf FROM vocab ORDER BY zipf DESC, id").fetchall()
        count = min(profile.recall_queries, len(rows))
        bands = {"most frequent": rows[:count], "random": random.Random(7).sample(rows, count)}
        recall: dict[str, float] = {}
        k = min(10, len(rows) - 1)
        for band, sample in bands.items():
            hits = total = 0
            for row_id, zipf in sample:
                query = matrix[row_id]
                scores = (matrix @ query) / norms
                scores[row_id] = -np.inf
                truth = set(np.argpartition(-scores, k)[:k].tolist())
                found, _ = vectors.search(
                    query, k + 1, exclude=None, expansion=vectors.expansion_for(float(zipf))
                )
                got = [r for r, _s in found if r != row_id][:k]
                hits += len(truth & set(got))
                total += k
            recall[band] = hits / max(total, 1)
    finally:
        store.close()
    worst = min(recall.values())
    passed = worst >= profile.recall_min
    detail = (
        f"recall@10 {', '.join(f'{b} {r:.3f}' for b, r in recall.items())} over {count} "
        f"queries each (aim >= {profile.recall_min})"
    )
    return Gate(
        "ann_recall", passed, detail, {"recall": recall, "queries": count, "rows": len(rows)}
    )


def _nltk_dir(wordnet_dir: Path, work: Path) -> Path:
    """The WNDB files plus what NLTK's reader insists on (lexnames, empty *.exc files)."""
    import shutil

    from lexicon_server.builder.parsers.wndb import LEXNAMES

    numbers = {"adj": 3, "adv": 4, "noun": 1, "verb": 2}
    out = work / "nltk-wordnet"
    out.mkdir(parents=True, exist_ok=True)
    for path in wordnet_dir.iterdir():
        if path.name.startswith(("data.", "index.")) or path.name.endswith(".exc"):
            shutil.copyfile(path, out / path.name)
    (out / "lexnames").write_text(
        "".join(f"{i:02d}\t{n}\t{numbers[n.split('.')[0]]}\n" for i, n in enumerate(LEXNAMES))
    )
    for pos in numbers:
        (out / f"{pos}.exc").touch(exist_ok=True)
    return out


def bench_gate(corpus: Any, profile: GateProfile, log: Path) -> Gate:
    """A reduced run of bench/server_latency.py's in-process comparison: the first look-up
    of each of the most frequent words (on-CPU p50), ours against NLTK's WordNet reader on
    the same WordNet files in its own process. The aim: ours at most ``lookup_ratio_max``
    of NLTK's time (the benchmark's absolute and stdio aims are timed figures on a shared
    machine; they stay in the benchmark, not in this gate)."""
    from lexicon_server.corpus.rows.facts import clear_caches
    from lexicon_server.query.lookup import lookup

    if profile.wordnet_dir is None:
        return Gate(
            "bench_ratios",
            False,
            "needs the WordNet database files NLTK reads: pass --wordnet-dir DIR "
            "(the starter's are under the build cache's extracted/ folder)",
        )
    rows = (
        corpus.db("en", "lexical")
        .execute(
            "SELECT t.text FROM terms t WHERE t.text GLOB '[a-z]*' AND t.text NOT GLOB '*[^a-z]*' "
            "AND EXISTS (SELECT 1 FROM entries e WHERE e.term_id = t.id) "
            "ORDER BY t.zipf DESC, t.id LIMIT ?",
            (profile.bench_words + 1,),
        )
        .fetchall()
    )
    words = [r[0] for r in rows]
    if len(words) < 2:
        return Gate("bench_ratios", False, "the corpus has too few English words to compare")
    warm, words = words[0], words[1:]
    clear_caches(corpus)
    lookup(corpus, warm)  # opens the databases, as the benchmark does
    ours: list[float] = []
    for w in words:
        c0 = time.thread_time()
        lookup(corpus, w)
        ours.append(time.thread_time() - c0)
    import json

    with tempfile.TemporaryDirectory() as work:
        nltk_root = _nltk_dir(profile.wordnet_dir, Path(work))
        argv = guarded_command(log, "lexicon_server.release.nltk_worker", str(nltk_root))
        done = subprocess.run(
            argv, input=json.dumps(words), capture_output=True, text=True, check=False
        )
    if done.returncode != 0:
        return Gate("bench_ratios", False, f"NLTK's reader failed: {done.stderr[-400:]}")
    theirs = [float(x) for x in json.loads(done.stdout)]
    ratio = statistics.median(ours) / max(statistics.median(theirs), 1e-9)
    figures = {
        "words": len(words),
        "ours_p50_us": round(statistics.median(ours) * 1e6, 1),
        "nltk_first_p50_us": round(statistics.median(theirs) * 1e6, 1),
        "lookup_ratio": round(ratio, 3),
        "lookup_ratio_max": profile.lookup_ratio_max,
    }
    detail = (
        f"look-up p50 on-CPU {figures['ours_p50_us']} µs against NLTK's first look-up "
        f"{figures['nltk_first_p50_us']} µs: ratio {ratio:.2f} (aim <= {profile.lookup_ratio_max})"
    )
    return Gate("bench_ratios", ratio <= profile.lookup_ratio_max, detail, figures)


def fingerprint(
    root: Path, skip: Path | None = None
) -> tuple[str, dict[str, tuple[int, int, int]]]:
    """(digest of every file's path and bytes, inventory of path -> (size, mtime, ctime)).

    Directories are in the inventory too: a file created and removed again still changes
    its directory's mtime. `skip` is a folder left out, with all it holds.
    """
    content = hashlib.sha256()
    inventory: dict[str, tuple[int, int, int]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if skip is None or Path(dirpath) / d != skip)
        for name in [".", *sorted(filenames)]:
            path = Path(dirpath) / name if name != "." else Path(dirpath)
            rel = path.relative_to(root).as_posix()
            st = path.lstat()
            inventory[rel] = (st.st_size, st.st_mtime_ns, st.st_ctime_ns)
            if name != ".":
                content.update(rel.encode() + b"\0")
                with open(path, "rb") as handle:
                    while block := handle.read(1 << 20):
                        content.update(block)
    return content.hexdigest(), inventory


async def _one_cycle(data_dir: Path, log: Path, word: str) -> dict[str, Any]:
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    env = {k: v for k, v in os.environ.items() if not k.startswith("LEXICON_")}
    env["LEXICON_DATA_DIR"] = str(data_dir)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    argv = guarded_command(log, "lexicon_server.cli")
    params = StdioServerParameters(command=argv[0], args=argv[1:], env=env)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = await session.list_tools()
        answer = await session.call_tool(
            "dictionary_lookup", {"word": word, "language": "en", "limit": 3}
        )
    data = answer.structured_content or {}
    return {
        "tools": len(tools.tools),
        "error": bool(answer.is_error),
        "senses": len(data.get("senses") or []),
    }


def cycles_gate(data_dir: Path, profile: GateProfile, log: Path) -> Gate:
    """Start lexicon-mcp over stdio, ask it one question and let it exit, ``cycles`` times;
    the data dir must be byte-identical afterwards with no file written at all."""
    import anyio

    from lexicon_store.leases import leases_dir, live_leases

    # A running server holds a reader lease (a locked file in leases/, gone when it exits:
    # lexicon_store/leases.py). That folder is the readers' runtime state, not data: it is
    # made first, as any server's first start makes it, and left out of the fingerprint;
    # every lease must be gone after each cycle.
    leases = leases_dir(data_dir)
    leases.mkdir(mode=0o755, exist_ok=True)
    before_digest, before = fingerprint(data_dir, skip=leases)
    rounds: list[dict[str, Any]] = []
    changed: list[str] = []
    for _ in range(profile.cycles):
        start = time.perf_counter()
        try:
            result = anyio.run(_one_cycle, data_dir, log, profile.cycle_word)
        except Exception as exc:
            result = {"error": True, "exception": f"{type(exc).__name__}: {exc}"}
        result["seconds"] = round(time.perf_counter() - start, 3)
        rounds.append(result)
        _digest, now = fingerprint(data_dir, skip=leases)
        changed += [p for p in sorted(set(now) | set(before)) if now.get(p) != before.get(p)]
        changed += [f"leases/{lease.pid}" for lease in live_leases(data_dir)]
    after_digest, _ = fingerprint(data_dir, skip=leases)
    answered = sum(1 for r in rounds if not r.get("error") and r.get("senses", 0) > 0)
    passed = answered == profile.cycles and not changed and after_digest == before_digest
    detail = f"{answered} of {profile.cycles} starts answered {profile.cycle_word!r}; " + (
        "data dir unchanged" if passed or not changed else f"changed: {sorted(set(changed))[:5]}"
    )
    figures = {
        "cycles": rounds,
        "fingerprint_before": before_digest,
        "fingerprint_after": after_digest,
        "files": len(before),
        "changed_paths": sorted(set(changed)),
    }
    return Gate("restart_cycles", passed, detail, figures)


def python_version() -> str:
    return sys.version.split()[0]
