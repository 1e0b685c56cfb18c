"""What a build is made of: the profiles, the stages each plans, and `dataset.json`.

`plan_build` turns a profile and the sources at hand into an ordered tuple of stages
(each names its outputs, the sources that decide their bytes, the stages it needs or
follows, and a rough cost for the scheduler); `dataset_json` describes the built
directory. Running the plan, checkpoints and resumption are in pipeline.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lexicon_server.builder.catalogue import (
    LOCAL_SOURCES,
    REGISTRY_SOURCES,
    SLANG_SOURCES,
    STARTER_SOURCES,
)
from lexicon_server.builder.context import BuildContext, Progress
from lexicon_server.builder.errors import BuildError
from lexicon_server.builder.inputs import Inputs, SourceInput
from lexicon_server.builder.language_tables import LANGUAGE_NAMES
from lexicon_server.corpus.reader import SCHEMA_VERSIONS

__all__ = [
    "DATASET_VERSIONS",
    "DERIVED_VOCAB",
    "OTHER_LANGUAGES",
    "PROFILES",
    "SEMANTIC_VOCAB",
    "STATE_DIR",
    "BuildContext",
    "BuildPlan",
    "Progress",
    "Stage",
    "dataset_json",
    "freedict_components",
    "plan_build",
    "profile_sources",
]

DATASET_VERSIONS = {
    "starter": "starter-2026.11.0",
    "english": "english-2026.11.0",
    "full": "full-2026.11.0",
    "registry": "registry-2026.12.0",
}
PROFILES = tuple(DATASET_VERSIONS)
STATE_DIR = ".build"
SEMANTIC_VOCAB = 100_000  # see docs/benchmarks/build.md for the time/recall trade-off
DERIVED_VOCAB = 25_000  # words per translated language given derived vectors (starter)
OTHER_LANGUAGES = ("fr", "de", "es", "it", "pt", "fi", "ja", "pl")  # the english/full ones
SLANG_NAMES = tuple(s.name for s in SLANG_SOURCES)


@dataclass(frozen=True)
class Stage:
    name: str  # the component id it writes, e.g. 'en.lexical'
    outputs: tuple[str, ...]  # dataset-relative paths
    sources: tuple[str, ...]  # source names whose bytes decide the outputs
    run: Callable[[BuildContext], Mapping[str, Any]]
    # Stages whose outputs this one reads and rewrites in place (target entries read and
    # update every lexical component): it runs after them, is redone whenever one of them
    # is, and refreshes their checkpoints' output digests when it finishes.
    needs: tuple[str, ...] = ()
    # Stages that must finish before this one starts, without the rerun and refresh that
    # `needs` implies: they read files this stage replaces (derived vectors read the
    # lexical components that target entries then rewrite).
    after: tuple[str, ...] = ()
    # Rough CPU seconds on the starter: only the order in which stages start uses it
    # (builder/schedule.py), never what they write.
    cost: float = 10.0
    # The component id when it is not the stage name: a MyThes thesaurus is stage
    # 'de.thesaurus' but component 'de.lexical.thesaurus', part of the lexical capability.
    component: str | None = None


@dataclass(frozen=True)
class BuildPlan:
    profile: str
    dataset_version: str
    stages: tuple[Stage, ...]
    languages: Mapping[str, tuple[str, ...]]  # language -> capabilities, in dataset.json order


def profile_sources(profile: str) -> tuple[list[str], frozenset[str]]:
    """(source names, the optional ones) for a profile."""
    if profile == "starter":
        return [s.name for s in STARTER_SOURCES], frozenset()
    if profile == "registry":
        return [s.name for s in REGISTRY_SOURCES], frozenset()
    if profile in ("english", "full"):
        local = [s.name for s in LOCAL_SOURCES]
        # wordfreq ranks terms when it has been fetched; the registry copy is optional here.
        return [*local, "wordfreq"], frozenset({*local, "wordfreq"}) - {"oewn", "cmudict-local"}
    raise BuildError(f"unknown profile {profile!r}; choose one of {', '.join(PROFILES)}")


def freedict_components(names: Iterable[str], *, invert: bool) -> dict[str, tuple[str, ...]]:
    """Language -> the FreeDict dictionaries its lexical component is built from: those
    whose headwords are in it; with `invert` (the registry profile), a language only ever
    translated into (Russian, Hindi...) is built from the dictionaries into it, read the
    other way round. English is not here (it has its own stage). Ordered by tag."""
    from lexicon_server.builder.stages import tag_of

    pairs = [n[9:].split("-") for n in names if n.startswith("freedict-")]
    heads = {tag_of(a) for a, _ in pairs if a != "eng"}
    out: dict[str, list[str]] = {}
    for a, b in pairs:
        if a != "eng":
            out.setdefault(tag_of(a), []).append(f"freedict-{a}-{b}")
        elif invert and tag_of(b) not in heads:
            out.setdefault(tag_of(b), []).append(f"freedict-{a}-{b}")
    for a, b in pairs:
        if invert and a != "eng" and b != "eng" and tag_of(b) not in heads:
            out.setdefault(tag_of(b), []).append(f"freedict-{a}-{b}")
    return {lang: tuple(srcs) for lang, srcs in sorted(out.items())}


def _english_pairs_into(names: Iterable[str], language: str) -> tuple[str, ...]:
    """The FreeDict dictionaries from English into `language` among `names`."""
    from lexicon_server.builder.stages import tag_of

    return tuple(
        n
        for n in names
        if n.startswith("freedict-eng-") and n.count("-") == 2 and tag_of(n[13:]) == language
    )


def plan_build(profile: str, inputs: Inputs, dataset_version: str) -> BuildPlan:
    from lexicon_server.builder import mwn_senses
    from lexicon_server.builder import stages as st

    present = set(inputs.sources)
    stages: list[Stage] = []
    languages: dict[str, list[str]] = {}

    def add(stage: Stage, language: str | None, capability: str | None) -> None:
        stages.append(stage)
        if language and capability:
            languages.setdefault(language, []).append(capability)

    english = {"wordnet-3.1", "oewn", "wordnet-3.0-exc", "cmudict", "cmudict-local", "islex",
               "wiktextract", "conceptnet", "wordfreq", "moby", "glove-6b-50d",
               "simplemma"}  # fmt: skip
    # FreeDict's xxx-eng dictionaries rank English translations (back-translations first).
    en_sources = tuple(
        n
        for n in inputs.sources
        if n in english or n.startswith("freedict-eng-") or re.fullmatch(r"freedict-\w+-eng", n)
    )
    # MultiWordNet (starter): aligned once, before the lexical stages that read it.
    mwn = mwn_senses.align_sources(inputs) if profile in ("starter", "registry") else ()
    mwn_needs: tuple[str, ...] = ()
    if mwn_senses.parts(inputs) and mwn:
        add(Stage("shared.multiwordnet", (), mwn, st.multiwordnet_alignment, cost=30),
            None, None)  # fmt: skip
        mwn_needs = ("shared.multiwordnet",)
    add(
        Stage("en.lexical", ("en/lexical.sqlite",), (*en_sources, *mwn), st.english_lexical,
              needs=mwn_needs, cost=150),
        "en",
        "lexical",
    )  # fmt: skip
    if "gcide" in present:
        # GPL-2+: a component of its own, installed with (and only with) English lexical data.
        add(Stage("en.gcide", ("en/gcide.sqlite",), ("gcide",), st.english_gcide), None, None)
    if profile in ("starter", "registry"):
        langs = dict(freedict_components(inputs.sources, invert=profile == "registry"))
        for lang in mwn_senses.MWN_LANGUAGES:  # a MultiWordNet part alone makes a component
            if mwn and mwn_senses.parts(inputs, lang):
                langs.setdefault(lang, ())
        lemmas = ("simplemma",) if "simplemma" in present else ()
        for lang, srcs in sorted(langs.items()):
            own = tuple(mwn) if mwn_senses.parts(inputs, lang) else ()
            # eng-xxx read the other way round ranks the translations into English.
            back = tuple(n for n in _english_pairs_into(sorted(present), lang) if n not in srcs)
            add(Stage(f"{lang}.lexical", (f"{lang}/lexical.sqlite",),
                      (*srcs, *back, "wordfreq", *lemmas, *own), st.bilingual_lexical(lang),
                      needs=mwn_needs if own else ()), lang, "lexical")  # fmt: skip
    elif profile == "full" and "wiktextract" in present:
        found = _languages_in(inputs.require("wiktextract"), _WIKT_LANG, "jsonl")
        for lang in (lang for lang in OTHER_LANGUAGES if lang in found):
            add(Stage(f"{lang}.lexical", (f"{lang}/lexical.sqlite",),
                      ("wiktextract", "conceptnet", "wordfreq"),
                      st.wiktionary_lexical(lang)), lang, "lexical")  # fmt: skip
    for lang in OTHER_LANGUAGES:
        # Each MyThes thesaurus is a component of its own (its own licence), beside the
        # language's lexical component, which it needs to be served.
        if f"mythes-{lang}" in present and "lexical" in languages.get(lang, ()):
            stage = Stage(f"{lang}.thesaurus", (f"{lang}/thesaurus.sqlite",), (f"mythes-{lang}",),
                          st.thesaurus(lang), component=f"{lang}.lexical.thesaurus")  # fmt: skip
            add(stage, None, None)
    vectors = "glove-6b-50d" if "glove-6b-50d" in present else "numberbatch"
    if vectors in present:
        sem_langs: tuple[str, ...] = ("en",)
        if profile == "full" and vectors == "numberbatch":
            found = _languages_in(inputs.require(vectors), _URI_LANG, "vectors")
            sem_langs = tuple(lang for lang in ("en", *OTHER_LANGUAGES) if lang in found)
        for lang in sem_langs:
            outs = tuple(
                f"{lang}/{f}" for f in ("semantic.sqlite", "semantic.f16.npy", "semantic.usearch")
            )
            add(Stage(f"{lang}.semantic", outs, (vectors, "wordfreq"),
                      st.semantic(lang, vectors, SEMANTIC_VOCAB), cost=45),
                lang, "semantic")  # fmt: skip
    if present & {"cmudict", "cmudict-local"}:
        wp_sources = tuple(
            n
            for n in ("wordnet-3.1", "oewn", "cmudict", "cmudict-local", "wordfreq", "islex")
            if n in present
        )
        add(
            Stage("en.wordplay", ("en/wordplay.sqlite",), wp_sources, st.english_wordplay, cost=25),
            "en",
            "wordplay",
        )
    slang_sources = tuple(n for n in SLANG_NAMES if n in present)
    if slang_sources:
        add(Stage("shared.slang", ("slang.sqlite",), slang_sources, st.slang), None, None)
    lexical = {s.name.partition(".")[0]: s for s in stages if s.name.endswith(".lexical")}
    derived: list[str] = []
    if profile in ("starter", "registry") and vectors == "glove-6b-50d" and lexical:
        # Derived vectors read a finished lexical component; target entries only touch
        # `translations.target_entry` and term documents, which they do not read, so they
        # run beside the English stage, and target entries wait for them (`after`) rather
        # than rewrite a file one of them is reading.
        # The vocabulary is the language's most frequent words: without a wordfreq list
        # there is none to choose, so no component.
        freq = inputs.get("wordfreq")
        with_freq = [lang for lang in sorted(lexical) if freq is not None and freq.has(lang)]
        for lang in (lang for lang in with_freq if lang != "en"):
            outs = tuple(
                f"{lang}/{f}" for f in ("semantic.sqlite", "semantic.f16.npy", "semantic.usearch")
            )
            add(Stage(f"{lang}.semantic", outs, (vectors, "wordfreq"),
                      st.derived_semantic(lang, DERIVED_VOCAB, SEMANTIC_VOCAB),
                      needs=(lexical[lang].name,)), lang, "semantic")  # fmt: skip
            derived.append(f"{lang}.semantic")
    if lexical:
        # After the components it links; placed after every writer so that, run one stage
        # at a time, a killed build has checkpointed all of them before it starts.
        paths = {lang: stage.outputs[0] for lang, stage in lexical.items()}
        needs = tuple(stage.name for stage in lexical.values())
        add(
            Stage(
                "shared.target_entries",
                (),
                (),
                st.target_entries(paths),
                needs=needs,
                after=tuple(derived),
                cost=25,
            ),
            None,
            None,
        )
    add(
        Stage("shared.licenses", ("DATA_LICENSES.md",), tuple(inputs.sources), st.licences),
        None,
        None,
    )
    add(
        Stage("shared.sources", ("sources.lock.json",), tuple(inputs.sources), st.consumed_lock),
        None,
        None,
    )
    ordered = {lang: tuple(sorted(caps)) for lang, caps in languages.items()}
    return BuildPlan(profile, dataset_version, tuple(stages), ordered)


_WIKT_LANG = re.compile(rb'"lang_code":\s*"([a-z-]+)"')
_URI_LANG = re.compile(rb"^/c/([a-z-]+)/")
_PROBES: dict[tuple[str, str], frozenset[str]] = {}


def _languages_in(src: SourceInput, pattern: re.Pattern[bytes], role: str) -> frozenset[str]:
    """Languages a multilingual dump carries (one cheap scan per source per process).

    The full profile plans one component per language that is really there, so no
    release claims a capability it has no data for.
    """
    key = (src.spec.name, src.fingerprint)
    if key not in _PROBES:
        import gzip

        path = src.file(role)
        with open(path, "rb") as raw:
            gz = raw.read(2) == b"\x1f\x8b"
        found: set[str] = set()
        with gzip.open(path, "rb") if gz else open(path, "rb") as handle:
            for line in handle:
                match = pattern.search(line)
                if match:
                    found.add(match.group(1).decode())
        _PROBES[key] = frozenset(found)
    return _PROBES[key]


# Stages whose component belongs to another stage's capability: GCIDE's senses are part of
# a language's lexical data, in a file of their own.
_COMPONENT_CAPABILITY = {"gcide": "lexical"}


def dataset_json(plan: BuildPlan) -> dict[str, Any]:
    """The built directory's description (docs/architecture.md section 1)."""
    components: list[dict[str, Any]] = []
    for stage in plan.stages:
        language, _, capability = (stage.component or stage.name).partition(".")
        capability = capability.partition(".")[0]
        capability = _COMPONENT_CAPABILITY.get(capability, capability)
        for rel in stage.outputs:
            if stage.component:
                cid, lang, cap = stage.component, language, capability
            elif language == "shared":
                cid, lang, cap = stage.name, None, "shared"
            else:
                suffix = {
                    "semantic.sqlite": "vocab",
                    "semantic.f16.npy": "vectors",
                    "semantic.usearch": "index",
                }.get(Path(rel).name)
                cid = f"{stage.name}.{suffix}" if suffix else stage.name
                lang, cap = language, capability
            components.append({"id": cid, "language": lang, "capability": cap, "path": rel})
    return {
        "format": 1,
        "dataset_version": plan.dataset_version,
        "profile": plan.profile,
        "schemas": dict(SCHEMA_VERSIONS),
        "languages": {
            lang: {"name": LANGUAGE_NAMES.get(lang, lang), "capabilities": list(caps)}
            for lang, caps in sorted(plan.languages.items())
        },
        "components": components,
    }
