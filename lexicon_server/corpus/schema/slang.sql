-- Lexicon offline slang data: one shared SQLite database (`slang.sqlite`, component
-- shared.slang) holding the slang lexicons and emoji tables the slang tools read offline.
-- See docs/corpus-format.md ("Slang component") and docs/slang.md.
PRAGMA user_version = 1;

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;  -- keys: schema='slang', schema_version, dataset_version, built_from

CREATE TABLE sources (
    id      INTEGER PRIMARY KEY,
    name    TEXT NOT NULL UNIQUE,   -- 'cldr-annotations', 'emojibase-emoticons', 'jargon', 'genz-slang'
    title   TEXT NOT NULL,
    version TEXT NOT NULL,
    licence TEXT NOT NULL,
    url     TEXT NOT NULL,
    trust   TEXT NOT NULL           -- 'curated' or 'unreviewed' (docs/slang.md)
);

-- One meaning of one phrase. `key` is corpus.slang_data.slang_key(headword): the corpus
-- norm with emoji presentation selectors and skin-tone modifiers removed and the
-- typographic apostrophe written as "'".
CREATE TABLE meanings (
    language  TEXT NOT NULL,        -- 'en', or the CLDR locale of an emoji name ('fr', 'ja', ...)
    key       TEXT NOT NULL,
    id        INTEGER NOT NULL,     -- arrival order: source order within a key
    headword  TEXT NOT NULL,        -- as the source spells it
    kind      TEXT NOT NULL,        -- 'slang', 'jargon', 'emoji', 'emoticon', 'emoji_keyword'
    gloss     TEXT NOT NULL,
    pos       TEXT,                 -- the Jargon File's part of speech as written ('n.', 'vt.')
    tags      TEXT NOT NULL DEFAULT '',  -- space-separated labels (a Jargon sense's domain as 'domain:...')
    emoji     TEXT,                 -- the emoji an emoticon or keyword row points at
    marks     INTEGER NOT NULL,     -- 1: this meaning marks its phrase as slang (docs/slang.md)
    source_id INTEGER NOT NULL REFERENCES sources (id),
    PRIMARY KEY (language, key, id)
) WITHOUT ROWID;
