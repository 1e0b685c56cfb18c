"""dictionary_lookup: senses of a word with examples, pronunciations and translations.

`limit` caps the senses. Examples, pronunciations and translations each have one total
budget for the whole response, dealt round-robin across the returned senses, so the
first sense cannot starve the others; a sense with more items than it received lists
the class in `truncated_fields`.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any, Literal

from pydantic_core import to_json

from lexicon_server.models import MAX_RESPONSE_CHARS, LookupResult
from lexicon_server.query.common import (
    EXAMPLE_CHARS,
    GLOSS_CHARS,
    Cuts,
    check_budget,
    check_limit,
    check_text,
    corpus_language,
    fit_response,
    has_index,
    installed_entries,
    json_bound,
    resolve_headwords,
    round_robin,
    sense_handle,
    sources,
)

if TYPE_CHECKING:
    import sqlite3

    from lexicon_server.corpus.reader import Corpus

__all__ = [
    "DEFAULT_BUDGETS",
    "SenseRow",
    "count_senses",
    "lookup",
    "lookup_json",
    "sense_rows",
]

_Json = dict[str, Any]

DEFAULT_BUDGETS = {"examples": 8, "pronunciations": 8, "translations": 20}


class SenseRow:
    """One sense as read from the database, before budgets are applied."""

    __slots__ = (
        "entry_id",
        "etymology",
        "external_id",
        "gloss",
        "id",
        "pos",
        "source_id",
        "synset",
        "synset_id",
        "tags",
        "word",
    )

    def __init__(self, row: tuple[object, ...]) -> None:
        (
            self.id,
            self.external_id,
            self.gloss,
            self.tags,
            self.source_id,
            self.entry_id,
            self.pos,
            self.etymology,
            self.word,
            self.synset,
            self.synset_id,
        ) = row  # type: ignore[assignment]

    id: int
    external_id: str | None
    gloss: str
    tags: str
    source_id: int
    entry_id: int
    pos: str
    etymology: str | None
    word: str
    synset: str | None
    synset_id: int | None


def sense_rows(
    conn: sqlite3.Connection, term_ids: tuple[int, ...], limit: int = -1
) -> list[SenseRow]:
    """The senses of the given terms (the first `limit`, or all with -1), in entry order
    then the source's own sense order."""
    if not term_ids:
        return []
    marks = ",".join("?" * len(term_ids))
    rows = conn.execute(
        "SELECT s.id, s.external_id, s.gloss, s.tags, s.source_id, e.id, e.pos, e.etymology, "
        "t.text, sy.external_id, s.synset_id "
        "FROM entries e JOIN terms t ON t.id = e.term_id JOIN senses s ON s.entry_id = e.id "
        "LEFT JOIN synsets sy ON sy.id = s.synset_id "
        f"WHERE e.term_id IN ({marks}) ORDER BY e.term_id, e.id, s.rank, s.id LIMIT ?",
        (*term_ids, limit),
    ).fetchall()
    return [SenseRow(row) for row in rows]


def count_senses(conn: sqlite3.Connection, term_ids: tuple[int, ...]) -> int:
    """How many senses the given terms have (read from the indexes only)."""
    if not term_ids:
        return 0
    marks = ",".join("?" * len(term_ids))
    row = conn.execute(
        "SELECT count(*) FROM entries e JOIN senses s ON s.entry_id = e.id "
        f"WHERE e.term_id IN ({marks})",
        term_ids,
    ).fetchone()
    return int(row[0])


def lookup(
    corpus: Corpus,
    word: str,
    language: str = "en",
    limit: int = 10,
    examples_limit: int = DEFAULT_BUDGETS["examples"],
    pronunciations_limit: int = DEFAULT_BUDGETS["pronunciations"],
    translations_limit: int = DEFAULT_BUDGETS["translations"],
) -> LookupResult:
    """Look `word` up in `language`; an inflected form resolves to its lemma."""
    data, bound = _lookup_data(
        corpus, word, language, limit, examples_limit, pronunciations_limit, translations_limit
    )
    return fit_response(LookupResult.model_validate(data), _drop_last_sense, bound=bound)


def lookup_json(
    corpus: Corpus,
    word: str,
    language: str = "en",
    limit: int = 10,
    examples_limit: int = DEFAULT_BUDGETS["examples"],
    pronunciations_limit: int = DEFAULT_BUDGETS["pronunciations"],
    translations_limit: int = DEFAULT_BUDGETS["translations"],
) -> str:
    """`lookup(...).model_dump_json()`, for the tool: the MCP SDK validates the result
    against `LookupResult` itself, so when the answer surely fits the response budget it
    is serialised straight from the plain data instead of being validated twice."""
    data, bound = _lookup_data(
        corpus, word, language, limit, examples_limit, pronunciations_limit, translations_limit
    )
    if bound > MAX_RESPONSE_CHARS:
        model = fit_response(LookupResult.model_validate(data), _drop_last_sense, bound=bound)
        return model.model_dump_json()
    return to_json(data).decode()


def _lookup_data(
    corpus: Corpus,
    word: str,
    language: str,
    limit: int,
    examples_limit: int,
    pronunciations_limit: int,
    translations_limit: int,
) -> tuple[_Json, int]:
    """The result as plain data (field order and values exactly as `LookupResult` dumps
    them), and a safe upper bound of its serialised size."""
    word = check_text("word", word)
    language = corpus_language(corpus, "language", language)
    limit = check_limit("limit", limit)
    budgets = {
        "examples": check_budget("examples_limit", examples_limit),
        "pronunciations": check_budget("pronunciations_limit", pronunciations_limit),
        "translations": check_budget("translations_limit", translations_limit),
    }
    conn = corpus.db(language, "lexical")
    table = sources(conn)
    cuts = Cuts()
    heads = resolve_headwords(conn, word, language)
    # Only the senses shown are read; a polysemous word ('set', 'run') has dozens more.
    chosen = sense_rows(conn, heads.term_ids, limit)
    total_senses = count_senses(conn, heads.term_ids) if len(chosen) == limit else len(chosen)
    if total_senses > limit:
        cuts.add(f"senses: {total_senses - limit} more beyond limit={limit}")
    ids = [s.id for s in chosen]

    examples = _examples(conn, ids)
    prons = _pronunciations(conn, heads.term_ids, chosen)
    translations, unsensed = _translations(conn, heads.term_ids, ids, budgets["translations"])

    ex_take = round_robin([len(examples[i]) for i in ids], budgets["examples"])
    pr_take = round_robin([len(prons[i]) for i in ids], budgets["pronunciations"])
    # A word the corpus only knows how to say (e.g. a CMUdict-only name).
    form_prons = prons.get(0, [])[: budgets["pronunciations"]] if not ids else []
    # Translations not tied to a sense take their turn after the senses.
    tr_take = round_robin(
        [len(translations[i]) for i in ids] + [len(unsensed)], budgets["translations"]
    )

    # One query per target language for every translation that will be shown.
    shown_rows = [t for n, row in enumerate(chosen) for t in translations[row.id][: tr_take[n]]]
    shown_rows += unsensed[: tr_take[-1]]
    by_language: dict[str, set[str]] = defaultdict(set)
    for lang, _text, norm, _note, _src in shown_rows:
        by_language[lang].add(norm)
    installed = {
        (lang, norm)
        for lang, norms in by_language.items()
        for norm in installed_entries(corpus, lang, norms)
    }

    # Plain dicts, validated once as a whole by pydantic-core: cheaper than one model
    # constructor per example/pronunciation/translation.
    def to_translation(row: tuple[str, str, str, str | None, int], scope: str) -> _Json:
        lang, text, norm, note, source_id = row
        return {
            "text": text,
            "target_language": lang,
            "note": note,
            "sense_scope": scope,
            "target_entry_installed": (lang, norm) in installed,
            "source": table[source_id],
        }

    senses: list[_Json] = []
    for n, row in enumerate(chosen):
        truncated = [
            name
            for name, have, took in (
                ("examples", len(examples[row.id]), ex_take[n]),
                ("pronunciations", len(prons[row.id]), pr_take[n]),
                ("translations", len(translations[row.id]), tr_take[n]),
            )
            if have > took
        ]
        senses.append(
            {
                "id": sense_handle(language, row.id),
                "external_id": row.external_id,
                "word": row.word,
                "pos": row.pos,
                "gloss": cuts.clip(row.gloss, GLOSS_CHARS),
                "tags": row.tags.split() if row.tags else [],
                "synset": row.synset,
                "sense_scope": "synset" if row.synset else "sense",
                "etymology": cuts.clip(row.etymology, GLOSS_CHARS) if row.etymology else None,
                "source": table[row.source_id],
                "examples": [
                    {"text": cuts.clip(text, EXAMPLE_CHARS), "source": table[src]}
                    for text, src in examples[row.id][: ex_take[n]]
                ],
                "pronunciations": prons[row.id][: pr_take[n]],
                "translations": [
                    to_translation(t, "sense") for t in translations[row.id][: tr_take[n]]
                ],
                "truncated_fields": truncated,
            }
        )
    unsensed_shown = [to_translation(t, "unsensed") for t in unsensed[: tr_take[-1]]]
    # A safe upper estimate of the serialised size (see json_bound), summed in one pass.
    chars = 0
    items = 0
    for sense in senses:
        chars += len(sense["gloss"]) + len(sense["etymology"] or "") + len(sense["word"])
        chars += sum(map(len, sense["tags"]))
        chars += sum(len(e["text"]) for e in sense["examples"])
        chars += sum(len(t["text"]) + len(t["note"] or "") for t in sense["translations"])
        items += (
            1 + len(sense["examples"]) + len(sense["pronunciations"]) + len(sense["translations"])
        )
    bound = 2_000 + json_bound(items=items) + 6 * chars
    bound += json_bound(
        *(t["text"] for t in unsensed_shown),
        *(t["note"] for t in unsensed_shown),
        *(p["value"] for p in form_prons),
        *(r.form + r.lemma for r in heads.resolutions),
        word,
        items=len(unsensed_shown) + len(form_prons) + len(heads.resolutions),
    )
    bound += json_bound(*cuts.items)
    return (
        {
            "word": word,
            "language": language,
            "dataset_version": corpus.dataset_version,
            "found": bool(chosen) or bool(unsensed) or any(prons.values()),
            "resolutions": list(heads.resolutions),
            "count": len(senses),
            "total_senses": total_senses,
            "senses": senses,
            "pronunciations": form_prons,
            "unsensed_translations": unsensed_shown,
            "unsensed_translations_truncated": len(unsensed) > len(unsensed_shown),
            "budgets": budgets,
            "budget": cuts.budget(),
        },
        bound,
    )


def _drop_last_sense(result: LookupResult, _excess: int) -> tuple[LookupResult, str] | None:
    update: dict[str, object]
    if result.senses:
        note = "senses: dropped the last sense to stay within the response budget"
        kept = result.senses[:-1]
        update = {"senses": kept, "count": len(kept)}
    elif result.unsensed_translations:
        note = "unsensed translations: dropped to stay within the response budget"
        update = {"unsensed_translations": [], "unsensed_translations_truncated": True}
    else:
        return None
    update["budget"] = result.budget.model_copy(update={"cut": [*result.budget.cut, note]})
    return result.model_copy(update=update), note


def _examples(conn: sqlite3.Connection, sense_ids: list[int]) -> dict[int, list[tuple[str, int]]]:
    out: dict[int, list[tuple[str, int]]] = defaultdict(list)
    if sense_ids:
        marks = ",".join("?" * len(sense_ids))
        for sense_id, text, source_id in conn.execute(
            f"SELECT sense_id, text, source_id FROM examples WHERE sense_id IN ({marks}) "
            "ORDER BY sense_id, id",
            sense_ids,
        ):
            out[sense_id].append((text, source_id))
    return out


def _pronunciations(
    conn: sqlite3.Connection, term_ids: tuple[int, ...], chosen: list[SenseRow]
) -> dict[int, list[_Json]]:
    """Each pronunciation goes to one sense only: the first returned sense of its entry,
    or the first returned sense at all when the source ties it to the written form. With
    no sense returned, written-form pronunciations are kept under key 0."""
    out: dict[int, list[_Json]] = defaultdict(list)
    if not term_ids:
        return out
    table = sources(conn)
    first_of_entry: dict[int, int] = {}
    for row in chosen:
        first_of_entry.setdefault(row.entry_id, row.id)
    marks = ",".join("?" * len(term_ids))
    seen: set[tuple[str, str]] = set()
    for entry_id, notation, value, variant, source_id in conn.execute(
        "SELECT entry_id, notation, value, variant, source_id FROM pronunciations "
        f"WHERE term_id IN ({marks}) ORDER BY term_id, variant, notation, id",
        term_ids,
    ):
        if (notation, value) in seen:
            continue
        scope: Literal["entry", "term"]
        if entry_id is None:
            owner = chosen[0].id if chosen else 0
            scope = "term"
        elif entry_id in first_of_entry:
            owner = first_of_entry[entry_id]
            scope = "entry"
        else:
            continue
        seen.add((notation, value))
        out[owner].append(
            {
                "notation": notation,
                "value": value,
                "variant": variant,
                "scope": scope,
                "source": table[source_id],
            }
        )
    return out


_TranslationRow = tuple[str, str, str, str | None, int]


def _translations(
    conn: sqlite3.Connection, term_ids: tuple[int, ...], sense_ids: list[int], budget: int
) -> tuple[dict[int, list[_TranslationRow]], list[_TranslationRow]]:
    """Translations per returned sense, and unsensed ones; no group ever needs more than
    `budget` (+1 to tell that it was cut), so neither query reads further."""
    by_sense: dict[int, list[_TranslationRow]] = defaultdict(list)
    unsensed: list[_TranslationRow] = []
    if not term_ids:
        return by_sense, unsensed
    cap = budget + 1
    marks = ",".join("?" * len(term_ids))
    seen: set[tuple[int | None, str, str]] = set()
    if sense_ids:
        smarks = ",".join("?" * len(sense_ids))
        if has_index(conn, "translations_sense"):
            # The returned senses belong to these terms: read only their translations,
            # not every translation of a polysemous word.
            where, params = f"sense_id IN ({smarks})", tuple(sense_ids)
        else:
            where = f"term_id IN ({marks}) AND sense_id IN ({smarks})"
            params = (*term_ids, *sense_ids)
        for sense_id, lang, text, norm, note, source_id in conn.execute(
            "SELECT sense_id, target_language, target_text, target_norm, note, source_id "
            f"FROM translations WHERE {where} ORDER BY target_language, id",
            params,
        ):
            key = (sense_id, lang, norm)
            if key in seen or len(by_sense[sense_id]) >= cap:
                continue
            seen.add(key)
            by_sense[sense_id].append((lang, text, norm, note, source_id))
    # Duplicates are dropped after the LIMIT, so read with some slack.
    for lang, text, norm, note, source_id in conn.execute(
        "SELECT target_language, target_text, target_norm, note, source_id "
        f"FROM translations WHERE term_id IN ({marks}) AND sense_id IS NULL "
        "ORDER BY target_language, id LIMIT ?",
        (*term_ids, cap * 3),
    ):
        key = (None, lang, norm)
        if key in seen:
            continue
        seen.add(key)
        unsensed.append((lang, text, norm, note, source_id))
        if len(unsensed) >= cap:
            break
    return by_sense, unsensed
