-- Lexicon lexical component: one SQLite database per language.
-- Strings that repeat (written forms) are interned in `terms`; everything else points at them.
-- Every fact row names its `source_id`; sense scope is explicit (see docs/corpus-format.md).
-- Built releases store `examples` and `translations` WITHOUT ROWID, keyed (sense_id, id) and
-- (term_id, target_language, id), with the same columns and ids and without the index the key
-- replaces (lexicon_server/build/lexical_writer.py, CLUSTERED). The rowid form below is what
-- older releases and hand-written databases use; the server's queries read both.
PRAGMA user_version = 1;

-- `meta` and `sources`: common.sql. Meta keys here: schema='lexical', schema_version, language, dataset_version, built_from

CREATE TABLE terms (
    id   INTEGER PRIMARY KEY,
    text TEXT NOT NULL UNIQUE,      -- written form as published (underscores turned into spaces)
    norm TEXT NOT NULL,             -- NFKC + casefold + collapsed whitespace: the look-up key
    zipf REAL NOT NULL DEFAULT 0    -- wordfreq Zipf frequency (0 = unknown), for ranking
);
CREATE INDEX terms_norm ON terms (norm);

CREATE TABLE entries (
    id        INTEGER PRIMARY KEY,
    term_id   INTEGER NOT NULL REFERENCES terms (id),
    pos       TEXT NOT NULL,        -- noun, verb, adj, adv, ... (lower-case word, not a code)
    etymology TEXT,
    source_id INTEGER NOT NULL REFERENCES sources (id)
);
CREATE INDEX entries_term ON entries (term_id);

CREATE TABLE synsets (
    id          INTEGER PRIMARY KEY,
    external_id TEXT NOT NULL UNIQUE,  -- e.g. 'wn31-02086723-n'
    pos         TEXT NOT NULL,
    lexname     TEXT,
    gloss       TEXT NOT NULL,
    source_id   INTEGER NOT NULL REFERENCES sources (id)
);

CREATE TABLE senses (
    id          INTEGER PRIMARY KEY,
    entry_id    INTEGER NOT NULL REFERENCES entries (id),
    synset_id   INTEGER REFERENCES synsets (id),  -- NULL for dictionaries without synsets
    rank        INTEGER NOT NULL,                 -- order within the entry (0 = first/most frequent)
    external_id TEXT,                             -- e.g. WordNet sense key
    gloss       TEXT NOT NULL,
    tags        TEXT NOT NULL DEFAULT '',         -- space-separated labels: 'slang informal ...'
    source_id   INTEGER NOT NULL REFERENCES sources (id)
);
CREATE INDEX senses_entry ON senses (entry_id, rank);
CREATE INDEX senses_synset ON senses (synset_id);

CREATE TABLE examples (
    id        INTEGER PRIMARY KEY,
    sense_id  INTEGER NOT NULL REFERENCES senses (id),
    text      TEXT NOT NULL,
    source_id INTEGER NOT NULL REFERENCES sources (id)
);
CREATE INDEX examples_sense ON examples (sense_id);

CREATE TABLE pronunciations (
    id        INTEGER PRIMARY KEY,
    term_id   INTEGER NOT NULL REFERENCES terms (id),
    entry_id  INTEGER REFERENCES entries (id),    -- NULL when the source does not tie it to an entry
    notation  TEXT NOT NULL CHECK (notation IN ('arpabet', 'ipa')),
    value     TEXT NOT NULL,
    variant   INTEGER NOT NULL,                   -- 0 = first listed, as in cmudict's word(2)
    source_id INTEGER NOT NULL REFERENCES sources (id)
);
CREATE INDEX pronunciations_term ON pronunciations (term_id);

CREATE TABLE translations (
    id              INTEGER PRIMARY KEY,
    term_id         INTEGER NOT NULL REFERENCES terms (id),  -- the word in this component's language
    sense_id        INTEGER REFERENCES senses (id),          -- NULL = not tied to a sense (unsensed)
    target_language TEXT NOT NULL,                           -- BCP-47-ish tag: 'fr', 'de', 'ja'
    target_text     TEXT NOT NULL,
    target_norm     TEXT NOT NULL,
    note            TEXT,                                    -- e.g. gender or usage label from the source
    source_id       INTEGER NOT NULL REFERENCES sources (id),
    -- Does target_norm have its own entry in target_language's lexical component of the same
    -- build? 1 yes, 0 no, NULL the build has no such component. Filled by the builder after
    -- every lexical component is written; added without a schema_version bump, so a reader
    -- must treat a database lacking the column as "unknown".
    target_entry    INTEGER CHECK (target_entry IN (0, 1))
);
CREATE INDEX translations_term ON translations (term_id, target_language);
-- Sense-attached translations of the returned senses, without reading the unsensed ones.
CREATE INDEX translations_sense ON translations (sense_id) WHERE sense_id IS NOT NULL;

-- Directed edges exactly as published. scope: 'synset' (WordNet semantic pointer: both ends are
-- synsets), 'sense' (WordNet lexical pointer: both ends are senses), 'term' (unsensed, e.g.
-- ConceptNet). Targets in another language carry dst_language/dst_text and no ids.
CREATE TABLE relations (
    id            INTEGER PRIMARY KEY,
    relation      TEXT NOT NULL,          -- hypernym, hyponym, antonym, ... (see docs/corpus-format.md)
    scope         TEXT NOT NULL CHECK (scope IN ('synset', 'sense', 'term')),
    src_synset_id INTEGER REFERENCES synsets (id),
    src_sense_id  INTEGER REFERENCES senses (id),
    src_term_id   INTEGER REFERENCES terms (id),
    dst_synset_id INTEGER REFERENCES synsets (id),
    dst_sense_id  INTEGER REFERENCES senses (id),
    dst_term_id   INTEGER REFERENCES terms (id),
    dst_language  TEXT NOT NULL,
    dst_text      TEXT,
    weight        REAL,
    source_id     INTEGER NOT NULL REFERENCES sources (id)
);
-- Partial: each row fills one of the three source columns, so each index holds only the rows
-- it can find (the 2.5M Moby term edges would otherwise sit in the synset and sense indexes
-- as NULL keys). Queries comparing the column with = or IN still use them.
CREATE INDEX relations_src_synset ON relations (src_synset_id, relation)
    WHERE src_synset_id IS NOT NULL;
CREATE INDEX relations_src_sense ON relations (src_sense_id, relation)
    WHERE src_sense_id IS NOT NULL;
-- weight DESC: a word's term edges in ranking order (best first, then storage order), so
-- the synonyms query reads only the first few of Moby's hundreds.
CREATE INDEX relations_src_term ON relations (src_term_id, relation, weight DESC)
    WHERE src_term_id IS NOT NULL;

-- Each term's look-up rows as one JSON document, derived from the tables above by the
-- builder (layout: lexicon_server/corpus/term_docs.py). Used only when meta has 'term_docs'.
CREATE TABLE term_docs (
    term_id INTEGER PRIMARY KEY REFERENCES terms (id),
    doc     BLOB NOT NULL
);

-- Symmetric-deletion spelling index (lexicon_server/corpus/spelling.py): the 32-bit key of
-- each suggestible norm, of its accent-folded form and of each single-character delete,
-- with the term it reaches. Derived by the builder; used only when meta has 'spelling_keys'.
CREATE TABLE spelling_keys (
    key     INTEGER NOT NULL,
    term_id INTEGER NOT NULL REFERENCES terms (id),
    PRIMARY KEY (key, term_id)
) WITHOUT ROWID;

-- Inflected form -> lemma (WordNet *.exc, Wiktionary form-of senses).
CREATE TABLE inflections (
    form_norm     TEXT NOT NULL,
    lemma_term_id INTEGER NOT NULL REFERENCES terms (id),
    pos           TEXT NOT NULL,
    source_id     INTEGER NOT NULL REFERENCES sources (id),
    PRIMARY KEY (form_norm, lemma_term_id, pos)
) WITHOUT ROWID;
