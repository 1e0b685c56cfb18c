"""dictionary_translate: translations of a word, grouped by the source sense they render.

Up to `max_senses` source-native senses are inspected. When the builder merged a word's
rows into one best-first list (meta `translation_order` = `merged`), the answer shows
the first `limit` targets of that list, each once, in the group of the sense it came
with. Otherwise the candidates are dealt round-robin across the sense groups, with
translations the source does not tie to a sense taking the last turn, the groups in
sense order or, under `evidence`, best-supported first.
A translation into a language whose own entries are not installed is still returned,
marked `target_entry_installed=False`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lexicon_server.corpus.normalize import norm
from lexicon_server.corpus.rows.facts import sources
from lexicon_server.corpus.rows.senses import sense_rows
from lexicon_server.corpus.rows.translations import translation_order, translations_into
from lexicon_server.errors import InvalidArgument, NoSuchSense
from lexicon_server.models import TranslateResult, Translation, TranslationGroup
from lexicon_server.query.arguments import check_limit, check_text, corpus_language, parse_sense_id
from lexicon_server.query.bridges import bridge, is_thin
from lexicon_server.query.budget import Cuts, drop_last_group, fit_response, round_robin
from lexicon_server.query.headwords import Headwords, resolve_headwords
from lexicon_server.query.pivot import PIVOT_LANGUAGE, Pivoted, pivot
from lexicon_server.query.provenance import Cited, as_written
from lexicon_server.query.senses import MAX_SENSES_DEFAULT, sense_ref
from lexicon_server.query.targets import installed_targets, target_entry_column

if TYPE_CHECKING:
    import sqlite3

    from lexicon_server.corpus.reader import Corpus

# The meta row a builder writes when it ranked sense-tied rows across senses
# (lexicon_server/builder/translation_rank.py ORDER_META); older components keep sense order.
_ORDER_META = ("translation_order", "evidence")
# The later mark: a word's rows into a language are one best-first list, identical
# targets together, so the default answer shows each target once, in that order.
_MERGED = "merged"
# A direct answer with fewer candidates than this is filled through English (query/pivot.py):
# one or two direct candidates are often a thin dictionary's only guess.
_THIN = 3

__all__ = ["evidence_order", "order_mark", "translate"]


def translate(
    corpus: Corpus,
    word: str,
    target_language: str,
    language: str = "en",
    limit: int = 20,
    max_senses: int = MAX_SENSES_DEFAULT,
    sense_id: str | None = None,
) -> TranslateResult:
    """Translations of `word` from `language` into `target_language`."""
    word = check_text("word", word)
    source_language = corpus_language(corpus, "language", language)
    target_language = corpus_language(corpus, "target_language", target_language)
    if target_language == source_language:
        raise InvalidArgument(
            "target_language",
            f"a language other than the word's (language={source_language!r})",
            target_language,
        )
    limit = check_limit("limit", limit)
    max_senses = check_limit("max_senses", max_senses)
    wanted_sense = (
        None if sense_id is None else parse_sense_id("sense_id", sense_id, source_language)
    )
    conn = corpus.db(source_language, "lexical")
    table = sources(conn)
    cited = Cited()
    cuts = Cuts()
    heads = resolve_headwords(conn, word, source_language)
    cited.merge(heads.sources)
    all_senses = sense_rows(conn, heads.term_ids, entries=heads.entries)
    if wanted_sense is not None:
        senses = [s for s in all_senses if s.id == wanted_sense]
        if not senses:
            raise NoSuchSense(sense_id or "", word)
    else:
        senses = all_senses[:max_senses]
        if len(all_senses) > max_senses:
            cuts.add(f"senses: inspected {max_senses} of {len(all_senses)} (max_senses)")

    rows = _read_rows(conn, heads, senses, target_language, wanted_sense, cuts)
    groups = _shape_groups(corpus, conn, rows, limit, source_language, table, cited)
    total = sum(len(c) for _, c in rows.sensed_groups) + len(rows.unsensed)
    shown_count = sum(len(g.candidates) for g in groups)
    if total > shown_count:
        cuts.add(f"translations: {total - shown_count} more beyond limit={limit}")
    if wanted_sense is None and shown_count < min(_THIN, limit):
        pivoted = _pivoted(corpus, conn, heads, all_senses, source_language, target_language, cited)
        shown = {norm(c.text) for g in groups for c in g.candidates}
        pivoted = [p for p in pivoted if p.row[2] not in shown]  # no candidate twice
        group = _pivot_group(corpus, pivoted, limit - shown_count, cited, cuts)
        if group is not None:
            groups.append(group)
            shown_count += len(group.candidates)
    status = corpus.selection.availability(target_language, "lexical") or "installed"
    result = TranslateResult(
        word=word,
        language=source_language,
        target_language=target_language,
        target_language_status=status,  # type: ignore[arg-type]
        dataset_version=corpus.dataset_version,
        found=heads.found,
        resolutions=None if as_written(word, heads.resolutions) else list(heads.resolutions),
        senses_inspected=len(senses),
        groups=groups,
        note=_no_link(heads.found, shown_count, source_language, target_language),
        sources=cited.sources(),
        cut=cuts.notes(),
    )
    return fit_response(result, drop_last_group)


def _pivoted(
    corpus: Corpus,
    conn: sqlite3.Connection,
    heads: Headwords,
    senses: list[Any],
    source_language: str,
    target_language: str,
    cited: Cited,
) -> list[Pivoted]:
    """Candidates through a third language: English between two other languages
    (`pivot`), or the languages that link a thin English pair richly (`bridges`)."""
    if source_language != PIVOT_LANGUAGE:
        return pivot(corpus, conn, senses, target_language, cited)
    if corpus.selection.availability(target_language, "lexical") is not None:
        return []
    if not is_thin(corpus, source_language, target_language):
        return []
    return bridge(corpus, conn, heads.term_ids, source_language, target_language, cited)


def _pivot_group(
    corpus: Corpus, pivoted: list[Pivoted], room: int, cited: Cited, cuts: Cuts
) -> TranslationGroup | None:
    """The first `room` targets reached through English, as one `pivot` group."""
    shown = pivoted[:room]
    if not shown:
        return None
    if len(pivoted) > room:
        cuts.add(f"pivot translations: {len(pivoted) - room} more beyond limit")
    installed = installed_targets(corpus, [p.row for p in shown], from_column=False)
    return TranslationGroup(
        sense=None,
        sense_scope="pivot",
        candidates=[
            Translation(
                text=p.row[1],
                note=p.row[3],
                sense_scope="pivot",
                target_entry_installed=(p.row[0], p.row[2]) in installed,
                via=p.via,
                via_languages=p.via_languages,
                via_sources=p.via_sources,
                source=cited.key(p.table, p.row[4]),
            )
            for p in shown
        ],
        truncated=len(pivoted) > room,
    )


def _no_link(found: bool, shown: int, source_language: str, target_language: str) -> str | None:
    """Why a found word has no candidate: an empty list alone reads as a failure."""
    if not found or shown:
        return None
    if PIVOT_LANGUAGE in (source_language, target_language):
        return (
            f"no translation into {target_language} in the installed dictionaries for this "
            "word; dictionary_synonyms may give a word that has one"
        )
    return (
        f"nothing links this word to {target_language}: no {source_language}-"
        f"{target_language} dictionary has it, and none of its English translations "
        f"has a {target_language} translation"
    )


@dataclass
class _Rows:
    """A word's candidate rows into one language, in the row shape `installed_targets`
    reads (target_language, text, norm, note, source_id, target_entry, sense_id), plus
    each row's place in the builder's one list when the component is `merged`."""

    sensed_groups: list[tuple[Any, list[tuple[Any, ...]]]]
    unsensed: list[tuple[Any, ...]]
    merged: bool


def _read_rows(
    conn: sqlite3.Connection,
    heads: Any,
    senses: list[Any],
    target_language: str,
    wanted_sense: int | None,
    cuts: Cuts,
) -> _Rows:
    """The candidate rows of the shown senses, each target once per sense (once per
    word under the merged order), grouped by sense in the order the builder ranked."""
    merged = wanted_sense is None and bool(heads.term_ids) and order_mark(conn) == _MERGED
    by_sense: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    unsensed: list[tuple[Any, ...]] = []
    unsensed_skipped = 0  # not tied to a sense, so not shown for one `sense_id`
    first_row: dict[int, int] = {}  # sense -> where its first row came
    if heads.term_ids:
        wanted = {s.id for s in senses}
        seen: set[tuple[int | None, str]] = set()
        first_term = heads.term_ids[0] if merged else None
        for row in translations_into(conn, heads.term_ids, target_language, first_term):
            sid, norm = row[6], row[2]
            key = (None if merged else sid, norm)  # merged: each target once
            if key in seen or (merged and sid is not None and sid not in wanted):
                continue
            if merged:
                row = (*row, len(seen))  # its place in the one list
            seen.add(key)
            if sid is None:
                if wanted_sense is None:
                    unsensed.append(row)
                else:
                    unsensed_skipped += 1
            elif sid in wanted:
                first_row.setdefault(sid, len(seen))
                by_sense[sid].append(row)
    if unsensed_skipped:
        # Say so, or an empty answer reads as 'no translation': many dictionaries (the
        # starter's FreeDict ones) tie none of theirs to a sense.
        cuts.add(
            f"unsensed translations: {unsensed_skipped} into {target_language} are not tied "
            "to any sense, so sense_id leaves them out; omit sense_id to see them"
        )
    sensed_groups = [(s, by_sense[s.id]) for s in senses if by_sense[s.id]]
    if merged:
        sensed_groups.sort(key=lambda group: first_row[group[0].id])
    elif sensed_groups and evidence_order(conn):
        # The builder numbered each term's sense-tied rows best first across its senses:
        # the group holding the best-supported translation leads, not the part of speech
        # listed first. Ids compare within a term only, so the terms keep their order
        # ('day' before the name 'Day').
        term_rank: dict[str, int] = {}
        for s in senses:
            term_rank.setdefault(s.word, len(term_rank))
        sensed_groups.sort(key=lambda group: (term_rank[group[0].word], first_row[group[0].id]))
    return _Rows(sensed_groups, unsensed, merged)


def _takes(rows: _Rows, limit: int) -> list[int]:
    """How many candidates each group shows (the unsensed group last): the first `limit`
    of the merged list, or dealt round-robin across the groups."""
    if rows.merged:
        every = [*rows.sensed_groups, (None, rows.unsensed)]
        return [sum(c[-1] < limit for c in cands) for _, cands in every]
    return round_robin([len(c) for _, c in rows.sensed_groups] + [len(rows.unsensed)], limit)


def _shape_groups(
    corpus: Corpus,
    conn: sqlite3.Connection,
    rows: _Rows,
    limit: int,
    source_language: str,
    table: Any,
    cited: Cited,
) -> list[TranslationGroup]:
    """The shown candidates as answer groups, sense groups first, then the unsensed one
    (under the merged order it stands where its first target stands in the list)."""
    takes = _takes(rows, limit)
    sensed_groups, unsensed = rows.sensed_groups, rows.unsensed
    shown = [
        c for (_, cands), take in zip(sensed_groups, takes, strict=False) for c in cands[:take]
    ]
    shown += unsensed[: takes[-1]] if takes else []
    installed = installed_targets(corpus, shown, target_entry_column(conn) if shown else False)

    def candidate(row: tuple[Any, ...], scope: str) -> Translation:
        return Translation(
            text=row[1],
            note=row[3],
            sense_scope="sense" if scope == "sense" else "unsensed",
            target_entry_installed=(row[0], row[2]) in installed,
            source=cited.key(table, row[4]),
        )

    groups: list[TranslationGroup] = []
    for (row, cands), take in zip(sensed_groups, takes, strict=False):
        if take:
            groups.append(
                TranslationGroup(
                    sense=sense_ref(source_language, row, table, cited),
                    sense_scope="synset" if row.synset else "sense",
                    candidates=[candidate(c, "sense") for c in cands[:take]],
                    truncated=len(cands) > take,
                )
            )
    if takes and takes[-1]:
        groups.append(
            TranslationGroup(
                sense=None,
                sense_scope="unsensed",
                candidates=[candidate(c, "unsensed") for c in unsensed[: takes[-1]]],
                truncated=len(unsensed) > takes[-1],
            )
        )
        if rows.merged and unsensed:
            before = sum(1 for _, c in sensed_groups if c and c[0][-1] < unsensed[0][-1])
            groups.insert(min(before, len(groups) - 1), groups.pop())
    return groups


def evidence_order(conn: sqlite3.Connection) -> bool:
    """Whether the component's sense-tied translation ids run best first across senses."""
    return order_mark(conn) in (_ORDER_META[1], _MERGED)


def order_mark(conn: sqlite3.Connection) -> str | None:
    """The builder's `translation_order` mark: None, `evidence` or `merged`."""
    return translation_order(conn)
