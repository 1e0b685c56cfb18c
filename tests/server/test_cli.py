"""`lexicon-mcp` start-up: no corpus, bad options, light imports."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from lexicon_server.cli import main


def test_no_active_corpus_exits_with_install_command(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "empty")])
    assert result.exit_code == 2
    assert "lexicon-data" in result.output and " install --version " in result.output
    assert str(tmp_path / "empty") in result.output


def test_no_active_corpus_via_environment(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "lexicon_server.cli"],
        env={"LEXICON_DATA_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2
    assert "lexicon-data install --version" in proc.stderr
    assert proc.stdout == ""  # stdout belongs to the protocol


def test_http_transport_refuses_a_non_loopback_host(mini_data_dir: Path) -> None:
    result = CliRunner().invoke(
        main,
        ["--data-dir", str(mini_data_dir), "--transport", "streamable-http", "--host", "0.0.0.0"],
    )
    assert result.exit_code != 0
    assert "loopback" in result.output and "--host" in result.output


def test_damaged_selection_is_reported(mini_data_dir: Path, tmp_path: Path) -> None:
    """A missing object does not stop the server: it starts, and says on stderr which
    component it serves without and the exact commands that find and fix it."""
    import os
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(mini_data_dir, copy)
    record = json.loads((copy / "activations" / "00000000000000aa.json").read_text())
    obj = record["components"][0]["object"].split(":")[1]
    target = copy / "objects" / "blake3" / obj[:2] / obj
    target.chmod(0o644)
    target.unlink()
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEXICON_")}
    proc = subprocess.run(
        [sys.executable, "-m", "lexicon_server.cli", "--data-dir", str(copy)],
        stdin=subprocess.DEVNULL,  # the stdio server stops at once, normally
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    component = record["components"][0]
    assert f"serving without component {component['id']}, which is damaged" in proc.stderr
    assert f"component {component['id']} ({component['path']}" in proc.stderr
    assert "is missing" in proc.stderr
    assert f"lexicon-data --data-dir {copy} verify" in proc.stderr
    assert f"lexicon-data --data-dir {copy} repair --from" in proc.stderr
    assert proc.stdout == ""  # stdout belongs to the protocol


def test_importing_the_server_stays_light() -> None:
    code = (
        "import sys, lexicon_server, lexicon_server.server, lexicon_server.cli, "
        "lexicon_server.query.lookup, lexicon_server.query.semantic\n"
        "heavy = {'httpx', 'zstandard', 'tqdm', 'numpy', 'usearch', 'lexicon_store.download'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
        "print(sorted(m for m in sys.modules if m.startswith('lexicon_store')))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    heavy, store = proc.stdout.splitlines()
    assert heavy == "[]"
    # the only pieces of the store the server may import: its selection reader, the reader
    # leases and the (stdlib-only) exception tree they raise from
    allowed = {"lexicon_store", "lexicon_store.selection", "lexicon_store.leases"}
    allowed.add("lexicon_store.errors")
    assert set(json.loads(store.replace("'", '"'))) <= allowed


def test_bad_glossary_file_stops_start_up_without_a_traceback(
    mini_data_dir: Path, tmp_path: Path
) -> None:
    glossary = tmp_path / "glossary.jsonl"
    glossary.write_text(
        '{"term":"Bank","description":"a"}\n{"term":"BANK","description":"b"}\n', encoding="utf-8"
    )
    result = CliRunner().invoke(
        main, ["--data-dir", str(mini_data_dir), "--glossary", str(glossary)]
    )
    assert result.exit_code == 2
    assert f"{glossary}:2" in result.output
    assert "Traceback" not in result.output
    # exited on purpose, not through an uncaught exception
    assert isinstance(result.exception, SystemExit)
