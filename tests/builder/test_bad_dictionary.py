"""A cut or corrupt FreeDict dictionary fails its stage naming the file, the entry (its
index line and headword) and what was expected; nothing half-built is left to package;
a rerun with the good file resumes."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest

from lexicon_server.builder.config import BuildConfig
from lexicon_server.builder.errors import BuildError
from lexicon_server.builder.parsers import dictd
from lexicon_server.builder.pipeline import build

FIXTURES = Path(__file__).parents[1] / "fixtures" / "freedict"
PAIR = "freedict-eng-deu"


def _cut_copy(dest: Path, keep: float) -> Path:
    """The fixture directory with eng-deu's .dict.dz cut to a fraction of its bytes."""
    shutil.copytree(FIXTURES, dest)
    data = (FIXTURES / f"{PAIR}.dict.dz").read_bytes()
    (dest / f"{PAIR}.dict.dz").write_bytes(data[: int(len(data) * keep)])
    return dest


def test_a_truncated_dict_names_the_file_entry_and_expectation(tmp_path: Path) -> None:
    cut = _cut_copy(tmp_path / "cut", 0.5)
    with pytest.raises(BuildError) as caught:
        list(dictd.iter_entries(cut / f"{PAIR}.index", cut / f"{PAIR}.dict.dz", ("en", "de")))
    message = str(caught.value)
    assert f"{PAIR}.dict.dz" in message
    assert "index line" in message and "entry '" in message
    assert "expected" in message and "bytes of text" in message


def test_an_index_line_without_offsets_names_its_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad"
    shutil.copytree(FIXTURES, bad)
    index = bad / f"{PAIR}.index"
    lines = index.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[9] = lines[9].split("\t")[0] + "\n"  # the key alone
    index.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(BuildError, match=rf"{PAIR}\.index:10: expected 'key<TAB>offset"):
        list(dictd.iter_entries(index, bad / f"{PAIR}.dict.dz", ("en", "de")))


def test_garbage_in_the_middle_of_the_stream_is_reported_too(tmp_path: Path) -> None:
    bad = tmp_path / "bad"
    shutil.copytree(FIXTURES, bad)
    text = gzip.decompress((FIXTURES / f"{PAIR}.dict.dz").read_bytes())
    raw = bytearray(gzip.compress(text))
    raw[len(raw) // 2 : len(raw) // 2 + 16] = b"\xff" * 16
    (bad / f"{PAIR}.dict.dz").write_bytes(bytes(raw))
    wanted = r"index line \d+, byte \d+\): expected"
    with pytest.raises(BuildError, match=wanted):
        list(dictd.iter_entries(bad / f"{PAIR}.index", bad / f"{PAIR}.dict.dz", ("en", "de")))


def test_the_build_fails_the_stage_packages_nothing_and_resumes(
    tmp_path: Path, sample_sources: dict[str, Path]
) -> None:
    cut = _cut_copy(tmp_path / "cut", 0.5)
    out = tmp_path / "out"
    config = BuildConfig(cache_dir=tmp_path / "cache")

    def run(freedict: Path) -> object:
        sources = {
            name: (freedict if name.startswith("freedict-") else path)
            for name, path in sample_sources.items()
        }
        return build("starter", out, config=config, lock=None, overrides=sources,
                     dataset_version="sample-2026.11.0", fetch=False, only_given=True,
                     jobs=1)  # fmt: skip

    with pytest.raises(BuildError, match=rf"{PAIR}\.dict\.dz.*index line"):
        run(cut)
    assert not (out / "dataset.json").exists(), "an incomplete build is not a dataset"
    assert not list(out.rglob("*.tmp")), "the failed stage's temporary file is removed"
    assert not (out / "en" / "lexical.sqlite").exists()
    done_before = {p.stem for p in (out / ".build").glob("*.json")}
    result = run(FIXTURES)
    assert (out / "dataset.json").is_file()
    assert "en.lexical" in result.ran  # type: ignore[attr-defined]
    assert set(result.skipped) == done_before & set(result.skipped)  # type: ignore[attr-defined]
    assert set(result.skipped) >= done_before - {"en.lexical"} - {"shared.target_entries"}
