"""Typed results of `rhymes` and `wordplay`; their JSON schema is each tool's `outputSchema`.

They follow the shared conventions of `lexicon_server.models`: every result names its
dataset version and language, every candidate says which source each of its facts comes
from (a key into the result's `sources`, which gives its version and licence), and a
`budget` says what was cut. Wordplay candidates carry a `provenance` array; a rhyme has
exactly two facts, so it names them in two fields (`spelling_source`,
`pronunciation_source`), which keeps the most frequently called tool's answer small.
Wordplay facts are about written forms and sounds, never about one sense, so their
`sense_scope` is `unsensed` unless a pun names the senses it relies on; every rhyme is
unsensed, which `RhymesResult.sense_scope` says once for all of them.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from lexicon_server.models import (
    Budget,
    SourceKey,
    Sources,
    Suggestion,
    absent_detail,
    budget_left_out,
    left_out_at,
)

__all__ = [
    "AnagramCandidate",
    "PalindromeCandidate",
    "PatternCandidate",
    "Provenance",
    "PunCandidate",
    "PunSense",
    "QueryPronunciation",
    "RhymeCandidate",
    "RhymesResult",
    "SoundCandidate",
    "SpoonerismCandidate",
    "WordplayResult",
]


def _omitted(description: str | None = None) -> Any:
    """An optional detail, left out of the answer while None."""
    return Field(default=None, exclude_if=absent_detail, description=description)


def _listed(description: str | None = None) -> Any:
    """A list, left out of the answer while empty."""
    # A factory, not `default=[]`: pydantic deep-copies a mutable default for every
    # model it builds, which cost a look-up about 5 % of its time.
    return Field(default_factory=list, exclude_if=absent_detail, description=description)


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def _dictionary_word(description: str | None = None) -> Any:
    """The label of a name or rare spelling, listed only with vocabulary='all'."""
    return left_out_at(True, description)


class Provenance(_Model):
    """Which source one fact of a candidate comes from."""

    fact: Literal["spelling", "senses", "pronunciation"] = Field(
        description="spelling: the written headword; senses: its meanings; "
        "pronunciation: the sounds a phonetic derivation used"
    )
    source: SourceKey


class QueryPronunciation(_Model):
    """One pronunciation of the query word, as CMUdict lists it."""

    variant: int = Field(description="0 = first listed")
    phones: str = Field(description="ARPAbet with stress digits, e.g. 'K AE1 T'")
    rhyme: str = Field(description="from the last primary-stressed vowel to the end")
    syllables: int


class RhymeCandidate(_Model):
    word: str
    syllables: int = Field(description="syllables of the pronunciation that rhymes")
    zipf: float = Field(description="word frequency on the Zipf scale (0 = not in the list)")
    phones: str = Field(description="the candidate's pronunciation that rhymes")
    rhyme: str | None = _omitted("absent: `query_rhyme` (the candidate's rhyme part)")
    query_rhyme: str | None = _omitted(
        "absent: the query's only rhyme part (the one it was matched against)"
    )
    edit: Literal["identical", "substitution", "insertion", "deletion"] = left_out_at(
        "identical",
        "identical for a perfect rhyme; for a near rhyme, the one-token edit "
        "that turns query_rhyme into rhyme",
    )
    sound: Literal["vowel_kept", "unstressed_vowel_changed", "stressed_vowel_changed"] | None = (
        _omitted(
            "near rhymes only, the ranking class (closest first): the edit "
            "changes, adds or drops a consonant; a vowel after the stressed one; or the "
            "stressed vowel itself. Within a class content words come first, then a "
            "changed, an added and a dropped consonant, then frequency"
        )
    )
    dictionary_word: bool = _dictionary_word("false: a name or rare spelling")
    spelling_source: str | None = _omitted(
        "absent: as `pronunciation_source` (key in `sources` of the spelling)"
    )
    pronunciation_source: str | None = _omitted("absent: the result's `pronunciation_source`")


class RhymesResult(_Model):
    word: str
    language: str
    dataset_version: str
    mode: Literal["perfect", "near"]
    syllables: int | None = _omitted("the syllable filter in force, if any")
    found: bool = Field(description="whether CMUdict has a pronunciation of the word")
    suggestions: list[Suggestion] = _listed()
    query_pronunciations: list[QueryPronunciation]
    truncated: bool = Field(description="true when more rhymes exist beyond `limit`")
    ranking: Literal["zipf_frequency", "sound_then_zipf"] = Field(
        "zipf_frequency",
        description="perfect rhymes: zipf_frequency; near rhymes: sound_then_zipf (by "
        "`sound` class, then frequency)",
    )
    sense_scope: Literal["unsensed"] = Field(
        "unsensed", description="every rhyme is about a written form and its sounds, not a sense"
    )
    pronunciation_source: str | None = _omitted(
        "key in `sources` of every result's pronunciation, when they share one"
    )
    results: list[RhymeCandidate]
    sources: Sources
    budget: Budget = budget_left_out()


class AnagramCandidate(_Model):
    word: str
    letters: str = Field(description="the candidate's normalised letters")
    zipf: float
    dictionary_word: bool = _dictionary_word()
    sense_scope: Literal["unsensed"] = left_out_at("unsensed")
    provenance: list[Provenance]


class PalindromeCandidate(_Model):
    word: str
    letters: str = Field(description="normalised letters; they read the same reversed")
    dictionary_word: bool = _dictionary_word()
    sense_scope: Literal["unsensed"] = left_out_at("unsensed")
    provenance: list[Provenance]


class SpoonerismCandidate(_Model):
    phrase: str = Field(
        description="the swapped phrase: headwords when both halves resolve, "
        "else the swapped pronunciations"
    )
    phones: list[str] = Field(description="the two swapped pronunciations (ARPAbet)")
    source_phones: list[str] = Field(description="the two pronunciations that were swapped")
    onsets: list[str] = Field(description="the two onsets exchanged ('' = vowel-initial)")
    lexicality_scope: Literal["lexical_term", "generated_candidate"] = Field(
        description="lexical_term: both swapped pronunciations spell corpus headwords; "
        "generated_candidate: a pronunciation-derived phrase, not a dictionary word pair"
    )
    first_headwords: list[str] = Field(description="every headword the first sound spells")
    second_headwords: list[str] = Field(description="every headword the second sound spells")
    sense_scope: Literal["unsensed"] = left_out_at("unsensed")
    provenance: list[Provenance]


class PunSense(_Model):
    synset: str = Field(description="source-native synset id, as in the lexical component")
    gloss: str | None = _omitted("its definition when lexical data is installed")


class PunCandidate(_Model):
    word: str
    phones: str = Field(description="the pronunciation shared with the query")
    result_class: Literal["candidate"] = Field(
        "candidate", description="a homophone to build a pun on, never a finished joke"
    )
    sound_relation: Literal["homophone"] = "homophone"
    distinct_senses: list[PunSense] = Field(
        description="senses of the homophone the query word does not have"
    )
    distinct_senses_total: int
    context_matches: list[str] = Field(
        description="words of `context` found among these senses' synonyms (empty without context)"
    )
    sense_scope: Literal["synset"] = left_out_at("synset")
    provenance: list[Provenance]


class PatternCandidate(_Model):
    """A word matching a spelling pattern; unsensed, its one fact's source in a field."""

    word: str
    zipf: float = Field(description="word frequency on the Zipf scale (0 = not in the list)")
    dictionary_word: bool = _dictionary_word()
    spelling_source: str = Field(description="key in `sources` of the headword's spelling")


class SoundCandidate(_Model):
    """A word sounding like the text; unsensed, its facts' sources in two fields."""

    word: str
    phones: str = Field(description="its pronunciation closest to the text's")
    distance: int = Field(
        description="phoneme edits (stress ignored) from the closest of `query_phones`"
    )
    zipf: float
    spelling_source: str
    pronunciation_source: str


class WordplayResult(_Model):
    text: str
    kind: Literal["anagram", "palindrome", "spoonerism", "pun", "pattern", "sounds_like"]
    language: str
    dataset_version: str
    letters: str | None = _omitted("the query's normalised letters")
    input_is_palindrome: bool | None = _omitted("palindrome only")
    context_scope: Literal["uncontextualized", "context_ranked"] | None = _omitted(
        "pun only: uncontextualized without `context`; context_ranked when "
        "candidates whose senses share words with `context` come first"
    )
    vocabulary: Literal["dictionary", "all"] | None = _omitted(
        "anagram, palindrome, pattern and sounds_like: dictionary (words a "
        "reader knows) or all (names and rare spellings too, labelled)"
    )
    phones_from: Literal["cmudict", "letter_to_sound"] | None = _omitted(
        "sounds_like only: cmudict when CMUdict lists the text, else "
        "letter_to_sound (guessed by spelling rules, without stress)"
    )
    query_phones: list[str] = _listed(
        "sounds_like only: the text's pronunciations compared (ARPAbet)"
    )
    query_words: list[str] = _listed("the headwords the query resolved to")
    unresolved: list[str] = _listed("query words with no headword or pronunciation in the corpus")
    truncated: bool = Field(description="true when more candidates exist beyond `limit`")
    anagrams: list[AnagramCandidate] = _listed()
    palindromes: list[PalindromeCandidate] = _listed()
    spoonerisms: list[SpoonerismCandidate] = _listed()
    puns: list[PunCandidate] = _listed()
    matches: list[PatternCandidate] = _listed("pattern only: matching words, most frequent first")
    sounds: list[SoundCandidate] = _listed(
        "sounds_like only: closest `distance` first, then most frequent"
    )
    sources: Sources
    budget: Budget = budget_left_out()
