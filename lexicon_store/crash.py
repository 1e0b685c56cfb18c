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
    "install.after_lock": "writer lock taken, nothing written yet",
    "install.part_partial": "mid-way through writing an object's temporary file",
    "install.object_before_rename": "object verified and fsynced, not yet renamed",
    "install.object_after_rename": "an object renamed into place",
    "install.before_record": "all objects in place, activation record not written",
    "install.before_pointer": "activation record written, pointer not switched",
    "install.after_pointer": "pointer switched, cleanup not done",
    "add_language.before_pointer": "add-language: new record written, pointer not switched",
    "remove_language.before_record": "remove-language: nothing written yet",
    "remove_language.before_pointer": "remove-language: record written, pointer not switched",
    "activate.before_pointer": "activate: lock held, pointer not switched",
    "activate.pointer_tmp_written": "pointer temp file fsynced, not renamed",
    "prune.before_records": "prune: plan made, nothing deleted",
    "prune.mid_objects": "prune: some unreferenced objects deleted",
    "prune.after_objects": "prune: objects deleted, temporary files not yet",
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
