"""Every environment variable the server reads, in one place, passed down as one object."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

__all__ = ["ServerConfig", "load_config"]

_DEFAULT_UD_BASE = "https://api.urbandictionary.com/v0"
_DEFAULT_UD_TIMEOUT_MS = 10_000


@dataclass(frozen=True)
class ServerConfig:
    data_dir: Path | None  # None: let lexicon_store.selection pick its default
    glossary_path: Path | None
    slang_enabled: bool
    urban_dictionary_enabled: bool
    urban_dictionary_base: str
    urban_dictionary_timeout_ms: int
    # HTTP bearer token: the token itself ($LEXICON_HTTP_TOKEN) or a file holding it
    # ($LEXICON_HTTP_TOKEN_FILE); never a command-line argument, which `ps` shows.
    http_token: str | None = None
    http_token_file: Path | None = None


def _flag(value: str | None) -> bool:
    return (value or "").strip().lower() in {"1", "true", "yes", "on"}


def load_config(environ: Mapping[str, str] | None = None) -> ServerConfig:
    """Read LEXICON_* and URBAN_DICTIONARY_* variables; command-line options override these."""
    env = os.environ if environ is None else environ
    data_dir = env.get("LEXICON_DATA_DIR")
    glossary = env.get("LEXICON_GLOSSARY")
    token_file = env.get("LEXICON_HTTP_TOKEN_FILE")
    timeout_raw = env.get("URBAN_DICTIONARY_TIMEOUT_MS", "").strip()
    try:
        timeout_ms = int(timeout_raw) if timeout_raw else _DEFAULT_UD_TIMEOUT_MS
    except ValueError:
        raise ValueError(
            "URBAN_DICTIONARY_TIMEOUT_MS must be a whole number of milliseconds, "
            f"got {timeout_raw!r}"
        ) from None
    if timeout_ms <= 0:
        raise ValueError(f"URBAN_DICTIONARY_TIMEOUT_MS must be positive, got {timeout_ms}")
    return ServerConfig(
        data_dir=Path(data_dir).expanduser() if data_dir else None,
        glossary_path=Path(glossary).expanduser() if glossary else None,
        slang_enabled=_flag(env.get("LEXICON_SLANG")),
        urban_dictionary_enabled=_flag(env.get("LEXICON_URBAN_DICTIONARY")),
        urban_dictionary_base=env.get("URBAN_DICTIONARY_API_BASE", _DEFAULT_UD_BASE).rstrip("/"),
        urban_dictionary_timeout_ms=timeout_ms,
        http_token=env.get("LEXICON_HTTP_TOKEN") or None,
        http_token_file=Path(token_file).expanduser() if token_file else None,
    )
