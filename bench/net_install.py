"""Install a >= 1 GiB release over loopback HTTP: lexicon-data vs curl + decompress-and-hash.

Same run, same server (tests/store/http/loopback.py in its own process, zero-copy sendfile), same
release (packaged by our packager):

- lexicon:   ``ops.install(source=<manifest URL>)``: resumable verified downloads, then
             the store's ingest (hash part, decompress, hash object, write, fsync).
- curl+pipe: ``curl`` fetching the same part URLs (one process, one connection), then a
             plain Python loop doing the same ingest work (blake3 of each part, zstandard
             decompression, blake3 of the output, write, fsync).

Then an install is SIGKILLed half way and rerun, and the server's byte counter tells how
many bytes crossed the wire twice.

    uv run python bench/net_install.py [--object-mib 2300] [--rounds 2] [--keep]

Everything it creates lives in one temporary directory, removed at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import blake3
import numpy as np
import zstandard

from lexicon_store import ops
from lexicon_store.fetch import fetch_release
from lexicon_store.package import package_release

ROOT = Path(__file__).resolve().parent.parent
MiB = 1 << 20
GiB = 1 << 30
CPU: dict[str, list[float]] = {"ours": [], "announced": [], "fetch": [], "curl": [], "pipe": []}

COMPONENTS = [
    # id, language, capability, path, share of the object bytes
    ("en.lexical", "en", "lexical", "en/lexical.sqlite", 0.45),
    ("en.semantic.vectors", "en", "semantic", "en/semantic.f16.npy", 0.35),
    ("fr.lexical", "fr", "lexical", "fr/lexical.sqlite", 0.20),
]


def make_built(root: Path, total: int) -> Path:
    """Objects that compress about 2:1 with zstd -3 (half noise, half repetitive text)."""
    rng = np.random.default_rng(7)
    words = [
        bytes(rng.integers(97, 123, size=int(n)).astype(np.uint8))
        for n in rng.integers(3, 10, 4000)
    ]
    text = b" ".join(words[int(i)] for i in rng.integers(0, len(words), 800_000))
    components: list[dict[str, str | None]] = []
    for cid, lang, cap, rel, share in COMPONENTS:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        size = int(total * share)
        with path.open("wb") as out:
            written = 0
            while written < size:
                n = min(4 * MiB, size - written)
                half = n // 2
                start = int(rng.integers(0, len(text) - (n - half)))
                out.write(rng.bytes(half) + text[start : start + n - half])
                written += n
        components.append({"id": cid, "language": lang, "capability": cap, "path": rel})
    lic = root / "DATA_LICENSES.md"
    lic.write_text("bench data, no licence needed\n")
    components.append(
        {"id": "shared.licenses", "language": None, "capability": "shared", "path": lic.name}
    )
    dataset = {
        "format": 1,
        "dataset_version": "bench-net-1",
        "profile": "bench",
        "schemas": {"lexical": 1, "semantic": 1},
        "languages": {
            "en": {"name": "English", "capabilities": ["lexical", "semantic"]},
            "fr": {"name": "French", "capabilities": ["lexical"]},
        },
        "components": components,
    }
    (root / "dataset.json").write_text(json.dumps(dataset))
    return root


class Server:
    def __init__(self, root: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "tests" / "net" / "loopback.py"), str(root)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        self.url = self.proc.stdout.readline().strip()

    def sent(self) -> int:
        with urllib.request.urlopen(f"{self.url}/__stats") as response:
            return int(json.loads(response.read())["sent"])

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


@dataclass
class Timing:
    name: str
    seconds: float
    detail: str = ""


def cpu_seconds(children: bool = False) -> float:
    """User + system CPU time of this process (all threads) or of its finished children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN if children else resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run_ours(url: str, digest: str, data: Path) -> Timing:
    c0 = cpu_seconds()
    t0 = time.perf_counter()
    result = ops.install(data_dir=data, source=url, all_languages=True, manifest_digest=digest)
    seconds = time.perf_counter() - t0
    CPU["ours"].append(cpu_seconds() - c0)
    s = result.stats
    detail = (
        f"ingest: hash {s.hash_seconds:.1f}s, decompress {s.decompress_seconds:.1f}s, "
        f"write {s.write_seconds:.1f}s, fsync {s.fsync_seconds:.1f}s"
    )
    return Timing("lexicon-data install (HTTP)", seconds, detail)


def run_fetch(url: str, digest: str, dest: Path) -> float:
    """``lexicon-data fetch``: parallel verified downloads into a mirror directory."""
    c0 = cpu_seconds()
    t0 = time.perf_counter()
    fetch_release(dest, source=url, manifest_digest=digest)
    seconds = time.perf_counter() - t0
    CPU["fetch"].append(cpu_seconds() - c0)
    return seconds


def run_curl(url: str, manifest: dict, out: Path) -> float:  # type: ignore[type-arg]
    out.mkdir(parents=True)
    args = ["curl", "--silent", "--show-error", "--fail"]
    for component in manifest["components"]:
        for part in component["parts"]:
            args += ["-o", str(out / part["path"]), f"{url}/{part['path']}"]
    c0 = cpu_seconds(children=True)
    t0 = time.perf_counter()
    subprocess.run(args, check=True)
    seconds = time.perf_counter() - t0
    CPU["curl"].append(cpu_seconds(children=True) - c0)
    return seconds


def run_pipeline(manifest: dict, parts: Path, out: Path) -> float:  # type: ignore[type-arg]
    """The plain loop: hash each part, decompress it, hash and write the output, fsync."""
    out.mkdir(parents=True)
    c0 = cpu_seconds()
    t0 = time.perf_counter()
    for component in manifest["components"]:
        obj = blake3.blake3()
        fd = os.open(out / component["id"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        for part in component["parts"]:
            dobj = zstandard.ZstdDecompressor().decompressobj()
            ph = blake3.blake3()
            with open(parts / part["path"], "rb", buffering=0) as f:
                while chunk := f.read(4 * MiB):
                    ph.update(chunk)
                    data = dobj.decompress(chunk)
                    obj.update(data)
                    os.write(fd, data)
            assert f"blake3:{ph.hexdigest()}" == part["digest"]
        os.fsync(fd)
        os.close(fd)
        assert f"blake3:{obj.hexdigest()}" == component["object"]["digest"]
    seconds = time.perf_counter() - t0
    CPU["pipe"].append(cpu_seconds() - c0)
    return seconds


_KILLED = """
import sys
from pathlib import Path
from lexicon_store import ops
from lexicon_store.fetch import fetch_release
ops.install(data_dir=Path(sys.argv[1]), source=sys.argv[2], all_languages=True,
            manifest_digest=sys.argv[3])
"""


def on_disk(data: Path, manifest: dict) -> int:  # type: ignore[type-arg]
    """Part bytes a rerun need not fetch: parts of built objects and bytes in tmp/parts."""
    total = 0
    parts_dir = data / "tmp" / "parts"
    for component in manifest["components"]:
        hx = component["object"]["digest"].split(":")[1]
        if (data / "objects" / "blake3" / hx[:2] / hx).exists():
            total += sum(p["size"] for p in component["parts"])
            continue
        for part in component["parts"]:
            ph = part["digest"].split(":")[1]
            sizes = [
                (parts_dir / name).stat().st_size
                for name in (f"{ph}.partial", f"{ph}.partial.partial")
                if (parts_dir / name).exists()
            ]
            total += max(sizes, default=0)
    return total


def interrupted(
    server: Server,
    url: str,
    digest: str,
    data: Path,
    manifest: dict,  # type: ignore[type-arg]
    release_bytes: int,
) -> dict[str, int]:
    """SIGKILL an install once half the release crossed the wire; rerun it to the end."""
    before = server.sent()
    proc = subprocess.Popen([sys.executable, "-c", _KILLED, str(data), url, digest])
    while server.sent() - before < release_bytes // 2:
        if proc.poll() is not None:
            raise SystemExit("the install finished before it could be interrupted")
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    first = server.sent() - before
    kept = on_disk(data, manifest)
    mid = server.sent()
    ops.install(data_dir=data, source=url, all_languages=True, manifest_digest=digest)
    second = server.sent() - mid
    return {"first": first, "kept": kept, "second": second}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--object-mib", type=int, default=2300, help="uncompressed dataset size")
    parser.add_argument("--part-mib", type=int, default=256, help="uncompressed bytes per part")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    args = parser.parse_args()
    # The loopback server must be reached directly, by us and by curl, even behind a proxy.
    for name in ("NO_PROXY", "no_proxy"):
        os.environ[name] = ",".join(filter(None, [os.environ.get(name), "127.0.0.1"]))
    work = Path(tempfile.mkdtemp(prefix="lexicon-bench-net-", dir=args.workdir))
    server: Server | None = None
    try:
        t0 = time.perf_counter()
        built = make_built(work / "built", args.object_mib * MiB)
        result = package_release(built, work / "www" / "rel", part_size=args.part_mib * MiB)
        shutil.rmtree(built)
        release_dir = result.release_dir
        manifest_raw = (release_dir / "manifest.json").read_bytes()
        manifest = json.loads(manifest_raw)
        n_parts = sum(len(c["parts"]) for c in manifest["components"])
        release_bytes = result.compressed_bytes
        print(
            f"release: {release_bytes / GiB:.2f} GiB in {n_parts} parts "
            f"({result.object_bytes / GiB:.2f} GiB installed), prepared in "
            f"{time.perf_counter() - t0:.0f}s"
        )
        if release_bytes < GiB:
            print("warning: the release is under 1 GiB; raise --object-mib")
        server = Server(work / "www")
        url = f"{server.url}/rel"
        ours: list[float] = []
        curl: list[float] = []
        fetched: list[float] = []
        pipe: list[float] = []
        details: list[str] = []
        for r in range(args.rounds):
            data = work / f"data{r}"
            timing = run_ours(f"{url}/manifest.json", result.manifest_digest, data)
            ours.append(timing.seconds)
            details.append(timing.detail)
            shutil.rmtree(data)
            fetched.append(run_fetch(f"{url}/", result.manifest_digest, work / f"mirror{r}"))
            shutil.rmtree(work / f"mirror{r}")
            parts = work / f"curl{r}"
            curl.append(run_curl(url, manifest, parts))
            pipe.append(run_pipeline(manifest, parts, work / f"pipe{r}"))
            shutil.rmtree(parts)
            shutil.rmtree(work / f"pipe{r}")
        baseline = [c + p for c, p in zip(curl, pipe, strict=True)]
        CPU["base"] = [c + p for c, p in zip(CPU["curl"], CPU["pipe"], strict=True)]
        rows = [
            ("lexicon-data install over HTTP", ours, "ours"),
            ("lexicon-data fetch (download + verify only, into a mirror)", fetched, "fetch"),
            ("curl (download only)", curl, "curl"),
            ("pipeline (hash+decompress+hash+write+fsync)", pipe, "pipe"),
            ("curl + pipeline", baseline, "base"),
        ]  # fmt: skip
        print()
        print("| run | best s | median s | MiB/s at best | median CPU s | all runs s |")
        print("| --- | ---: | ---: | ---: | ---: | --- |")
        for name, times, key in rows:
            best = min(times)
            print(
                f"| {name} | {best:.2f} | {statistics.median(times):.2f} | "
                f"{release_bytes / MiB / best:.0f} | {statistics.median(CPU[key]):.1f} | "
                + ", ".join(f"{t:.2f}" for t in times)
                + " |"
            )
        ratio = min(baseline) / min(ours)
        median_ratio = statistics.median(baseline) / statistics.median(ours)
        print(
            f"\nthroughput ratio lexicon / (curl + pipeline): best {ratio:.2f}, "
            f"median {median_ratio:.2f} (target >= 0.80)"
        )
        print(f"lexicon ingest breakdown (last round): {details[-1]}")

        stats = interrupted(
            server, f"{url}/manifest.json", result.manifest_digest, work / "data-kill",
            manifest, release_bytes,
        )  # fmt: skip
        manifest_len = len(manifest_raw)
        second_parts = stats["second"] - manifest_len
        resent = stats["first"] + second_parts - release_bytes
        print()
        print("| interrupted install (SIGKILL at half the bytes) | bytes |")
        print("| --- | ---: |")
        print(f"| release part bytes | {release_bytes} |")
        print(f"| sent before the kill | {stats['first'] - manifest_len} |")
        print(f"| on disk after the kill (reusable) | {stats['kept']} |")
        print(f"| sent by the rerun | {second_parts} |")
        extra = second_parts - (release_bytes - stats["kept"])
        print(f"| rerun bytes beyond what was missing | {extra} |")
        print(f"| total re-sent (lost in flight at the kill) | {resent} |")
    finally:
        if server is not None:
            server.close()
        if args.keep:
            print(f"kept {work}")
        else:
            subprocess.run(["chmod", "-R", "u+w", str(work)], check=False)
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
