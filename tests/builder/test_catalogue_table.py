"""The source table (builder/sources.toml): every declared source serves a profile, and a
slip in the table is named with its source."""

from __future__ import annotations

from importlib import resources

import pytest

from lexicon_server.builder.catalogue import LOCAL_SOURCES, REGISTRY_SOURCES, declared_table

TABLE = resources.files("lexicon_server.builder").joinpath("sources.toml").read_text("utf-8")


def test_every_declared_source_is_in_a_profile_once() -> None:
    served = [spec.name for spec in (*REGISTRY_SOURCES, *LOCAL_SOURCES)]
    assert len(served) == len(set(served))
    assert set(declared_table(TABLE)) <= set(served)


def test_local_sources_get_the_local_fields() -> None:
    oewn = declared_table(TABLE)["oewn"]
    assert (oewn.registry, oewn.package, oewn.filename, oewn.files) == ("local", "", "", {})


def test_per_language_members_join_the_declared_ones() -> None:
    wordfreq = declared_table(TABLE)["wordfreq"]
    assert wordfreq.files["en"] == "wordfreq/data/large_en.msgpack.gz"


@pytest.mark.parametrize(
    ("entry", "named"),
    [
        ('registry = "cran"\nversion = "1"', "registry is one of"),
        ('version = "1"\ntitle = "t"\nlicence = "l"\nhomepage = "h"\nsize = 3', "size"),
        ('version = "1"', "title"),
    ],
)
def test_a_bad_entry_names_its_source_and_field(entry: str, named: str) -> None:
    table = f"[fetched]\n[local.broken]\n{entry}\n"
    with pytest.raises(ValueError, match=f"source 'broken'.*{named}"):
        declared_table(table)
