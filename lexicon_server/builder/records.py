"""Plain records that the upstream parsers yield and the builder consumes.

Parsers stream these one at a time (memory must not grow with the input); the builder
interns and writes them. Fields keep the upstream meaning; normalisation happens in the
builder, not here.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "Assertion",
    "BilingualEntry",
    "DefinitionEntry",
    "DefinitionSense",
    "EmojiAnnotation",
    "Emoticon",
    "FrequencyRow",
    "InflectionRow",
    "IslexEntry",
    "PointerRecord",
    "PronunciationRow",
    "Quotation",
    "SenseRank",
    "SlangEntry",
    "SynsetMember",
    "SynsetRecord",
    "ThesaurusEntry",
    "VectorRow",
    "WiktEntry",
    "WiktSense",
    "WiktTranslation",
]


# --- WordNet (WNDB data.*/index.sense/*.exc and WN-LMF XML) -------------------------------


@dataclass(frozen=True, slots=True)
class SynsetMember:
    """One lemma of a synset, in the synset's own order."""

    lemma: str  # as published, underscores kept (the builder turns them into spaces)
    sense_key: str | None  # WordNet sense key / LMF sense id when the source gives one
    lex_id: int = 0
    adjposition: str | None = None  # WNDB '(a)', '(p)', '(ip)' markers on adjectives


@dataclass(frozen=True, slots=True)
class PointerRecord:
    """A directed pointer from a synset (member 0) or one of its members to another."""

    relation: str  # normalised name: 'hypernym', 'hyponym', 'antonym', ... (docs/corpus-format.md)
    target_synset: str  # external id of the target synset
    source_member: int  # 0 = the whole synset (semantic pointer); k = k-th member (1-based)
    target_member: int  # 0 = the whole synset; k = k-th member (1-based)


@dataclass(frozen=True, slots=True)
class SynsetRecord:
    external_id: str  # e.g. 'wn31-02086723-n' / 'oewn-02086723-n'
    pos: str  # 'noun' | 'verb' | 'adj' | 'adv'
    lexname: str | None
    gloss: str  # definition only, examples split off
    examples: tuple[str, ...]
    members: tuple[SynsetMember, ...]
    pointers: tuple[PointerRecord, ...]
    satellite: bool = False  # WNDB ss_type 's' / LMF partOfSpeech 's' (adjective satellite)


@dataclass(frozen=True, slots=True)
class SenseRank:
    """index.sense / LMF ordering: which sense of a lemma comes first and how often it is used."""

    sense_key: str
    synset: str
    sense_number: int  # 1-based, as published
    tag_count: int


@dataclass(frozen=True, slots=True)
class InflectionRow:
    """An irregular form and its lemma (WordNet *.exc or a Wiktionary form-of sense)."""

    form: str
    lemma: str
    pos: str


# --- CMUdict --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PronunciationRow:
    word: str  # without the '(2)' variant suffix
    variant: int  # 0 for 'word', 1 for 'word(2)', ...
    phones: tuple[str, ...]  # ARPAbet with stress digits, e.g. ('K', 'AE1', 'T')


# --- Wiktextract / Kaikki JSONL -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WiktTranslation:
    language: str  # target language code ('fr')
    word: str
    sense_hint: str | None  # the source's own sense label for the translation table, if any
    tags: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class WiktSense:
    gloss: str
    tags: tuple[str, ...]  # 'slang', 'informal', ...
    examples: tuple[str, ...]
    translations: tuple[WiktTranslation, ...]  # attached to this sense by the source
    form_of: tuple[str, ...] = ()  # lemmas when the sense is an inflected form
    sense_id: str | None = None


@dataclass(frozen=True, slots=True)
class WiktEntry:
    word: str
    language: str  # entry language code ('en')
    pos: str
    etymology: str | None
    ipa: tuple[str, ...]
    senses: tuple[WiktSense, ...]
    translations: tuple[WiktTranslation, ...]  # entry-level, not attached to a sense


# --- ConceptNet / bilingual dictionaries / frequencies / vectors ----------------------------


@dataclass(frozen=True, slots=True)
class Assertion:
    """One ConceptNet edge, e.g. /r/Synonym /c/en/car -> /c/fr/voiture."""

    relation: str  # ConceptNet name without '/r/', e.g. 'Synonym', 'IsA'
    start_language: str
    start_text: str
    end_language: str
    end_text: str
    weight: float
    dataset: str  # e.g. '/d/wiktionary/en'


@dataclass(frozen=True, slots=True)
class BilingualEntry:
    """A headword of a bilingual dictionary (FreeDict dictd) and its translations."""

    source_language: str  # 'en'
    target_language: str  # 'fr'
    headword: str
    pos: str | None
    translations: tuple[str, ...]
    # One per translation: a gloss or usage note when the source gives one.
    sense_notes: tuple[str | None, ...]
    # (rule, rows) for each entry-grammar rule that changed this record's text
    # (parsers/entry_grammar.py RULES); counted once per dictd entry, on its first record.
    cleaned: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class FrequencyRow:
    word: str
    zipf: float  # wordfreq's Zipf scale: log10 of frequency per billion words


@dataclass(frozen=True, slots=True)
class VectorRow:
    word: str
    language: str
    vector: tuple[float, ...]  # parsers may instead yield numpy batches; see parsers/vectors.py


# --- English depth: thesauri, ISLEX, monolingual dictionaries, emoji, slang -----------------


@dataclass(frozen=True, slots=True)
class ThesaurusEntry:
    """A headword and the terms a thesaurus lists for it (Moby: one per root; MyThes: per sense)."""

    headword: str  # as published (case kept)
    pos: str | None  # the source's own part-of-speech label ('noun', 'Nom', 's.m.'), if any
    terms: tuple[str, ...]  # in the source's order, annotations removed
    # One per term when the source annotates terms ('generic term', 'antonym'), else empty.
    notes: tuple[str | None, ...] = ()
    sense_note: str | None = None  # MyThes: the rest of the '(pos ...)' label ('v. Avvilire')


@dataclass(frozen=True, slots=True)
class IslexEntry:
    """One ISLEX pronunciation: IPA phones grouped into syllables, per written word."""

    word: str  # lower case as published, '_' between the words of a phrase
    variant: int  # counts the word's pronunciations from 0 in file order
    pos: tuple[str, ...]  # Penn Treebank tags ('nn', 'vbd')
    tags: tuple[str, ...]  # the other labels: '+abbreviation', '+stem+ing', 'nnp_surname_0.001'
    # words -> syllables -> phones; a stressed vowel keeps its 'ˈ'/'ˌ' prefix as published
    syllables: tuple[tuple[tuple[str, ...], ...], ...]


@dataclass(frozen=True, slots=True)
class Quotation:
    text: str
    author: str | None  # the '--Author.' attribution, when given


@dataclass(frozen=True, slots=True)
class DefinitionSense:
    number: str | None  # '1', '2', ... as published; None for an unnumbered definition
    definition: str  # one line of text, markup removed
    domain: str | None = None  # a leading '(Zool.)'-style label, without the parentheses
    quotations: tuple[Quotation, ...] = ()
    labels: tuple[str, ...] = ()  # usage labels as written ('Obs.', 'Slang, U. S.')


@dataclass(frozen=True, slots=True)
class DefinitionEntry:
    """A headword of a monolingual dictionary (GCIDE, the Jargon File) and its senses."""

    headword: str
    pos: str | None  # the source's abbreviation as published ('n.', 'v. t.', 'a.')
    senses: tuple[DefinitionSense, ...]
    etymology: str | None = None
    pronunciation: str | None = None  # as published ('hous'), not IPA
    inflections: tuple[str, ...] = ()  # 'Houses', 'Housed', ...
    synonyms: tuple[str, ...] = ()  # the 'Syn:' line's terms
    source: str | None = None  # GCIDE's bracketed origin of the first sense: '1913 Webster'
    # (rule, count) for each markup rule that changed this entry's text (GCIDE: entities
    # decoded, a wrapped pronunciation read whole); see parsers/gcide_entities.py.
    cleaned: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class EmojiAnnotation:
    """A CLDR annotation: an emoji (or symbol), its short name and keywords in one locale."""

    emoji: str
    locale: str  # CLDR locale id ('en', 'en-GB', 'ca-ES-valencia')
    name: str | None  # the 'tts' short name
    keywords: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Emoticon:
    """An ASCII emoticon and the emoji Emojibase maps it to (':)' -> '🙂')."""

    emoticon: str
    emoji: str
    hexcode: str  # Emojibase's code point sequence ('1F642')
    label: str  # the emoji's label in the file's locale


@dataclass(frozen=True, slots=True)
class SlangEntry:
    term: str
    definition: str
