"""English function words: the closed classes a rhyme list puts after content words.

Written by hand from the closed word classes of English grammar (personal, possessive,
reflexive and relative pronouns; articles and determiners; prepositions; conjunctions;
auxiliary and modal verbs; their common contractions; the pro-forms `there`, `here`,
`then` and the particle `not`), not taken from any stop-word list. Numerals are left out
(`three` is a fine rhyme for `free`), as are words whose common use is also a content
word (`mine`, `own`, `one`, `enough`, `again`).
"""

from __future__ import annotations

__all__ = ["FUNCTION_WORDS"]

_PRONOUNS = """
i me my myself you your yours yourself yourselves he him his himself she her hers herself
it its itself we us our ours ourselves they them their theirs themselves who whom whose
which what whatever whoever that this these those someone somebody something anyone
anybody anything everyone everybody everything nobody nothing none
"""
_DETERMINERS = """
a an the some any no every each either neither all both few many much more most several
such other another
"""
_PREPOSITIONS = """
of in on at by for from to with without into onto upon about above across after against
along amid amidst among amongst around before behind below beneath beside besides between beyond
down during except inside near off out outside over past since through throughout till
toward towards under underneath until unto up within via per
"""
_CONJUNCTIONS = """
and but or nor so yet if because although though while whilst whereas unless whether
than as when where why how whenever wherever
"""
_AUXILIARIES = """
am is are was were be been being do does did have has had having will would shall should
can could may might must ought
"""
_CONTRACTIONS = """
i'm i've i'd i'll you're you've you'd you'll he's he'd he'll she's she'd she'll it's
it'd it'll we're we've we'd we'll they're they've they'd they'll that's there's here's
what's who's where's how's let's don't doesn't didn't won't wouldn't can't couldn't
shouldn't mustn't isn't aren't wasn't weren't haven't hasn't hadn't ain't
"""
_OTHERS = "not there here then"

FUNCTION_WORDS = frozenset(
    " ".join(
        (
            _PRONOUNS,
            _DETERMINERS,
            _PREPOSITIONS,
            _CONJUNCTIONS,
            _AUXILIARIES,
            _CONTRACTIONS,
            _OTHERS,
        )
    ).split()
)
