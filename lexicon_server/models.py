"""Typed results of the dictionary tools; their JSON schema is each tool's `outputSchema`.

Every result names its dataset version and language; every fact in it names its source
and its sense scope, so a client can tell a sense-attached fact from an unsensed one and
cite where it came from. A fact names its source by key (`"source": "wordnet-3.1"`); the
result's `sources` map gives each key's licence once (`{"wordnet-3.1": "WordNet-3.0"}`),
instead of repeating it on every fact, and the `lexicon://manifest` resource gives every
key's title and version (the same for every answer of a dataset version).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "MAX_RESPONSE_CHARS",
    "NOTHING_CUT",
    "Budget",
    "Example",
    "Frequency",
    "FrequencyBand",
    "LanguageTranslations",
    "LookupResult",
    "Neighbor",
    "Pronunciation",
    "RelationEdge",
    "RelationResult",
    "RelationSense",
    "RelationsResult",
    "Resolution",
    "SemanticResult",
    "Sense",
    "SenseRef",
    "SourceKey",
    "Sources",
    "Suggestion",
    "SuggestionKind",
    "SynonymCandidate",
    "SynonymGroup",
    "SynonymsResult",
    "TranslateResult",
    "TranslatedWord",
    "Translation",
    "TranslationGroup",
    "absent_detail",
    "budget_left_out",
    "cut_field",
    "left_out_at",
    "resolutions_field",
]

# No serialised tool result grows past this many characters; see docs/tools.md.
MAX_RESPONSE_CHARS = 64_000

SenseScope = Literal["sense", "synset", "unsensed"]
# A translation reached through English ('pivot') has no sense of the asked word.
TranslationScope = Literal["sense", "synset", "unsensed", "pivot"]
Reason = Literal[
    "language_not_installed",
    "unknown_language",
    "capability_not_installed",
    "not_available_upstream",
]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def absent_detail(value: object) -> bool:
    """Whether an optional detail has nothing to say (None or empty): such fields are left
    out of the serialised result, which keeps large answers short for a model and cheap
    for the protocol (every JSON value costs on both sides)."""
    return value is None or value == []


def _omitted(description: str | None = None) -> Any:
    return Field(default=None, exclude_if=absent_detail, description=description)


def _omitted_list(description: str | None = None) -> Any:
    # A factory, not `default=[]`: pydantic deep-copies a mutable default for every
    # model it builds, which cost a look-up about 5 % of its time.
    return Field(default_factory=list, exclude_if=absent_detail, description=description)


def left_out_at(value: Any, description: str | None = None) -> Any:
    """A field left out of the serialised result while it holds its default, `value`
    (docs/tools.md lists each; `expand.expanded` fills it back in from this model)."""
    return Field(default=value, exclude_if=lambda v: v == value, description=description)


def _inherited(description: str) -> Any:
    """A field left out while it says the same as the object that holds it (its
    `description` names which); null here means "as there"."""
    return Field(default=None, exclude_if=absent_detail, description=description)


SourceKey = Annotated[
    str,
    Field(description="key of this fact's source in the result's `sources`, e.g. 'wordnet-3.1'"),
]
Sources = Annotated[
    dict[str, str],
    Field(
        description="the licence (SPDX id or short name) of every source a fact of this "
        "result names, by key; the lexicon://manifest resource's `sources` gives each "
        "key's title and version"
    ),
]


class Budget(_Model):
    """The response size budget, and what (if anything) was cut to respect it: the glossary
    and slang results' (a dictionary tool's result says only `cut`)."""

    max_chars: int = Field(description="upper bound on the serialised response")
    cut: list[str] = _omitted_list("what was left out or shortened; absent if nothing")


# An answer that cut nothing leaves its budget out (`budget_left_out`).
NOTHING_CUT = Budget(max_chars=MAX_RESPONSE_CHARS)


def budget_left_out() -> Any:
    """A result's `budget`, left out while it only says the fixed size bound."""
    return Field(default=NOTHING_CUT, exclude_if=lambda v: v == NOTHING_CUT)


class SenseRef(_Model):
    """The source-native sense a group of candidates belongs to."""

    id: str = Field(description="sense handle, usable as sense_id in dictionary_translate")
    pos: str
    gloss: str
    source: SourceKey


# --- dictionary_lookup ------------------------------------------------------------------


class Example(_Model):
    text: str
    source: SourceKey | None = _inherited("absent: the sense's source")


class Pronunciation(_Model):
    notation: Literal["arpabet", "ipa"]
    value: str
    variant: int = left_out_at(0, "0 = the source's first pronunciation of the word")
    scope: Literal["entry", "term"] = left_out_at(
        "term", "'entry': tied to this sense's entry; 'term': to the written form"
    )
    source: SourceKey


class Translation(_Model):
    text: str
    note: str | None = _omitted("usage or sense note from the source; absent when none")
    sense_scope: TranslationScope = left_out_at("unsensed")
    target_entry_installed: bool = left_out_at(
        True, "whether the target word has its own entry in an installed language"
    )
    via: list[str] = _omitted_list(
        "for a pivot: the words between the word and this translation (English, or for a "
        "thin pair such as English -> Swedish, the third languages' words)"
    )
    via_languages: list[str] = _omitted_list("for a pivot: the language of each word in via")
    via_sources: list[str] = _omitted_list(
        "for a pivot: the source key of the translation that leads to each word in via"
    )
    source: SourceKey


class TranslatedWord(_Model):
    """One translation in a `LanguageTranslations` set."""

    text: str
    note: str | None = _omitted("usage or sense note from the source; absent when none")
    target_entry_installed: bool = left_out_at(
        True, "whether the target word has its own entry in an installed language"
    )


class LanguageTranslations(_Model):
    """Consecutive translations into one language from one source, with their scope."""

    target_language: str
    sense_scope: SenseScope = left_out_at("unsensed")
    source: SourceKey
    items: list[TranslatedWord]


class Sense(_Model):
    """One sense. Details it lacks (no tags, no etymology, no examples...) are left out of
    the serialised sense rather than sent as null or []."""

    id: str = Field(description="sense handle, usable as sense_id in dictionary_translate")
    external_id: str | None = _omitted("absent unless source_ids: the source's id")
    word: str | None = _inherited("absent: the result's word (the headword of this sense)")
    pos: str
    gloss: str
    tags: list[str] = _omitted_list()
    synset: str | None = _omitted("absent unless source_ids")
    sense_scope: SenseScope = left_out_at("synset", "'synset' for a sense of a synset")
    etymology: str | None = _omitted()
    source: SourceKey | None = _inherited("absent: the result's sense_source")
    examples: list[Example] = _omitted_list()
    pronunciations: list[Pronunciation] = _omitted_list()
    translations: list[LanguageTranslations] = _omitted_list(
        "this sense's translations, in sets by target language and source"
    )


class Resolution(_Model):
    """How the query text (the result's `word`) was matched to a headword."""

    lemma: str
    via: Literal["exact", "inflection_table", "suffix_rule"]
    pos: str | None = _omitted()
    rule: str | None = _omitted("the suffix rule applied, e.g. '-s -> '")
    source: SourceKey | None = _omitted("source of the inflection table entry used")


SuggestionKind = Literal["spelling", "completion", "sound"]


class Suggestion(_Model):
    """A word offered for a text the asked language does not have."""

    text: str = Field(description="the suggested word, as written in the dictionary")
    kind: SuggestionKind = Field(
        description="spelling: a correction within a small edit distance; completion: a "
        "word the text begins; sound: a word pronounced like the text"
    )
    distance: float | None = _omitted(
        "weighted edit distance from the text (0 = the same word; 1 = one edit, "
        "0.5 = a near key, like sound or doubled letter, 0.1 = an accent); absent for "
        "completions"
    )
    zipf: float = left_out_at(0.0, "the word's wordfreq Zipf frequency; absent when unknown")


FrequencyBand = Literal["very common", "common", "uncommon", "rare", "very rare"]


class Frequency(_Model):
    """How common the looked-up form is (wordfreq), and for English its syllables."""

    zipf: float
    band: FrequencyBand
    syllables: int | None = _omitted()


def resolutions_field() -> Any:
    """A result's `resolutions`, left out (null) when the word was found as written: one
    exact match whose lemma is the word itself (`query.provenance.resolution_data`)."""
    return Field(default=None, exclude_if=lambda v: v is None)


def cut_field() -> Any:
    """A result's `cut`: what the limits or the response budget left out or shortened, in
    words; absent when nothing was (the size bound is always MAX_RESPONSE_CHARS)."""
    return Field(default_factory=list, exclude_if=absent_detail)


class _WordAnswer(_Model):
    # The fields a look-up and a synonyms answer open with, in this order (a subclass's
    # own fields follow, so the published schemas keep their order).
    word: str
    language: str
    dataset_version: str
    found: bool
    suggestions: list[Suggestion] = _omitted_list()  # only when found is false
    resolutions: list[Resolution] | None = resolutions_field()


class LookupResult(_WordAnswer):
    frequency: Frequency | None = _omitted()  # how common the asked form is
    total_senses: int = Field(description="number of senses the corpus has for the word")
    sense_source: SourceKey | None = _omitted(
        "the first sense's source, which the senses of that source do not repeat"
    )
    senses: list[Sense]
    pronunciations: list[Pronunciation] = _omitted_list(
        "pronunciations of the written form asked, when no sense is returned or the first "
        "is another word's (a lemma: 'houses' -> 'house')"
    )
    unsensed_translations: list[LanguageTranslations] = _omitted_list(
        "translations of the word not tied to any sense, in sets by target language and source"
    )
    truncated_fields: list[str] = _omitted_list(
        "absent: no sense (nor the unsensed translations) has more examples, "
        "pronunciations or translations than the limits let through"
    )
    sources: Sources
    cut: list[str] = cut_field()


# --- dictionary_synonyms ------------------------------------------------------------------


SynonymRelation = Literal["synset_member", "synonym", "similar"]


class SynonymCandidate(_Model):
    """What one candidate says that its group does not (its entry in the group's
    `details`, by word): the group's `candidates` are bare words."""

    # Inherited from the group, so that the unsensed group's many terms are one word each.
    sense_scope: SenseScope | None = _inherited(
        "absent: the group's candidate_scope, else its sense_scope"
    )
    relation: SynonymRelation | None = _inherited(
        "absent: the group's relation. synset_member: another word of the sense's synset; "
        "synonym: a synonym edge of the sense or word; similar: a word of an adjective "
        "synset the source links to the sense's synset as similar (WordNet's near-synonyms "
        "of a head adjective)"
    )
    target_entry_installed: bool = left_out_at(True)
    source: SourceKey | None = _inherited(
        "absent: the group's source, or in a sense's group the source of its sense"
    )


class SynonymGroup(_Model):
    sense: SenseRef | None = _omitted("absent for the unsensed group")
    sense_scope: SenseScope
    # What most candidates share, said once on the group (a sense's group of Moby's
    # sense-tied synonyms: scope, relation and source differ from the sense's).
    source: SourceKey | None = _omitted(
        "the source of its candidates that name none; absent: its sense's source"
    )
    candidate_scope: SenseScope | None = _omitted(
        "the sense_scope of its candidates that name none; absent: the group's sense_scope"
    )
    relation: SynonymRelation | None = _omitted(
        "the relation of its candidates that name none; absent: synset_member in a "
        "sense's group, synonym in the unsensed group"
    )
    candidates: list[str]
    details: dict[str, SynonymCandidate] = Field(
        default_factory=dict,
        exclude_if=lambda v: not v,
        description="the candidates that differ from the group, by word: what differs; "
        "absent when none does",
    )
    truncated: bool = left_out_at(False)


class SynonymsResult(_WordAnswer):
    senses_inspected: int
    max_senses: int
    unsensed_limit: int = Field(description="the unsensed allocation in force")
    unsensed_returned: int
    groups: list[SynonymGroup]
    sources: Sources
    cut: list[str] = cut_field()


# --- dictionary_translate -----------------------------------------------------------------


class TranslationGroup(_Model):
    sense: SenseRef | None = _omitted("absent for translations not tied to a sense")
    sense_scope: TranslationScope
    candidates: list[Translation]
    truncated: bool = left_out_at(False)


class TranslateResult(_Model):
    word: str
    language: str
    target_language: str
    target_language_status: Literal["installed"] | Reason = Field(
        description="whether the target language's own lexical data is installed, else why not"
    )
    dataset_version: str
    found: bool
    suggestions: list[Suggestion] = _omitted_list()  # only when found is false
    resolutions: list[Resolution] | None = resolutions_field()
    senses_inspected: int
    groups: list[TranslationGroup]
    note: str | None = _omitted(
        "why the answer has no candidate although the word was found; absent otherwise"
    )
    sources: Sources
    cut: list[str] = cut_field()


# --- dictionary_relations -----------------------------------------------------------------


class RelationEdge(_Model):
    """One directed edge exactly as the source publishes it."""

    relation: str
    scope: Literal["synset", "sense", "term"]
    from_text: str
    from_id: str | None = Field(description="synset or sense id of the edge's start")
    to_text: str
    to_id: str | None
    to_language: str
    source: SourceKey


class RelationResult(_Model):
    """One target the relation reaches from the word, with how it is reached: the target's
    own fields (`words` to `target_entry_installed`) sit beside the edge's."""

    relation: str | None = _inherited("absent: the relation asked for")
    relation_scope: Literal["direct", "transitive"] = left_out_at("direct")
    distance: Literal[1, 2] = left_out_at(1)
    sense_scope: SenseScope = left_out_at("synset")
    from_sense: str | None = Field(
        description="id of the word's sense the result starts from, described in the "
        "result's `senses`; null for an edge the source ties to the written word"
    )
    text: str | None = _inherited("absent: the target's words joined with ', '")
    words: list[str] = Field(description="the target's words (a synset's members)")
    language: str | None = _inherited("absent: the result's language")
    synset: str | None = _omitted("the target's synset id; absent unless source_ids")
    target_sense: str | None = _omitted("the target's sense handle, for a sense target")
    gloss: str | None = _omitted("the target's definition")
    target_entry_installed: bool = left_out_at(True)
    path: list[RelationEdge] = _omitted_list(
        "the two edges of a transitive result, in order; absent on a direct result, "
        "which is itself the one edge (its relation, sense_scope and source)"
    )
    source: SourceKey | None = _inherited(
        "absent: the source of its `from_sense` (the source of the result's last edge)"
    )


class RelationSense(_Model):
    """One of the word's senses a relation result starts from; its id is its key."""

    pos: str
    gloss: str
    source: SourceKey | None = _inherited("absent: the result's sense_source")


class RelationsResult(_Model):
    word: str
    language: str
    relation: str
    relation_in_data: bool = left_out_at(
        True,
        "whether the installed data of this language has any edge of this relation at all; "
        "false means an empty answer says nothing about the word (the sources installed do "
        "not publish this relation)",
    )
    dataset_version: str
    found: bool
    suggestions: list[Suggestion] = _omitted_list()  # only when found is false
    resolutions: list[Resolution] | None = resolutions_field()
    transitive_limit: int = left_out_at(0, "the transitive allocation in force")
    senses_inspected: int
    results: list[RelationResult]
    sense_source: SourceKey | None = _omitted(
        "the first described sense's source, which the senses of that source do not repeat"
    )
    senses: dict[str, RelationSense] = Field(
        description="the word's senses the results start from, by id (each once, however "
        "many results name it)"
    )
    sources: Sources
    cut: list[str] = cut_field()


# --- dictionary_semantic_neighbors --------------------------------------------------------


class Neighbor(_Model):
    text: str
    language: str | None = _inherited("absent: the query word's language")
    score: float = Field(description="exact cosine similarity to the query vector, or fused score")
    source: SourceKey
    sense_scope: SenseScope = left_out_at("unsensed")
    derived: bool = left_out_at(
        False,
        "true when the neighbour's vector is derived from its translations into English"
        " rather than trained (see `method`)",
    )
    matched_gloss: str | None = _omitted("description mode: the definition that matched")


class SemanticResult(_Model):
    word: str
    language: str
    target_language: str | None = _omitted()
    mode: Literal["description"] | None = _omitted(
        "set when `word` was a description: neighbours are words it describes"
    )
    searched_words: list[str] = _omitted_list("description mode: the words searched")
    scope: Literal["global", "monolingual", "cross_lingual"]
    searched_languages: list[str]
    restricted: bool = left_out_at(
        False, "true when the search covered fewer vector languages than the corpus has"
    )
    not_searched: dict[str, str] = left_out_at(
        {}, "vector languages of the corpus left out of this search, with the reason"
    )
    dataset_version: str
    found: bool
    suggestions: list[Suggestion] = _omitted_list()  # only when found is false
    method: str
    neighbors: list[Neighbor]
    sources: Sources
    cut: list[str] = cut_field()
