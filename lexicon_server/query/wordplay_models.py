"""Typed results of `rhymes` and `wordplay`; their JSON schema is each tool's `outputSchema`.

They follow the shared conventions of `lexicon_server.models`: every result names its
dataset version and language, every candidate says which source each of its facts comes
from (a key into the result's `sources`, which gives its licence), and `cut` says what was
cut. A candidate names its facts' sources in fields (`spelling_source`,
`pronunciation_source`). Every wordplay kind's candidates share one shape, holding the
fields of its kind, so the published schema describes each field once. Wordplay facts are
about written forms and sounds, never about one sense, so the result's `sense_scope` is
`unsensed` unless it lists puns (which name the senses they rely on); every rhyme is
unsensed, which `RhymesResult.sense_scope` says once for all of them.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from lexicon_server.models import (
    Sources,
    Suggestion,
    absent_detail,
    cut_field,
    left_out_at,
)

__all__ = [
    "PunSense",
    "QueryPronunciation",
    "RhymeCandidate",
    "RhymesResult",
    "WordplayCandidate",
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
    sense_scope: Literal["unsensed"] = left_out_at(
        "unsensed", "every rhyme is about a written form and its sounds, not a sense"
    )
    pronunciation_source: str | None = _omitted(
        "key in `sources` of every result's pronunciation, when they share one"
    )
    results: list[RhymeCandidate]
    sources: Sources
    cut: list[str] = cut_field()


class PunSense(_Model):
    synset: str = Field(description="source-native synset id, as in the lexical component")
    gloss: str | None = _omitted("its definition when lexical data is installed")


class WordplayCandidate(_Model):
    """One candidate of any wordplay kind: the fields its kind has (docs/tools.md says
    which); a fact's source is named in a `*_source` field, as a rhyme's are."""

    word: str = Field(description="the candidate; for a spoonerism, the swapped phrase")
    zipf: float | None = _omitted("anagram, pattern, sounds_like: Zipf frequency")
    letters: str | None = _omitted("anagram, palindrome: the normalised letters")
    phones: str | None = _omitted("pun, sounds_like: its pronunciation (ARPAbet)")
    distance: int | None = _omitted("sounds_like: phoneme edits from `query_phones`")
    dictionary_word: bool = _dictionary_word("false: a name or rare spelling")
    swapped_phones: list[str] = _listed("spoonerism: the two swapped pronunciations")
    source_phones: list[str] = _listed("spoonerism: the two pronunciations swapped")
    onsets: list[str] = _listed("spoonerism: the two onsets exchanged ('' = none)")
    lexicality_scope: Literal["lexical_term", "generated_candidate"] | None = _omitted(
        "spoonerism: lexical_term when both halves spell headwords"
    )
    first_headwords: list[str] = _listed("spoonerism: every headword the first sound spells")
    second_headwords: list[str] = _listed("spoonerism: every headword the second spells")
    distinct_senses: list[PunSense] = _listed("pun: senses the query word does not have")
    distinct_senses_total: int | None = _omitted("pun: how many such senses there are")
    context_matches: list[str] = _listed("pun: words of `context` among their synonyms")
    spelling_source: str | None = _omitted("key in `sources` of the spelling (a pun's senses too)")
    pronunciation_source: str | None = _omitted("key in `sources` of the pronunciation")
    spelling_sources: list[str] = _listed("spoonerism: keys of its headwords' spellings")


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
    sense_scope: Literal["unsensed", "synset"] = left_out_at(
        "unsensed", "synset for puns (their senses are synsets'); unsensed for every other kind"
    )
    results: list[WordplayCandidate]
    sources: Sources
    cut: list[str] = cut_field()
