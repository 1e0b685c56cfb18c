"""The Urban Dictionary provider against a fake API on loopback: shapes, timeout, errors."""

from __future__ import annotations

import socket

import pytest

from lexicon_server.config import load_config
from lexicon_server.slang import (
    MeaningSourceError,
    ProviderError,
    SlangInputError,
    UrbanDictionary,
    lookup,
)


@pytest.fixture
def provider(fake_ud):  # type: ignore[no-untyped-def]
    p = UrbanDictionary.from_config(fake_ud.config())
    yield p
    p.close()


def test_base_url_and_timeout_come_from_config(fake_ud) -> None:  # type: ignore[no-untyped-def]
    p = UrbanDictionary.from_config(fake_ud.config(timeout_ms=1234))
    assert (p.base_url, p.timeout_ms) == (fake_ud.base_url, 1234)
    default = UrbanDictionary.from_config(load_config({}))
    assert default.timeout_ms == 10_000
    assert default.base_url.endswith("/v0")


def test_define_returns_labelled_definitions(provider, fake_ud) -> None:  # type: ignore[no-untyped-def]
    found = provider.define("yeet", limit=10)
    assert [d.defid for d in found] == [11, 12, 13]
    first = found[0]
    assert first.origin == "urban_dictionary"
    assert first.trust == "crowdsourced_untrusted"
    assert first.slang is True
    assert (first.headword, first.text, first.author) == ("yeet", "to throw with force", "author11")
    assert first.url == "http://yeet.example/11"
    assert (first.thumbs_up, first.thumbs_down) == (10, 0)
    assert first.written_on == "2019-04-01T00:00:00.000Z"
    assert fake_ud.requests == ["/v0/define?term=yeet"]


def test_define_limit_and_sort_by_votes(provider) -> None:  # type: ignore[no-untyped-def]
    assert [d.defid for d in provider.define("yeet", limit=2)] == [11, 12]
    assert [d.defid for d in provider.define("yeet", 2, "thumbs_up")] == [12, 11]


def test_phrase_is_sent_encoded(provider, fake_ud) -> None:  # type: ignore[no-untyped-def]
    assert [d.defid for d in provider.define("no cap")] == [21]
    assert fake_ud.terms_asked() == ["no cap"]


def test_unknown_term_is_an_empty_list(provider) -> None:  # type: ignore[no-untyped-def]
    assert provider.define("qwertyuiop") == []


def test_random(provider, fake_ud) -> None:  # type: ignore[no-untyped-def]
    assert [d.headword for d in provider.random(5)] == ["bussin", "mid"]
    assert [d.headword for d in provider.random(1)] == ["bussin"]
    assert fake_ud.requests == ["/v0/random", "/v0/random"]


def test_by_defid(provider, fake_ud) -> None:  # type: ignore[no-untyped-def]
    found = provider.by_defid(21)
    assert found is not None and found.headword == "no cap"
    assert provider.by_defid(999) is None
    assert fake_ud.requests == ["/v0/define?defid=21", "/v0/define?defid=999"]


def test_timeout_is_a_provider_error_naming_the_setting(fake_ud) -> None:  # type: ignore[no-untyped-def]
    p = UrbanDictionary.from_config(fake_ud.config(timeout_ms=200))
    with pytest.raises(
        ProviderError, match=r"did not answer .* within 200 ms.*URBAN_DICTIONARY_TIMEOUT_MS"
    ):
        p.define("slow")
    fake_ud.release.set()
    p.close()


def test_http_error_status(provider) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ProviderError, match="HTTP 500") as info:
        provider.define("broken")
    assert info.value.status == 500


def test_body_that_is_not_json(provider) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ProviderError, match="not JSON"):
        provider.define("notjson")


def test_json_without_a_list(provider) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ProviderError, match="no 'list' of definitions"):
        provider.define("oddshape")


def test_unreachable_server() -> None:
    with socket.socket() as s:  # a port that was free a moment ago: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    p = UrbanDictionary(f"http://127.0.0.1:{port}/v0", 2000)
    with pytest.raises(ProviderError, match="could not reach Urban Dictionary"):
        p.define("yeet")


def test_argument_checks_make_no_request(provider, fake_ud) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SlangInputError, match="limit"):
        provider.define("yeet", limit=11)
    with pytest.raises(SlangInputError, match="sort_by"):
        provider.define("yeet", sort_by="newest")
    with pytest.raises(SlangInputError, match="defid"):
        provider.by_defid(0)
    assert fake_ud.requests == []


def test_lookup_uses_online_only_when_asked(fake_ud, project_glossary) -> None:  # type: ignore[no-untyped-def]
    local = lookup("fr", glossary=project_glossary)
    assert [d.origin for d in local.definitions] == ["glossary"]
    assert fake_ud.requests == []
    both = lookup("fr", glossary=project_glossary, online=True, config=fake_ud.config())
    assert [d.origin for d in both.definitions] == ["glossary", "urban_dictionary"]
    assert both.sources == ("glossary", "urban_dictionary")


def test_lookup_raises_when_a_source_fails(fake_ud) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(MeaningSourceError, match="HTTP 500"):
        lookup("broken", online=True, config=fake_ud.config())


def test_lookup_sort_by_votes(fake_ud) -> None:  # type: ignore[no-untyped-def]
    found = lookup("yeet", limit=2, sort_by="thumbs_up", online=True, config=fake_ud.config())
    assert [d.defid for d in found.definitions] == [12, 11]
