"""Look-up answers in the flat shape tests compare: one dict per translated word."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


def _plain(value: Any) -> Any:
    return value.model_dump(mode="json") if isinstance(value, BaseModel) else value


def flat(sets: Any) -> list[dict[str, Any]]:
    """The words of `LanguageTranslations` sets (models or dumps), each carrying its set's
    language, scope and source, with the defaults a lean answer leaves out put back:
    `note` None, scope 'unsensed', `target_entry_installed` true."""
    out = []
    for group in sets:
        group = _plain(group)
        for item in group["items"]:
            out.append(
                {
                    "text": item["text"],
                    "target_language": group["target_language"],
                    "note": item.get("note"),
                    "sense_scope": group.get("sense_scope", "unsensed"),
                    "target_entry_installed": item.get("target_entry_installed", True),
                    "source": group["source"],
                }
            )
    return out


def sense_translations(result: Any) -> list[dict[str, Any]]:
    """Every sense-attached translation of a look-up answer, in order."""
    result = _plain(result)
    return [t for sense in result["senses"] for t in flat(sense.get("translations", []))]


def all_translations(result: Any) -> list[dict[str, Any]]:
    """Sense-attached, then unsensed translations of a look-up answer."""
    result = _plain(result)
    return sense_translations(result) + flat(result.get("unsensed_translations", []))
