-- Lexicon semantic component: the vocabulary of one vector set. The vectors themselves live
-- beside it: <lang>/semantic.f16.npy (float16, unit-normalised, row i = vocab.id i) and
-- <lang>/semantic.usearch (usearch HNSW, cosine metric, i8 quantisation, key = vocab.id).
PRAGMA user_version = 1;

-- `meta` and `sources`: common.sql. Meta keys here: schema='semantic', schema_version, language, dataset_version, dimensions

CREATE TABLE vocab (
    id        INTEGER PRIMARY KEY,       -- row in the matrix and key in the index (0-based)
    text      TEXT NOT NULL,
    norm      TEXT NOT NULL,
    zipf      REAL NOT NULL DEFAULT 0,
    source_id INTEGER NOT NULL REFERENCES sources (id)
);
CREATE INDEX vocab_norm ON vocab (norm);

-- The exact nearest neighbours of each word, computed at build time by brute force over
-- the float16 matrix: `ids` is meta 'neighbours' little-endian int32 vocab ids, best
-- first, the word itself excluded. The server re-ranks them as it re-ranks HNSW
-- candidates; a word without a row (a zero vector), and every word of a release built
-- before this table, is searched through the index.
CREATE TABLE neighbours (
    id  INTEGER PRIMARY KEY,  -- vocab.id of the query word
    ids BLOB NOT NULL
);
