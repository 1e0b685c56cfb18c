"""Lean answers keep every fact: each answer, with the fields it leaves out put back
(`expand.expanded`, given the `sources` of the `lexicon://manifest` resource for the
titles and versions answers no longer repeat), equals the answer the server gave before
answers were made lean.

`data/answers-before-lean.json.gz` holds the answers of the code before that change
(commit a40841c) to every dictionary tool for 65 words of the sample corpus, and the
sample release's manifest digest they were made from (a later change to the release's
metadata changes that digest without changing an answer, so it is not compared). The
snapshot predates the sources added since (Moby's synonyms, ISLEX, GCIDE), so the
answers compared are those of the sample build without them (`before_corpus`); should
that build's content change, the comparison below fails naming the tool and word, and
this snapshot has then served its purpose.
"""

from __future__ import annotations

import gzip
import json
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from functools import cache
from pathlib import Path
from typing import Any

import anyio
import pytest
from _support.built import corpus_over
from _support.dictionary_words import dictionary_first
from mcp import Client

from lexicon_server.config import load_config
from lexicon_server.corpus.reader import Corpus
from lexicon_server.expand import expanded
from lexicon_server.resources import source_descriptions
from lexicon_server.server import build_server

BEFORE = Path(__file__).parents[1] / "data" / "answers-before-lean.json.gz"
CALLS = {
    # Generous translation limits: ranking by evidence (issue 17) reorders candidates, and
    # an old candidate must still be there even when new ones now rank above it.
    # The look-up's defaults when the snapshot was made (issue 28 made the default answer
    # smaller: 6 senses, 6 examples, 2 pronunciations, no translations, no source ids).
    "dictionary_lookup": lambda w: {
        "word": w,
        "limit": 10,
        "examples_limit": 8,
        "pronunciations_limit": 8,
        "translations_limit": 100,
        "source_ids": True,
    },
    # the defaults when the snapshot was made: limit 20, every sense, 5 unsensed
    "dictionary_synonyms": lambda w: {
        "word": w,
        "limit": 20,
        "max_senses": 100,
        "unsensed_limit": 5,
    },
    "dictionary_translate": lambda w: {"word": w, "target_language": "fr", "limit": 100},
    "dictionary_relations": lambda w: {
        "word": w,
        "relation": "hypernym",
        "max_depth": 2,
        "source_ids": True,
    },
    "dictionary_semantic_neighbors": lambda w: {"word": w},
    "rhymes": lambda w: {"word": w},
    "rhymes near": lambda w: {"word": w, "mode": "near"},
    "wordplay": lambda w: {"text": w, "kind": "anagram"},
}


# Sources the sample build reads that the snapshot's corpus did not have (ISLEX's IPA and
# GCIDE's senses: tests/server/query/test_definitions_and_ipa.py checks what they add;
# MultiWordNet's sense-tied translations and simplemma's lemmas: issue 17's tests).
_ADDED_SINCE = ("moby", "islex", "gcide", "multiwordnet-it", "simplemma")


def _derived(answer: Any) -> bool:
    """A global semantic answer that also searched vectors derived since (issue 17):
    French and German words join English ones, so it is not the old answer."""
    return isinstance(answer, dict) and answer.get("searched_languages", ["en"]) != ["en"]


@pytest.fixture(scope="module")
def before_corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Corpus]:
    from conftest import SAMPLE_SOURCES

    from lexicon_server.builder.config import BuildConfig
    from lexicon_server.builder.pipeline import build

    root = tmp_path_factory.mktemp("before-lean")
    sources = {k: v for k, v in SAMPLE_SOURCES.items() if k not in _ADDED_SINCE}
    config = BuildConfig(cache_dir=root / "cache")
    version = "sample-2026.11.0"
    build("starter", root / "built", config=config, lock=None, overrides=sources,
          dataset_version=version, fetch=False, only_given=True)  # fmt: skip
    # The snapshot predates senses by use (issue 29): read the sense rows in the entry
    # order it was made with, so sense-limited answers pick the same senses. Look-ups
    # read term documents, which the builder writes by use: they are compared by the
    # senses both answers show (below).
    lexical = root / "built" / "en" / "lexical.sqlite"
    lexical.chmod(0o644)
    with closing(sqlite3.connect(lexical)) as conn, conn:
        conn.execute("DELETE FROM meta WHERE key = 'sense_order'")
    corpus = corpus_over(root / "built")
    yield corpus
    corpus.close()


@pytest.fixture(scope="module")
def before() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(gzip.decompress(BEFORE.read_bytes()))
    return loaded


def _answers(corpus: Corpus, words: list[str]) -> dict[str, dict[str, Any]]:
    server = build_server(corpus, load_config({}))
    out: dict[str, dict[str, Any]] = {}

    async def main() -> None:
        async with Client(server) as client:
            for label, args in CALLS.items():
                tool = label.split()[0]
                for word in words:
                    result = await client.call_tool(tool, args(word))
                    lean = None if result.is_error else result.structured_content
                    out.setdefault(label, {})[word] = lean

    anyio.run(main)
    return out


def _said(node: Any) -> Any:
    """`node` without the details that say nothing (null, [] or {}), which answers leave
    out before and after alike."""
    if isinstance(node, dict):
        kept = {key: _said(value) for key, value in node.items()}
        return {key: value for key, value in kept.items() if value not in (None, [], {})}
    if isinstance(node, list):
        return [_said(item) for item in node]
    return node


# Counts and budgets describe the answer, not the word: they follow the limits above.
# The counts of a list and the echoed arguments (max_senses, max_depth) are no longer
# sent since session 14 (docs/tools.md): a client counts the list it reads.
_META = {
    "budget",
    "budgets",
    "count",
    "candidate_count",
    "direct_count",
    "transitive_count",
    "max_senses",
    "max_depth",
    "truncated",
    "truncated_fields",
    "unsensed_translations_truncated",
    "ranking",
}


def _unsensed_pairs(answer: Any) -> Any:
    """A look-up's unsensed translations as the (language, word) pairs they state. The same
    word from two sources is shown once, cited by the one that ranks first; ranking by
    evidence (issue 17) changed which one that is, not which words are offered."""
    if isinstance(answer, dict) and "unsensed_translations" in answer:
        pairs = sorted(
            f"{group['target_language']}:{item['text']}"
            for group in answer["unsensed_translations"]
            for item in group["items"]
        )
        return {**answer, "unsensed_translations": pairs}
    if isinstance(answer, dict) and "groups" in answer and "target_language" in answer:
        groups = [
            {
                **g,
                "candidates": sorted(
                    f"{c['target_language']}:{c['text']}" for c in g["candidates"]
                ),
            }
            if not g.get("sense")
            else g
            for g in answer["groups"]
        ]
        return {**answer, "groups": groups}
    return answer


def _missing(new: Any, old: Any, path: str = "") -> str | None:
    """Where `new` lacks a fact of `old` (None when it has them all): keys with contained
    values, each list item in some distinct item of the new list (in any order: rankings
    have changed since), the same scalars. New facts are allowed."""
    if isinstance(old, dict):
        if not isinstance(new, dict):
            return path or "."
        for key, value in old.items():
            if key in _META:
                continue
            if key not in new:
                return f"{path}.{key}"
            where = _missing(new[key], value, f"{path}.{key}")
            if where:
                return where
        return None
    if isinstance(old, list):
        if not isinstance(new, list):
            return path
        free = list(new)
        for n, item in enumerate(old):
            match = next((i for i, c in enumerate(free) if _missing(c, item) is None), None)
            if match is None:
                return f"{path}[{n}] = {json.dumps(item, ensure_ascii=False)[:300]}"
            free.pop(match)
        return None
    return None if new == old else f"{path}: {old!r} -> {new!r}"


def _near_facts(now: Any, old: Any) -> tuple[Any, Any]:
    """(now, old) with what the sound ranking changed left out: the ranking's name, the
    order and choice of results, each result's `sound`, and which of a word's
    pronunciations is shown (its closest now, its first before). A word listed in both
    keeps its frequency, and a result whose pronunciation is the same keeps every field."""
    changed = ("ranking", "results", "count", "truncated", "sources")
    old_results = {r["word"]: r for r in old.get("results", [])}
    assert all(r.get("sound") for r in now.get("results", []))
    pairs = [
        (r, old_results[r["word"]]) for r in now.get("results", []) if r["word"] in old_results
    ]
    now_kept = [
        {k: v for k, v in r.items() if k != "sound"} if r["phones"] == o["phones"] else r["zipf"]
        for r, o in pairs
    ]
    old_kept = [o if r["phones"] == o["phones"] else o["zipf"] for r, o in pairs]
    # Lists, not tuples: `_missing` then lets the new answer carry new facts (issue 30's
    # suggestions on a miss) as it does everywhere else.
    return (
        [{k: v for k, v in now.items() if k not in changed}, now_kept],
        [{k: v for k, v in old.items() if k not in changed}, old_kept],
    )


# The answers whose list (by label) leaves names and rare spellings out since issue 29.
_LISTS = {"rhymes": "results", "wordplay": "results"}

# Issue 28's second round (docs/tools.md, "Answer shapes changed in issue 28's second
# round"): every wordplay kind lists its candidates in `results`, and a candidate names
# each fact's source in a field (`spelling_source`, ...) instead of a `provenance` array;
# a relation result holds its target's fields itself (its `sense_id` is `target_sense`).
# The same facts, renamed.
_WORDPLAY_LISTS = ("anagrams", "palindromes", "spoonerisms", "puns", "matches", "sounds")


def _renamed_wordplay(answer: Any) -> Any:
    """An old wordplay answer in today's names: its kind's list as `results`, each
    candidate's provenance entries as `<fact>_source` fields."""
    if not isinstance(answer, dict):
        return answer
    renamed = {k: v for k, v in answer.items() if k not in _WORDPLAY_LISTS}
    # `_said` has left empty lists out of the old answer, as of the new one.
    results = []
    for key in _WORDPLAY_LISTS:
        for item in answer.get(key, ()):
            item = dict(item)
            for fact in item.pop("provenance", ()):
                item[f"{fact['fact']}_source"] = fact["source"]
            results.append(item)
    if results:
        renamed["results"] = results
    return renamed


def _flat_targets(answer: Any) -> Any:
    """An old relations answer in today's shape: each result's `target` fields beside the
    edge's."""
    if not isinstance(answer, dict) or "results" not in answer:
        return answer
    flat = []
    for result in answer["results"]:
        item = {k: v for k, v in result.items() if k != "target"}
        for key, value in result.get("target", {}).items():
            item["target_sense" if key == "sense_id" else key] = value
        flat.append(item)
    return {**answer, "results": flat}


def _dictionary_words_only(corpus: Corpus, now: Any, old: Any, key: str) -> tuple[Any, Any]:
    """(now, old) with the old answer's names and rare spellings left out of its list
    `key`: since issue 29 they are listed only with vocabulary='all'. Dictionary words were
    ranked first then too, so the old answer's keep their places; the rest of the places,
    the counts and the sources cited may differ."""
    changed = (key, "count", "truncated", "sources")
    listed = old.get(key, [])
    words = dictionary_first(corpus, [r["word"] for r in listed]) if listed else {}
    kept = [r for r in listed if words.get(r["word"], 1)]
    return (
        [{k: v for k, v in now.items() if k not in changed}, now.get(key, [])[: len(kept)]],
        [{k: v for k, v in old.items() if k not in changed}, kept],
    )


def _targets(answer: dict[str, Any]) -> set[str]:
    """The target words a translate answer gives (`_unsensed_pairs` wrote the unsensed
    ones as 'language:text')."""
    return {
        c.partition(":")[2] if isinstance(c, str) else c["text"]
        for g in answer.get("groups", [])
        for c in g["candidates"]
    }


def _sounds(answer: dict[str, Any]) -> set[str]:
    """The pronunciation values an answer shows, leaving them out of its senses."""
    values = set()
    for sense in answer.get("senses", []):
        values.update(p["value"] for p in sense.pop("pronunciations", []))
    return values


def _drop_sense_source_ids(answer: Any) -> None:
    """Leave out the source's own id of each sense synonyms, translate and relations
    answers referred to: since issue 28 they name a sense by its handle only, and the
    look-up gives its source id on request (`source_ids`, which this test's look-up asks
    for, so every such id of the snapshot's look-ups is still checked)."""
    if not isinstance(answer, dict):
        return
    refs = [g.get("sense") or {} for g in answer.get("groups", [])]
    senses = answer.get("senses")
    if isinstance(senses, dict):
        refs += senses.values()
    for ref in refs:
        if isinstance(ref, dict):
            ref.pop("external_id", None)


def _by_id(senses: list[Any]) -> list[Any]:
    return sorted(senses, key=lambda sense: str(sense.get("id")))


@cache
def _eng_pol_phrase_rows() -> frozenset[str]:
    """'pl:<text>' of the sample's eng-pol rows that the parser files under a phrase
    headword, and the phrase-pattern texts it read as translations before."""
    from lexicon_server.builder.parsers import dictd

    base = Path(__file__).parents[2] / "fixtures" / "freedict" / "freedict-eng-pol"
    rows = set()
    for entry in dictd.iter_entries(f"{base}.index", f"{base}.dict.dz"):
        if " " in entry.headword:
            rows.update(f"pl:{t}" for t in entry.translations)
            rows.add(f"pl:{entry.headword}")  # the phrase, read before with its pattern
    return frozenset(rows)


@pytest.mark.slow  # every tool on every sample word, each fact looked up
def test_every_fact_of_the_old_answers_is_still_there(
    before: dict[str, Any], before_corpus: Corpus
) -> None:
    now = _answers(before_corpus, before["words"])
    described = source_descriptions(before_corpus)
    compared = 0
    for label, answers in before["answers"].items():
        tool = label.split()[0]
        for word, old in answers.items():
            lean = now[label][word]
            assert (lean is None) == (old is None), (label, word)
            if old is None or _derived(lean):
                continue
            new = _unsensed_pairs(_said(expanded(tool, lean, described)))
            was = _unsensed_pairs(_said(old))
            if tool == "dictionary_translate":
                # The word's language is `language` in every tool since issue 28's third
                # round (it was translate's `source_language`): the same fact, renamed.
                was = {"language" if k == "source_language" else k: v for k, v in was.items()}
            if tool == "wordplay":
                was = _renamed_wordplay(was)
            if tool == "dictionary_relations":
                was = _flat_targets(was)
            if new.get("mode") == "description" and was.get("found") is False:
                # A phrase had no vector and so no answer; since issue 30 it is a
                # description the reverse dictionary answers (tests/server/query/
                # test_query_describe.py pins that answer). Nothing old to keep.
                continue
            if label in _LISTS:
                new, was = _dictionary_words_only(before_corpus, new, was, _LISTS[label])
            if label == "rhymes near":
                # Near rhymes are ranked by sound since (issue 18): other words may fill
                # the 20 places, in another order, each naming its class. Every other
                # fact of the answer, and of each word listed in both, is unchanged.
                new, was = _near_facts(new, was)
            translations = "unsensed_translations" in was or tool == "dictionary_translate"
            if translations and "sources" in was:
                # A source cited only by a translation now cited by another one drops out
                # of the map; that every cited key is described is checked elsewhere.
                kept = new.get("sources", {})
                was["sources"] = {k: v for k, v in was["sources"].items() if k in kept}
            if isinstance(was, dict) and isinstance(was.get("unsensed_translations"), list):
                # eng-pol's phrase patterns ('it is an old hat (:it :is :an :old :hat)')
                # were read as Polish translations of the word, and the phrase's own
                # translations with them ('opowiadać bzdury', talk through one's hat);
                # the builder now files each phrase as its own headword (issue 29,
                # docs/source-formats.md "Entry grammar"). Only those rows are excused.
                moved = _eng_pol_phrase_rows()
                was["unsensed_translations"] = [
                    p
                    for p in was["unsensed_translations"]
                    if p not in moved and not any(p.startswith(f"{m} (") for m in moved)
                ]
            if tool == "dictionary_translate":
                # Since issue 29 (translation_order = merged) a target is shown once, in
                # the group of its best row, so the groups and counts differ by design
                # (tests/server/query/test_query_translate.py pins the new deal); every
                # target the old answer gave is still given.
                assert _targets(was) <= _targets(new), (label, word)
                for key in ("groups", "count", "candidate_count", "sources", "budget"):
                    new.pop(key, None)
                    was.pop(key, None)
            if isinstance(was, dict) and isinstance(was.get("senses"), list):
                # Since issue 29 a word's senses come by use across its parts of speech
                # (docs/corpus-format.md, sense_order), so another order, and under the
                # sense limit partly other senses: those shown both times say the same.
                shared = {x.get("id") for x in new.get("senses", [])} & {
                    x.get("id") for x in was["senses"]
                }
                assert shared or not was["senses"], (label, word)
                new["senses"] = _by_id([x for x in new["senses"] if x.get("id") in shared])
                was["senses"] = _by_id([x for x in was["senses"] if x.get("id") in shared])
                # Since issue 29 a pronunciation of a written form stands with its own
                # term's first sense ('CAT' and 'cat'), so it may sit elsewhere; a word
                # that showed some still does (test_lookup_pronunciations pins the rule).
                sounds_now, sounds_was = _sounds(new), _sounds(was)
                assert sounds_now or not sounds_was, word
            if tool != "dictionary_lookup":
                _drop_sense_source_ids(was)
            where = _missing(new, was)
            assert where is None, (label, word, where)
            compared += 1
    assert compared > 300


def test_lean_answers_are_smaller(before: dict[str, Any], before_corpus: Corpus) -> None:
    now = _answers(before_corpus, before["words"])
    for label, answers in before["answers"].items():
        # A description answer (issue 30) is new, not a leaner form of "no vector".
        same = [
            w
            for w, a in answers.items()
            if a is not None
            and not _derived(now[label][w])
            and (now[label][w] or {}).get("mode") != "description"
        ]
        old = sum(len(json.dumps(answers[w])) for w in same)
        new = sum(len(json.dumps(now[label][w])) for w in same)
        assert new < old or not same, label
