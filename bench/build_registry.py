"""Registry-profile build benchmark: build time, peak memory, release and installed sizes.

    uv run python bench/build_registry.py [--out DIR] [--work DIR] [--jobs 2] [--log FILE]

Builds `lexicon-build build --profile registry --no-fetch` (run `lexicon-build
fetch-sources`-equivalent first: a `lexicon-build build --profile registry` fetches what
is missing) into DIR (default: a temporary directory), sampling the RSS of the whole
process tree every 0.2 s and the CPU time of all its processes. Then it packages the
build with lexicon_store (release size: the compressed parts) and installs it into a
fresh data dir with `lexicon-data install --all-languages` (installed size), and lists
the languages `lexicon-data languages` reports. `--work DIR` keeps the release and the data
dir there (default: a temporary directory); `--log FILE` receives the build's progress
lines. Not run by CI: it takes many minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import psutil  # type: ignore[import-untyped]
from build_starter import _tree_rss, stage_times


def _du(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def build(out: Path, jobs: int, log: Path | None) -> tuple[float, int, float, list[float]]:
    """(wall s, peak tree RSS bytes, CPU s of all processes, 1-min load averages seen)."""
    argv = [sys.executable, "-m", "lexicon_server.build_cli", "build", "--profile", "registry"]
    argv += ["--out", str(out), "--no-fetch", "--jobs", str(jobs)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    # Progress goes to a file, not a pipe: a full pipe nobody reads would stall the build.
    err_path = log or out.parent / f".{out.name}.build.log"
    err_path.parent.mkdir(parents=True, exist_ok=True)
    with open(err_path, "w", encoding="utf-8") as err_file:
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err_file, text=True)
        watched = psutil.Process(proc.pid)
        peak = 0
        loads: list[float] = []
        while proc.poll() is None:
            peak = max(peak, _tree_rss(watched))
            loads.append(os.getloadavg()[0])
            time.sleep(0.2)
    wall = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"build failed:\n{err_path.read_text(encoding='utf-8')[-4000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, peak, cpu, loads


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--work", type=Path, default=None)
    ap.add_argument("--log", type=Path, default=None)
    ap.add_argument("--jobs", type=int, default=2)
    opts = ap.parse_args()
    from lexicon_store.package import package_release

    with tempfile.TemporaryDirectory(prefix="lexicon-bench-registry-") as tmp:
        out = opts.out or Path(tmp) / "registry"
        work = opts.work or Path(tmp)
        load_before = os.getloadavg()
        wall, peak, cpu, loads = build(out, opts.jobs, opts.log)
        load_after = os.getloadavg()
        times = stage_times(out)
        release = work / "release"
        packed = package_release(out, release)
        release_bytes = _du(release)
        data_dir = work / "data"
        lexicon_data = [sys.executable, "-m", "lexicon_store.cli", "--data-dir", str(data_dir)]
        subprocess.run(
            [*lexicon_data, "install", "--from", str(release), "--all-languages",
             "--manifest-digest", packed.manifest_digest],
            check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
        installed = _du(data_dir)
        listed = subprocess.run(
            [*lexicon_data, "languages", "--json"], check=True, capture_output=True, text=True
        )
        languages = json.loads(listed.stdout)
    count = len(languages) if isinstance(languages, list) else len(languages.get("languages", []))
    print("| measure | value | aim |")
    print("| --- | --- | --- |")
    print(f"| wall time, `--jobs {opts.jobs}` | {wall:.0f} s | ≤ 1200 s |")
    print(f"| CPU time, all processes | {cpu:.0f} s (÷2 cores: {cpu / 2:.0f} s) | |")
    print(f"| load average (1 min) before / after | {load_before[0]:.1f} / {load_after[0]:.1f} | |")
    mean, top = sum(loads) / max(len(loads), 1), max(loads, default=0.0)
    print(f"| load average (1 min) during: mean / max | {mean:.1f} / {top:.1f} | |")
    print(f"| peak RSS of the process tree | {peak / 2**20:.0f} MiB | ≤ 3072 MiB |")
    print(f"| stages | {len(times)} | |")
    print(f"| built dataset | {_du(out) / 2**20:.0f} MiB | |")
    print(f"| release (compressed parts + manifest) | {release_bytes / 2**20:.0f} MiB | |")
    print(f"| installed (all languages) | {installed / 2**20:.0f} MiB | |")
    print(f"| languages listed by `lexicon-data languages` | {count} | ≥ 45 |")
    slow = sorted(times.items(), key=lambda kv: -kv[1][0])[:10]
    print("\nslowest stages: " + ", ".join(f"{k} {w:.0f} s ({c:.0f} CPU s)" for k, (w, c) in slow))


if __name__ == "__main__":
    main()
