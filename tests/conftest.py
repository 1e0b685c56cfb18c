"""Shared corpora for every test area, built by the real builder.

- `sample_dataset`: a built dataset directory made from the committed fixture slices in
  `tests/fixtures/` (real WordNet/CMUdict/wordfreq/FreeDict/GloVe slices plus the
  labelled hand-written Wiktextract and ConceptNet samples), starter-shaped.
- `sample_release`: that dataset packaged by `lexicon_store` (release dir, manifest digest).
- `sample_data_dir`: the release installed and activated into a fresh data dir through
  `lexicon_store`; pass it to subprocesses as LEXICON_DATA_DIR.
- `starter_data_dir`: the real starter corpus, fetched and built once into the build
  cache (LEXICON_BUILD_CACHE, else ~/.cache/lexicon/sources; shared with
  `lexicon-build start`) and installed into a fresh data dir. Tests that use it are
  marked `starter` automatically.
"""

from __future__ import annotations

import fcntl
import inspect
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

FIXTURES = Path(__file__).parent / "fixtures"

# Property tests check answers, not speed: on a loaded 2-core machine one example can take
# longer than Hypothesis's 200 ms deadline, or generating them trips its too-slow check.
settings.register_profile("lexicon", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("lexicon")

# Source name -> fixture path, for every source a starter-shaped sample build reads.
SAMPLE_SOURCES: dict[str, Path] = {
    "wordnet-3.1": FIXTURES / "wordnet31",
    "wordnet-3.0-exc": FIXTURES / "wordnet30",
    "cmudict": FIXTURES / "cmudict",
    "islex": FIXTURES / "islex",
    "gcide": FIXTURES / "gcide",
    "wordfreq": FIXTURES / "wordfreq",
    "glove-6b-50d": FIXTURES / "glove",
    "wiktextract": FIXTURES / "kaikki" / "kaikki-sample.jsonl",
    "conceptnet": FIXTURES / "conceptnet" / "conceptnet-assertions-5.7.0-sample.csv",
    "multiwordnet-it": FIXTURES / "multiwordnet",
    "simplemma": FIXTURES / "simplemma",
    "moby": FIXTURES / "moby",
    "cldr-annotations": FIXTURES / "cldr",
    "emojibase-emoticons": FIXTURES / "emojibase",
    "jargon": FIXTURES / "jargon",
    "genz-slang": FIXTURES / "genz",
    "mythes-de": FIXTURES / "mythes",
    "mythes-fr": FIXTURES / "mythes",
    **{
        f"freedict-{pair}": FIXTURES / "freedict"
        for pair in (
            "eng-fra",
            "fra-eng",
            "eng-deu",
            "deu-eng",
            "eng-jpn",
            "eng-pol",
            "eng-nld",
            "nld-eng",
            "fra-spa",
            "deu-nld",
            "fra-nld",
        )
    },
}


def build_sample(out: Path, cache: Path, sources: dict[str, Path] | None = None) -> Path:
    """Build the sample dataset from the fixtures (or the given `sources`) into `out` (no
    network, no cache reads)."""
    from lexicon_server.builder.config import BuildConfig
    from lexicon_server.builder.pipeline import build

    build(
        "starter",
        out,
        config=BuildConfig(cache_dir=cache),
        lock=None,
        overrides=SAMPLE_SOURCES if sources is None else sources,
        dataset_version="sample-2026.11.0",
        fetch=False,
        only_given=True,
    )
    return out


@pytest.fixture(scope="session")
def sample_sources() -> dict[str, Path]:
    """Source name -> fixture path of every source the sample build reads."""
    return dict(SAMPLE_SOURCES)


@pytest.fixture(scope="session")
def sample_builder() -> Callable[[Path, Path], Path]:
    """`build_sample(out, cache)`, for tests that need a second, independent build."""
    return build_sample


def made_once(
    tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], str]
) -> tuple[Path, str]:
    """A directory `make(directory)` fills, and the text it returns, made once per test run.

    Under pytest-xdist (`-n 2`) the workers share it: the first to get here makes it in the
    run's common temporary directory, holding a lock, and the others wait and reuse it, so
    the sample build is paid once, not once per worker. What it makes is read-only for the
    tests, as every session fixture's result already is.
    """
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        directory = tmp_path_factory.mktemp(name)
        return directory, make(directory)
    root = tmp_path_factory.getbasetemp().parent / name
    root.mkdir(exist_ok=True)
    with open(root / ".lock", "a+b") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        done = root / ".made"
        if not done.exists():
            directory = root / "made"
            shutil.rmtree(directory, ignore_errors=True)  # what a failed attempt left
            directory.mkdir()
            text = make(directory)
            done.write_text(text, encoding="utf-8")  # written last: the work is complete
        return root / "made", done.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def sample_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    def make(root: Path) -> str:
        build_sample(root / "built", root / "cache")
        return ""

    root, _ = made_once(tmp_path_factory, "sample", make)
    return root / "built"


@pytest.fixture(scope="session")
def sample_release(
    sample_dataset: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, str]:
    from lexicon_store.package import package_release

    def make(root: Path) -> str:
        return package_release(sample_dataset, root / "release").manifest_digest

    root, digest = made_once(tmp_path_factory, "sample-release", make)
    return root / "release", digest


@pytest.fixture(scope="session")
def sample_data_dir(
    sample_release: tuple[Path, str], tmp_path_factory: pytest.TempPathFactory
) -> Path:
    from _support.installs import install_release

    release, digest = sample_release
    return install_release(release, digest, tmp_path_factory.mktemp("sample-data") / "data")


@pytest.fixture(scope="session")
def starter_dataset() -> Path:
    """The real starter corpus in the build cache (built on first use, then reused)."""
    from lexicon_server.builder.config import load_build_config
    from lexicon_server.release.start import build_starter, starter_session

    config = load_build_config()
    with starter_session(config):
        return build_starter(config, None, lambda _m: None)


@pytest.fixture(scope="session")
def starter_data_dir(starter_dataset: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    from lexicon_server.builder.config import load_build_config
    from lexicon_server.release.start import build_starter, package_starter, starter_session

    config = load_build_config()
    data_dir = tmp_path_factory.mktemp("starter-data") / "data"
    with starter_session(config):
        built = build_starter(config, None, lambda _m: None)  # current again, under the lock
        release, digest = package_starter(built, config, lambda _m: None)
        from _support.installs import install_release

        return install_release(release, digest, data_dir)


_STARTER_FIXTURES = ("starter_data_dir", "starter_dataset")


def _uses_the_starter(item: pytest.Item) -> bool:
    """Whether `item` asks for a starter fixture: as an argument, or by name in its body
    (`request.getfixturevalue("starter_data_dir")`, directly or through a helper)."""
    if any(name in getattr(item, "fixturenames", ()) for name in _STARTER_FIXTURES):
        return True
    function = getattr(item, "function", None)
    try:
        source = inspect.getsource(function) if function is not None else ""
    except (OSError, TypeError):
        return False
    params = getattr(getattr(item, "callspec", None), "params", {})
    named = [str(value) for value in params.values()]
    return any(name in source or name in named for name in _STARTER_FIXTURES)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Every use of the real starter is marked, so `-m "not starter"` never builds it.
    for item in items:
        if _uses_the_starter(item):
            item.add_marker(pytest.mark.starter)
            # The first such test builds the starter (about 5 minutes here, more on a slow
            # machine) inside its own time limit: give it room beyond the default 600 s.
            if item.get_closest_marker("timeout") is None:
                item.add_marker(pytest.mark.timeout(1800))
