"""The offline slang component's file name, schema version and look-up key.

Shared by the builder (`builder/slang_writer.py`) and the slang group's reader
(`slang/offline_source.py`), so the key written and the key asked are the same function.
"""

from __future__ import annotations

import re

from lexicon_server.corpus.normalize import norm

__all__ = ["SCHEMA_VERSION", "SLANG_FILE", "slang_key"]

SLANG_FILE = "slang.sqlite"  # dataset-relative path of component shared.slang
SCHEMA_VERSION = 1

# Emoji presentation selectors (VS15, VS16) and the five skin-tone modifiers: CLDR
# annotates the base emoji, so 👍🏽 and ☺️ are looked up as 👍 and ☺.
_EMOJI_VARIATION = re.compile("[\ufe0e\ufe0f\U0001f3fb-\U0001f3ff]")


def slang_key(text: str) -> str:
    """norm(text), emoji variation removed, ’ written ' (``I’m deceased`` = ``i'm deceased``)."""
    stripped = _EMOJI_VARIATION.sub("", text)
    return norm(stripped.replace("\u2019", "'")) if stripped else norm(text)
