"""The lexical components: which parsed records go into which language's database.

English (starter): WordNet 3.1 synsets, senses, examples and pointers; `index.sense`
ranks; WordNet 3.0 irregular forms; CMUdict pronunciations with IPA beside them (ISLEX,
else mapped: builder/pronunciations.py); FreeDict eng-xxx translations (unsensed:
FreeDict headwords carry no WordNet sense), with the FreeDict xxx-eng dictionaries read
the other way round as candidates too, all ranked by evidence
(builder/translation_rank.py); wordfreq Zipf values.
English (english/full): the same writer fed from OEWN (WN-LMF), Wiktextract and
ConceptNet. Other languages: the FreeDict xxx-eng dictionary builds the entries, one
sense per group of English equivalents, tied to translations into 'en'.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from itertools import count
from pathlib import Path
from typing import Any

from lexicon_server.builder import pronunciations
from lexicon_server.builder.inputs import Inputs, SourceInput
from lexicon_server.builder.language_tables import ISO3_TO_TAG
from lexicon_server.builder.lexical_writer import LexicalWriter, SourceRow
from lexicon_server.builder.moby_senses import MobyEdges, WordnetView, vector_similarity
from lexicon_server.builder.records import BilingualEntry, FrequencyRow, WiktEntry
from lexicon_server.builder.shared_parses import bilingual_entries

__all__ = [
    "conceptnet_relation",
    "freedict_pairs_into",
    "freedict_pairs_out_of",
    "iter_bilingual",
    "iter_frequencies",
    "write_bilingual_lexical",
    "write_english_lexical",
    "write_wiktionary_lexical",
]

WORDNET_PREFIX = {"wordnet-3.1": "wn31", "oewn": "oewn"}


def iter_frequencies(inputs: Inputs, language: str) -> Iterator[FrequencyRow]:
    src = inputs.get("wordfreq")
    if src is None or not src.has(language):
        return iter(())
    from lexicon_server.builder.parsers import wordfreq

    return wordfreq.iter_frequencies(src.file(language))


Tally = dict[str, dict[str, int]]  # source -> entry-grammar rule -> rows it touched


def iter_bilingual(src: SourceInput, tally: Tally | None = None) -> Iterator[BilingualEntry]:
    """A FreeDict dictionary's entries, parsed once per build (`shared_parses`); with
    `tally`, the entry-grammar rules' counts are added up under the source's name (the
    stage's build report, docs/source-formats.md "Entry grammar")."""
    entries = _parsed(src)
    return entries if tally is None else _tallied(entries, tally.setdefault(src.spec.name, {}))


def _each_bilingual(
    dictionaries: Iterable[SourceInput], tally: Tally
) -> Iterator[tuple[str, BilingualEntry]]:
    """(source name, entry) for every entry of `dictionaries`, in order, tallied."""
    for src in dictionaries:
        for entry in iter_bilingual(src, tally):
            yield src.spec.name, entry


def _tallied(entries: Iterable[BilingualEntry], counts: dict[str, int]) -> Iterator[BilingualEntry]:
    for entry in entries:
        for rule, rows in entry.cleaned:
            counts[rule] = counts.get(rule, 0) + rows
        yield entry


def _parsed(src: SourceInput) -> Iterator[BilingualEntry]:
    from lexicon_server.builder.parsers import dictd

    pair = src.spec.name.removeprefix("freedict-")
    a, b = pair.split("-")
    return bilingual_entries(
        src.spec.name,
        src.fingerprint,
        lambda: dictd.iter_entries(
            src.file("index"),
            src.file("dict"),
            source_language=ISO3_TO_TAG[a],
            target_language=ISO3_TO_TAG[b],
        ),
    )


def freedict_pairs_out_of(inputs: Inputs, language: str) -> list[SourceInput]:
    """FreeDict dictionaries whose headwords are in `language`, in catalogue order."""
    return [
        s
        for name, s in inputs.sources.items()
        if name.startswith("freedict-") and ISO3_TO_TAG[name.split("-")[1]] == language
    ]


def freedict_pairs_into(inputs: Inputs, language: str) -> list[SourceInput]:
    return [
        s
        for name, s in inputs.sources.items()
        if name.startswith("freedict-") and ISO3_TO_TAG[name.split("-")[2]] == language
    ]


def _add_wordnet_wndb(w: LexicalWriter, src: SourceInput, view: WordnetView | None) -> None:
    from lexicon_server.builder.parsers import wndb

    prefix = WORDNET_PREFIX[src.spec.name]
    dict_dir = src.file("data.noun").parent
    for record in wndb.iter_synsets(dict_dir, prefix=prefix):
        w.synset(record, src.spec.name)
        if view is not None:
            view.add(record, w.last_sense_ids)
    if src.has("index.sense"):
        w.sense_ranks(wndb.iter_sense_index(src.file("index.sense"), prefix=prefix))


def _add_exceptions(w: LexicalWriter, src: SourceInput) -> None:
    from lexicon_server.builder.parsers import wndb

    for pos in ("noun", "verb", "adj", "adv"):
        role = f"{pos}.exc"
        if src.has(role):
            w.inflections(wndb.iter_exceptions(src.file(role), pos), src.spec.name)


def _add_lmf(w: LexicalWriter, src: SourceInput, view: WordnetView | None) -> None:
    from lexicon_server.builder.parsers import lmf

    path = src.file("lmf")
    for record in lmf.iter_synsets(path):
        w.synset(record, src.spec.name)
        if view is not None:
            view.add(record, w.last_sense_ids)
    w.sense_ranks(lmf.iter_sense_ranks(path))


def _add_freedict_translations(w: LexicalWriter, src: SourceInput, tally: Tally) -> None:
    for entry in iter_bilingual(src, tally):
        term_id = w.term(entry.headword)
        for text, note in zip(entry.translations, entry.sense_notes, strict=False):
            w.translation(term_id, entry.target_language, text, src.spec.name, note=note)


def _add_reverse_dictionary(w: LexicalWriter, src: SourceInput, tally: Tally) -> None:
    """A FreeDict xxx-eng dictionary: candidates where the English side is a term here,
    and ranking evidence for every pair (see `LexicalWriter.reverse_dictionary`)."""
    language = ISO3_TO_TAG[src.spec.name.split("-")[1]]
    w.reverse_dictionary(
        language,
        ((e.headword, e.translations, e.pos) for e in iter_bilingual(src, tally)),
        src.spec.name,
    )


def _add_target_frequencies(w: LexicalWriter, inputs: Inputs) -> None:
    """wordfreq of every language English translates into here, for ranking."""
    targets = {ISO3_TO_TAG[s.spec.name.split("-")[2]] for s in freedict_pairs_out_of(inputs, "en")}
    freq = inputs.get("wordfreq")
    if freq is None:
        return
    # Only the languages wordfreq has a list for (10 of the registry's 30); each list is
    # read when its turn comes.
    lists = {lang: iter_frequencies(inputs, lang) for lang in sorted(targets) if freq.has(lang)}
    if lists:
        w.target_frequencies(lists)


def _add_wiktionary(w: LexicalWriter, entries: Iterable[WiktEntry], source: str) -> None:
    for e in entries:
        if e.language != w.language:
            continue
        term_id = w.term(e.word)
        entry_id = w.entry(term_id, e.pos, source, e.etymology)
        for variant, ipa in enumerate(e.ipa):
            w.pronunciation(term_id, "ipa", ipa, variant, source, entry_id=entry_id)
        for rank, s in enumerate(e.senses):
            sense_id = w.sense(
                entry_id, s.gloss, source, rank=rank, external_id=s.sense_id, tags=s.tags
            )
            for text in s.examples:
                w.example(sense_id, text, source)
            for t in s.translations:
                w.translation(
                    term_id, t.language, t.word, source, sense_id=sense_id, note=t.sense_hint
                )
        for t in e.translations:
            w.translation(term_id, t.language, t.word, source, note=t.sense_hint)


def _add_conceptnet(w: LexicalWriter, src: SourceInput) -> None:
    from lexicon_server.builder.parsers import conceptnet

    for a in conceptnet.iter_assertions(src.file("assertions")):
        if a.start_language != w.language:
            continue
        relation = conceptnet_relation(a.relation)
        if relation is None:
            continue
        term_id = w.term(a.start_text)
        w.term_relation(
            relation, term_id, a.end_language, a.end_text, src.spec.name, weight=a.weight
        )


def _add_moby(
    w: LexicalWriter, src: SourceInput, inputs: Inputs, view: WordnetView | None
) -> dict[str, int]:
    """Moby's terms as ranked unsensed edges, and those tied to one WordNet sense."""
    from lexicon_server.builder.parsers import moby

    similarity = None
    if (glove := inputs.get("glove-6b-50d")) is not None:
        import numpy as np
        import pyarrow.parquet as pq

        words = [str(x) for x in pq.read_table(glove.file("vocab")).column(0).to_pylist()]
        similarity = vector_similarity(words, np.load(glove.file("vectors")))
    edges = MobyEdges(moby.iter_entries(src.file("words")), similarity)
    name = src.spec.name
    attached = 0
    ranked = edges.boosted(view) if view is not None else ((r, s) for r, _, s in edges.roots)
    unsensed = w.term_synonyms(ranked, name)
    if view is not None:
        for a in edges.attachments(view):
            w.sense_term_relation("synonym", a.sense_id, a.term, name)
            attached += 1
    return {"moby_unsensed": unsensed, "moby_attached": attached}


def conceptnet_relation(name: str) -> str | None:
    """ConceptNet's 'IsA'/'RelatedTo' as the corpus's snake_case names ('is_a', 'related_to').

    Links out of the graph (ExternalURL) and the namespaced DBpedia relations
    ('dbpedia/genre') are not word relations and are left out.
    """
    if "/" in name or name == "ExternalURL":
        return None
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def write_english_lexical(
    path: Path,
    inputs: Inputs,
    *,
    dataset_version: str,
    wiktextract_language: str = "en",
    aligned: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Write `en/lexical.sqlite` from whichever English sources `inputs` carries.

    `aligned` (mwn_senses) adds MultiWordNet's sense-tied translations to WordNet senses.
    """
    used = [
        s
        for name, s in inputs.sources.items()
        if name in {"wordnet-3.1", "oewn", "wordnet-3.0-exc", "cmudict", "cmudict-local", "islex"}
        or (name == "simplemma" and s.has("en"))
        or name in {"wiktextract", "conceptnet", "moby"}
        or (name.startswith("freedict-eng-"))
        or (aligned is not None and name.startswith("multiwordnet-"))
    ]
    # The xxx-eng dictionaries read the other way round add candidates and rank them all.
    reverse = freedict_pairs_into(inputs, "en")
    used += reverse
    w = _writer(path, "en", dataset_version, used, pronunciations.source_rows(inputs))
    # Moby's sense attachment needs WordNet's senses and links, gathered while they stream.
    view = WordnetView() if "moby" in inputs.sources else None
    extra: dict[str, int] = {}
    tally: Tally = {}
    with _aborting_on_error(w):
        if (src := inputs.get("wordnet-3.1")) is not None:
            _add_wordnet_wndb(w, src, view)
            if aligned is not None:
                from lexicon_server.builder.mwn_senses import add_english_translations

                add_english_translations(w, aligned)
        if (src := inputs.get("oewn")) is not None:
            _add_lmf(w, src, view)
        if (src := inputs.get("wiktextract")) is not None:
            from lexicon_server.builder.parsers import kaikki

            entries = kaikki.iter_entries(src.file("jsonl"), languages=(wiktextract_language,))
            _add_wiktionary(w, entries, src.spec.name)
            w.inflections(
                kaikki.iter_inflections(src.file("jsonl"), language=wiktextract_language),
                src.spec.name,
            )
        if (src := inputs.get("wordnet-3.0-exc")) is not None:
            _add_exceptions(w, src)
        pronunciations.add_pronunciations(w, inputs)
        for src in freedict_pairs_out_of(inputs, "en"):
            _add_freedict_translations(w, src, tally)
        for src in reverse:
            _add_reverse_dictionary(w, src, tally)
        _add_target_frequencies(w, inputs)
        if (src := inputs.get("conceptnet")) is not None:
            _add_conceptnet(w, src)
        _add_lemma_table(w, inputs, "en")
        if (src := inputs.get("moby")) is not None:
            extra = _add_moby(w, src, inputs, view)
            view = None  # free it before the writer's finishing passes
        w.frequencies(iter_frequencies(inputs, "en"))
    return {**w.finish(), **extra, **_report(tally)}


def _report(tally: Tally) -> dict[str, Any]:
    """The stage's entry-grammar counts, when any rule fired."""
    cleaned = {name: dict(sorted(c.items())) for name, c in tally.items() if c}
    return {"cleaned": cleaned} if cleaned else {}


def write_bilingual_lexical(
    path: Path,
    language: str,
    inputs: Inputs,
    *,
    dataset_version: str,
    aligned: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Write `<lang>/lexical.sqlite` from the FreeDict `<lang>-eng` dictionary.

    Each headword becomes an entry; the English equivalents that share a usage note form
    one sense, whose gloss lists them and whose translations into 'en' are tied to it.
    Dictionaries into other languages (deu-swe) add unsensed translations, not senses: a
    German word's senses are glossed in English, not in Swedish (only a language with no
    dictionary into English builds its senses from them). `aligned` (mwn_senses) adds the
    language's MultiWordNet synsets after them.
    """
    dictionaries = freedict_pairs_out_of(inputs, language)
    glossing = [s for s in dictionaries if s.spec.name.endswith("-eng")] or dictionaries
    extra = [] if aligned is None else [inputs.require(n) for n in _mwn_parts(inputs, language)]
    if (lemmas := inputs.get("simplemma")) is not None and lemmas.has(language):
        extra.append(lemmas)
    if not dictionaries:
        return _write_inverted_lexical(
            path, language, inputs, dataset_version=dataset_version, aligned=aligned, extra=extra
        )
    w = _writer(path, language, dataset_version, [*dictionaries, *extra])
    ranks: defaultdict[int, count[int]] = defaultdict(count)  # an entry's next sense rank
    tally: Tally = {}
    with _aborting_on_error(w):
        for name, entry in _each_bilingual(glossing, tally):
            term_id = w.term(entry.headword)
            entry_id = w.entry(term_id, entry.pos or "unknown", name)
            groups: dict[str | None, list[str]] = {}
            for text, note in zip(entry.translations, entry.sense_notes, strict=False):
                clean = " ".join(text.split())
                if clean and clean not in groups.setdefault(note, []):
                    groups[note].append(clean)
            for note, texts in groups.items():
                if not texts:
                    continue
                gloss = "; ".join(texts) if note is None else f"({note}) " + "; ".join(texts)
                sense_id = w.sense(entry_id, gloss, name, rank=next(ranks[entry_id]))
                for text in texts:
                    w.translation(term_id, entry.target_language, text, name, sense_id=sense_id)
        for src in dictionaries:
            if src not in glossing:
                _add_freedict_translations(w, src, tally)
        _add_ranking(w, inputs, language, {e.spec.name.split("-")[2] for e in dictionaries})
        _add_language_wordnet_lemmas_and_frequencies(w, inputs, language, aligned)
    return {**w.finish(), **_report(tally)}


def _add_ranking(w: LexicalWriter, inputs: Inputs, language: str, targets: set[str]) -> None:
    """The evidence that ranks `language`'s translations, as the English component's are
    ranked (`translation_rank`): the eng-xxx dictionary read the other way round (does
    'read' list 'lesen'?), and wordfreq of the targets' languages (`targets`, ISO 639-3):
    English where eng-xxx is given, each other language (Swedish from deu-swe) always."""
    back = [
        s
        for s in freedict_pairs_out_of(inputs, "en")
        if ISO3_TO_TAG[s.spec.name.split("-")[2]] == language
    ]
    for src in back:
        w.back_translations(
            "en", ((e.headword, text) for e in iter_bilingual(src) for text in e.translations)
        )
    ranked = sorted(ISO3_TO_TAG[t] for t in targets if t != "eng")
    if back:
        ranked.insert(0, "en")
    freq = inputs.get("wordfreq")
    lists = {t: iter_frequencies(inputs, t) for t in ranked if freq is not None and freq.has(t)}
    if lists:
        w.target_frequencies(lists)


@contextmanager
def _aborting_on_error(w: LexicalWriter) -> Iterator[None]:
    """Fill `w` in the block; if the block fails, the writer's temporary file goes."""
    try:
        yield
    except BaseException:
        w.abort()
        raise


def _writer(
    path: Path,
    language: str,
    dataset_version: str,
    used: Sequence[SourceInput],
    more_rows: Iterable[SourceRow] = (),
) -> LexicalWriter:
    """A writer declaring the `used` sources (then `more_rows`) and built from `used`."""
    return LexicalWriter(
        path,
        language=language,
        dataset_version=dataset_version,
        sources=[*(s.row() for s in used), *more_rows],
        built_from=",".join(s.spec.name for s in used),
    )


def _add_language_wordnet_lemmas_and_frequencies(
    w: LexicalWriter, inputs: Inputs, language: str, aligned: Mapping[str, Any] | None
) -> None:
    """What every FreeDict-based component ends with: its MultiWordNet synsets (when
    `aligned`), its lemma table and its wordfreq ranks."""
    if aligned is not None:
        from lexicon_server.builder.mwn_senses import add_language_wordnet

        add_language_wordnet(w, aligned, language)
    _add_lemma_table(w, inputs, language)
    w.frequencies(iter_frequencies(inputs, language))


def _add_lemma_table(w: LexicalWriter, inputs: Inputs, language: str) -> None:
    from lexicon_server.builder.lemma_tables import add_lemma_table

    add_lemma_table(w, inputs, language)


def _mwn_parts(inputs: Inputs, language: str) -> list[str]:
    from lexicon_server.builder.mwn_senses import parts

    return parts(inputs, language)


def _write_inverted_lexical(
    path: Path,
    language: str,
    inputs: Inputs,
    *,
    dataset_version: str,
    aligned: Mapping[str, Any] | None = None,
    extra: list[SourceInput] | None = None,
) -> dict[str, Any]:
    """A language FreeDict only translates into (Russian, Hindi): its words are the
    translations of the dictionaries into it, each with one sense per headword it renders
    ('(from en) bank'), tied to a translation back to that headword."""
    dictionaries = freedict_pairs_into(inputs, language)
    used = [*dictionaries, *(extra or [])]
    w = _writer(path, language, dataset_version, used)
    ranks: defaultdict[int, count[int]] = defaultdict(count)  # an entry's next sense rank
    tally: Tally = {}
    with _aborting_on_error(w):
        for name, entry in _each_bilingual(dictionaries, tally):
            for text in dict.fromkeys(" ".join(t.split()) for t in entry.translations):
                if not text:
                    continue
                term_id = w.term(text)
                entry_id = w.entry(term_id, entry.pos or "unknown", name)
                gloss = f"(from {entry.source_language}) {entry.headword}"
                sense_id = w.sense(entry_id, gloss, name, rank=next(ranks[entry_id]))
                w.translation(
                    term_id, entry.source_language, entry.headword, name, sense_id=sense_id
                )
        _add_language_wordnet_lemmas_and_frequencies(w, inputs, language, aligned)
    return {**w.finish(), **_report(tally)}


def write_wiktionary_lexical(
    path: Path, language: str, inputs: Inputs, *, dataset_version: str
) -> dict[str, int]:
    """Write `<lang>/lexical.sqlite` from Wiktextract entries of that language (full profile).

    ConceptNet edges starting in the language are added unsensed, as in English.
    """
    used = [s for n, s in inputs.sources.items() if n in {"wiktextract", "conceptnet"}]
    w = _writer(path, language, dataset_version, used)
    with _aborting_on_error(w):
        if (src := inputs.get("wiktextract")) is not None:
            from lexicon_server.builder.parsers import kaikki

            entries = kaikki.iter_entries(src.file("jsonl"), languages=(language,))
            _add_wiktionary(w, entries, src.spec.name)
            w.inflections(
                kaikki.iter_inflections(src.file("jsonl"), language=language), src.spec.name
            )
        if (src := inputs.get("conceptnet")) is not None:
            _add_conceptnet(w, src)
        w.frequencies(iter_frequencies(inputs, language))
    return w.finish()
