"""dictionary_lookup: senses of a word with examples, pronunciations and translations.

`limit` caps the senses. Examples, pronunciations and translations each have one total
budget for the whole response, dealt round-robin across the returned senses, so the
first sense cannot starve the others; a sense with more items than it received lists
the class in `truncated_fields`.

The result is built as plain JSON-ready data (`lookup_data`), exactly what
`LookupResult.model_dump(mode="json")` gives: one model object per example or
translation cost more than the SQL behind them. A word's rows are read by
`corpus.rows.documents`, from its term document or from the normalised tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pydantic_core import to_json

from lexicon_server.corpus.rows.documents import read_documents, read_tables
from lexicon_server.corpus.rows.facts import has_term_docs, sources
from lexicon_server.corpus.rows.translations import TranslationRow, language_key
from lexicon_server.models import MAX_RESPONSE_CHARS, LookupResult
from lexicon_server.query.arguments import check_budget, check_limit, check_text, corpus_language
from lexicon_server.query.budget import (
    EXAMPLE_CHARS,
    GLOSS_CHARS,
    Cuts,
    budget_data,
    json_bound,
    round_robin,
)
from lexicon_server.query.definitions import definition_keys, definition_senses
from lexicon_server.query.headwords import resolve_headwords
from lexicon_server.query.provenance import resolution_data
from lexicon_server.query.targets import installed_targets

if TYPE_CHECKING:
    from lexicon_server.corpus.reader import Corpus
    from lexicon_server.corpus.rows.facts import SourceTable

__all__ = ["DEFAULT_BUDGETS", "lookup", "lookup_data"]

_Json = dict[str, Any]

DEFAULT_BUDGETS = {"examples": 8, "pronunciations": 8, "translations": 20}


# --- the look-up --------------------------------------------------------------------------


def lookup_data(
    corpus: Corpus,
    word: str,
    language: str = "en",
    limit: int = 10,
    examples_limit: int = DEFAULT_BUDGETS["examples"],
    pronunciations_limit: int = DEFAULT_BUDGETS["pronunciations"],
    translations_limit: int = DEFAULT_BUDGETS["translations"],
    *,
    tables_only: bool = False,
) -> _Json:
    """Look `word` up in `language` (an inflected form resolves to its lemma): the result
    exactly as `LookupResult.model_dump(mode="json")` gives it, within the response
    budget. `tables_only` reads the normalised tables even where the release has term
    documents (to check one against the other)."""
    data, bound = _lookup_data(
        corpus,
        word,
        language,
        limit,
        examples_limit,
        pronunciations_limit,
        translations_limit,
        tables_only,
    )
    return _fit(data) if bound > MAX_RESPONSE_CHARS else data


def lookup(
    corpus: Corpus,
    word: str,
    language: str = "en",
    limit: int = 10,
    examples_limit: int = DEFAULT_BUDGETS["examples"],
    pronunciations_limit: int = DEFAULT_BUDGETS["pronunciations"],
    translations_limit: int = DEFAULT_BUDGETS["translations"],
) -> LookupResult:
    """`lookup_data` as the typed result, for in-process callers."""
    return LookupResult.model_validate(
        lookup_data(
            corpus, word, language, limit, examples_limit, pronunciations_limit, translations_limit
        )
    )


def _takes(counts: list[int], budget: int) -> list[int] | None:
    """`round_robin` over `counts`, or None when the budget covers every item (the usual
    case, which then needs no per-sense bookkeeping)."""
    return None if sum(counts) <= budget else round_robin(counts, budget)


def _infos_by_key(table: SourceTable) -> dict[str, str]:
    """Key -> licence, to describe the keys a result names."""
    return table.by_key


def _lookup_data(
    corpus: Corpus,
    word: str,
    language: str,
    limit: int,
    examples_limit: int,
    pronunciations_limit: int,
    translations_limit: int,
    tables_only: bool = False,
) -> tuple[_Json, int]:
    """The result as plain data (field order and values exactly as `LookupResult` dumps
    them), before the response budget, and a safe upper bound of its serialised size.

    Written for few Python operations per look-up (they cost as much as the SQL): the
    budgets are dealt only when a class has more items than its budget, and the size
    bound is summed while building."""
    word = check_text("word", word)
    language = corpus_language(corpus, "language", language)
    limit = check_limit("limit", limit)
    ex_budget = check_budget("examples_limit", examples_limit)
    pr_budget = check_budget("pronunciations_limit", pronunciations_limit)
    tr_budget = check_budget("translations_limit", translations_limit)
    conn = corpus.db(language, "lexical")
    table = sources(conn)
    keys = table.keys
    cuts = Cuts()
    heads = resolve_headwords(conn, word, language)
    term_ids = heads.term_ids
    rows = None
    documented = bool(term_ids) and not tables_only and has_term_docs(conn)
    # Documents hold every part of speech: an inflected form's senses come from the tables.
    if documented and not heads.entries:
        rows = read_documents(conn, term_ids, limit, tr_budget)
    if rows is None:
        rows = read_tables(conn, term_ids, limit, tr_budget, heads.entries, documented)
    chosen, total_senses, examples = rows.chosen, rows.total_senses, rows.examples
    by_sense, unsensed = rows.by_sense, rows.unsensed
    if total_senses > limit:
        cuts.add(f"senses: {total_senses - limit} more beyond limit={limit}")
    ids = [row[0] for row in chosen]

    ex_take = None
    if rows.example_count > ex_budget:
        ex_take = round_robin([len(examples.get(i, ())) for i in ids], ex_budget)
    prons, pron_count = _pronunciations(rows.pronunciations, chosen, keys)
    pr_take = None
    if ids and pron_count > pr_budget:
        pr_take = round_robin([len(prons.get(i, ())) for i in ids], pr_budget)
    # Translations not tied to a sense take their turn after the senses.
    tr_take = None
    unsensed_take = min(len(unsensed), tr_budget)
    shown_rows: list[TranslationRow] = []
    if by_sense:
        tr_take = _takes([len(by_sense.get(i, ())) for i in ids] + [len(unsensed)], tr_budget)
        if tr_take is not None:
            unsensed_take = tr_take[-1]
        for n, sense_id in enumerate(ids):
            have = by_sense.get(sense_id)
            if have:
                shown_rows += have if tr_take is None else have[: tr_take[n]]
    unsensed_rows = unsensed[:unsensed_take]
    shown_rows += unsensed_rows
    installed = installed_targets(corpus, shown_rows, rows.from_column) if shown_rows else set()
    named = {keys[row[4]] for row in shown_rows}  # the source keys the result cites

    # A safe upper bound of the serialised size (see json_bound): 6 per character of text,
    # 400 per object; counted while building.
    chars = len(word) + sum([len(t[1]) + len(t[3] or "") for t in shown_rows])
    items = len(shown_rows)
    clipped = False
    no_items: list[Any] = []
    senses: list[_Json] = []
    # Said once: the first sense's source, on the result; a sense names its own only where
    # it differs. So is a sense's headword where it is the word asked for.
    sense_source = keys[chosen[0][4]] if chosen else None
    for n, row in enumerate(chosen):
        sid, external_id, gloss, tags, source_id, _, pos, etymology, head, synset = row[:10]
        truncated: list[str] = []
        sense_examples = []
        ex_rows = examples.get(sid, no_items)
        if ex_take is not None and len(ex_rows) > ex_take[n]:
            truncated.append("examples")
            ex_rows = ex_rows[: ex_take[n]]
        sense_key = keys[source_id]
        for ex_row in ex_rows:  # (sense_id,) text, source_id
            text, ex_source = ex_row[-2], ex_row[-1]
            if len(text) > EXAMPLE_CHARS:
                text = cuts.clip(text, EXAMPLE_CHARS)
                clipped = True
            chars += len(text)
            ex_key = keys[ex_source]
            if ex_key == sense_key:  # an example names its source only where it differs
                sense_examples.append({"text": text})
            else:
                named.add(ex_key)
                sense_examples.append({"text": text, "source": ex_key})
        sense_prons = prons.get(sid, no_items)
        if pr_take is not None and len(sense_prons) > pr_take[n]:
            truncated.append("pronunciations")
            sense_prons = sense_prons[: pr_take[n]]
        for pron in sense_prons:
            named.add(pron["source"])
        sense_translations = no_items
        tr_rows = by_sense.get(sid) if by_sense else None
        if tr_rows:
            if tr_take is not None and len(tr_rows) > tr_take[n]:
                truncated.append("translations")
                tr_rows = tr_rows[: tr_take[n]]
            sense_translations = _translation_items(tr_rows, "sense", installed, keys)
        if len(gloss) > GLOSS_CHARS:
            gloss = cuts.clip(gloss, GLOSS_CHARS)
            clipped = True
        if etymology and len(etymology) > GLOSS_CHARS:
            etymology = cuts.clip(etymology, GLOSS_CHARS)
            clipped = True
        named.add(sense_key)
        chars += len(gloss) + len(etymology or "") + len(head) + len(tags)
        items += 1 + len(sense_examples) + len(sense_prons)
        # Field order as the model declares it; empty details and defaults are left out.
        sense: _Json = {"id": f"{language}:s{sid}"}
        if external_id is not None:
            sense["external_id"] = external_id
        if head != word:
            sense["word"] = head
        sense["pos"] = pos
        sense["gloss"] = gloss
        tag_list = tags.split() if tags else None
        if tag_list:
            sense["tags"] = tag_list
        if synset is not None:
            sense["synset"] = synset
        else:
            sense["sense_scope"] = "sense"
        if etymology:
            sense["etymology"] = etymology
        if sense_key != sense_source:
            sense["source"] = sense_key
        if sense_examples:
            sense["examples"] = sense_examples
        if sense_prons:
            sense["pronunciations"] = sense_prons
        if sense_translations:
            sense["translations"] = sense_translations
        if truncated:
            sense["truncated_fields"] = truncated
        senses.append(sense)
    # GCIDE's senses follow WordNet's, within the same `limit` and examples budget.
    norms, parts = definition_keys(heads, word)
    shown_examples = sum([len(s.get("examples", ())) for s in senses])
    gcide = definition_senses(
        corpus, language, norms, word, limit - len(senses), ex_budget - shown_examples,
        sense_source, cuts, parts,
    )  # fmt: skip
    if gcide.total:
        if gcide.total > len(gcide.senses):
            more = gcide.total - len(gcide.senses)
            cuts.add(f"gcide senses: {more} more beyond limit={limit}")
        if sense_source is None and gcide.senses:
            sense_source = "gcide"
            for sense in gcide.senses:
                if sense.get("source") == sense_source:
                    del sense["source"]
        senses += gcide.senses
        named.update(gcide.cited)
        chars += gcide.chars
        items += len(gcide.senses) + gcide.examples
        total_senses += gcide.total
    # A word the corpus only knows how to say (e.g. a CMUdict-only name).
    form_prons = prons.get(0, no_items)[:pr_budget] if not ids else []
    for pron in form_prons:
        named.add(pron["source"])
    resolutions = resolution_data(heads.resolutions)
    for r in heads.resolutions:
        chars += len(r.form) + len(r.lemma) + len(r.rule or "")
    named.update(heads.sources)
    infos = _infos_by_key(table)
    cited = {
        key: infos.get(key) or heads.sources.get(key) or gcide.cited[key] for key in sorted(named)
    }
    # Budget() is a model: built only when something was cut.
    cut = cuts.budget().cut if cuts.items or clipped or gcide.senses else []
    for key, info in cited.items():
        chars += len(key) + len(info)
    chars += sum([len(note) for note in cut])
    items += len(form_prons) + len(resolutions) + len(cited)
    bound = 2_000 + json_bound(items=items) + 6 * chars
    data: _Json = {
        "word": word,
        "language": language,
        "dataset_version": corpus.dataset_version,
        "found": bool(senses) or bool(unsensed) or pron_count > 0,
        "resolutions": resolutions,
        "count": len(senses),
        "total_senses": total_senses,
    }
    if sense_source is not None:
        data["sense_source"] = sense_source
    data["senses"] = senses
    # Optional fields at their defaults are left out (see LookupResult).
    if form_prons:
        data["pronunciations"] = form_prons
    if unsensed_rows:
        data["unsensed_translations"] = _translation_items(
            unsensed_rows, "unsensed", installed, keys
        )
    if len(unsensed) > len(unsensed_rows):
        data["unsensed_translations_truncated"] = True
    budgets = {"examples": ex_budget, "pronunciations": pr_budget, "translations": tr_budget}
    if budgets != DEFAULT_BUDGETS:
        data["budgets"] = budgets
    data["sources"] = cited
    if cut:  # else left out (see LookupResult)
        data["budget"] = budget_data(cut)
    return data, bound


def _translation_items(
    rows: list[TranslationRow], scope: str, installed: set[tuple[str, str]], keys: dict[int, str]
) -> list[_Json]:
    """Translation `rows` as `LanguageTranslations` sets: consecutive rows with the same
    target language and source share one set, so the language, scope and source are said
    once per set rather than once per word. The rows come in language turns; shown, they
    are put back in language order (a stable sort keeps each language's own order)."""
    out: list[_Json] = []
    items: list[_Json] = []
    current = None
    for t in sorted(rows, key=language_key):
        group = (t[0], t[4])
        if group != current:
            current = group
            items = []
            translations: _Json = {"target_language": t[0]}
            if scope != "unsensed":
                translations["sense_scope"] = scope
            translations["source"] = keys[t[4]]
            translations["items"] = items
            out.append(translations)
        item: _Json = {"text": t[1]} if t[3] is None else {"text": t[1], "note": t[3]}
        if (t[0], t[2]) not in installed:
            item["target_entry_installed"] = False
        items.append(item)
    return out


def _fit(data: _Json) -> _Json:
    """Drop trailing senses, then the unsensed translations, until the serialised result
    fits MAX_RESPONSE_CHARS; each drop is noted in `budget.cut`, and `sources` keeps only
    the keys the remaining facts name."""
    notes: list[str] = data.setdefault("budget", budget_data([])).setdefault("cut", [])
    while len(to_json(data).decode()) > MAX_RESPONSE_CHARS:
        if data["senses"]:
            data["senses"].pop()
            data["count"] = len(data["senses"])
            notes.append("senses: dropped the last sense to stay within the response budget")
        elif data.get("unsensed_translations"):
            del data["unsensed_translations"]
            data["unsensed_translations_truncated"] = True
            notes.append("unsensed translations: dropped to stay within the response budget")
        else:
            break
        named = {r["source"] for r in data["resolutions"] if "source" in r}
        named.update(p["source"] for p in data.get("pronunciations", ()))
        named.update(t["source"] for t in data.get("unsensed_translations", ()))
        if not data["senses"]:
            data.pop("sense_source", None)
        for sense in data["senses"]:
            sense_key = sense.get("source", data.get("sense_source"))
            named.add(sense_key)
            for kind in ("examples", "pronunciations", "translations"):
                named.update(item.get("source", sense_key) for item in sense.get(kind, ()))
        data["sources"] = {key: info for key, info in data["sources"].items() if key in named}
    if not notes:
        del data["budget"]
    return data


def _pronunciations(
    rows: Sequence[Sequence[Any]], chosen: list[Any], keys: dict[int, str]
) -> tuple[dict[int, list[_Json]], int]:
    """Pronunciation `rows` (entry_id, notation, value, variant, source_id) dealt to the
    senses: each goes to one sense only, the first returned sense of its entry, or the first
    returned sense at all when the source ties it to the written form. With no sense
    returned, written-form pronunciations are kept under key 0. Also returns how many were
    kept."""
    out: dict[int, list[_Json]] = {}
    if not rows:
        return out, 0
    # Entry -> its first returned sense (reversed: the first one written last wins).
    first_of_entry = {row[5]: row[0] for row in reversed(chosen)}
    first = chosen[0][0] if chosen else 0
    seen: set[tuple[str, str]] = set()
    count = 0
    for entry_id, notation, value, variant, source_id in rows:
        if (notation, value) in seen:
            continue
        if entry_id is None:
            owner = first
            scope = "term"
        elif entry_id in first_of_entry:
            owner = first_of_entry[entry_id]
            scope = "entry"
        else:
            continue
        seen.add((notation, value))
        count += 1
        item: _Json = {"notation": notation, "value": value}
        if variant:
            item["variant"] = variant
        if scope != "term":
            item["scope"] = scope
        item["source"] = keys[source_id]
        have = out.get(owner)
        if have is None:
            out[owner] = [item]
        else:
            have.append(item)
    return out, count
