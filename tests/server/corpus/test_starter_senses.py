"""Issue 17's checks on the real starter (marker `starter`): sense-tied MultiWordNet
translations, simplemma lemmas and derived vectors, through the query layer."""

from __future__ import annotations

from pathlib import Path

from _support.dumped import dumped
from _support.senses import bank_sense

from lexicon_server.corpus.reader import Corpus
from lexicon_server.query.semantic import VectorStore, semantic_neighbors
from lexicon_server.query.senses import sense_handle
from lexicon_server.query.translate import translate
from lexicon_store.selection import load_active


def _sense(corpus: Corpus, gloss: str) -> str:
    return sense_handle("en", bank_sense(corpus, gloss))


def _texts(corpus: Corpus, word: str, target: str, **kw: object) -> list[str]:
    result = translate(corpus, word, target, **kw)  # type: ignore[arg-type]
    return [c.text for g in result.groups for c in g.candidates]


def test_bank_senses_translate_apart(starter_data_dir: Path) -> None:
    corpus = Corpus(load_active(starter_data_dir))
    money, river = _sense(corpus, "a financial institution"), _sense(corpus, "sloping land")
    assert "banca" in _texts(corpus, "bank", "it", sense_id=money)
    river_it = _texts(corpus, "bank", "it", sense_id=river)
    assert "banca" not in river_it and {"riva", "sponda"} & set(river_it)
    assert "orilla" in _texts(corpus, "bank", "es", sense_id=river)
    scopes = [g.sense_scope for g in translate(corpus, "bank", "it", limit=40).groups]
    # Under the merged order (issue 29) the unsensed group stands where its first
    # target ranks in the one list, not necessarily last.
    assert scopes[0] == "synset" and "unsensed" in scopes


def test_inflected_forms_find_their_lemma(starter_data_dir: Path) -> None:
    corpus = Corpus(load_active(starter_data_dir))
    for word, language, lemma in (("Häuser", "de", "Haus"), ("mangeaient", "fr", "manger")):
        result = translate(corpus, word, "en", language=language)
        found = {(r.lemma, r.source) for r in result.resolutions}
        assert (lemma, "simplemma") in found, (word, found)


def test_derived_vectors_reach_across_languages(starter_data_dir: Path) -> None:
    store = VectorStore(Corpus(load_active(starter_data_dir)))
    roi = dumped(semantic_neighbors(store, "roi", "fr", "en", limit=10))
    assert "king" in {n["text"] for n in roi["neighbors"]}
    hund = dumped(semantic_neighbors(store, "Hund", "de", "fr", limit=10))
    assert "chien" in {n["text"] for n in hund["neighbors"]}
    assert all(n["derived"] for n in hund["neighbors"]) and "derived" in hund["method"]
