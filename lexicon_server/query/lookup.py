"""dictionary_lookup: senses of a word with examples, pronunciations and translations.

`limit` caps the senses. Examples, pronunciations and translations each have one total
budget for the whole response, dealt round-robin across the returned senses, so the
first sense cannot starve the others; a sense with more items than it received lists
the class in `truncated_fields`.

The result is built as plain JSON-ready data (`lookup_data`), exactly what
`LookupResult.model_dump(mode="json")` gives: one model object per example or
translation cost more than the SQL behind them. A word's rows come from its term document
when the release has one that covers the request (lexicon_server/corpus/term_docs.py),
else from the normalised tables; both give the same answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from pydantic_core import from_json, to_json

from lexicon_server.corpus import term_docs
from lexicon_server.corpus.connection import kept
from lexicon_server.corpus.term_docs import in_language_turns
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
from lexicon_server.query.facts import has_index, has_term_docs
from lexicon_server.query.headwords import (
    entry_filter,
    entry_filter_args,
    resolve_headwords,
    term_order,
    term_order_args,
)
from lexicon_server.query.provenance import resolution_data, sources
from lexicon_server.query.targets import installed_targets, target_entry_column

if TYPE_CHECKING:
    import sqlite3

    from lexicon_server.corpus.reader import Corpus
    from lexicon_server.query.provenance import SourceTable

__all__ = ["DEFAULT_BUDGETS", "lookup", "lookup_data"]

_Json = dict[str, Any]

DEFAULT_BUDGETS = {"examples": 8, "pronunciations": 8, "translations": 20}


def _marks(count: int) -> str:
    return ",".join("?" * count)


_SENSE_SELECT = (
    "SELECT s.id, s.external_id, s.gloss, s.tags, s.source_id, e.id, e.pos, e.etymology, "
    "t.text, sy.external_id, s.synset_id{extra} "
    "FROM entries e JOIN terms t ON t.id = e.term_id JOIN senses s ON s.entry_id = e.id "
    "LEFT JOIN synsets sy ON sy.id = s.synset_id "
    "WHERE e.term_id IN ({marks}){entries} ORDER BY {first}e.term_id, e.id, s.rank, s.id LIMIT ?"
)


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


# Statements by kind and number of bound ids, formatted once (the joins and formats showed
# in profiles). Few distinct shapes exist: ids come in small counts.
_SQL_TEMPLATES = {
    # The chosen senses, each row also carrying the total: SQLite runs an uncorrelated
    # subquery once per statement, so a polysemous word needs no second statement.
    "senses": _SENSE_SELECT.replace(
        "{extra}",
        ", (SELECT count(*) FROM entries e2 JOIN senses s2 ON s2.entry_id = e2.id "
        "WHERE e2.term_id IN ({marks}){entries2})",
    ),
    "examples": "SELECT sense_id, text, source_id FROM examples WHERE sense_id IN ({marks}) "
    "ORDER BY sense_id, id",
    "pronunciations": "SELECT entry_id, notation, value, variant, source_id FROM pronunciations "
    "WHERE term_id IN ({marks}) ORDER BY {first}term_id, variant, notation, id",
}
# Translation rows: target_language, target_text, target_norm, note, source_id,
# target_entry (NULL from a database without the column), then sense_id for sensed ones.
_TRANSLATION_COLUMNS = "target_language, target_text, target_norm, note, source_id, {entry}"
_SENSED = {
    # The returned senses belong to these terms: read only their translations, not every
    # translation of a polysemous word.
    "indexed": "WHERE sense_id IN ({smarks})",
    # A release built before the translations_sense index.
    "unindexed": "WHERE term_id IN ({marks}) AND sense_id IN ({smarks})",
}


def _translation_sql() -> dict[str, str]:
    out = {}
    for entry, column in (("col", "target_entry"), ("nocol", "NULL")):
        columns = _TRANSLATION_COLUMNS.replace("{entry}", column)
        for plan, where in _SENSED.items():
            out[f"sensed-{plan}-{entry}"] = (
                f"SELECT {columns}, sense_id FROM translations {where} ORDER BY target_language, id"
            )
        # One term's unsensed rows, each with its id (as the documents hold them), in
        # (term, target language, id) key order: turns need every language's first rows.
        out[f"unsensed-{entry}"] = (
            f"SELECT {columns}, id FROM translations WHERE term_id = ? AND sense_id IS NULL"
        )
    return out


_SQL_TEMPLATES.update(_translation_sql())
_SQL_TEMPLATES["documents-of"] = "SELECT term_id, doc FROM term_docs WHERE term_id IN ({marks})"
_SQL_TEMPLATES["documents"] = (
    "SELECT doc FROM term_docs WHERE term_id IN ({marks}) ORDER BY {first}term_id"
)
# Statements over several terms start their ORDER BY with the best-matching term (see
# common.term_order), bound after the term ids.
_TERM_COLUMN = {
    "senses": "e.term_id",
    "pronunciations": "term_id",
    "documents": "term_id",
}
_SQL_CACHE: dict[tuple[str, int, int, int], str] = {}


def _sql(kind: str, marks: int, smarks: int = 0, parts: int = 0) -> str:
    """The statement `kind` for `marks` term ids, `smarks` sense ids and, for senses,
    `parts` (term, part of speech) entries to keep (see common.entry_filter)."""
    key = (kind, marks, smarks, parts)
    sql = _SQL_CACHE.get(key)
    if sql is None:
        column = _TERM_COLUMN.get(kind)
        sql = _SQL_TEMPLATES[kind].format(
            marks=_marks(marks),
            smarks=_marks(smarks),
            first=term_order(column, marks, parts) if column else "",
            entries=entry_filter("e", parts),
            entries2=entry_filter("e2", parts),
        )
        _SQL_CACHE[key] = sql
    return sql


def _takes(counts: list[int], budget: int) -> list[int] | None:
    """`round_robin` over `counts`, or None when the budget covers every item (the usual
    case, which then needs no per-sense bookkeeping)."""
    return None if sum(counts) <= budget else round_robin(counts, budget)


def _infos_by_key(table: SourceTable) -> dict[str, dict[str, str]]:
    """Key -> SourceInfo fields, to describe the keys a result names."""
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
        rows = _read_documents(conn, term_ids, limit, tr_budget)
    if rows is None:
        rows = _read_tables(
            conn, term_ids, limit, tr_budget, entry_filter_args(heads.entries), documented
        )
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
    shown_rows: list[_TranslationRow] = []
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
    # A word the corpus only knows how to say (e.g. a CMUdict-only name).
    form_prons = prons.get(0, no_items)[:pr_budget] if not ids else []
    for pron in form_prons:
        named.add(pron["source"])
    resolutions = resolution_data(heads.resolutions)
    for r in heads.resolutions:
        chars += len(r.form) + len(r.lemma) + len(r.rule or "")
    named.update(heads.sources)
    infos = _infos_by_key(table)
    cited = {key: {**(infos.get(key) or heads.sources[key])} for key in sorted(named)}
    # Budget() is a model: built only when something was cut.
    cut = cuts.budget().cut if cuts.items or clipped else []
    for key, info in cited.items():
        chars += len(key) + len(info["title"]) + len(info["version"]) + len(info["licence"])
    chars += sum([len(note) for note in cut])
    items += len(form_prons) + len(resolutions) + len(cited)
    bound = 2_000 + json_bound(items=items) + 6 * chars
    data: _Json = {
        "word": word,
        "language": language,
        "dataset_version": corpus.dataset_version,
        "found": bool(chosen) or bool(unsensed) or pron_count > 0,
        "resolutions": resolutions,
        "count": len(senses),
        "total_senses": total_senses,
        "senses": senses,
    }
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
    data["budget"] = budget_data(cut)
    return data, bound


def _translation_items(
    rows: list[_TranslationRow], scope: str, installed: set[tuple[str, str]], keys: dict[int, str]
) -> list[_Json]:
    """Translation `rows` as `LanguageTranslations` sets: consecutive rows with the same
    target language and source share one set, so the language, scope and source are said
    once per set rather than once per word. The rows come in language turns; shown, they
    are put back in language order (a stable sort keeps each language's own order)."""
    out: list[_Json] = []
    items: list[_Json] = []
    current = None
    for t in sorted(rows, key=_language):
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
    notes: list[str] = data["budget"].setdefault("cut", [])
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
        for sense in data["senses"]:
            named.add(sense["source"])
            for kind in ("examples", "pronunciations", "translations"):
                named.update(item.get("source", sense["source"]) for item in sense.get(kind, ()))
        data["sources"] = {key: info for key, info in data["sources"].items() if key in named}
    if not notes:
        del data["budget"]["cut"]
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


# --- reading a term's rows: from the tables, or from its term document ---------------------


@dataclass(slots=True)
class _Rows:
    """What a look-up read for its terms, before the budgets are dealt."""

    # Sense rows; [:10] = id, external_id, gloss, tags, source_id, entry_id, pos,
    # etymology, word, synset.
    chosen: list[Any]
    total_senses: int
    examples: dict[int, list[Any]]  # sense id -> example rows ending (text, source_id)
    example_count: int
    pronunciations: Sequence[Sequence[Any]]  # entry_id, notation, value, variant, source_id
    # Translation rows (see _TRANSLATION_COLUMNS), at most budget + 1 per group, without
    # duplicates.
    by_sense: dict[int, list[_TranslationRow]]
    unsensed: list[_TranslationRow]
    from_column: bool  # whether target_entry (or a document's flag) is known


def _read_tables(
    conn: sqlite3.Connection,
    term_ids: tuple[int, ...],
    limit: int,
    tr_budget: int,
    entries: tuple[int | str, ...] = (),
    documented: bool = False,
) -> _Rows:
    """The rows from the normalised tables: only the senses shown are read (a polysemous
    word such as 'set' has dozens more), of the (term, part of speech) pairs flattened in
    `entries` only, when given (see common.entry_filter). With `documented` (the release
    has term documents), a term's unsensed translations come from its document when it
    has one."""
    if not term_ids:
        return _Rows([], 0, {}, 0, [], {}, [], False)
    nterms = len(term_ids)
    best = term_order_args(term_ids)
    params = (*term_ids, *entries, *term_ids, *entries, *best, limit)
    chosen = conn.execute(_sql("senses", nterms, 0, len(entries) // 2), params).fetchall()
    total_senses = chosen[0][11] if chosen else 0
    ids = [row[0] for row in chosen]
    examples: dict[int, list[Any]] = {}
    example_count = 0
    if ids:
        rows = conn.execute(_sql("examples", len(ids)), ids).fetchall()
        example_count = len(rows)
        for ex_row in rows:
            have = examples.get(ex_row[0])
            if have is None:
                examples[ex_row[0]] = [ex_row]
            else:
                have.append(ex_row)
    prons = conn.execute(_sql("pronunciations", nterms), (*term_ids, *best)).fetchall()
    from_column = target_entry_column(conn)
    by_sense, unsensed = _translations(conn, term_ids, ids, tr_budget, from_column, documented)
    return _Rows(
        chosen, total_senses, examples, example_count, prons, by_sense, unsensed, from_column
    )


def _read_documents(
    conn: sqlite3.Connection, term_ids: tuple[int, ...], limit: int, tr_budget: int
) -> _Rows | None:
    """The same rows from the terms' documents: one record per term instead of five
    statements over some thirty pages. The documents already hold each group without
    duplicates, in the tables' order. None when a term has no document (no sense) or the
    look-up asks for more than a document holds."""
    cap = tr_budget + 1
    if limit > term_docs.SENSES or cap > term_docs.TRANSLATIONS:
        return None
    best = term_order_args(term_ids)
    found = conn.execute(_sql("documents", len(term_ids)), (*term_ids, *best)).fetchall()
    if len(found) != len(term_ids):
        return None
    # Strings are not interned: few repeat within a document, and the cache costs time.
    docs = [from_json(row[0], cache_strings=False) for row in found]
    if len(docs) == 1:
        total, senses, prons, unsensed = docs[0]
        unsensed = unsensed[:cap]
    else:  # several terms (e.g. 'be' and 'Be'): merge as the tables' ORDER BY does
        total = sum([doc[0] for doc in docs])
        senses = [sense for doc in docs for sense in doc[1]]
        prons = [pron for doc in docs for pron in doc[2]]
        unsensed = _dealt([row for doc in docs for row in doc[3]], cap)
    chosen = senses[:limit]
    examples = {row[0]: row[10] for row in chosen if row[10]}
    by_sense = {row[0]: row[11][:cap] for row in chosen if row[11]}
    example_count = sum([len(items) for items in examples.values()])
    return _Rows(chosen, total, examples, example_count, prons, by_sense, unsensed, True)


# Sort keys of translation rows (C-level, which matters at ~20 rows a look-up).
_language = itemgetter(0)
_language_then_id = itemgetter(0, 6)


_TranslationRow = tuple[Any, ...]  # see _TRANSLATION_COLUMNS


# Whether a database has any sense-attached translation (the starter's FreeDict ones are
# all unsensed): when it has none, the per-sense statement is not run at all.
def _has_sensed(conn: sqlite3.Connection) -> bool:
    return kept(conn).fact(_has_sensed, lambda: _read_has_sensed(conn))


def _read_has_sensed(conn: sqlite3.Connection) -> bool:
    if has_index(conn, "translations_sense"):
        # The partial index holds exactly the sensed rows: one step answers.
        row = conn.execute(
            "SELECT 1 FROM translations INDEXED BY translations_sense "
            "WHERE sense_id IS NOT NULL LIMIT 1"
        ).fetchone()
        return row is not None
    return True  # without the index the question costs a scan: just ask per look-up


def _translations(
    conn: sqlite3.Connection,
    term_ids: tuple[int, ...],
    sense_ids: list[int],
    budget: int,
    from_column: bool,
    documented: bool = False,
) -> tuple[dict[int, list[_TranslationRow]], list[_TranslationRow]]:
    """Translations per returned sense, and unsensed ones, without duplicates (same
    target word in the same language), each list in language turns and cut to `budget`
    + 1 (no group shows more; the extra row tells that it was cut)."""
    by_sense: dict[int, list[_TranslationRow]] = {}
    if not term_ids:
        return by_sense, []
    cap = budget + 1
    if sense_ids and _has_sensed(conn):
        entry = "col" if from_column else "nocol"
        if has_index(conn, "translations_sense"):
            kind, params = f"sensed-indexed-{entry}", tuple(sense_ids)
        else:
            kind, params = f"sensed-unindexed-{entry}", (*term_ids, *sense_ids)
        seen: set[tuple[int, str, str]] = set()
        for row in conn.execute(_sql(kind, len(term_ids), len(sense_ids)), params).fetchall():
            key = (row[6], row[0], row[2])
            if key not in seen:
                seen.add(key)
                by_sense.setdefault(row[6], []).append(row)
        by_sense = {sid: in_language_turns(rows)[:cap] for sid, rows in by_sense.items()}
    sql = _SQL_TEMPLATES["unsensed-col" if from_column else "unsensed-nocol"]
    held = _held_unsensed(conn, term_ids) if documented and cap <= term_docs.TRANSLATIONS else {}
    return by_sense, _unsensed_rows(conn, sql, term_ids, cap, held)


def _unsensed_rows(
    conn: sqlite3.Connection,
    sql: str,
    term_ids: tuple[int, ...],
    cap: int,
    held: dict[int, list[_TranslationRow]],
) -> list[_TranslationRow]:
    """The terms' first `cap` unsensed translations in language turns, as the documents
    hold them: from `held` (a term's document's list) where given, else every row of the
    term is read and dealt here (about 0.6 µs a row; a per-language LIMIT in SQL cost
    more than it saved)."""
    rows: list[_TranslationRow] = []
    for term_id in term_ids:
        have = held.get(term_id)
        rows += have if have is not None else conn.execute(sql, (term_id,)).fetchall()
    return _dealt(rows, cap)


def _held_unsensed(
    conn: sqlite3.Connection, term_ids: tuple[int, ...]
) -> dict[int, list[_TranslationRow]]:
    """The unsensed translations the terms' documents hold (their first TRANSLATIONS in
    turns, which deal again to the same order), for the terms that have one: an inflected
    form's look-up reads its senses from the tables, but a frequent lemma's translations
    (up to 180 rows) are cheaper to take from its document."""
    found = conn.execute(_sql("documents-of", len(term_ids)), term_ids).fetchall()
    return {term_id: from_json(doc, cache_strings=False)[3] for term_id, doc in found}


def _dealt(rows: list[_TranslationRow], cap: int) -> list[_TranslationRow]:
    """Unsensed rows of one or several terms (each with its id last): the first `cap` of
    them in language turns, duplicates dropped."""
    return in_language_turns(_unique(rows))[:cap]


def _unique(rows: list[_TranslationRow]) -> list[_TranslationRow]:
    """`rows` in language then id order, without repeats of a (language, norm)."""
    unique: list[_TranslationRow] = []
    pairs: set[tuple[str, str]] = set()
    for row in sorted(rows, key=_language_then_id):
        if (row[0], row[2]) not in pairs:
            pairs.add((row[0], row[2]))
            unique.append(row)
    return unique
