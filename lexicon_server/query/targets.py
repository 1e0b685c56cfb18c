"""Whether translation targets have their own entry in an installed language."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from lexicon_server.corpus.connection import kept
from lexicon_server.corpus.rows.terms import has_entry, norms_with_entries
from lexicon_server.corpus.rows.translations import target_entry_column
from lexicon_server.corpus.term_docs import TARGET_UNKNOWN

if TYPE_CHECKING:
    from lexicon_server.corpus.reader import Corpus

__all__ = ["entry_installed", "installed_entries", "installed_targets", "target_entry_column"]

# Whether a target word has its own entry is asked for every translation shown; the same
# few thousand common targets come back again and again, so answers are kept per database
# (bounded, oldest answer out first). Objects never change, so an answer never goes stale.
_ENTRY_CACHE_SIZE = 50_000


def installed_entries(corpus: Corpus, language: str, norms: Iterable[str]) -> set[str]:
    """Which of `norms` have their own entry in `language`'s installed lexical data."""
    wanted = set(norms)
    if not wanted or corpus.selection.availability(language, "lexical") is not None:
        return set()
    conn = corpus.db(language, "lexical")
    answers = kept(conn).memo(norms_with_entries, _ENTRY_CACHE_SIZE)
    known, missing = answers.split(wanted)
    found = {norm for norm, has in known.items() if has}
    if missing:
        hits = norms_with_entries(conn, missing)
        found |= hits
        answers.keep({norm: norm in hits for norm in missing})
    return found


def entry_installed(corpus: Corpus, language: str, norm: str) -> bool:
    """Whether `norm` has its own entry in `language`'s installed lexical data."""
    if corpus.selection.availability(language, "lexical") is not None:
        return False
    return has_entry(corpus.db(language, "lexical"), norm)


def installed_targets(
    corpus: Corpus, rows: Sequence[Sequence[Any]], from_column: bool
) -> set[tuple[str, str]]:
    """The (language, norm) pairs of the translation `rows` (target_language, text, norm,
    note, source_id, target_entry, ...) whose target word has its own entry in an
    installed language.

    With `from_column`, the builder's `target_entry` answers (1: the release has an entry
    for the word, so it is installed when its language is); a NULL (the build had no
    lexical component for the language, or a database the builder did not link) and a
    database without the column are answered by probing the target language."""
    found: set[tuple[str, str]] = set()
    if from_column:
        found = {(row[0], row[2]) for row in rows if row[5] == 1}
        absent = {
            lang
            for lang in {pair[0] for pair in found}
            if corpus.selection.availability(lang, "lexical") is not None
        }
        if absent:
            found = {pair for pair in found if pair[0] not in absent}
        # Unknown: NULL in the table, TARGET_UNKNOWN in a term document.
        rows = [row for row in rows if row[5] is None or row[5] == TARGET_UNKNOWN]
    by_language: dict[str, set[str]] = {}
    for row in rows:
        by_language.setdefault(row[0], set()).add(row[2])
    for lang, norms in by_language.items():
        found.update((lang, norm) for norm in installed_entries(corpus, lang, norms))
    return found
