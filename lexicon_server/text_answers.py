"""The text content of a dictionary tool's successful answer: a compact rendering of its
structured content for a model to read (docs/tools.md, "Answers").

The structured content stays the exact, typed answer; the text says its facts in plain
lines, without the JSON keys, source ids and licences a model rarely needs, so that an
agent whose client shows it both does not read the same answer twice. Every word, gloss,
example and candidate of the structured content is in the text, and the sense ids of a
look-up, synonyms and translate answer (which `dictionary_translate` takes as
`sense_id`), and a look-up's pronunciations; it leaves out provenance per fact (the
`sources` line names every source once, by key), source ids (but those a look-up is
asked for), the ids of the senses a relations answer starts from (its text says what
each sense is), the phones of rhymes and wordplay results, and the counts, scopes and
defaults that only a program uses.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

__all__ = ["rendered"]

_Json = Mapping[str, Any]


def rendered(tool: str, data: _Json) -> str:
    """The text rendering of `tool`'s structured answer `data`."""
    render = _RENDERERS.get(tool)
    if render is None:
        raise KeyError(f"no text rendering for tool {tool!r}")
    if data.get("found") is False:
        return _not_found(data)
    lines = render(data)
    return "\n".join([*lines, *_footer(data)])


def _not_found(data: _Json) -> str:
    word = data.get("word", data.get("text"))
    language = data.get("language")
    line = f"{word!r} is not in the {language} dictionary."
    suggestions = [s["text"] for s in data.get("suggestions", ())]
    if suggestions:
        line += " Did you mean: " + ", ".join(suggestions) + "?"
    return "\n".join([line, *_footer(data)])


def _footer(data: _Json) -> list[str]:
    """What limits left out, and the sources the answer cites (said once, by key: the
    structured content gives each one's licence, lexicon://manifest its title)."""
    lines = [f"cut: {note}" for note in data.get("cut", ())]
    if data.get("sources"):
        lines.append(f"sources: {', '.join(data['sources'])} ({data['dataset_version']})")
    return lines


def _resolved(data: _Json) -> list[str]:
    """How an inflected form was matched, when it was not found as written."""
    out = []
    for r in data.get("resolutions", ()):
        if r["via"] != "exact":
            how = r["via"].replace("_", " ") + (f" {r['rule']}" if "rule" in r else "")
            pos = f"{r['pos']}, " if "pos" in r else ""
            out.append(f"{data['word']} -> {r['lemma']} ({pos}{how})")
    return [f"resolved: {'; '.join(out)}"] if out else []


def _pronounced(prons: Iterable[_Json]) -> str:
    return ", ".join(f"/{p['value']}/" if p["notation"] == "ipa" else p["value"] for p in prons)


def _translated(sets: Iterable[_Json]) -> str:
    by_language: dict[str, list[str]] = {}
    for group in sets:
        texts = by_language.setdefault(group["target_language"], [])
        texts += [t["text"] + (f" ({t['note']})" if "note" in t else "") for t in group["items"]]
    return "; ".join(f"{lang}: {', '.join(texts)}" for lang, texts in by_language.items())


def _lookup(data: _Json) -> list[str]:
    head = f"{data['word']} ({data['language']}"
    frequency = data.get("frequency")
    if frequency:
        head += f", {frequency['band']}"
    head += f"): {len(data['senses'])} of {data['total_senses']} senses"
    lines = [head, *_resolved(data)]
    if data.get("pronunciations"):
        lines.append("pronounced " + _pronounced(data["pronunciations"]))
    for n, sense in enumerate(data["senses"], 1):
        word = f"{sense['word']}, " if "word" in sense else ""
        tags = f" [{', '.join(sense['tags'])}]" if "tags" in sense else ""
        ids = "".join(f" {sense[k]}" for k in ("external_id", "synset") if k in sense)
        lines.append(f"{n}. ({word}{sense['pos']}{tags}) {sense['gloss']}  [{sense['id']}{ids}]")
        if "pronunciations" in sense:
            lines.append("   pronounced " + _pronounced(sense["pronunciations"]))
        for example in sense.get("examples", ()):
            lines.append(f'   "{example["text"]}"')
        if "etymology" in sense:
            lines.append(f"   etymology: {sense['etymology']}")
        if "translations" in sense:
            lines.append("   translations: " + _translated(sense["translations"]))
    if data.get("unsensed_translations"):
        lines.append("translations: " + _translated(data["unsensed_translations"]))
    if data.get("truncated_fields"):
        more = ", ".join(data["truncated_fields"])
        lines.append(f"more {more} than shown: raise the matching *_limit")
    return lines


def _sense_line(sense: _Json | None, fallback: str) -> str:
    """A sense as `(pos) gloss  [id]`; without its id when it has none here."""
    if sense is None:
        return fallback
    handle = f"  [{sense['id']}]" if "id" in sense else ""
    return f"({sense['pos']}) {sense['gloss']}{handle}"


def _synonyms(data: _Json) -> list[str]:
    lines = [f"synonyms of {data['word']} ({data['language']}):", *_resolved(data)]
    for group in data["groups"]:
        lines.append("- " + _sense_line(group.get("sense"), "not tied to a sense"))
        words = ", ".join(group["candidates"])
        lines.append(f"  {words}" + (" ..." if group.get("truncated") else ""))
    return lines


def _translate(data: _Json) -> list[str]:
    pair = f"{data['language']} -> {data['target_language']}"
    lines = [f"{data['word']} ({pair}):", *_resolved(data)]
    for group in data["groups"]:
        fallback = "through English" if group["sense_scope"] == "pivot" else "not tied to a sense"
        lines.append("- " + _sense_line(group.get("sense"), fallback))
        words = []
        for c in group["candidates"]:
            text = c["text"] + (f" ({c['note']})" if "note" in c else "")
            if c.get("via"):
                text += f" (via {', '.join(c['via'])})"
            words.append(text)
        lines.append("  " + ", ".join(words) + (" ..." if group.get("truncated") else ""))
    if "note" in data:
        lines.append(data["note"])
    return lines


def _relations(data: _Json) -> list[str]:
    lines = [f"{data['relation']} of {data['word']} ({data['language']}):", *_resolved(data)]
    if not data.get("relation_in_data", True):
        lines.append(f"the installed {data['language']} data has no {data['relation']} edges")
    senses = data.get("senses", {})
    current: object = object()
    for result in data["results"]:
        start = result.get("from_sense")
        if start != current:
            current = start
            # The sense's id stays in the structured content (`senses`, by id): the
            # text says what the sense is, which is what a reader of relations needs.
            sense = senses[start] if start else None
            lines.append("- " + _sense_line(sense, "the written word"))
        words = result.get("text") or ", ".join(result["words"])
        via = ""
        if result.get("path"):
            via = " (via " + result["path"][0]["to_text"] + ")"
        gloss = f": {result['gloss']}" if "gloss" in result else ""
        language = f" [{result['language']}]" if "language" in result else ""
        lines.append(f"  {words}{language}{via}{gloss}")
    return lines


def _semantic(data: _Json) -> list[str]:
    asked = f"words described by {data['word']!r}" if data.get("mode") else data["word"]
    lines = [f"neighbours of {asked} ({', '.join(data['searched_languages'])}):"]
    for n in data["neighbors"]:
        language = f" [{n['language']}]" if "language" in n else ""
        gloss = f": {n['matched_gloss']}" if "matched_gloss" in n else ""
        lines.append(f"  {n['text']}{language} {n['score']:.2f}{gloss}")
    return lines


def _rhymes(data: _Json) -> list[str]:
    phones = "; ".join(p["phones"] for p in data.get("query_pronunciations", ()))
    lines = [f"{data['mode']} rhymes of {data['word']} ({phones}):"]
    words = [r["word"] for r in data["results"]]
    lines.append("  " + ", ".join(words) + (" ..." if data.get("truncated") else ""))
    return lines


def _wordplay(data: _Json) -> list[str]:
    lines = [f"{data['kind']} of {data['text']!r} ({data['language']}):"]
    if data.get("input_is_palindrome"):
        lines.append("  the text is itself a palindrome")
    items = data["results"]
    if data["kind"] == "pun":
        for pun in items:
            meanings = [s.get("gloss", s["synset"]) for s in pun.get("distinct_senses", ())]
            lines.append(f"  {pun['word']} ({pun['phones']}): " + "; ".join(meanings))
    elif items:
        lines.append("  " + ", ".join(item["word"] for item in items))
    if data.get("unresolved"):
        lines.append("no pronunciation for: " + ", ".join(data["unresolved"]))
    if data.get("truncated"):
        lines.append("  ... (more with a higher limit)")
    return lines


_RENDERERS: dict[str, Callable[[_Json], list[str]]] = {
    "dictionary_lookup": _lookup,
    "dictionary_synonyms": _synonyms,
    "dictionary_translate": _translate,
    "dictionary_relations": _relations,
    "dictionary_semantic_neighbors": _semantic,
    "rhymes": _rhymes,
    "wordplay": _wordplay,
}
