"""NLTK's WordNet reader timing first look-ups, for the acceptance benchmark gate.

``python -m lexicon_server.release.nltk_worker NLTK_WORDNET_DIR`` reads a JSON list of words
on stdin and prints the on-CPU seconds of each word's first look-up (NLTK caches what it
has read, so only first look-ups compare with ours). It needs NLTK (a dev dependency).
"""

from __future__ import annotations

import json
import sys
import time
import warnings


def main() -> None:
    import nltk
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    nltk.data.path.append(sys.argv[1])  # NLTK's own way to authorise a data directory

    class Reader(WordNetCorpusReader):  # type: ignore[misc]
        def map_wn(self, version: str = "wordnet") -> None:
            # Without OMW there is nothing to map; the English look-ups do not use it.
            return None

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        wn = Reader(sys.argv[1], None)
    out = []
    for word in json.loads(sys.stdin.read()):
        c0 = time.thread_time()
        [(s.definition(), s.examples(), s.lemma_names(), s.hypernyms()) for s in wn.synsets(word)]
        out.append(time.thread_time() - c0)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
