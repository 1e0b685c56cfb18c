-- The two tables every language component (lexical, wordplay, semantic) opens with;
-- `schema_sql` puts them before the component's own schema. `meta` keys: schema,
-- schema_version, language, dataset_version, and each component's own (see its file).
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE sources (
    id      INTEGER PRIMARY KEY,
    name    TEXT NOT NULL UNIQUE,   -- stable key, e.g. 'wordnet-3.1', 'cmudict', 'freedict-eng-fra'
    title   TEXT NOT NULL,          -- human name, e.g. 'Princeton WordNet 3.1'
    version TEXT NOT NULL,
    licence TEXT NOT NULL,          -- SPDX id or short name
    url     TEXT NOT NULL           -- where the upstream project lives (documentation only)
);
