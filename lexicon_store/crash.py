"""Named crash points for durability tests.

With ``LEXICON_CRASH_AT=<name>`` in the environment, the process kills itself with
SIGKILL when it reaches that point: no cleanup, no flush, like a power cut for
everything not yet fsynced. ``LEXICON_CRASH_AT=<name>:<n>`` crashes at the n-th visit.
Unset (the normal case) it costs one dictionary look-up.
"""

from __future__ import annotations

import os
import signal

__all__ = ["CRASH_POINTS", "crash_point"]

CRASH_POINTS: dict[str, str] = {
    "install.after_lock": "install: writer lock taken, nothing written yet",
    "ingest.partial": "an object's temporary file half written",
    "ingest.before_rename": "an object verified, fsynced and read-only, not yet renamed",
    "ingest.after_rename": "an object renamed to its content address",
    "install.before_record": "install: all objects in place, no activation record",
    "install.before_pointer": "install: activation record written, pointer not switched",
    "install.after_pointer": "install: pointer switched, temporary files not removed",
    "add_language.before_record": "add-language: new objects in place, no record",
    "add_language.before_pointer": "add-language: record written, pointer not switched",
    "add_language.after_pointer": "add-language: pointer switched",
    "remove_language.before_record": "remove-language: nothing written yet",
    "remove_language.before_pointer": "remove-language: record written, pointer not switched",
    "remove_language.after_pointer": "remove-language: pointer switched",
    "activate.before_pointer": "activate: objects checked, pointer not switched",
    "pointer.tmp_written": "new pointer fsynced in a temporary file, not renamed",
    "prune.before_records": "prune: plan made, nothing deleted",
    "prune.after_records": "prune: old activation records deleted, objects not yet",
    "prune.mid_objects": "prune: some unreferenced objects deleted",
    "prune.after_objects": "prune: objects deleted, temporary files not yet",
    "stage.after_part": "stage: one part uploaded and read back, the rest not yet",
    "publish.before_index": "publish: assets verified and report uploaded, index not written",
}

_visits: dict[str, int] = {}


def crash_point(name: str) -> None:
    """SIGKILL this process if LEXICON_CRASH_AT names this point (and visit count)."""
    target = os.environ.get("LEXICON_CRASH_AT")
    if not target:
        return
    wanted, _, nth = target.partition(":")
    if wanted != name:
        return
    _visits[name] = _visits.get(name, 0) + 1
    if _visits[name] >= (int(nth) if nth else 1):
        os.kill(os.getpid(), signal.SIGKILL)
