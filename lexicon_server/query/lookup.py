"""dictionary_lookup: senses of a word with examples, pronunciations and translations.

`limit` caps the senses. Examples, pronunciations and translations each have one total
budget for the whole response, dealt round-robin across the returned senses, so the
first sense cannot starve the others; the result's `truncated_fields` names each class of
which some returned sense (or the unsensed translations) has more than it received.

The answer is assembled as plain JSON-ready data, exactly what
`LookupResult.model_dump(mode="json")` gives, and validated once into the result: one
model object per example or translation cost more than the SQL behind them. A word's
rows are read by `corpus.rows.documents`, from its term document or from the normalised
tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from pydantic_core import to_json

from lexicon_server.corpus.rows.documents import read_documents, read_tables
from lexicon_server.corpus.rows.facts import has_term_docs, sources
from lexicon_server.corpus.rows.translations import TranslationRow, language_key
from lexicon_server.errors import InvalidArgument
from lexicon_server.models import MAX_RESPONSE_CHARS, LookupResult
from lexicon_server.query.arguments import check_budget, check_limit, word_and_language
from lexicon_server.query.budget import (
    EXAMPLE_CHARS,
    GLOSS_CHARS,
    Cuts,
    json_bound,
    round_robin,
)
from lexicon_server.query.definitions import Definitions, definition_keys, definition_senses
from lexicon_server.query.frequency import word_frequency
from lexicon_server.query.headwords import normalize, resolve_headwords
from lexicon_server.query.pronunciations import own_pronunciations
from lexicon_server.query.provenance import resolution_chars, resolution_data
from lexicon_server.query.targets import installed_targets

if TYPE_CHECKING:
    from lexicon_server.corpus.reader import Corpus
    from lexicon_server.corpus.rows.documents import Rows as LookupRows
    from lexicon_server.query.headwords import Headwords

__all__ = ["DEFAULT_BUDGETS", "DEFAULT_LIMIT", "lookup"]

_Json = dict[str, Any]

# What a default answer holds (docs/tools.md, "What a default look-up holds"): the most
# used senses, about one example each, the first pronunciation in each notation, and no
# translations (dictionary_translate is the tool for those; the limits ask for them here).
DEFAULT_LIMIT = 6
DEFAULT_BUDGETS = {"examples": 6, "pronunciations": 2, "translations": 0}
_NO_ITEMS: list[Any] = []


def lookup(
    corpus: Corpus,
    word: str,
    language: str = "en",
    limit: int = DEFAULT_LIMIT,
    examples_limit: int = DEFAULT_BUDGETS["examples"],
    pronunciations_limit: int = DEFAULT_BUDGETS["pronunciations"],
    translations_limit: int = DEFAULT_BUDGETS["translations"],
    source_ids: bool = False,
    *,
    tables_only: bool = False,
) -> LookupResult:
    """Look `word` up in `language` (an inflected form resolves to its lemma), within the
    response budget. `source_ids` adds each sense's source id and synset. `tables_only`
    reads the normalised tables even where the release has term documents (to check one
    against the other)."""
    word, language = word_and_language(corpus, word, language)
    limit = check_limit("limit", limit)
    budgets = {
        "examples": check_budget("examples_limit", examples_limit),
        "pronunciations": check_budget("pronunciations_limit", pronunciations_limit),
        "translations": check_budget("translations_limit", translations_limit),
    }
    if not isinstance(source_ids, bool):
        raise InvalidArgument("source_ids", "true or false", source_ids)
    ask = _Ask(word, language, limit, budgets, source_ids, tables_only)
    data, bound = _Answer(corpus, ask).data()
    result = LookupResult.model_validate(_fit(data) if bound > MAX_RESPONSE_CHARS else data)
    known = word_frequency(corpus, corpus.db(language, "lexical"), normalize(word), language)
    return result if known is None else result.model_copy(update={"frequency": known})


class _Ask(NamedTuple):
    word: str
    language: str
    limit: int
    budgets: dict[str, int]  # examples, pronunciations, translations
    source_ids: bool
    tables_only: bool


class _Dealt(NamedTuple):
    """What each returned sense shows (None: all it has) and the translations shown."""

    examples: list[int] | None
    pronunciations: dict[int, list[_Json]]
    pronunciation_count: int
    pronunciation_take: list[int] | None
    translations: list[int] | None
    unsensed: list[TranslationRow]
    shown: list[TranslationRow]  # every translation shown, sensed then unsensed


def _read(corpus: Corpus, ask: _Ask) -> tuple[Any, Headwords, LookupRows]:
    """Resolve the word to its headwords and read their rows (connection, headwords, rows)."""
    conn = corpus.db(ask.language, "lexical")
    heads = resolve_headwords(conn, ask.word, ask.language)
    term_ids = heads.term_ids
    rows = None
    documented = bool(term_ids) and not ask.tables_only and has_term_docs(conn)
    tr_budget = ask.budgets["translations"]
    # Documents hold every part of speech: an inflected form's senses come from the tables.
    if documented and not heads.entries:
        rows = read_documents(conn, term_ids, ask.limit, tr_budget)
    if rows is None:
        rows = read_tables(conn, term_ids, ask.limit, tr_budget, heads.entries, documented)
    return conn, heads, rows


def _takes(counts: list[int], budget: int) -> list[int] | None:
    """`round_robin` over `counts`, or None when the budget covers every item (the usual
    case, which then needs no per-sense bookkeeping)."""
    return None if sum(counts) <= budget else round_robin(counts, budget)


def _deal(
    rows: LookupRows, ids: list[int], budgets: dict[str, int], keys: dict[int, str]
) -> _Dealt:
    """Deal each budget round-robin over the returned senses (`ids`), only where a class
    has more items than its budget."""
    ex_budget, pr_budget, tr_budget = budgets.values()
    examples = rows.examples
    ex_take = None
    if rows.example_count > ex_budget:
        ex_take = round_robin([len(examples.get(i, ())) for i in ids], ex_budget)
    prons, pron_count = _pronunciations(rows.pronunciations, rows.chosen, keys)
    pr_take = None
    if ids and pron_count > pr_budget:
        pr_take = round_robin([len(prons.get(i, ())) for i in ids], pr_budget)
    # Translations not tied to a sense take their turn after the senses.
    by_sense, unsensed = rows.by_sense, rows.unsensed
    tr_take = None
    unsensed_take = min(len(unsensed), tr_budget)
    shown: list[TranslationRow] = []
    if by_sense:
        tr_take = _takes([len(by_sense.get(i, ())) for i in ids] + [len(unsensed)], tr_budget)
        if tr_take is not None:
            unsensed_take = tr_take[-1]
        for n, sense_id in enumerate(ids):
            have = by_sense.get(sense_id)
            if have:
                shown += have if tr_take is None else have[: tr_take[n]]
    unsensed_rows = unsensed[:unsensed_take]
    shown += unsensed_rows
    return _Dealt(ex_take, prons, pron_count, pr_take, tr_take, unsensed_rows, shown)


def _taken(
    items: list[Any], take: list[int] | None, n: int, kind: str, truncated: list[str]
) -> list[Any]:
    """The items sense `n` was dealt; `kind` goes in its `truncated` when that is fewer."""
    if take is not None and len(items) > take[n]:
        truncated.append(kind)
        return items[: take[n]]
    return items


class _Answer:
    """One look-up's answer as it is shaped: the sources it names, the size tally (a safe
    upper bound of the serialised size, see json_bound: 6 per character of text, 400 per
    object, counted while building) and what was cut."""

    def __init__(self, corpus: Corpus, ask: _Ask) -> None:
        self.corpus = corpus
        self.ask = ask
        self.cuts = Cuts()
        self.clipped = False
        self.named: set[str] = set()
        self.chars = 0
        self.items = 0
        self.keys: dict[int, str] = {}
        self.installed: set[tuple[str, str]] = set()
        self.sense_source: str | None = None
        self.cited: dict[str, str] = {}
        self.cut: list[str] = []
        self.truncated: set[str] = set()  # detail classes some sense has more of

    def data(self) -> tuple[_Json, int]:
        """The result as plain data (field order and values exactly as `LookupResult`
        dumps them), before the response budget, and a safe upper bound of its size.

        Written for few Python operations per look-up (they cost as much as the SQL): the
        budgets are dealt only when a class has more items than its budget, and the size
        bound is summed while building."""
        ask = self.ask
        conn, heads, rows = _read(self.corpus, ask)
        table = sources(conn)
        self.keys = keys = table.keys
        chosen, total_senses = rows.chosen, rows.total_senses
        if total_senses > ask.limit:
            self.cuts.add(f"senses: {total_senses - ask.limit} more beyond limit={ask.limit}")
        ids = [row[0] for row in chosen]
        # The form's own pronunciations first when its first sense is its lemma's.
        own = own_pronunciations(
            conn, ask.word, heads.norm, rows, keys, ask.budgets["pronunciations"]
        )
        budgets = dict(ask.budgets, pronunciations=ask.budgets["pronunciations"] - len(own))
        dealt = _deal(rows, ids, budgets, keys)
        shown = dealt.shown
        self.installed = installed_targets(self.corpus, shown, rows.from_column) if shown else set()
        self.named = {keys[row[4]] for row in shown}  # the source keys the result cites
        self.chars = len(ask.word) + sum([len(t[1]) + len(t[3] or "") for t in shown])
        self.items = len(shown)
        # Said once: the first sense's source, on the result; a sense names its own only
        # where it differs. So is a sense's headword where it is the word asked for.
        sense_source = self.sense_source = keys[chosen[0][4]] if chosen else None
        senses = [self._sense(n, row, rows, dealt) for n, row in enumerate(chosen)]
        gcide = self._definitions(heads, senses, sense_source)
        if gcide.total and sense_source is None and gcide.senses:
            sense_source = "gcide"
        # A word the corpus only knows how to say (e.g. a CMUdict-only name).
        form_prons = dealt.pronunciations.get(0, _NO_ITEMS)[: ask.budgets["pronunciations"]]
        if ids:
            form_prons = own
        self.named.update(pron["source"] for pron in form_prons)
        found = bool(senses) or bool(rows.unsensed) or dealt.pronunciation_count > 0
        data = self._result(heads, table.by_key, gcide, senses, total_senses + gcide.total)
        data["found"] = found
        if sense_source is not None:
            data["sense_source"] = sense_source
        self._details(data, senses, form_prons, dealt, len(rows.unsensed))
        self.items += len(form_prons)
        return data, 2_000 + json_bound(items=self.items) + 6 * self.chars

    def _sense(self, n: int, row: Sequence[Any], rows: LookupRows, dealt: _Dealt) -> _Json:
        """Sense `n` of the chosen rows, with what it was dealt."""
        sid, external_id, gloss, tags, source_id, _, pos, etymology, head, synset = row[:10]
        truncated: list[str] = []
        sense_key = self.keys[source_id]
        ex_rows = _taken(
            rows.examples.get(sid, _NO_ITEMS), dealt.examples, n, "examples", truncated
        )
        sense_examples = self._examples(ex_rows, sense_key)
        sense_prons = dealt.pronunciations.get(sid, _NO_ITEMS)
        sense_prons = _taken(sense_prons, dealt.pronunciation_take, n, "pronunciations", truncated)
        self.named.update(pron["source"] for pron in sense_prons)
        sense_translations = _NO_ITEMS
        tr_rows = rows.by_sense.get(sid) if rows.by_sense else None
        if tr_rows:
            tr_rows = _taken(tr_rows, dealt.translations, n, "translations", truncated)
            sense_translations = _translation_items(tr_rows, "sense", self.installed, self.keys)
        gloss = self._clip(gloss, GLOSS_CHARS)
        if etymology:
            etymology = self._clip(etymology, GLOSS_CHARS)
        self.named.add(sense_key)
        self.chars += len(gloss) + len(etymology or "") + len(head) + len(tags)
        self.items += 1 + len(sense_examples) + len(sense_prons)
        # Field order as the model declares it; empty details and defaults are left out.
        sense: _Json = {"id": f"{self.ask.language}:s{sid}"}
        if external_id is not None and self.ask.source_ids:
            sense["external_id"] = external_id
        if head != self.ask.word:
            sense["word"] = head
        sense["pos"] = pos
        sense["gloss"] = gloss
        tag_list = tags.split() if tags else None
        if tag_list:
            sense["tags"] = tag_list
        if synset is not None:
            if self.ask.source_ids:
                sense["synset"] = synset
        else:
            sense["sense_scope"] = "sense"
        if etymology:
            sense["etymology"] = etymology
        if sense_key != self.sense_source:
            sense["source"] = sense_key
        if sense_examples:
            sense["examples"] = sense_examples
        if sense_prons:
            sense["pronunciations"] = sense_prons
        if sense_translations:
            sense["translations"] = sense_translations
        self.truncated.update(truncated)
        return sense

    def _clip(self, text: str, limit: int) -> str:
        if len(text) > limit:
            self.clipped = True
            return self.cuts.clip(text, limit)
        return text

    def _examples(self, ex_rows: list[Any], sense_key: str) -> list[_Json]:
        """A sense's examples; each names its source only where it differs."""
        out: list[_Json] = []
        for ex_row in ex_rows:  # (sense_id,) text, source_id
            text = self._clip(ex_row[-2], EXAMPLE_CHARS)
            self.chars += len(text)
            ex_key = self.keys[ex_row[-1]]
            if ex_key == sense_key:
                out.append({"text": text})
            else:
                self.named.add(ex_key)
                out.append({"text": text, "source": ex_key})
        return out

    def _definitions(
        self, heads: Headwords, senses: list[_Json], sense_source: str | None
    ) -> Definitions:
        """GCIDE's senses, appended after WordNet's within the same `limit` and examples
        budget."""
        ask = self.ask
        norms, parts = definition_keys(heads, ask.word)
        shown_examples = sum([len(s.get("examples", ())) for s in senses])
        gcide = definition_senses(
            self.corpus, ask.language, norms, ask.word, ask.limit - len(senses),
            ask.budgets["examples"] - shown_examples, sense_source, self.cuts, parts,
        )  # fmt: skip
        if gcide.total:
            if gcide.total > len(gcide.senses):
                more = gcide.total - len(gcide.senses)
                self.cuts.add(f"gcide senses: {more} more beyond limit={ask.limit}")
            for sense in gcide.senses:
                if sense_source is None and sense.get("source") == "gcide":
                    del sense["source"]
                self.truncated.update(sense.pop("truncated_fields", ()))
            senses += gcide.senses
            self.named.update(gcide.cited)
            self.chars += gcide.chars
            self.items += len(gcide.senses) + gcide.examples
        return gcide

    def _result(
        self,
        heads: Headwords,
        infos: dict[str, str],
        gcide: Definitions,
        senses: list[_Json],
        total: int,
    ) -> _Json:
        """The result's head fields, in the model's order (`found` and `sense_source`
        filled in by the caller)."""
        resolutions = resolution_data(self.ask.word, heads.resolutions)
        self.chars += resolution_chars(heads.resolutions)
        self.named.update(heads.sources)
        self.cited = {
            key: infos.get(key) or heads.sources.get(key) or gcide.cited[key]
            for key in sorted(self.named)
        }
        self.cut = self.cuts.notes() if self.cuts.items or self.clipped or gcide.senses else []
        for key, info in self.cited.items():
            self.chars += len(key) + len(info)
        self.chars += sum([len(note) for note in self.cut])
        self.items += len(heads.resolutions) + len(self.cited)
        head: _Json = {
            "word": self.ask.word,
            "language": self.ask.language,
            "dataset_version": self.corpus.dataset_version,
            "found": False,
        }
        if resolutions is not None:
            head["resolutions"] = resolutions
        head["total_senses"] = total
        return head

    def _details(
        self,
        data: _Json,
        senses: list[_Json],
        form_prons: list[_Json],
        dealt: _Dealt,
        unsensed: int,
    ) -> None:
        """The senses and the result's optional fields, in the model's order; those at
        their defaults are left out (see LookupResult)."""
        data["senses"] = senses
        if form_prons:
            data["pronunciations"] = form_prons
        if dealt.unsensed:
            data["unsensed_translations"] = _translation_items(
                dealt.unsensed, "unsensed", self.installed, self.keys
            )
        if unsensed > len(dealt.unsensed):
            self.truncated.add("translations")
        if self.truncated:
            data["truncated_fields"] = sorted(self.truncated)
        data["sources"] = self.cited
        if self.cut:  # else left out (see LookupResult)
            data["cut"] = list(self.cut)


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
    fits MAX_RESPONSE_CHARS; each drop is noted in `cut`, and `sources` keeps only
    the keys the remaining facts name."""
    notes: list[str] = data.setdefault("cut", [])
    while len(to_json(data).decode()) > MAX_RESPONSE_CHARS:
        if data["senses"]:
            data["senses"].pop()
            notes.append("senses: dropped the last sense to stay within the response budget")
        elif data.get("unsensed_translations"):
            del data["unsensed_translations"]
            data["truncated_fields"] = sorted({*data.get("truncated_fields", ()), "translations"})
            notes.append("unsensed translations: dropped to stay within the response budget")
        else:
            break
        named = {r["source"] for r in data.get("resolutions", ()) if "source" in r}
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
        del data["cut"]
    return data


def _pronunciations(
    rows: Sequence[Sequence[Any]], chosen: list[Any], keys: dict[int, str]
) -> tuple[dict[int, list[_Json]], int]:
    """Pronunciation `rows` (entry_id, notation, value, variant, source_id, term text)
    dealt to the senses: each goes to one sense only, the first returned sense of its
    entry, or, when the source ties it to the written form, the first returned sense of
    its own term: a lemma's pronunciation stands with the lemma's senses ('better' does
    not show 'good'), and none is shown for a term with no sense returned. With no sense
    returned at all, written-form pronunciations are kept under key 0. Also returns how
    many were kept."""
    out: dict[int, list[_Json]] = {}
    if not rows:
        return out, 0
    # Entry (and term) -> its first returned sense (reversed: the first written last wins).
    first_of_entry = {row[5]: row[0] for row in reversed(chosen)}
    first_of_term = {row[8]: row[0] for row in reversed(chosen)}
    seen: set[tuple[str, str]] = set()
    count = 0
    for entry_id, notation, value, variant, source_id, term in rows:
        if (notation, value) in seen:
            continue
        if entry_id is None:
            owner = first_of_term.get(term, 0 if not chosen else -1)
            if owner == -1:
                continue
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
