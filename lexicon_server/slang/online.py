"""The optional online provider: Urban Dictionary's public JSON endpoints.

Off unless a user switches it on. httpx is imported only when a client is first built,
so the local-only code paths never load a network library. Everything this provider
returns is crowdsourced: it may be explicit, offensive, wrong, or phrased as
instructions, and is labelled `crowdsourced_untrusted` so callers treat it as data.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from lexicon_server.slang.definitions import Definition
from lexicon_server.slang.errors import ProviderError, SlangInputError

if TYPE_CHECKING:
    import httpx

    from lexicon_server.config import ServerConfig

__all__ = ["MAX_DEFINITIONS", "SortBy", "UrbanDictionary"]

MAX_DEFINITIONS = 10  # per call, whatever the API returns
_MAX_BODY = 2 * 1024 * 1024  # bytes; a real answer is a few kilobytes
_SOURCE = "urban_dictionary"

SortBy = Literal["api", "thumbs_up"]


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _definition(item: Mapping[str, Any]) -> Definition | None:
    text = _str(item.get("definition"))
    word = _str(item.get("word"))
    if not text or word is None:
        return None
    return Definition(
        text=text,
        origin="urban_dictionary",
        source=_SOURCE,
        trust="crowdsourced_untrusted",
        headword=word,
        slang=True,
        kind="slang",
        example=_str(item.get("example")) or None,
        url=_str(item.get("permalink")),
        defid=_int(item.get("defid")),
        author=_str(item.get("author")),
        thumbs_up=_int(item.get("thumbs_up")),
        thumbs_down=_int(item.get("thumbs_down")),
        written_on=_str(item.get("written_on")),
    )


def _check_limit(limit: int) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_DEFINITIONS:
        raise SlangInputError(
            "limit", f"must be a whole number from 1 to {MAX_DEFINITIONS}, got {limit!r}"
        )
    return limit


@dataclass
class UrbanDictionary:
    """A small synchronous client; one connection pool per instance, built on first use."""

    base_url: str
    timeout_ms: int
    _client: httpx.Client | None = field(default=None, init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    @classmethod
    def from_config(cls, config: ServerConfig) -> UrbanDictionary:
        return cls(config.urban_dictionary_base, config.urban_dictionary_timeout_ms)

    def _http(self) -> httpx.Client:
        with self._lock:
            if self._client is None:
                import httpx  # deferred: only an opted-in online look-up pays for it

                self._client = httpx.Client(
                    base_url=self.base_url.rstrip("/") + "/",
                    timeout=httpx.Timeout(self.timeout_ms / 1000),
                    headers={"Accept": "application/json", "User-Agent": "lexicon-slang"},
                    follow_redirects=False,
                )
            return self._client

    def close(self) -> None:
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None

    def _get(self, path: str, params: Mapping[str, str | int]) -> list[Definition]:
        import httpx

        client = self._http()
        url = f"{self.base_url.rstrip('/')}/{path}"
        try:
            with client.stream("GET", path, params=dict(params)) as response:
                if response.status_code != 200:
                    raise ProviderError(
                        f"Urban Dictionary answered HTTP {response.status_code} for {url}; "
                        "try again later or check URBAN_DICTIONARY_API_BASE",
                        url=url,
                        status=response.status_code,
                    )
                body = bytearray()
                for chunk in response.iter_bytes():
                    body += chunk
                    if len(body) > _MAX_BODY:
                        raise ProviderError(
                            f"Urban Dictionary sent more than {_MAX_BODY} bytes for {url}", url=url
                        )
        except httpx.TimeoutException as exc:
            raise ProviderError(
                f"Urban Dictionary did not answer {url} within {self.timeout_ms} ms; "
                "raise URBAN_DICTIONARY_TIMEOUT_MS or try again later",
                url=url,
            ) from exc
        except httpx.HTTPError as exc:
            raise ProviderError(
                f"could not reach Urban Dictionary at {url} ({type(exc).__name__}: {exc}); "
                "check the network or URBAN_DICTIONARY_API_BASE",
                url=url,
            ) from exc
        try:
            payload = json.loads(bytes(body))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ProviderError(
                f"Urban Dictionary sent a body that is not JSON for {url}", url=url
            ) from exc
        items = payload.get("list") if isinstance(payload, dict) else None
        if not isinstance(items, list):
            raise ProviderError(
                f"Urban Dictionary's answer for {url} has no 'list' of definitions", url=url
            )
        found = [d for d in (_definition(i) for i in items if isinstance(i, dict)) if d is not None]
        return found

    def define(self, term: str, limit: int = 3, sort_by: SortBy = "api") -> list[Definition]:
        """Definitions of `term`, in the API's order or by thumbs up."""
        _check_limit(limit)
        if sort_by not in ("api", "thumbs_up"):
            raise SlangInputError("sort_by", f"must be 'api' or 'thumbs_up', got {sort_by!r}")
        found = self._get("define", {"term": term})
        if sort_by == "thumbs_up":
            found.sort(key=lambda d: -(d.thumbs_up or 0))
        return found[:limit]

    def random(self, limit: int = 3) -> list[Definition]:
        """Random definitions, as the API picks them."""
        _check_limit(limit)
        return self._get("random", {})[:limit]

    def by_defid(self, defid: int) -> Definition | None:
        """The definition with this id, or None when the API has none."""
        if isinstance(defid, bool) or not isinstance(defid, int) or defid <= 0:
            raise SlangInputError("defid", f"must be a positive whole number, got {defid!r}")
        found = [d for d in self._get("define", {"defid": defid}) if d.defid in (None, defid)]
        return found[0] if found else None
