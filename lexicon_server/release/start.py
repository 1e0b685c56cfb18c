"""The one-command start: build (or reuse) the starter, install it, ask the server a question.

Every step takes the path a user's own commands would: the builder writes the starter
into the cache (resuming or skipping finished stages), `lexicon_store` packages it as a
release, the real `lexicon-data install --from <release> --manifest-digest <digest>`
command installs and activates it, and the MCP SDK's own stdio client starts
`lexicon-mcp` and calls `dictionary_lookup`.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from lexicon_server.builder.config import BuildConfig, exclusive, load_build_config
from lexicon_server.builder.errors import BuildError

__all__ = [
    "answer_summary",
    "ask_server",
    "build_starter",
    "install_release",
    "package_starter",
    "start",
    "starter_session",
    "tool_command",
]

Say = Callable[[str], None]


def tool_command(name: str) -> list[str]:
    """A console script of this environment (next to the interpreter), else from PATH."""
    beside = Path(sys.executable).parent / name
    if beside.exists():
        return [str(beside)]
    found = shutil.which(name)
    if found:
        return [found]
    raise BuildError(f"`{name}` is not installed in this environment; run `uv sync`")


@contextmanager
def starter_session(config: BuildConfig) -> Iterator[None]:
    """Keep other starter builds out while this process builds, packages and installs.

    Several test runs (or a test run and `lexicon-build start`) may share one cache; a
    rebuild by another process must not swap files under a packager reading them.
    """
    with exclusive(config.builds / "starter.session.lock"):
        yield


def build_starter(
    config: BuildConfig, lock_path: Path | None, say: Say, profile: str = "starter"
) -> Path:
    """Build a profile (the starter unless told) into `<cache>/builds/<profile>`
    (finished stages are skipped)."""
    from lexicon_server.builder.pipeline import build
    from lexicon_server.builder.sources import read_lock

    out = config.builds / profile
    result = build(profile, out, config=config, lock=read_lock(lock_path), progress=say, jobs=2)
    say(f"{profile} corpus: {len(result.ran)} stages built, {len(result.skipped)} reused ({out})")
    return out


def _build_key(built: Path) -> str:
    """Identity of a built dataset: dataset.json plus every checkpointed output digest."""
    digest = hashlib.sha256((built / "dataset.json").read_bytes())
    for checkpoint in sorted((built / ".build").glob("*.json")):
        outputs = json.loads(checkpoint.read_text(encoding="utf-8"))["outputs"]
        for rel in sorted(outputs):
            digest.update(f"{rel}\0{outputs[rel]['sha256']}\n".encode())
    return digest.hexdigest()


def package_starter(built: Path, config: BuildConfig, say: Say) -> tuple[Path, str]:
    """Package the built starter as a release in the cache; returns (release dir, digest).

    A release already packaged from these exact build outputs is reused (its manifest is
    written last by the packager, so its presence means the parts are complete).
    """
    from lexicon_store.digests import digest_bytes
    from lexicon_store.package import package_release

    dataset = json.loads((built / "dataset.json").read_text(encoding="utf-8"))
    release = config.releases / str(dataset["dataset_version"])
    key = _build_key(built)
    marker = release.with_name(release.name + ".built-from")
    manifest = release / "manifest.json"
    if manifest.is_file() and marker.is_file() and marker.read_text().strip() == key:
        digest = digest_bytes(manifest.read_bytes())
        say(f"release {release} reused (manifest {digest})")
        return release, digest
    marker.unlink(missing_ok=True)
    result = package_release(built, release)
    marker.write_text(key + "\n", encoding="utf-8")
    say(f"release {release} (manifest {result.manifest_digest})")
    return release, result.manifest_digest


def install_release(release: Path, digest: str, data_dir: Path | None, say: Say) -> None:
    """Run the store's own install command, exactly as a user would type it."""
    argv = tool_command("lexicon-data")
    if data_dir is not None:
        argv += ["--data-dir", str(data_dir)]
    argv += ["install", "--from", str(release), "--all-languages", "--manifest-digest", digest]
    say("$ " + " ".join(argv))
    done = subprocess.run(argv, check=False)
    if done.returncode != 0:
        raise BuildError(f"`{' '.join(argv)}` failed with exit code {done.returncode}")


async def _call(data_dir: Path | None, tool: str, arguments: dict[str, Any]) -> Any:
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    env = dict(os.environ)
    if data_dir is not None:
        env["LEXICON_DATA_DIR"] = str(data_dir)
    params = StdioServerParameters(command=tool_command("lexicon-mcp")[0], args=[], env=env)
    async with (
        stdio_client(params) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        return await session.call_tool(tool, arguments)


def ask_server(data_dir: Path | None, word: str) -> Any:
    """Call `dictionary_lookup` through the MCP SDK's stdio client; returns the tool result."""
    import anyio

    return anyio.run(
        _call, data_dir, "dictionary_lookup", {"word": word, "language": "en", "limit": 3}
    )


def answer_summary(result: Any) -> str:
    """A few readable lines from the lookup answer: senses with their source and licence,
    first example and pronunciations."""
    if getattr(result, "is_error", False):
        texts = [getattr(c, "text", "") for c in result.content]
        raise BuildError("the server answered with an error: " + " ".join(texts))
    data = getattr(result, "structured_content", None)
    if not isinstance(data, dict) or not isinstance(data.get("senses"), list):
        return "\n".join(getattr(c, "text", "") for c in result.content)[:2000]
    head = f"{data.get('word')!s} ({data.get('dataset_version')!s}): "
    lines = [head + f"{data.get('total_senses', len(data['senses']))} senses, showing "
             f"{len(data['senses'])}"]  # fmt: skip
    sources = data.get("sources") or {}
    for n, sense in enumerate(data["senses"], 1):
        # Lean answers state the senses' common source once (`sense_source`) and give each
        # cited key its licence (docs/tools.md, "Lean answers").
        key = sense.get("source") or data.get("sense_source") or "?"
        licence = sources.get(key, "?")
        lines.append(f"  {n}. [{sense.get('pos')}] {sense.get('gloss')}  ({key}, {licence})")
        for example in (sense.get("examples") or [])[:1]:
            lines.append(f'       e.g. "{example.get("text")}"')
        prons = [p.get("value") for p in (sense.get("pronunciations") or [])[:2]]
        if prons:
            lines.append(f"       pronounced: {' / '.join(str(p) for p in prons)}")
    return "\n".join(lines)


def start(
    *,
    data_dir: Path | None,
    word: str,
    lock_path: Path | None,
    say: Say,
    echo: Say,
    profile: str = "starter",
) -> None:
    config = load_build_config()
    with starter_session(config):
        built = build_starter(config, lock_path, say, profile)
        release, digest = package_starter(built, config, say)
        install_release(release, digest, data_dir, say)
    if importlib.util.find_spec("lexicon_server.server") is None:
        echo("installed and activated; the MCP server (lexicon_server.server) is not built yet")
        return
    echo(f"asking lexicon-mcp: dictionary_lookup {word!r}")
    echo(answer_summary(ask_server(data_dir, word)))
