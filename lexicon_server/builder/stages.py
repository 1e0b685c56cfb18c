"""The stage functions a build plan runs; each writes its outputs atomically."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lexicon_server.builder.errors import BuildError
from lexicon_server.builder.language_tables import ISO3_TO_TAG
from lexicon_server.builder.lexical_stages import (
    WORDNET_PREFIX,
    iter_frequencies,
    write_bilingual_lexical,
    write_english_lexical,
)
from lexicon_server.builder.licences import render_licences
from lexicon_server.corpus.normalize import norm

if TYPE_CHECKING:
    from lexicon_server.builder.context import BuildContext
    from lexicon_server.builder.inputs import SourceInput

__all__ = [
    "bilingual_lexical",
    "consumed_lock",
    "derived_semantic",
    "english_gcide",
    "english_lexical",
    "english_wordplay",
    "licences",
    "multiwordnet_alignment",
    "semantic",
    "slang",
    "slang_member",
    "tag_of",
    "target_entries",
    "thesaurus",
    "wiktionary_lexical",
]

StageFn = Callable[["BuildContext"], Mapping[str, Any]]


def tag_of(iso3: str) -> str:
    return ISO3_TO_TAG.get(iso3, iso3)


def _aligned(ctx: BuildContext, language: str | None = None) -> Mapping[str, Any] | None:
    """The MultiWordNet alignment (`shared.multiwordnet`), when the build has a part."""
    from lexicon_server.builder import mwn_senses

    if not mwn_senses.parts(ctx.inputs, language):
        return None
    return mwn_senses.load(ctx.out, ctx.inputs)


def english_lexical(ctx: BuildContext) -> Mapping[str, Any]:
    return write_english_lexical(
        ctx.out / "en/lexical.sqlite",
        ctx.inputs,
        dataset_version=ctx.dataset_version,
        aligned=_aligned(ctx),
    )


def bilingual_lexical(language: str) -> StageFn:
    def run(ctx: BuildContext) -> Mapping[str, Any]:
        return write_bilingual_lexical(
            ctx.out / f"{language}/lexical.sqlite",
            language,
            ctx.inputs,
            dataset_version=ctx.dataset_version,
            aligned=_aligned(ctx, language),
        )

    return run


def thesaurus(language: str) -> StageFn:
    """`<lang>/thesaurus.sqlite` from the language's MyThes thesaurus."""

    def run(ctx: BuildContext) -> Mapping[str, Any]:
        from lexicon_server.builder.thesaurus_writer import write_thesaurus

        return write_thesaurus(
            ctx.out / f"{language}/thesaurus.sqlite",
            language,
            ctx.inputs.require(f"mythes-{language}"),
            dataset_version=ctx.dataset_version,
        )

    return run


def multiwordnet_alignment(ctx: BuildContext) -> Mapping[str, Any]:
    """Align the MultiWordNet parts once; the lexical stages read the file it writes."""
    from lexicon_server.builder import mwn_senses

    body = mwn_senses.compute(ctx.inputs)
    mwn_senses.write(ctx.out, body)
    report: dict[str, Any] = {lang: s["synsets"] for lang, s in body["stats"].items()}
    # Junk rows skipped (the build report's count for the rule; docs/source-formats.md).
    report["pseudogap_skipped"] = {lang: s["pseudogap"] for lang, s in body["stats"].items()}
    return report


def wiktionary_lexical(language: str) -> StageFn:
    def run(ctx: BuildContext) -> Mapping[str, Any]:
        from lexicon_server.builder.lexical_stages import write_wiktionary_lexical

        return write_wiktionary_lexical(
            ctx.out / f"{language}/lexical.sqlite",
            language,
            ctx.inputs,
            dataset_version=ctx.dataset_version,
        )

    return run


def target_entries(components: Mapping[str, str]) -> StageFn:
    """Mark each translation whose target word has an entry in this build (language -> path)."""

    def run(ctx: BuildContext) -> Mapping[str, Any]:
        from lexicon_server.builder.target_entries import link_target_entries

        return link_target_entries({lang: ctx.out / rel for lang, rel in components.items()})

    return run


def _zipf_map(ctx: BuildContext, language: str) -> dict[str, float]:
    """norm -> Zipf; the first (most frequent) spelling of a norm wins."""
    out: dict[str, float] = {}
    for row in iter_frequencies(ctx.inputs, language):
        out.setdefault(norm(row.word), row.zipf)
    return out


def semantic(language: str, vectors: str, limit: int) -> StageFn:
    def run(ctx: BuildContext) -> Mapping[str, Any]:
        from lexicon_server.builder.semantic_writer import vectors_by_language, write_semantic

        src = ctx.inputs.require(vectors)
        zipf = _zipf_map(ctx, language)
        if vectors == "glove-6b-50d":
            words, chosen = _glove_rows(src, limit)
        else:
            from lexicon_server.builder.parsers import vectors as vector_parser

            batches = vector_parser.iter_word2vec_text(
                src.file("vectors"), language="en", languages=[language]
            )
            grouped = vectors_by_language(batches, [language], limit)
            if language not in grouped:
                raise BuildError(f"{vectors} has no vectors for language {language!r}")
            words, chosen = grouped[language]
        stats = write_semantic(
            ctx.out / language,
            language=language,
            words=words,
            vectors=chosen,
            zipf=zipf,
            source=src.row(),
            dataset_version=ctx.dataset_version,
        )
        return {
            "words": stats.words,
            "dimensions": stats.dimensions,
            "recall_at_10": stats.recall_at_10,
        }

    return run


# One build worker makes several languages' derived vectors in turn; each needs the same
# English space (GloVe rows and English Zipf: about 1.5 CPU s to read), so a worker keeps
# the last one it read. Keyed by the sources' fingerprints, so it never outlives them.
_ENGLISH_SPACE: dict[tuple[str, ...], tuple[list[str], Any, dict[str, float]]] = {}


def _glove_rows(src: SourceInput, limit: int) -> tuple[list[str], Any]:
    """(words, float32 vectors) of the GloVe rows `glove_vocabulary` keeps for `limit`."""
    import numpy as np
    import pyarrow.parquet as pq

    from lexicon_server.builder.semantic_writer import glove_vocabulary

    all_words = [str(w) for w in pq.read_table(src.file("vocab")).column(0).to_pylist()]
    rows = glove_vocabulary(all_words, limit)
    matrix = np.asarray(np.load(src.file("vectors"), mmap_mode="r")[rows], dtype=np.float32)
    return [all_words[i] for i in rows], matrix


def _english_space(
    ctx: BuildContext, english_limit: int
) -> tuple[list[str], Any, dict[str, float]]:
    """(words, unit vectors, norm -> Zipf) of the English vocabulary derived vectors use."""
    import numpy as np

    src = ctx.inputs.require("glove-6b-50d")
    freq = ctx.inputs.get("wordfreq")
    key = (src.fingerprint, freq.fingerprint if freq else "", str(english_limit))
    if key not in _ENGLISH_SPACE:
        words, matrix = _glove_rows(src, english_limit)
        lengths = np.linalg.norm(matrix, axis=1, keepdims=True)
        matrix /= np.where(lengths == 0, 1, lengths)  # each translation counts by its weight
        _ENGLISH_SPACE.clear()
        _ENGLISH_SPACE[key] = (words, matrix, _zipf_map(ctx, "en"))
    return _ENGLISH_SPACE[key]


def derived_semantic(language: str, limit: int, english_limit: int) -> StageFn:
    """`<language>/semantic.*` from the language's translations into English (GloVe's
    space; see derived_vectors), read from the built lexical component."""

    def run(ctx: BuildContext) -> Mapping[str, Any]:
        from lexicon_server.builder.derived_vectors import derive
        from lexicon_server.builder.semantic_writer import write_semantic

        english_words, matrix, english_zipf = _english_space(ctx, english_limit)
        words, vectors, zipf = derive(
            ctx.out / language / "lexical.sqlite",
            english_words,
            matrix,
            english_zipf,
            limit=limit,
        )
        stats = write_semantic(
            ctx.out / language,
            language=language,
            words=words,
            vectors=vectors,
            zipf=zipf,
            source=ctx.inputs.require("glove-6b-50d").row(),
            dataset_version=ctx.dataset_version,
            extra_meta={"derived_from": "en"},
        )
        return {"words": stats.words, "recall_at_10": stats.recall_at_10}

    return run


def _headwords(ctx: BuildContext) -> Iterator[tuple[str, str, Sequence[str]]]:
    """(lemma, source, synset ids) for every WordNet member, in file order."""
    if (src := ctx.inputs.get("wordnet-3.1")) is not None:
        from lexicon_server.builder.parsers import wndb

        prefix = WORDNET_PREFIX[src.spec.name]
        for record in wndb.iter_synsets(src.file("data.noun").parent, prefix=prefix):
            for m in record.members:
                yield m.lemma, src.spec.name, (record.external_id,)
    if (src := ctx.inputs.get("oewn")) is not None:
        from lexicon_server.builder.parsers import lmf

        for record in lmf.iter_synsets(src.file("lmf")):
            for m in record.members:
                yield m.lemma, src.spec.name, (record.external_id,)


def english_gcide(ctx: BuildContext) -> Mapping[str, Any]:
    from lexicon_server.builder.gcide_writer import GCIDE_COMPONENT, write_gcide

    return write_gcide(
        ctx.out / GCIDE_COMPONENT, ctx.inputs.require("gcide"), dataset_version=ctx.dataset_version
    )


def english_wordplay(ctx: BuildContext) -> Mapping[str, Any]:
    from lexicon_server.builder.parsers import cmudict
    from lexicon_server.builder.wordplay_writer import write_wordplay

    name = "cmudict" if ctx.inputs.get("cmudict") else "cmudict-local"
    cmu = ctx.inputs.require(name)
    used_names = {"wordnet-3.1", "oewn", name, "islex"}
    used = [s for n, s in ctx.inputs.sources.items() if n in used_names]
    names = _islex_names(ctx)
    stats = write_wordplay(
        ctx.out / "en/wordplay.sqlite",
        pronunciations=cmudict.iter_pronunciations(cmu.file("dict")),
        headwords=_headwords(ctx),
        zipf=_zipf_map(ctx, "en"),
        sources=[s.row() for s in used],
        dataset_version=ctx.dataset_version,
        pronunciation_source=name,
        name_spellings=names,
    )
    return {
        "words": stats.words,
        "islex_name_spellings": len(names),
        "pronunciations": stats.pronunciations,
        "synset_links": stats.synset_links,
        "near_keys": stats.near_keys,
    }


def _islex_names(ctx: BuildContext) -> frozenset[str]:
    """Spellings ISLEX knows only as names or foreign words (none without ISLEX)."""
    if (src := ctx.inputs.get("islex")) is None:
        return frozenset()
    from lexicon_server.builder.islex_names import name_spellings
    from lexicon_server.builder.parsers import islex

    return name_spellings(islex.iter_entries(src.file("dict")))


def slang_member(src: SourceInput, role: str) -> Path:
    """A member of an npm artefact, or of a fixture directory laid out like the package
    without its `package/` folder (CLDR's locales all name their file `annotations.json`)."""
    if src.from_artefact or src.root.is_file():
        return src.file(role)
    return src.root / src.spec.files[role].removeprefix("package/")


SLANG_TRUST = {"genz-slang": "unreviewed"}  # every other slang source: 'curated'


def slang(ctx: BuildContext) -> Mapping[str, Any]:
    """The offline slang component from whichever of the four slang sources are present."""
    from lexicon_server.builder.parsers import emoji, genz, jargon
    from lexicon_server.builder.slang_writer import SlangSource, write_slang

    names = ("genz-slang", "jargon", "emojibase-emoticons", "cldr-annotations")
    present = {n: s for n in names if (s := ctx.inputs.get(n)) is not None}
    rows = []
    for name, src in present.items():
        row = src.row()
        rows.append(SlangSource(*(row.name, row.title, row.version, row.licence, row.url),
                                trust=SLANG_TRUST.get(name, "curated")))  # fmt: skip

    def annotations() -> Iterator[Any]:
        src = present["cldr-annotations"]
        for locale in src.spec.files:
            path = slang_member(src, locale)
            if path.is_file():
                yield from emoji.iter_annotations(path)

    counts = write_slang(
        ctx.out / "slang.sqlite",
        sources=rows,
        genz=genz.iter_entries(present["genz-slang"].file("slang")) if "genz-slang" in present
        else (),
        jargon=jargon.iter_entries(present["jargon"].file("index"), present["jargon"].file("dict"))
        if "jargon" in present else (),
        emoticons=emoji.iter_emoticons(slang_member(present["emojibase-emoticons"], "en"))
        if "emojibase-emoticons" in present else (),
        annotations=annotations() if "cldr-annotations" in present else (),
        dataset_version=ctx.dataset_version,
    )  # fmt: skip
    return counts


def _write_text_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


def licences(ctx: BuildContext) -> Mapping[str, Any]:
    text = render_licences(ctx.inputs.sources.values())
    _write_text_atomic(ctx.out / "DATA_LICENSES.md", text)
    return {"sources": len(ctx.inputs.sources)}


def consumed_lock(ctx: BuildContext) -> Mapping[str, Any]:
    """What this build read: registry artefacts by pinned sha256, local files by name and size."""
    body: dict[str, Any] = {}
    for name in sorted(ctx.inputs.sources):
        src = ctx.inputs.sources[name]
        entry: dict[str, Any] = {"title": src.spec.title, "version": src.spec.version}
        if src.from_artefact:
            entry |= {"registry": src.spec.registry, "package": src.spec.package,
                      "filename": src.spec.filename, "sha256": src.fingerprint}  # fmt: skip
        else:
            files = (
                sorted(p for p in src.root.rglob("*") if p.is_file())
                if src.root.is_dir()
                else [src.root]
            )
            entry["local_files"] = {
                str(p.relative_to(src.root)) if src.root.is_dir() else p.name: p.stat().st_size
                for p in files
            }
        body[name] = entry
    text = json.dumps({"format": 1, "sources": body}, indent=2, ensure_ascii=False) + "\n"
    _write_text_atomic(ctx.out / "sources.lock.json", text)
    return {"sources": len(body)}
