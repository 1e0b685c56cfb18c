-- Lexicon wordplay component (English): precomputed keys for rhymes, anagrams, palindromes,
-- spoonerisms and puns. Pronunciations are CMUdict ARPAbet with stress digits.
PRAGMA user_version = 2;  -- 2: rhyme_docs and spelling_prons, no near_first

-- `meta` and `sources`: common.sql. Meta keys here: schema='wordplay', schema_version, language, dataset_version

CREATE TABLE words (
    id            INTEGER PRIMARY KEY,
    text          TEXT NOT NULL UNIQUE,     -- headword as published (lower-case for CMUdict)
    letters       TEXT NOT NULL,            -- NFKC + casefold, ASCII a-z only
    signature     TEXT NOT NULL,            -- letters sorted: the anagram key
    is_single     INTEGER NOT NULL,         -- 1 when text is one strictly alphabetic token
    is_palindrome INTEGER NOT NULL,         -- 1 when letters (len >= 2) read the same reversed
    zipf          REAL NOT NULL DEFAULT 0,  -- wordfreq Zipf frequency, for ranking
    source_id     INTEGER NOT NULL REFERENCES sources (id),  -- where the spelling comes from
    -- 1: a word a reader knows (a lower-case WordNet lemma, an inflection of one, or a
    -- common word that is no name); 0: a name or a rare CMUdict-only spelling. Ids rank
    -- these words first (meta word_order = dictionary_first). Added without a version
    -- bump: a database without the column ranks by frequency alone.
    is_word       INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX words_signature ON words (signature) WHERE is_single = 1;
CREATE INDEX words_palindromes ON words (letters, id) WHERE is_palindrome = 1;

-- Synsets a word belongs to (external ids as in the lexical component), so a pun can tell
-- whether a homophone carries a sense distinct from the query's without the lexical component.
CREATE TABLE word_synsets (
    word_id   INTEGER NOT NULL REFERENCES words (id),
    synset    TEXT NOT NULL,
    PRIMARY KEY (word_id, synset)
) WITHOUT ROWID;

-- Every distinct rhyme part once; the tables below refer to it by id.
CREATE TABLE rhymes (
    id    INTEGER PRIMARY KEY,
    rhyme TEXT NOT NULL UNIQUE
);

CREATE TABLE prons (
    id        INTEGER PRIMARY KEY,
    word_id   INTEGER NOT NULL REFERENCES words (id),
    variant   INTEGER NOT NULL,   -- 0 = first listed
    phones    TEXT NOT NULL,      -- 'K AE1 T'
    rhyme     TEXT NOT NULL,      -- from the last primary-stressed vowel (else last vowel) to the end
    rhyme_id  INTEGER NOT NULL REFERENCES rhymes (id),  -- the same rhyme part, interned
    syllables INTEGER NOT NULL,
    onset     TEXT NOT NULL,      -- consonant tokens before the first vowel ('' if vowel-initial)
    rest      TEXT NOT NULL,      -- phones after the onset
    source_id INTEGER NOT NULL REFERENCES sources (id)
);
CREATE INDEX prons_word ON prons (word_id);
CREATE INDEX prons_phones ON prons (phones);

-- Every pronunciation under its rhyme part, with what a rhyme result shows (copied from
-- prons and words), so a perfect-rhyme query is one contiguous primary-key range read in
-- rank order, with no look-up per row.
CREATE TABLE rhyme_members (
    rhyme_id    INTEGER NOT NULL REFERENCES rhymes (id),
    pron_id     INTEGER NOT NULL REFERENCES prons (id),
    word_id     INTEGER NOT NULL REFERENCES words (id),
    syllables   INTEGER NOT NULL,
    text        TEXT NOT NULL,     -- words.text
    phones      TEXT NOT NULL,     -- prons.phones
    rhyme       TEXT NOT NULL,     -- rhymes.rhyme
    zipf        REAL NOT NULL,     -- words.zipf
    word_source INTEGER NOT NULL REFERENCES sources (id),  -- words.source_id
    pron_source INTEGER NOT NULL REFERENCES sources (id),  -- prons.source_id
    PRIMARY KEY (rhyme_id, pron_id)
) WITHOUT ROWID;

-- Near rhymes, precomputed: for every rhyme part, every pronunciation whose rhyme part is
-- the same (edit 0) or one ARPAbet token away from it: 1 = one token substituted,
-- 2 = one token inserted (the pronunciation's rhyme is one longer), 3 = one token deleted
-- (one shorter). Walking one rhyme_id in primary-key order yields candidates in rank order
-- (pronunciation ids are ranks), perfect ones included so a query can drop their words.
-- member_rhyme_id is the pronunciation's own rhyme part: its rhyme_members key.
CREATE TABLE near_rhymes (
    rhyme_id        INTEGER NOT NULL REFERENCES rhymes (id),
    pron_id         INTEGER NOT NULL REFERENCES prons (id),
    edit            INTEGER NOT NULL CHECK (edit BETWEEN 0 AND 3),
    member_rhyme_id INTEGER NOT NULL REFERENCES rhymes (id),
    PRIMARY KEY (rhyme_id, pron_id)
) WITHOUT ROWID;

-- Derived tables for fast rhyme queries (lexicon_server/corpus/rhyme_docs.py; meta key
-- rhyme_docs). Every pronunciation under its word's folded spelling (NFKC + casefold):
-- a query's pronunciations in one index range.
CREATE TABLE spelling_prons (
    fold      TEXT NOT NULL,     -- fold(words.text)
    pron_id   INTEGER NOT NULL REFERENCES prons (id),
    word_id   INTEGER NOT NULL REFERENCES words (id),
    text      TEXT NOT NULL,     -- words.text
    variant   INTEGER NOT NULL,  -- prons.variant
    phones    TEXT NOT NULL,     -- prons.phones
    rhyme     TEXT NOT NULL,     -- prons.rhyme
    syllables INTEGER NOT NULL,  -- prons.syllables
    rhyme_id  INTEGER NOT NULL REFERENCES rhymes (id),
    PRIMARY KEY (fold, pron_id)
) WITHOUT ROWID;

-- Each rhyme part's first candidate words, perfect and near, resolved as a query walking
-- rhyme_members or near_rhymes would list them (JSON; layout in rhyme_docs.py).
CREATE TABLE rhyme_docs (
    rhyme_id INTEGER PRIMARY KEY REFERENCES rhymes (id),
    perfect  TEXT NOT NULL,
    near     TEXT NOT NULL
);

-- Keys of the `pattern` and `sounds_like` kinds (lexicon_server/corpus/play_keys.py; meta
-- key play_keys). A database without them still answers patterns, from buckets made in
-- memory on first use, but not sounds_like.
-- Per scope (1: dictionary words, those whose spelling or another capitalisation of it has
-- a WordNet synset; 0: every single-token word) and letter count: the distinct letters of
-- the single-token words in rank order, each followed by '\n', and the word ids of those
-- lines (little-endian int32).
CREATE TABLE pattern_buckets (
    scope    INTEGER NOT NULL,
    length   INTEGER NOT NULL,
    letters  TEXT NOT NULL,
    word_ids BLOB NOT NULL,
    PRIMARY KEY (scope, length)
) WITHOUT ROWID;

-- Each pronunciation's sound code (stress dropped, one character per phoneme) and the code
-- with one phoneme deleted, each way: two codes one edit apart share a key. `dictionary`
-- as for pattern_buckets (scope 1).
CREATE TABLE sound_keys (
    key        TEXT NOT NULL,
    pron_id    INTEGER NOT NULL REFERENCES prons (id),
    dictionary INTEGER NOT NULL,
    PRIMARY KEY (key, pron_id)
) WITHOUT ROWID;
