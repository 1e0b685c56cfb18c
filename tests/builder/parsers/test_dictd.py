"""FreeDict dictd parser against slices of six real pairs (Debian dict-freedict-* 2022).

The slices are genuine dictd databases: an .index and a dictzip .dict.dz cut from the
packaged files by tests/fixtures/_tools/slice_dictd.py, original entry text unchanged.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from lexicon_server.builder.parsers import dictd
from lexicon_server.builder.parsers._io import ParseError
from lexicon_server.builder.records import BilingualEntry


def _entries(fixtures: Path, pair: str) -> list[BilingualEntry]:
    base = fixtures / "freedict" / f"freedict-{pair}"
    return list(dictd.iter_entries(f"{base}.index", f"{base}.dict.dz"))


def _translations(entries: list[BilingualEntry], headword: str) -> set[str]:
    return {t for e in entries if e.headword == headword for t in e.translations}


def test_house_translates_to_french_and_german(fixtures: Path) -> None:
    assert "maison" in _translations(_entries(fixtures, "eng-fra"), "house")
    german = _entries(fixtures, "eng-deu")
    assert "Haus" in _translations(german, "house")
    haus = next(e for e in german if e.translations == ("Haus",))
    assert (haus.source_language, haus.target_language, haus.pos) == ("en", "de", "noun")


def test_meta_entries_are_not_headwords(fixtures: Path) -> None:
    for pair in ("eng-fra", "eng-deu", "eng-jpn", "eng-pol", "fra-eng", "deu-eng"):
        entries = _entries(fixtures, pair)
        assert entries
        assert not any(e.headword.startswith("00-database") for e in entries)
        assert all(len(e.translations) == len(e.sense_notes) for e in entries)
        # nothing of the rendering's markup leaks into translations
        for e in entries:
            for t in e.translations:
                assert not set(t) & set('<>[]{}"'), (pair, e.headword, t)
                assert not t.startswith("/"), (pair, e.headword, t)
    # '00 gauge' is a real headword and must stay
    assert "00 gauge" in {e.headword for e in _entries(fixtures, "eng-deu")}


def test_database_info_and_licence(fixtures: Path) -> None:
    base = fixtures / "freedict" / "freedict-eng-fra"
    info = dictd.database_info(f"{base}.index", f"{base}.dict.dz")
    assert info.short.startswith("English-French FreeDict Dictionary")
    assert "GNU General Public License" in info.licence
    assert "Published at" not in info.licence
    assert info.url.startswith("http")
    jpn = fixtures / "freedict" / "freedict-eng-jpn"
    assert "Creative Commons" in dictd.database_info(f"{jpn}.index", f"{jpn}.dict.dz").licence


def test_grammar_tags_labels_notes_and_examples(fixtures: Path) -> None:
    german = _entries(fixtures, "eng-deu")
    deposit = next(e for e in german if "einzahlen" in e.translations)
    assert deposit.pos == "verb"
    assert deposit.translations == ("auf die Bank bringen", "einzahlen")
    assert deposit.sense_notes == ("Geld", "Geld")
    credit = next(e for e in german if "Bankinstitut" in e.translations)
    assert credit.sense_notes[0] == "fin."
    # example sentences ("build a house" - ein Haus bauen) are not translations
    assert not any("bauen" in t for e in german for t in e.translations)


def test_display_headword_not_the_folded_index_key(fixtures: Path) -> None:
    german = _entries(fixtures, "deu-eng")
    assert "house" in _translations(german, "Haus")
    assert "haus" not in {e.headword for e in german}


def test_wikdict_sense_glosses_become_notes(fixtures: Path) -> None:
    bank = next(e for e in _entries(fixtures, "eng-jpn") if e.headword == "bank")
    pairs = dict(zip(bank.translations, bank.sense_notes, strict=True))
    assert pairs["貯金箱"] == "device used to store coins or currency"
    assert pairs["銀行"] == "institution"
    assert "2." not in " ".join(bank.translations)


def test_roman_groups_and_compound_headwords(fixtures: Path) -> None:
    polish = _entries(fixtures, "eng-pol")
    house = {e.pos: e for e in polish if e.headword == "house"}
    assert set(house) == {"noun", "verb"}
    assert house["noun"].translations[:2] == ("budynek", "dom")
    assert ("wydawnictwo", "książek") in zip(
        house["noun"].translations, house["noun"].sense_notes, strict=True
    )
    compounds = {e.headword: e for e in polish}
    assert compounds["bank holiday"].translations == ("święto publiczne",)
    assert compounds["bank on"].pos == "verb"


def test_french_english_pos(fixtures: Path) -> None:
    french = {e.headword: e for e in _entries(fixtures, "fra-eng")}
    assert (french["maison"].pos, french["maison"].translations) == ("noun", ("house",))
    assert french["assièger"].pos == "verb"


def test_plain_uncompressed_dict_reads_the_same(fixtures: Path, tmp_path: Path) -> None:
    base = fixtures / "freedict" / "freedict-eng-fra"
    plain = tmp_path / "freedict-eng-fra.dict"
    plain.write_bytes(gzip.decompress(Path(f"{base}.dict.dz").read_bytes()))
    again = list(dictd.iter_entries(f"{base}.index", plain))
    assert again == _entries(fixtures, "eng-fra")


def test_languages_from_file_names() -> None:
    assert dictd.languages_of("freedict-eng-jpn.index") == ("en", "ja")
    assert dictd.languages_of("/x/freedict-deu-eng.dict.dz") == ("de", "en")
    with pytest.raises(ParseError):
        dictd.languages_of("english.index")


def test_bad_index_line_is_reported(fixtures: Path, tmp_path: Path) -> None:
    base = fixtures / "freedict" / "freedict-eng-fra"
    index = tmp_path / "freedict-eng-fra.index"
    index.write_text(Path(f"{base}.index").read_text() + "broken line\n")
    with pytest.raises(ParseError, match=r"freedict-eng-fra\.index:\d+"):
        list(dictd.iter_entries(index, f"{base}.dict.dz"))


def test_entry_past_the_end_is_reported(fixtures: Path, tmp_path: Path) -> None:
    base = fixtures / "freedict" / "freedict-eng-fra"
    index = tmp_path / "freedict-eng-fra.index"
    index.write_text(Path(f"{base}.index").read_text() + "zzz\t/////\tB\n")
    # The error names the file, the entry and its index line, and what was expected.
    with pytest.raises(
        ParseError, match=r"dict\.dz:21: entry 'zzz' \(index line 21.*expected 1 bytes"
    ):
        list(dictd.iter_entries(index, f"{base}.dict.dz"))


def test_base64_numbers() -> None:
    assert dictd.decode_number("A") == 0
    assert dictd.decode_number("c/") == 28 * 64 + 63


def test_explicit_language_tags(fixtures: Path) -> None:
    base = fixtures / "freedict" / "freedict-eng-fra"
    entries = list(
        dictd.iter_entries(
            f"{base}.index", f"{base}.dict.dz", source_language="en", target_language="fr-FR"
        )
    )
    assert {(e.source_language, e.target_language) for e in entries} == {("en", "fr-FR")}


def test_jmdict_shaped_japanese_english(fixtures: Path) -> None:
    entries = _entries(fixtures, "jpn-eng")
    assert {(e.source_language, e.target_language) for e in entries} == {("ja", "en")}
    cat = next(e for e in entries if e.headword == "猫" and "cat" in e.translations)
    assert cat.pos == "noun"  # from the '(noun (common) (futsuumeishi))' sense line
    pairs = dict(zip(cat.translations, cat.sense_notes, strict=True))
    # 'Note: abbreviationwheelbarrow': the label and the translation are told apart
    assert pairs["wheelbarrow"] == "abbreviation"
    # every written form of the header is a headword: kanji and kana
    eat = {e.headword: e for e in entries if "to eat" in e.translations}
    assert {"食べる", "たべる"} <= set(eat) and eat["食べる"].pos == "verb"
    assert not any("[" in e.headword or "/" in e.headword for e in entries)
    shop = next(e for e in entries if "(something) shop" in e.translations)
    assert shop.sense_notes[0] == "usu. 屋"  # '{パン屋} (usu. 屋)': reference dropped, note kept


@pytest.mark.parametrize(
    ("text", "translations"),
    [
        # entry texts copied from the real eng-jpn and eng-fin databases (WikDict markup)
        ("Grey Cup /ɡɹˈeɪ kˈʌp/ <pn>\n[[グレイ・カップ]]\n", ("グレイ・カップ",)),
        (
            "Australia antigen /ɒstɹˈeɪliəɹ ˈantɪdʒˌɛn/ <n>\n"
            "hepatiitin s-[[vasta-aine]]\nantigen\n",
            ("hepatiitin s-vasta-aine",),
        ),
        (
            "like /lˈaɪk/ <suffix>\nllinen, moinen, [-n]] kaltainen\nhaving some of the "
            "characteristics of (used to form adjectives from nouns)\n",
            ("llinen", "moinen", "kaltainen"),
        ),
    ],
)
def test_wiki_link_markup_is_unwrapped(text: str, translations: tuple[str, ...]) -> None:
    (entry,) = dictd.parse_entry(text, "en", "xx")
    assert entry.translations == translations
