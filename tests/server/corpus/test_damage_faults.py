"""Same-size damage under a running server, and a damaged file at start-up (issue 27).

Real `lexicon-mcp` processes (stdio and streamable HTTP) through the SDK's own client, on
the sample release installed in this test's own data dir. Pages of an installed SQLite
file and the rows of a vectors file are overwritten in place (the size stays what the
activation record says, so only reading finds the damage); the calls that need them
answer `damaged_component` naming the component and the commands that fix it, the others
go on, and `repair` heals it without a restart.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
from _support.http_server import serving_http
from _support.processes import environ_without
from mcp import Client, StdioServerParameters

from lexicon_store import integrity
from lexicon_store.selection import load_active

LEXICAL = "en/lexical.sqlite"
VECTORS = "en/semantic.f16.npy"
INDEX = "en/semantic.usearch"
DOG = {"word": "dog", "language": "en"}
HUND = {"word": "Hund", "language": "de"}
KING = {"word": "king", "limit": 3}


def _env() -> dict[str, str]:
    return environ_without(lambda name: name.startswith("LEXICON_"))


def _stdio(data_dir: Path) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "lexicon_server.cli", "--data-dir", str(data_dir)],
        env=_env(),
    )


def _error(result: Any) -> dict[str, Any]:
    """The error body of an error answer (which carries no structured content)."""
    assert result.is_error, result
    assert result.structured_content is None
    (block,) = result.content
    body = json.loads(block.text)
    assert isinstance(body["error"], dict)
    return dict(body["error"])


def _writable(path: Path) -> None:
    path.chmod(0o644)  # objects are installed read-only


def overwrite_sqlite_pages(path: Path, seed: int = 27) -> int:
    """Overwrite every page but the first (the header and schema) with random bytes, in
    place; returns how many pages were overwritten."""
    _writable(path)
    data = path.read_bytes()
    page_size = int.from_bytes(data[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = len(data) // page_size - 1
    rng = random.Random(seed)
    with open(path, "r+b") as handle:
        handle.seek(page_size)
        handle.write(rng.randbytes(pages * page_size))
    assert path.stat().st_size == len(data)
    return pages


def overwrite_vector_rows(path: Path) -> None:
    """Overwrite every row of a float16 `.npy` matrix (not its header) with 0xFF bytes, the
    float16 pattern of NaN, in place."""
    from numpy.lib import format as npy

    _writable(path)
    size = path.stat().st_size
    with open(path, "r+b") as handle:
        version = npy.read_magic(handle)
        reader = npy.read_array_header_1_0 if version == (1, 0) else npy.read_array_header_2_0
        reader(handle)
        start = handle.tell()
        handle.seek(start)
        handle.write(b"\xff" * (size - start))
    assert path.stat().st_size == size


def test_page_overwrites_under_a_running_server(
    data_dir: Path, sample_release: tuple[Path, str]
) -> None:
    release, _digest = sample_release
    selection = load_active(data_dir)
    lexical_id = selection.components[LEXICAL][0]
    vectors_id = selection.components[VECTORS][0]

    async def main() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with Client(_stdio(data_dir)) as client:
            seen["hund"] = await client.call_tool("dictionary_lookup", HUND)
            seen["king"] = await client.call_tool("dictionary_semantic_neighbors", KING)
            # English lexical data is not open yet; the vectors are (header read).
            overwrite_sqlite_pages(selection.files[LEXICAL])
            overwrite_vector_rows(selection.files[VECTORS])
            seen["dog"] = await client.call_tool("dictionary_lookup", DOG)
            seen["synonyms"] = await client.call_tool("dictionary_synonyms", DOG)
            seen["king_damaged"] = await client.call_tool("dictionary_semantic_neighbors", KING)
            seen["hund_again"] = await client.call_tool("dictionary_lookup", HUND)
            seen["rhymes"] = await client.call_tool("rhymes", {"word": "cat"})
            seen["verify"] = integrity.verify(data_dir)
            seen["repair"] = integrity.repair(source=str(release), data_dir=data_dir)
            seen["dog_repaired"] = await client.call_tool("dictionary_lookup", DOG)
            seen["king_repaired"] = await client.call_tool("dictionary_semantic_neighbors", KING)
        return seen

    seen = anyio.run(main)
    assert not seen["hund"].is_error and not seen["king"].is_error
    for name in ("dog", "synonyms"):
        error = _error(seen[name])
        assert error["reason"] == "damaged_component", error
        assert error["component"] == lexical_id and error["file"] == LEXICAL
        assert f"component {lexical_id} ({LEXICAL}" in error["message"]
        assert error["verify"] == f"lexicon-data --data-dir {data_dir} verify"
        assert error["repair"].startswith(f"lexicon-data --data-dir {data_dir} repair --from ")
        assert error["verify"] in error["message"] and error["repair"] in error["message"]
    vectors = _error(seen["king_damaged"])
    assert vectors["reason"] == "damaged_component", vectors
    assert vectors["component"] == vectors_id and vectors["file"] == VECTORS
    # What is sound is still served, by the same process.
    assert not seen["hund_again"].is_error
    assert seen["hund_again"].structured_content == seen["hund"].structured_content
    assert not seen["rhymes"].is_error, seen["rhymes"]
    # The store's own check agrees with the server about what is damaged...
    damaged = {problem.component for problem in seen["verify"].problems}
    assert damaged == {lexical_id, vectors_id}
    # ...and the repair it names heals the running server (it follows the pointer).
    assert seen["repair"].after.ok
    assert not seen["dog_repaired"].is_error, seen["dog_repaired"]
    assert seen["king_repaired"].structured_content == seen["king"].structured_content


def overwrite_tail(path: Path, seed: int = 1) -> None:
    """Overwrite the last three quarters of a file with random bytes, in place (an HNSW
    index so damaged crashed usearch's first search, or hung it, before issue 27)."""
    _writable(path)
    size = path.stat().st_size
    with open(path, "r+b") as handle:
        handle.seek(size // 4)
        handle.write(random.Random(seed).randbytes(size - size // 4))
    assert path.stat().st_size == size


def test_damage_over_http_names_no_server_path(data_dir: Path) -> None:
    selection = load_active(data_dir)
    overwrite_sqlite_pages(selection.files[LEXICAL])
    overwrite_tail(selection.files[INDEX])
    with serving_http(["--data-dir", str(data_dir)], env=_env()) as url:

        async def main() -> tuple[Any, Any, Any]:
            async with Client(url) as client:
                dog = await client.call_tool("dictionary_lookup", DOG)
                king = await client.call_tool("dictionary_semantic_neighbors", KING)
                hund = await client.call_tool("dictionary_lookup", HUND)
                return dog, king, hund

        dog, king, hund = anyio.run(main)
    index = _error(king)
    assert index["reason"] == "damaged_component", index
    assert index["component"] == selection.components[INDEX][0] and index["file"] == INDEX
    assert str(data_dir) not in json.dumps(index)
    error = _error(dog)
    assert error["reason"] == "damaged_component"
    assert error["component"] == selection.components[LEXICAL][0]
    assert error["file"] == LEXICAL
    text = json.dumps(error)
    assert str(data_dir) not in text and "/objects/" not in text, text
    assert "lexicon-data --data-dir DIR verify" in error["message"]
    assert not hund.is_error


def test_a_truncated_component_at_start_up(data_dir: Path) -> None:
    """The server starts with what is sound, says on stderr what is not, answers the calls
    that need it with `damaged_component`, and the languages resource marks it."""
    selection = load_active(data_dir)
    target = selection.files[LEXICAL]
    size = target.stat().st_size
    _writable(target)
    os.truncate(target, size // 2)
    component = selection.components[LEXICAL][0]

    started = subprocess.run(
        [sys.executable, "-m", "lexicon_server.cli", "--data-dir", str(data_dir)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=_env(),
        timeout=120,
    )
    # stdin closed at once: a server that started stops normally.
    assert started.returncode == 0, started.stderr
    assert f"serving without component {component}, which is damaged" in started.stderr
    assert f"is {size // 2} bytes, the activation record says {size}" in started.stderr
    assert f"lexicon-data --data-dir {data_dir} verify" in started.stderr

    async def main() -> dict[str, Any]:
        async with Client(_stdio(data_dir)) as client:
            languages = await client.read_resource("lexicon://languages")
            manifest = await client.read_resource("lexicon://manifest")
            return {
                "dog": await client.call_tool("dictionary_lookup", DOG),
                "translate": await client.call_tool(
                    "dictionary_translate", {"word": "dog", "target_language": "fr"}
                ),
                "hund": await client.call_tool("dictionary_lookup", HUND),
                "king": await client.call_tool("dictionary_semantic_neighbors", KING),
                "languages": json.loads(languages.contents[0].text),
                "manifest": json.loads(manifest.contents[0].text),
            }

    seen = anyio.run(main)
    for name in ("dog", "translate"):
        error = _error(seen[name])
        assert error["reason"] == "damaged_component", error
        assert error["component"] == component
        assert f"is {size // 2} bytes, the activation record says {size}" in error["message"]
    assert not seen["hund"].is_error
    assert not seen["king"].is_error, seen["king"]
    languages = seen["languages"]
    (english,) = [row for row in languages["languages"] if row["language"] == "en"]
    assert english["status"]["lexical"] == "damaged"
    assert english["status"]["semantic"] == "installed"
    assert [d["component"] for d in languages["damaged"]] == [component]
    assert seen["manifest"]["dataset_version"] == selection.dataset_version
