"""A small corpus written to the published schema files, for the server's own tests.

It is written directly with the shipped schema DDL (lexicon_server/corpus/schema/*.sql),
labelled as such, so the query layer can be tested in isolation and its edge cases
(every allocation rule, every one of the four reasons) are pinned down exactly. The
corpus the real builder makes from the committed fixture slices is exercised too, via
the root `sample_data_dir` fixture, where it exists (see test_sample_corpus.py).

Installed here: en lexical+semantic, fr lexical. The release carries en wordplay (not
installed), fr semantic (not installed), de lexical (language not installed) and no
semantic data for de (not available upstream); 'xx' is unknown.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path
from types import MappingProxyType

import numpy as np
import pytest

from lexicon_server.corpus.reader import Corpus, schema_sql
from lexicon_store.selection import ActiveSelection

DATASET_VERSION = "test-2026.11.0"

SOURCES = [
    (1, "wordnet-3.1", "Princeton WordNet 3.1", "3.1", "WordNet", "https://wordnet.princeton.edu"),
    (2, "cmudict", "CMU Pronouncing Dictionary", "0.7b", "BSD-2-Clause", "https://example.org/cmu"),
    (3, "freedict-eng-fra", "FreeDict English-French", "0.1", "GPL-2.0", "https://freedict.org"),
    (4, "conceptnet", "ConceptNet", "5.7", "CC-BY-SA-4.0", "https://conceptnet.io"),
]


def _db(path: Path, schema: str) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path)
    conn.executescript(schema_sql(schema))
    conn.executemany("INSERT INTO sources VALUES (?,?,?,?,?,?)", SOURCES)
    conn.executemany(
        "INSERT INTO meta VALUES (?,?)",
        [("schema", schema), ("dataset_version", DATASET_VERSION)],
    )
    return conn


class _Lex:
    """Tiny writer: interns terms and hands out row ids."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.terms: dict[str, int] = {}

    def term(self, text: str) -> int:
        if text not in self.terms:
            cur = self.conn.execute(
                "INSERT INTO terms (text, norm) VALUES (?, ?)", (text, text.casefold())
            )
            self.terms[text] = int(cur.lastrowid or 0)
        return self.terms[text]

    def synset(self, ext: str, pos: str, gloss: str, words: list[str], source: int = 1) -> int:
        cur = self.conn.execute(
            "INSERT INTO synsets (external_id, pos, gloss, source_id) VALUES (?,?,?,?)",
            (ext, pos, gloss, source),
        )
        synset_id = int(cur.lastrowid or 0)
        for word in words:
            self.sense(word, pos, gloss, synset_id, source)
        return synset_id

    def entry(self, word: str, pos: str, source: int = 1) -> int:
        term_id = self.term(word)
        row = self.conn.execute(
            "SELECT id FROM entries WHERE term_id = ? AND pos = ? AND source_id = ?",
            (term_id, pos, source),
        ).fetchone()
        if row:
            return int(row[0])
        cur = self.conn.execute(
            "INSERT INTO entries (term_id, pos, source_id) VALUES (?,?,?)", (term_id, pos, source)
        )
        return int(cur.lastrowid or 0)

    def sense(
        self, word: str, pos: str, gloss: str, synset_id: int | None = None, source: int = 1
    ) -> int:
        entry_id = self.entry(word, pos, source)
        rank = self.conn.execute(
            "SELECT COUNT(*) FROM senses WHERE entry_id = ?", (entry_id,)
        ).fetchone()[0]
        cur = self.conn.execute(
            "INSERT INTO senses (entry_id, synset_id, rank, gloss, source_id) VALUES (?,?,?,?,?)",
            (entry_id, synset_id, rank, gloss, source),
        )
        return int(cur.lastrowid or 0)

    def sense_of(self, word: str, synset_id: int) -> int:
        return int(
            self.conn.execute(
                "SELECT s.id FROM senses s JOIN entries e ON e.id = s.entry_id "
                "JOIN terms t ON t.id = e.term_id WHERE t.text = ? AND s.synset_id = ?",
                (word, synset_id),
            ).fetchone()[0]
        )

    def rel(
        self,
        relation: str,
        scope: str,
        src: int,
        dst: int | None,
        lang: str = "en",
        text: str | None = None,
        source: int = 1,
        weight: float | None = None,
    ) -> None:
        cols = {
            "synset": ("src_synset_id", "dst_synset_id"),
            "sense": ("src_sense_id", "dst_sense_id"),
            "term": ("src_term_id", "dst_term_id"),
        }[scope]
        self.conn.execute(
            f"INSERT INTO relations (relation, scope, {cols[0]}, {cols[1]}, dst_language, "
            "dst_text, weight, source_id) VALUES (?,?,?,?,?,?,?,?)",
            (relation, scope, src, dst, lang, text, weight, source),
        )


def build_english(path: Path) -> dict[str, int]:
    conn = _db(path, "lexical")
    lx = _Lex(conn)
    ids: dict[str, int] = {}
    ids["animal"] = lx.synset("wn31-00015388-n", "noun", "a living organism", ["animal", "beast"])
    ids["carnivore"] = lx.synset("wn31-02075296-n", "noun", "a flesh-eating mammal", ["carnivore"])
    ids["canine"] = lx.synset("wn31-02083346-n", "noun", "fissiped mammals", ["canine", "canid"])
    ids["dog"] = lx.synset(
        "wn31-02084071-n",
        "noun",
        "a member of the genus Canis",
        ["dog", "domestic dog", "Canis familiaris"],
    )
    ids["puppy"] = lx.synset("wn31-01322604-n", "noun", "a young dog", ["puppy"])
    ids["hound"] = lx.synset("wn31-02087551-n", "noun", "any of several breeds of dog", ["hound"])
    ids["dog_v"] = lx.synset(
        "wn31-02003725-v", "verb", "go after with the intent to catch", ["dog", "chase", "trail"]
    )
    ids["house"] = lx.synset(
        "wn31-03544360-n", "noun", "a dwelling that serves as living quarters", ["house"]
    )
    ids["family"] = lx.synset(
        "wn31-08078020-n", "noun", "a social unit living together", ["house", "family", "household"]
    )
    ids["run"] = lx.synset("wn31-01926311-v", "verb", "move fast by using one's feet", ["run"])
    ids["good"] = lx.synset("wn31-01123148-a", "adj", "having desirable qualities", ["good"])
    ids["bad"] = lx.synset("wn31-01125429-a", "adj", "having undesirable qualities", ["bad"])
    # an adjective cluster: the head synset has no other member, its satellite has two
    ids["happy"] = lx.synset("wn31-01148283-a", "adj", "enjoying or showing joy", ["happy"])
    ids["glad"] = lx.synset("wn31-01149494-s", "adj", "showing or causing joy", ["glad", "joyful"])
    # a word with many senses, for the limits
    for i in range(30):
        lx.synset(f"wn31-1{i:07d}-n", "noun", f"set sense number {i}", ["set", f"setword{i}"])
    # hypernym chain and inverse
    for lower, upper in (
        ("puppy", "dog"),
        ("hound", "dog"),
        ("dog", "canine"),
        ("canine", "carnivore"),
        ("carnivore", "animal"),
    ):
        lx.rel("hypernym", "synset", ids[lower], ids[upper])
        lx.rel("hyponym", "synset", ids[upper], ids[lower])
    # a synonym edge the source ties to one sense (as Wiktionary's are), to plain text
    lx.rel("synonym", "sense", lx.sense_of("run", ids["run"]), None, text="sprint", source=4)
    lx.rel("similar", "synset", ids["happy"], ids["glad"])
    lx.rel("similar", "synset", ids["glad"], ids["happy"])
    lx.rel("antonym", "sense", lx.sense_of("good", ids["good"]), lx.sense_of("bad", ids["bad"]))
    lx.rel("antonym", "sense", lx.sense_of("bad", ids["bad"]), lx.sense_of("good", ids["good"]))
    dog = lx.term("dog")
    # unsensed ConceptNet-style edges, one into French
    for i, syn in enumerate(["doggy", "pooch", "mutt", "cur", "tyke", "bowwow", "pup"]):
        lx.rel("synonym", "term", dog, lx.term(syn), source=4, weight=2.0 - i * 0.1)
    lx.rel("synonym", "term", dog, None, lang="fr", text="chien", source=4)
    lx.rel("related_to", "term", dog, None, lang="fr", text="chien", source=4)
    lx.rel("related_to", "term", dog, None, lang="de", text="Hund", source=4)
    # examples, several per sense, for the round-robin budget
    house_sense = lx.sense_of("house", ids["house"])
    family_sense = lx.sense_of("house", ids["family"])
    for i in range(6):
        conn.execute(
            "INSERT INTO examples (sense_id, text, source_id) VALUES (?,?,1)",
            (house_sense, f"house example {i}"),
        )
    for i in range(3):
        conn.execute(
            "INSERT INTO examples (sense_id, text, source_id) VALUES (?,?,1)",
            (family_sense, f"family example {i}"),
        )
    # pronunciations: CMUdict ties them to the written form
    for term, variant, phones in (
        ("house", 0, "HH AW1 S"),
        ("house", 1, "HH AW1 Z"),
        ("dog", 0, "D AO1 G"),
        ("run", 0, "R AH1 N"),
        ("obama", 0, "OW0 B AA1 M AH0"),
    ):
        conn.execute(
            "INSERT INTO pronunciations (term_id, notation, value, variant, source_id) "
            "VALUES (?, 'arpabet', ?, ?, 2)",
            (lx.term(term), phones, variant),
        )
    # translations: sensed and unsensed
    tr = [
        ("house", house_sense, "fr", "maison"),
        ("house", house_sense, "fr", "domicile"),
        ("house", house_sense, "de", "Haus"),
        ("house", family_sense, "fr", "famille"),
        ("house", family_sense, "fr", "maisonnée"),
        ("house", None, "fr", "logis"),
        ("house", None, "de", "Gebäude"),
        ("dog", None, "fr", "chien"),
        ("dog", None, "de", "Hund"),
        ("dog", None, "de", "Köter"),
        # a source repeating one word: more repeats than a look-up reads ahead
        *[("echo", None, "de", "Echo")] * 6,
        ("echo", None, "de", "Widerhall"),
        ("echo", None, "fr", "écho"),
    ]
    for word, sense, lang, text in tr:
        conn.execute(
            "INSERT INTO translations (term_id, sense_id, target_language, target_text, "
            "target_norm, source_id) VALUES (?,?,?,?,?,3)",
            (lx.term(word), sense, lang, text, text.casefold()),
        )
    # irregular inflection (WordNet verb.exc)
    conn.execute("INSERT INTO inflections VALUES ('ran', ?, 'verb', 1)", (lx.term("run"),))
    conn.commit()
    conn.close()
    return ids


def build_french(path: Path) -> None:
    conn = _db(path, "lexical")
    lx = _Lex(conn)
    lx.sense("maison", "noun", "bâtiment d'habitation", source=3)
    lx.sense("chien", "noun", "mammifère domestique", source=3)
    conn.commit()
    conn.close()


SEMANTIC_WORDS = [
    "king",
    "queen",
    "prince",
    "princess",
    "man",
    "woman",
    "dog",
    "puppy",
    "cat",
    "house",
    "home",
    "car",
    "tree",
    "river",
    "bank",
    "money",
]


def build_semantic(root: Path) -> np.ndarray:
    from usearch.index import Index

    rng = np.random.default_rng(7)
    dims = 16
    base = rng.normal(size=(len(SEMANTIC_WORDS) + 200, dims)).astype(np.float32)
    # related words share a direction
    royal = rng.normal(size=dims)
    for i, w in enumerate(SEMANTIC_WORDS):
        if w in ("king", "queen", "prince", "princess"):
            base[i] = royal * 3 + rng.normal(size=dims) * 0.3
    base /= np.linalg.norm(base, axis=1, keepdims=True)
    words = SEMANTIC_WORDS + [f"filler{i}" for i in range(200)]
    conn = _db(root / "en" / "semantic.sqlite", "semantic")
    conn.executemany(
        "INSERT INTO vocab (id, text, norm, source_id) VALUES (?,?,?,1)",
        [(i, w, w.casefold()) for i, w in enumerate(words)],
    )
    conn.commit()
    conn.close()
    np.save(root / "en" / "semantic.f16.npy", base.astype(np.float16))
    index = Index(ndim=dims, metric="cos", dtype="i8")
    # One thread, as the builder does: a multi-threaded add builds a different graph each
    # run, and tests that compare the search with exact search must see the same graph.
    index.add(np.arange(len(words), dtype=np.uint64), base, threads=1)
    index.save(str(root / "en" / "semantic.usearch"))
    return base


def make_selection(root: Path) -> ActiveSelection:
    files = {
        rel: root / rel
        for rel in (
            "en/lexical.sqlite",
            "fr/lexical.sqlite",
            "en/semantic.sqlite",
            "en/semantic.f16.npy",
            "en/semantic.usearch",
        )
    }
    (root / "DATA_LICENSES.md").write_text("# Data licences\n\nWordNet licence text.\n")
    files["DATA_LICENSES.md"] = root / "DATA_LICENSES.md"
    return ActiveSelection(
        data_dir=root,
        activation_id="test",
        dataset_version=DATASET_VERSION,
        manifest_digest="blake3:" + "0" * 64,
        profile="test",
        language_names=MappingProxyType({"en": "English", "fr": "French", "de": "German"}),
        catalogue=MappingProxyType(
            {
                "en": frozenset({"lexical", "semantic", "wordplay"}),
                "fr": frozenset({"lexical", "semantic"}),
                "de": frozenset({"lexical"}),
            }
        ),
        installed=MappingProxyType(
            {
                "en": frozenset({"lexical", "semantic"}),
                "fr": frozenset({"lexical"}),
            }
        ),
        files=MappingProxyType(files),
    )


@pytest.fixture(scope="session")
def mini_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("minicorpus")
    build_english(root / "en" / "lexical.sqlite")
    build_french(root / "fr" / "lexical.sqlite")
    build_semantic(root)
    return root


@pytest.fixture
def corpus(mini_root: Path) -> Iterator[Corpus]:
    with closing(Corpus(make_selection(mini_root))) as c:
        yield c


@pytest.fixture
def mini_variant(mini_root: Path, tmp_path: Path) -> Iterator[Callable[[str, str, str], Corpus]]:
    """`variant(name, db, sql)`: a copy of the mini corpus under `name` with `sql` (one or
    more statements) run on its `db` file, served (and closed when the test ends)."""
    opened: list[Corpus] = []

    def variant(name: str, db: str, sql: str) -> Corpus:
        root = tmp_path / name
        shutil.copytree(mini_root, root)
        conn = sqlite3.connect(root / db)
        conn.executescript(sql)
        conn.commit()
        conn.close()
        opened.append(Corpus(make_selection(root)))
        return opened[-1]

    yield variant
    for c in opened:
        c.close()


@pytest.fixture
def unindexed_corpus(mini_variant: Callable[[str, str, str], Corpus]) -> Corpus:
    """The mini corpus as a release built before `translations_sense` existed."""
    return mini_variant("unindexed", "en/lexical.sqlite", "DROP INDEX translations_sense")


def install_as_activation(root: Path, data_dir: Path) -> Path:
    """Lay the mini corpus out as the store's data dir format (docs/release-format.md):
    read-only blake3-named objects, an activation record and the `current` pointer."""
    import json

    import blake3

    selection = make_selection(root)
    components = []
    for rel, path in sorted(selection.files.items()):
        data = path.read_bytes()
        digest = blake3.blake3(data).hexdigest()
        target = data_dir / "objects" / "blake3" / digest[:2] / digest
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists():
            target.write_bytes(data)
            target.chmod(0o444)
        lang, _, name = rel.partition("/")
        capability = "shared" if not name else name.split(".")[0]
        components.append(
            {
                "id": rel,
                "language": lang if name else None,
                "capability": capability,
                "path": rel,
                "object": f"blake3:{digest}",
                "size": len(data),
            }
        )
    record = {
        "format": 1,
        "activation_id": "00000000000000aa",
        "dataset_version": selection.dataset_version,
        "manifest_digest": selection.manifest_digest,
        "profile": selection.profile,
        "languages": {
            code: {"name": selection.language_names[code], "capabilities": sorted(caps)}
            for code, caps in selection.catalogue.items()
        },
        "installed": {code: sorted(caps) for code, caps in selection.installed.items()},
        "components": components,
    }
    (data_dir / "activations").mkdir(parents=True, exist_ok=True)
    (data_dir / "activations" / "00000000000000aa.json").write_text(json.dumps(record))
    (data_dir / "current").write_text(json.dumps({"format": 1, "activation": "00000000000000aa"}))
    return data_dir


@pytest.fixture(scope="session")
def mini_data_dir(mini_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return install_as_activation(mini_root, tmp_path_factory.mktemp("datadir"))


# --- corpora made by the real builder (root tests/conftest.py) ------------------------------


@pytest.fixture
def sample_corpus(sample_data_dir: Path) -> Iterator[Corpus]:
    """The fixture slices built by the builder, installed and activated by the store."""
    from lexicon_store.selection import load_active

    with closing(Corpus(load_active(sample_data_dir))) as c:
        yield c


@pytest.fixture
def data_dir(sample_release: tuple[Path, str], tmp_path: Path) -> Path:
    """The sample release, every language installed, in a data dir of this test's own (for
    tests that change what is installed under a running server)."""
    from _support.installs import install_release

    return install_release(*sample_release, tmp_path / "data")


@pytest.fixture(scope="session")
def partial_data_dir(
    sample_release: tuple[Path, str], tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """The sample release with only English lexical data installed, through the store."""
    from _support.installs import install_english_lexical

    data_dir = tmp_path_factory.mktemp("partial") / "data"
    install_english_lexical(*sample_release, data_dir)
    return data_dir


@pytest.fixture
def partial_corpus(partial_data_dir: Path) -> Iterator[Corpus]:
    from lexicon_store.selection import load_active

    with closing(Corpus(load_active(partial_data_dir))) as c:
        yield c
