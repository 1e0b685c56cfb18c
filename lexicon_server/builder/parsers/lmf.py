"""WN-LMF XML (Open English WordNet, Global WordNet LMF 1.0-1.4) -> entries and synsets.

Read with :func:`xml.etree.ElementTree.iterparse`; each ``LexicalEntry``/``Synset`` is
handled when it closes and then dropped from the tree, so the tree never holds more than
one of them.

LMF splits what WNDB keeps on one line: lemmas and sense relations live in
``LexicalEntry``/``Sense`` elements, definitions and synset relations in ``Synset``
elements, and every entry comes before every synset. Two streams are offered:

- :func:`iter_entries`: one :class:`LmfEntry` per ``LexicalEntry`` (lemma, part of speech,
  IPA pronunciations, forms, senses with their sense-level relations and examples), one
  pass, nothing kept;
- :func:`iter_synsets`: complete :class:`SynsetRecord` objects like the WNDB parser's
  (members with lemmas, sense relations turned into member-numbered pointers). Bounded
  approach: a first pass spills ``sense -> (lemma, synset, member position)`` and the sense
  relations into a temporary SQLite file; the second pass streams the synsets and looks
  their members up there. Memory stays flat; the temporary file is about a tenth of the
  XML and is deleted when the generator finishes or is closed.

Member order follows the synset's ``members`` attribute (sense or entry ids, LMF >= 1.1),
else document order. Relation names are LMF's ``relType`` values as published (``other``
is replaced by its ``dc:type``), so they match the names the WNDB parser produces.
"""

from __future__ import annotations

import itertools
import sqlite3
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from lexicon_server.builder.parsers._io import ParseError
from lexicon_server.builder.records import PointerRecord, SenseRank, SynsetMember, SynsetRecord

__all__ = [
    "LexiconInfo",
    "LmfEntry",
    "LmfPronunciation",
    "LmfSense",
    "iter_entries",
    "iter_sense_ranks",
    "iter_synsets",
    "lexicons",
]

_DC = "{https://globalwordnet.github.io/schemas/dc/}"
_DC_OLD = "{http://purl.org/dc/elements/1.1/}"  # LMF 1.0 documents use the Dublin Core URI
POS_NAMES = {"n": "noun", "v": "verb", "a": "adj", "s": "adj", "r": "adv"}


@dataclass(frozen=True, slots=True)
class LexiconInfo:
    """A ``Lexicon`` element's attributes (what DATA_LICENSES needs)."""

    id: str
    label: str
    language: str
    version: str
    license: str
    url: str | None


@dataclass(frozen=True, slots=True)
class LmfPronunciation:
    text: str  # IPA as published
    variety: str | None  # 'GB', 'US', ...


@dataclass(frozen=True, slots=True)
class LmfSense:
    sense_id: str
    synset: str
    n: int | None  # the sense's rank in its entry when the source gives one (LMF 1.4)
    tag_count: int  # sum of <Count> children (0 when none)
    adjposition: str | None
    examples: tuple[str, ...]  # sense-level examples
    relations: tuple[tuple[str, str], ...]  # (relation, target sense id)


@dataclass(frozen=True, slots=True)
class LmfEntry:
    entry_id: str
    lexicon: str
    language: str
    lemma: str
    pos: str  # 'noun' | 'verb' | 'adj' | 'adv' | LMF letter when not one of those
    satellite: bool
    pronunciations: tuple[LmfPronunciation, ...]
    forms: tuple[str, ...]  # other written forms (<Form>)
    senses: tuple[LmfSense, ...]


def _dc(elem: ET.Element, name: str) -> str | None:
    return elem.get(_DC + name) or elem.get(_DC_OLD + name)


def _relation(elem: ET.Element) -> str:
    rel = elem.get("relType", "")
    return (_dc(elem, "type") or rel) if rel == "other" else rel


def _lexicon_info(elem: ET.Element) -> LexiconInfo:
    """A `<Lexicon>` element's attributes."""
    return LexiconInfo(
        id=elem.get("id", ""),
        label=elem.get("label", ""),
        language=elem.get("language", ""),
        version=elem.get("version", ""),
        license=elem.get("license", ""),
        url=elem.get("url"),
    )


def _events(path: Path, lexicon: str | None) -> Iterator[tuple[ET.Element, LexiconInfo]]:
    """Yield each closed LexicalEntry/Synset with its lexicon, clearing the tree behind."""
    current: LexiconInfo | None = None
    parent: ET.Element | None = None
    try:
        for event, elem in ET.iterparse(path, events=("start", "end")):
            tag = elem.tag
            if event == "start":
                if tag == "Lexicon":
                    current = _lexicon_info(elem)
                    parent = elem
                elif tag == "LexiconExtension":
                    current, parent = None, elem
                continue
            if tag in ("LexicalEntry", "Synset"):
                if current is not None and (lexicon is None or current.id == lexicon):
                    yield elem, current
                if parent is not None:
                    parent.clear()  # drop handled children (keeps only the one being built)
            elif tag in ("Lexicon", "LexiconExtension"):
                elem.clear()
                current, parent = None, None
    except ET.ParseError as exc:
        raise ParseError(path, exc.position[0], f"malformed XML ({exc})") from exc


def lexicons(path: str | Path) -> list[LexiconInfo]:
    """The lexicons a file declares (stops reading at the first entry of each)."""
    found: list[LexiconInfo] = []
    for event, elem in ET.iterparse(Path(path), events=("start",)):
        if event == "start" and elem.tag == "Lexicon":
            found.append(_lexicon_info(elem))
    return found


def _sense(sense: ET.Element) -> LmfSense:
    # One pass over the children: four elem.iter() calls per sense cost twice as much.
    tag_count = 0
    examples: list[str] = []
    relations: list[tuple[str, str]] = []
    for child in sense:
        tag = child.tag
        if tag == "SenseRelation":
            relations.append((_relation(child), child.get("target", "")))
        elif tag == "Example":
            if child.text and child.text.strip():
                examples.append(child.text.strip())
        elif tag == "Count" and child.text and child.text.strip().isdigit():
            tag_count += int(child.text)
    n = sense.get("n")
    return LmfSense(
        sense_id=sense.get("id", ""),
        synset=sense.get("synset", ""),
        n=int(n) if n and n.isdigit() else None,
        tag_count=tag_count,
        adjposition=sense.get("adjposition"),
        examples=tuple(examples),
        relations=tuple(relations),
    )


def _entry(elem: ET.Element, info: LexiconInfo, path: Path) -> LmfEntry:
    lemma: ET.Element | None = None
    senses: list[LmfSense] = []
    forms: list[str] = []
    for child in elem:
        tag = child.tag
        if tag == "Sense":
            senses.append(_sense(child))
        elif tag == "Lemma":
            lemma = child
        elif tag == "Form" and child.get("writtenForm"):
            forms.append(child.get("writtenForm", ""))
    if lemma is None or not lemma.get("writtenForm"):
        raise ParseError(path, 0, f"LexicalEntry {elem.get('id')!r} has no Lemma writtenForm")
    pos = lemma.get("partOfSpeech", "")
    return LmfEntry(
        entry_id=elem.get("id", ""),
        lexicon=info.id,
        language=info.language,
        lemma=lemma.get("writtenForm", ""),
        pos=POS_NAMES.get(pos, pos),
        satellite=pos == "s",
        pronunciations=tuple(
            LmfPronunciation(p.text.strip(), p.get("variety"))
            for p in lemma
            if p.tag == "Pronunciation" and p.text and p.text.strip()
        ),
        forms=tuple(forms),
        senses=tuple(senses),
    )


def iter_entries(path: str | Path, *, lexicon: str | None = None) -> Iterator[LmfEntry]:
    """Yield every ``LexicalEntry`` (of one lexicon, or of all), in document order."""
    path = Path(path)
    for elem, info in _events(path, lexicon):
        if elem.tag == "LexicalEntry":
            yield _entry(elem, info, path)


def iter_sense_ranks(path: str | Path, *, lexicon: str | None = None) -> Iterator[SenseRank]:
    """Sense order per lemma: the ``n`` attribute when given, else the order in the entry."""
    for entry in iter_entries(path, lexicon=lexicon):
        for position, sense in enumerate(entry.senses, 1):
            yield SenseRank(
                sense_key=sense.sense_id,
                synset=sense.synset,
                sense_number=sense.n or position,
                tag_count=sense.tag_count,
            )


_SCHEMA = """
CREATE TABLE senses (sense_id TEXT PRIMARY KEY, entry_id TEXT, lemma TEXT, synset TEXT,
                     adjposition TEXT, doc_order INTEGER) WITHOUT ROWID;
CREATE TABLE members (synset TEXT, member_id TEXT, position INTEGER,
                      PRIMARY KEY (synset, member_id)) WITHOUT ROWID;
CREATE TABLE sense_relations (sense_id TEXT, seq INTEGER, relation TEXT, target TEXT,
                              PRIMARY KEY (sense_id, seq)) WITHOUT ROWID;
"""

# Member number of every sense in its synset: the 'members' rank by sense id, else by
# entry id, else after the listed ones in document order.
_NUMBERING = """
CREATE TABLE numbered AS
SELECT s.sense_id, s.synset, s.lemma, s.adjposition,
       ROW_NUMBER() OVER (
           PARTITION BY s.synset
           ORDER BY COALESCE(ms.position, me.position, 1000000 + s.doc_order)
       ) AS member_no
FROM senses s
LEFT JOIN members ms ON ms.synset = s.synset AND ms.member_id = s.sense_id
LEFT JOIN members me ON me.synset = s.synset AND me.member_id = s.entry_id;
CREATE INDEX numbered_synset ON numbered (synset, member_no);
CREATE UNIQUE INDEX numbered_sense ON numbered (sense_id);
"""


def _spill(path: Path, lexicon: str | None, db: sqlite3.Connection) -> None:
    db.executescript(_SCHEMA)
    senses: list[tuple[str, str, str, str, str | None, int]] = []
    relations: list[tuple[str, int, str, str]] = []
    members: list[tuple[str, str, int]] = []
    order = itertools.count(1)  # document order of senses, the fallback member order

    def flush() -> None:  # batched: one executemany per few thousand rows, not per sense
        db.executemany("INSERT OR IGNORE INTO senses VALUES (?, ?, ?, ?, ?, ?)", senses)
        db.executemany("INSERT OR IGNORE INTO sense_relations VALUES (?, ?, ?, ?)", relations)
        db.executemany("INSERT OR IGNORE INTO members VALUES (?, ?, ?)", members)
        senses.clear()
        relations.clear()
        members.clear()

    for elem, info in _events(path, lexicon):
        if elem.tag == "LexicalEntry":
            entry = _entry(elem, info, path)
            for sense in entry.senses:
                senses.append(
                    (sense.sense_id, entry.entry_id, entry.lemma, sense.synset,
                     sense.adjposition, next(order))
                )  # fmt: skip
                relations.extend(
                    (sense.sense_id, i, *relation) for i, relation in enumerate(sense.relations)
                )
        else:
            synset_id = elem.get("id", "")
            members.extend((synset_id, m, i) for i, m in enumerate(elem.get("members", "").split()))
        if len(senses) + len(relations) + len(members) > 500:
            flush()
    flush()
    db.executescript(_NUMBERING)
    db.commit()


def iter_synsets(
    path: str | Path,
    *,
    lexicon: str | None = None,
    workdir: str | Path | None = None,
) -> Iterator[SynsetRecord]:
    """Yield complete synsets in document order (two passes, spilling to SQLite in between)."""
    path = Path(path)
    with tempfile.TemporaryDirectory(prefix="lmf-", dir=workdir) as tmp:
        db = sqlite3.connect(Path(tmp) / "senses.sqlite")
        try:
            db.execute("PRAGMA journal_mode=OFF")
            db.execute("PRAGMA synchronous=OFF")
            _spill(path, lexicon, db)
            for elem, _info in _events(path, lexicon):
                if elem.tag == "Synset":
                    yield _synset(elem, db)
        finally:
            db.close()


def _synset(elem: ET.Element, db: sqlite3.Connection) -> SynsetRecord:
    synset_id = elem.get("id", "")
    pos = elem.get("partOfSpeech", "")
    rows = db.execute(
        "SELECT sense_id, lemma, adjposition, member_no FROM numbered "
        "WHERE synset = ? ORDER BY member_no",
        (synset_id,),
    ).fetchall()
    members = tuple(SynsetMember(lemma=r[1], sense_key=r[0], adjposition=r[2]) for r in rows)
    pointers = [
        PointerRecord(_relation(r), r.get("target", ""), 0, 0) for r in elem.iter("SynsetRelation")
    ]
    pointers.extend(
        PointerRecord(relation, target_synset, member_no, target_no)
        for member_no, relation, target_synset, target_no in db.execute(
            "SELECT m.member_no, r.relation, t.synset, t.member_no FROM numbered m "
            "JOIN sense_relations r ON r.sense_id = m.sense_id "
            "JOIN numbered t ON t.sense_id = r.target "
            "WHERE m.synset = ? ORDER BY m.member_no, r.seq",
            (synset_id,),
        )
    )
    definitions = [d.text.strip() for d in elem.iter("Definition") if d.text and d.text.strip()]
    lexname = elem.get("lexfile") or _dc(elem, "subject")
    if lexname and not lexname.startswith(("noun.", "verb.", "adj.", "adv.")):
        lexname = None  # OEWN 2024+ puts Wikidata ids in dc:subject
    return SynsetRecord(
        external_id=synset_id,
        pos=POS_NAMES.get(pos, pos),
        lexname=lexname,
        gloss="; ".join(definitions),
        examples=tuple(e.text.strip() for e in elem.iter("Example") if e.text and e.text.strip()),
        members=members,
        pointers=tuple(pointers),
        satellite=pos == "s",
    )
