"""dictionary_translate: round-robin across sense groups, status of the target language."""

from __future__ import annotations

import dataclasses
import shutil
import sqlite3
from pathlib import Path
from types import MappingProxyType

import pytest
from _support.provenance import assert_sources_complete

from lexicon_server.corpus.reader import CapabilityUnavailable, Corpus
from lexicon_server.errors import InvalidArgument, NoSuchSense
from lexicon_server.models import TranslateResult
from lexicon_server.query.budget import drop_last_group
from lexicon_server.query.lookup import lookup
from lexicon_server.query.translate import translate


def _candidates(result: TranslateResult) -> int:
    return sum(len(g.candidates) for g in result.groups)


def test_grouped_by_sense_round_robin(corpus: Corpus) -> None:
    result = translate(corpus, "house", "fr", limit=3)
    assert result.target_language_status == "installed"
    assert [len(g.candidates) for g in result.groups] == [1, 1, 1]
    assert [g.sense_scope for g in result.groups] == ["synset", "synset", "unsensed"]
    assert result.groups[0].candidates[0].text == "maison"
    assert result.groups[0].truncated and result.groups[1].truncated
    assert len(result.groups) == 3 and _candidates(result) == 3
    every = translate(corpus, "house", "fr", limit=100)
    assert {c.text for g in every.groups for c in g.candidates} == {
        "maison",
        "domicile",
        "famille",
        "maisonnée",
        "logis",
    }
    assert not any(g.truncated for g in every.groups)
    assert set(every.sources) == {"wordnet-3.1", "freedict-eng-fra"}
    assert_sources_complete(every.model_dump(mode="json"))


def test_target_not_installed_still_answers(corpus: Corpus) -> None:
    result = translate(corpus, "house", "de")
    assert result.target_language_status == "language_not_installed"
    texts = {c.text: c for g in result.groups for c in g.candidates}
    assert set(texts) == {"Haus", "Gebäude"}
    assert not texts["Haus"].target_entry_installed


def test_target_entry_installed(corpus: Corpus) -> None:
    result = translate(corpus, "dog", "fr")
    chien = result.groups[0].candidates[0]
    assert chien.text == "chien" and chien.target_entry_installed
    assert chien.source == "freedict-eng-fra"
    assert result.sources["freedict-eng-fra"] == "GPL-2.0"
    assert_sources_complete(result.model_dump(mode="json"))


def test_unknown_target_language_is_reported(corpus: Corpus) -> None:
    result = translate(corpus, "house", "xx")
    assert result.target_language_status == "unknown_language"
    assert _candidates(result) == 0


def test_sense_id_restricts_to_one_sense(corpus: Corpus) -> None:
    senses = lookup(corpus, "house").senses
    family = next(s for s in senses if s.gloss.startswith("a social unit"))
    result = translate(corpus, "house", "fr", sense_id=family.id)
    assert {c.text for g in result.groups for c in g.candidates} == {"famille", "maisonnée"}
    # 'logis' is not tied to any sense: left out, and the answer says so
    assert result.cut == [
        "unsensed translations: 1 into fr are not tied to any sense, so sense_id leaves "
        "them out; omit sense_id to see them"
    ]
    assert not translate(corpus, "house", "fr").cut
    with pytest.raises(NoSuchSense):
        translate(corpus, "dog", "fr", sense_id=family.id)


def test_max_senses(corpus: Corpus) -> None:
    result = translate(corpus, "house", "fr", max_senses=1, limit=100)
    assert result.senses_inspected == 1
    assert [g.sense_scope for g in result.groups] == ["synset", "unsensed"]


def test_word_language_unavailable(corpus: Corpus) -> None:
    with pytest.raises(CapabilityUnavailable) as info:
        translate(corpus, "Haus", "en", language="de")
    assert info.value.reason == "language_not_installed"


@pytest.mark.parametrize(
    ("kwargs", "parameter"),
    [
        ({"target_language": "en"}, "target_language"),
        ({"target_language": "fr!"}, "target_language"),
        ({"limit": 101}, "limit"),
        ({"max_senses": 101}, "max_senses"),
        ({"sense_id": "bogus"}, "sense_id"),
    ],
)
def test_bad_input(corpus: Corpus, kwargs: dict[str, object], parameter: str) -> None:
    args: dict[str, object] = {"target_language": "fr", **kwargs}
    with pytest.raises(InvalidArgument) as info:
        translate(corpus, "house", **args)  # type: ignore[arg-type]
    assert info.value.parameter == parameter


def test_regional_target_tag(corpus: Corpus) -> None:
    result = translate(corpus, "house", "fr-FR")
    assert result.target_language == "fr" and _candidates(result) > 0


def test_inflected_and_unknown_words_cite_what_they_show(corpus: Corpus) -> None:
    for word in ("houses", "ran", "qwertyuiop"):
        assert_sources_complete(translate(corpus, word, "fr").model_dump(mode="json"))
    assert translate(corpus, "qwertyuiop", "fr").sources == {}


def test_budget_cut_keeps_only_the_sources_still_cited(corpus: Corpus) -> None:
    """Each group the response budget drops takes the sources only it cited along."""
    result = translate(corpus, "house", "fr", limit=100)
    assert len(result.groups) == 3
    while True:
        assert_sources_complete(result.model_dump(mode="json"))
        shrunk = drop_last_group(result, 0)
        if shrunk is None:
            break
        result, note = shrunk
        assert "response budget" in note
    assert result.groups == [] and result.sources == {}


def _ranked_copy(corpus: Corpus, mini_root: Path, tmp_path: Path, mark: bool) -> Corpus:
    """The mini corpus with house's family-sense rows renumbered before the dwelling
    ones, as a builder does when their evidence is better; `mark` writes its meta row."""
    root = tmp_path / "ranked"
    shutil.copytree(mini_root, root)
    conn = sqlite3.connect(root / "en" / "lexical.sqlite")
    low = conn.execute("SELECT min(id) FROM translations").fetchone()[0]
    conn.execute(
        "UPDATE translations SET id = ? - 10 + (target_text = 'maisonnée') "
        "WHERE target_text IN ('famille', 'maisonnée')",
        (low,),
    )
    if mark:
        conn.execute("INSERT INTO meta VALUES ('translation_order', 'evidence')")
    conn.commit()
    conn.close()
    selection = corpus.selection
    files = {rel: root / path.relative_to(mini_root) for rel, path in selection.files.items()}
    return Corpus(dataclasses.replace(selection, data_dir=root, files=MappingProxyType(files)))


@pytest.mark.parametrize("mark", [True, False])
def test_sense_groups_follow_the_builders_order_when_marked(
    corpus: Corpus, mini_root: Path, tmp_path: Path, mark: bool
) -> None:
    """Marked (`translation_order = evidence`): the group holding the lowest id leads.
    Unmarked (an older release): sense order, whatever the ids."""
    ranked = _ranked_copy(corpus, mini_root, tmp_path, mark)
    try:
        groups = translate(ranked, "house", "fr", limit=100).groups
        firsts = [g.candidates[0].text for g in groups]
        assert firsts == (
            ["famille", "maison", "logis"] if mark else ["maison", "famille", "logis"]
        )
        assert groups[-1].sense_scope == "unsensed", "sense-tied before unsensed either way"
    finally:
        ranked.close()


def _merged_copy(corpus: Corpus, mini_root: Path, tmp_path: Path) -> Corpus:
    """The mini corpus with house's French rows numbered as one merged list (a builder's
    `translation_order = merged`): logis (unsensed), maison (dwelling sense), famille,
    maison again (unsensed, from another dictionary), domicile, maisonnée."""
    root = tmp_path / "merged"
    shutil.copytree(mini_root, root)
    conn = sqlite3.connect(root / "en" / "lexical.sqlite")
    conn.execute(
        "INSERT INTO translations (id, term_id, sense_id, target_language, target_text, "
        "target_norm, note, source_id) SELECT 100000, term_id, NULL, target_language, "
        "'maison', 'maison', NULL, source_id FROM translations WHERE target_text = 'logis'"
    )
    order = [("logis", True), ("maison", False), ("famille", False), ("maison", True),
             ("domicile", False), ("maisonnée", False)]  # fmt: skip
    for rank, (text, unsensed) in enumerate(order):
        conn.execute(
            "UPDATE translations SET id = ? WHERE target_text = ? AND target_language = 'fr' "
            "AND (sense_id IS NULL) = ?",
            (200000 + rank, text, unsensed),
        )
    conn.execute("INSERT INTO meta VALUES ('translation_order', 'merged')")
    conn.commit()
    conn.close()
    selection = corpus.selection
    files = {rel: root / path.relative_to(mini_root) for rel, path in selection.files.items()}
    return Corpus(dataclasses.replace(selection, data_dir=root, files=MappingProxyType(files)))


def test_merged_order_shows_each_target_once_in_id_order(
    corpus: Corpus, mini_root: Path, tmp_path: Path
) -> None:
    """Marked `merged`: the first `limit` distinct targets in id order, each once, in the
    group of its first row; the groups (the unsensed one too) by their first candidate."""
    merged = _merged_copy(corpus, mini_root, tmp_path)
    try:
        three = translate(merged, "house", "fr", limit=3)
        assert [[c.text for c in g.candidates] for g in three.groups] == [
            ["logis"],
            ["maison"],
            ["famille"],
        ]
        assert [g.sense_scope for g in three.groups] == ["unsensed", "synset", "synset"]
        assert three.groups[1].truncated and three.groups[2].truncated
        every = translate(merged, "house", "fr", limit=100)
        texts = [c.text for g in every.groups for c in g.candidates]
        assert sorted(texts) == sorted({"logis", "maison", "famille", "domicile", "maisonnée"})
        assert [[c.text for c in g.candidates] for g in every.groups] == [
            ["logis"],
            ["maison", "domicile"],
            ["famille", "maisonnée"],
        ]
        # sense_id still picks one group, unsensed rows left out
        sense = every.groups[1].sense
        assert sense is not None
        one = translate(merged, "house", "fr", limit=100, sense_id=sense.id)
        assert [c.text for g in one.groups for c in g.candidates] == ["maison", "domicile"]
    finally:
        merged.close()
