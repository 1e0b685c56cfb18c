"""The tail of the one-command start on the fixture-built release: the real
`lexicon-data install --from ... --manifest-digest ...` command, then `lexicon-mcp`
driven by the MCP SDK's own stdio client."""

from __future__ import annotations

from pathlib import Path

import pytest

from lexicon_server.builder.errors import BuildError
from lexicon_server.release.start import answer_summary, ask_server, install_release
from lexicon_store.selection import load_active


@pytest.mark.slow
def test_install_then_the_server_answers_through_the_sdk_client(
    tmp_path: Path, sample_release: tuple[Path, str]
) -> None:
    release, digest = sample_release
    data_dir = tmp_path / "data"
    install_release(release, digest, data_dir, lambda _m: None)
    active = load_active(data_dir)
    assert active.manifest_digest == digest
    assert "lexical" in active.installed["en"]

    result = ask_server(data_dir, "bank")
    assert not result.is_error, result.content
    answer = result.structured_content
    assert isinstance(answer, dict)
    text = repr(answer)
    assert "financial institution" in text
    assert "sloping land" in text
    # The printed summary names each sense's source key and, from `sources`, its licence.
    licence = answer["sources"]["wordnet-3.1"]
    assert f"(wordnet-3.1, {licence})" in answer_summary(result)


def test_install_refuses_a_wrong_manifest_digest(
    tmp_path: Path, sample_release: tuple[Path, str]
) -> None:
    release, digest = sample_release
    wrong = "blake3:" + "0" * 64
    assert wrong != digest
    with pytest.raises(BuildError, match="lexicon-data"):
        install_release(release, wrong, tmp_path / "data", lambda _m: None)
