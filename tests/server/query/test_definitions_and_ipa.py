"""IPA beside ARPAbet, and GCIDE's senses after WordNet's (issue 18), on the sample corpus.

The sample is built from the committed slices: `tests/fixtures/islex` (ISLEX lines of
the 300 most frequent words; no `bank`, so its IPA is mapped from CMUdict) and
`tests/fixtures/gcide` (34 real GCIDE entries, among them `Bank`, `Cat`, `House`).
"""

from __future__ import annotations

import sqlite3

from _support.dumped import dumped

from lexicon_server.corpus.ipa import cmudict_ipa
from lexicon_server.corpus.reader import GCIDE_FILE, Corpus
from lexicon_server.query.lookup import lookup


def _prons(answer: dict) -> list[dict]:
    return [p for s in answer["senses"] for p in s.get("pronunciations", ())] + answer.get(
        "pronunciations", []
    )


def test_bank_has_ipa_beside_arpabet_and_says_where_it_came_from(sample_corpus: Corpus) -> None:
    answer = dumped(lookup(sample_corpus, "bank"))
    prons = _prons(answer)
    assert {"notation": "arpabet", "value": "B AE1 NG K", "source": "cmudict"} in prons
    # The slice of ISLEX has no 'bank': its IPA is CMUdict's, mapped, and says so.
    assert {"notation": "ipa", "value": "bæŋk", "source": "cmudict-ipa"} in prons
    assert answer["sources"]["cmudict-ipa"] == "BSD-2-Clause"
    arpabet = [p["value"] for p in prons].index("B AE1 NG K")
    assert [p["notation"] for p in prons][arpabet + 1 :].count("ipa") >= 1


def test_islex_gives_the_ipa_where_it_has_the_word(sample_corpus: Corpus) -> None:
    prons = _prons(dumped(lookup(sample_corpus, "cat")))
    assert {"notation": "ipa", "value": "kæt", "source": "islex"} in prons
    assert not [p for p in prons if p["source"] == "cmudict-ipa"]


def test_a_mapped_word_of_several_syllables_keeps_its_stress() -> None:
    assert cmudict_ipa(["AH0", "B", "AW1", "T"]) == "əbˈaʊt"
    assert cmudict_ipa(["B", "AE1", "NG", "K"]) == "bæŋk"


def test_gcide_senses_come_after_wordnets_with_their_source(sample_corpus: Corpus) -> None:
    answer = dumped(lookup(sample_corpus, "house", limit=100, examples_limit=100))
    sources = [s.get("source", answer["sense_source"]) for s in answer["senses"]]
    assert answer["sense_source"] == "wordnet-3.1" and "gcide" in sources
    first_gcide = sources.index("gcide")
    # (the sample also has Wiktionary senses of 'house', which are the lexical component's)
    assert "gcide" not in sources[:first_gcide] and set(sources[first_gcide:]) == {"gcide"}
    gcide = answer["senses"][first_gcide:]
    # Never merged into a synset; part of speech, etymology, quotations as examples.
    assert all("synset" not in s and s["sense_scope"] == "sense" for s in gcide)
    assert {"noun", "verb"} <= {s["pos"] for s in gcide}
    assert any("habitation" in s["gloss"] for s in gcide)
    assert any(s.get("etymology") for s in gcide)
    assert any(
        "--" not in e["text"] and "—" in e["text"] for s in gcide for e in s.get("examples", ())
    )
    assert all(s["id"].startswith("en:gcide:s") for s in gcide)
    assert answer["sources"]["gcide"] == "GPL-2+"
    assert answer["total_senses"] == len(answer["senses"])


def test_gcide_senses_share_the_limit_and_say_what_was_cut(sample_corpus: Corpus) -> None:
    full = dumped(lookup(sample_corpus, "house", limit=100))
    wordnet = sum(1 for s in full["senses"] if s.get("source", full["sense_source"]) != "gcide")
    answer = dumped(lookup(sample_corpus, "house", limit=wordnet + 1))
    assert len(answer["senses"]) == wordnet + 1
    assert any(note.startswith("gcide senses:") for note in answer["cut"])
    assert answer["total_senses"] == full["total_senses"]


def test_gcide_is_a_component_of_its_own(sample_corpus: Corpus) -> None:
    path = sample_corpus.path(GCIDE_FILE)
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        names = [row[0] for row in conn.execute("SELECT name FROM sources")]
        assert names == ["gcide"]
    lexical = sample_corpus.db("en", "lexical")
    assert "gcide" not in [row[0] for row in lexical.execute("SELECT name FROM sources")]


def test_a_word_only_gcide_knows_is_found_by_its_senses(sample_corpus: Corpus) -> None:
    answer = dumped(lookup(sample_corpus, "abaculus"))
    assert answer["found"] and answer["senses"]
    assert answer["sense_source"] == "gcide"
    assert all("source" not in s for s in answer["senses"])
    assert answer["senses"][0]["word"] == "Abaculus"


def test_islex_phones_are_shown_in_the_common_ipa_spelling(sample_corpus: Corpus) -> None:
    # ISLEdict.txt: 'day(nn,...) # d ˈei #' and 'give(vb,vbp) # g ɪ v #' (own 'ei', ASCII g).
    day = _prons(dumped(lookup(sample_corpus, "day")))
    assert {"notation": "ipa", "value": "deɪ", "source": "islex"} in day
    give = _prons(dumped(lookup(sample_corpus, "give")))
    assert {"notation": "ipa", "value": "ɡɪv", "source": "islex"} in give
