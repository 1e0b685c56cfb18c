-- Lexicon wordplay component (English): precomputed keys for rhymes, anagrams, palindromes,
-- spoonerisms and puns. Pronunciations are CMUdict ARPAbet with stress digits.
PRAGMA user_version = 1;

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;  -- keys: schema='wordplay', schema_version, language, dataset_version

CREATE TABLE sources (
    id      INTEGER PRIMARY KEY,
    name    TEXT NOT NULL UNIQUE,
    title   TEXT NOT NULL,
    version TEXT NOT NULL,
    licence TEXT NOT NULL,
    url     TEXT NOT NULL
);

CREATE TABLE words (
    id            INTEGER PRIMARY KEY,
    text          TEXT NOT NULL UNIQUE,     -- headword as published (lower-case for CMUdict)
    letters       TEXT NOT NULL,            -- NFKC + casefold, ASCII a-z only
    signature     TEXT NOT NULL,            -- letters sorted: the anagram key
    is_single     INTEGER NOT NULL,         -- 1 when text is one strictly alphabetic token
    is_palindrome INTEGER NOT NULL,         -- 1 when letters (len >= 2) read the same reversed
    zipf          REAL NOT NULL DEFAULT 0,  -- wordfreq Zipf frequency, for ranking
    source_id     INTEGER NOT NULL REFERENCES sources (id)  -- where the spelling comes from
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

CREATE TABLE prons (
    id        INTEGER PRIMARY KEY,
    word_id   INTEGER NOT NULL REFERENCES words (id),
    variant   INTEGER NOT NULL,   -- 0 = first listed
    phones    TEXT NOT NULL,      -- 'K AE1 T'
    rhyme     TEXT NOT NULL,      -- from the last primary-stressed vowel (else last vowel) to the end
    syllables INTEGER NOT NULL,
    onset     TEXT NOT NULL,      -- consonant tokens before the first vowel ('' if vowel-initial)
    rest      TEXT NOT NULL,      -- phones after the onset
    source_id INTEGER NOT NULL REFERENCES sources (id)
);
CREATE INDEX prons_word ON prons (word_id);
CREATE INDEX prons_rhyme ON prons (rhyme);
CREATE INDEX prons_phones ON prons (phones);

-- Near-rhyme keys: kind 'sub' = the rhyme with one token replaced by '*';
-- kind 'del' = the rhyme with one token deleted. Looking a query's rhyme up among the 'del'
-- keys finds one-token insertions; its own deletions looked up in prons.rhyme find deletions.
CREATE TABLE near_keys (
    kind    TEXT NOT NULL CHECK (kind IN ('sub', 'del')),
    key     TEXT NOT NULL,
    pron_id INTEGER NOT NULL REFERENCES prons (id),
    PRIMARY KEY (kind, key, pron_id)
) WITHOUT ROWID;
