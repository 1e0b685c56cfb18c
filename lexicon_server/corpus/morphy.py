"""WordNet's morphy suffix rules: the lemmas an English inflected form may come from.

Shared by the query layer (headword resolution, query/headwords.py) and the builder
(which words the wordplay component counts as dictionary words)."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["suffix_candidates"]

# WordNet's morphy detachment rules, by part of speech, in its order.
_SUFFIX_RULES: dict[str, tuple[tuple[str, str], ...]] = {
    "noun": (
        ("s", ""),
        ("ses", "s"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ),
    "verb": (
        ("s", ""),
        ("ies", "y"),
        ("es", "e"),
        ("es", ""),
        ("ed", "e"),
        ("ed", ""),
        ("ing", "e"),
        ("ing", ""),
    ),
    "adj": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
}
_DOUBLING_SUFFIXES = ("ed", "ing", "er", "est")


def suffix_candidates(norm: str) -> Iterable[tuple[str, str, str]]:
    """(lemma, pos, rule) guesses for an English inflected form, morphy-style."""
    for pos, rules in _SUFFIX_RULES.items():
        for suffix, ending in rules:
            if norm.endswith(suffix) and len(norm) > len(suffix) + 1:
                stem = norm[: -len(suffix)]
                yield stem + ending, pos, f"-{suffix} -> -{ending}" if ending else f"-{suffix}"
                # running -> run, bigger -> big: morphy misses doubled consonants.
                if (
                    suffix in _DOUBLING_SUFFIXES
                    and not ending
                    and len(stem) >= 3
                    and stem[-1] == stem[-2]
                    and stem[-1] not in "aeiou"
                ):
                    yield stem[:-1], pos, f"-{stem[-1]}{suffix}"
