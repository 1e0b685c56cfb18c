"""The pattern buckets and sound keys the writer stores (lexicon_server/corpus/play_keys.py)."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from lexicon_server.builder.play_keys_writer import fill_play_keys
from lexicon_server.corpus import play_keys


def _tables(db: Path) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    conn = sqlite3.connect(db)
    buckets = conn.execute("SELECT * FROM pattern_buckets ORDER BY scope, length").fetchall()
    keys = conn.execute("SELECT * FROM sound_keys ORDER BY key, pron_id").fetchall()
    conn.close()
    return buckets, keys


def test_added_to_an_older_database_as_the_writer_stores_them(
    play_db: Path, tmp_path: Path
) -> None:
    old = tmp_path / "old.sqlite"
    shutil.copy(play_db, old)
    conn = sqlite3.connect(old, isolation_level=None)
    conn.execute("DROP TABLE pattern_buckets")
    conn.execute("DROP TABLE sound_keys")
    conn.execute("DELETE FROM meta WHERE key = 'play_keys'")
    conn.execute("BEGIN")
    stats = fill_play_keys(conn)
    conn.execute("COMMIT")
    assert conn.execute("SELECT value FROM meta WHERE key = 'play_keys'").fetchone() == ("1",)
    conn.close()
    assert _tables(old) == _tables(play_db)
    assert stats.buckets == len(_tables(old)[0])


def test_every_pronunciation_is_filed_under_its_code_and_one_deletion_codes(
    play_db: Path,
) -> None:
    conn = sqlite3.connect(play_db)
    filed: dict[int, set[str]] = {}
    for key, pron_id in conn.execute("SELECT key, pron_id FROM sound_keys"):
        filed.setdefault(pron_id, set()).add(key)
    for pron_id, phones in conn.execute("SELECT id, phones FROM prons"):
        code = play_keys.sound_code(phones)
        assert len(code) == len(phones.split())
        expected = {code} | {code[:i] + code[i + 1 :] for i in range(len(code))}
        if len(code) < 2:
            expected = {code}
        assert filed[pron_id] == expected, phones
    conn.close()


def test_bucket_lines_have_one_width_and_one_id_each(play_db: Path) -> None:
    conn = sqlite3.connect(play_db)
    for scope, length, letters, ids in conn.execute("SELECT * FROM pattern_buckets"):
        lines = letters.split("\n")[:-1]
        assert all(len(line) == length for line in lines)
        assert len(set(lines)) == len(lines)
        unpacked = list(play_keys.unpack_ids(ids))
        assert len(unpacked) == len(lines) and unpacked == sorted(unpacked)
        assert scope in (play_keys.SCOPE_ALL, play_keys.SCOPE_DICTIONARY)
    conn.close()


def test_phoneme_distance_is_levenshtein() -> None:
    assert play_keys.phoneme_distance("ABC", "ABC") == 0
    assert play_keys.phoneme_distance("ABC", "AC") == 1
    assert play_keys.phoneme_distance("ABC", "ACB") == 2
    assert play_keys.phoneme_distance("", "AB") == 2
    assert play_keys.sound_code("F OW1 N") == play_keys.sound_code(["F", "OW0", "N"])
