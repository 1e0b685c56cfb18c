"""Property: any path the manifest validator accepts stays inside the directory it is joined to."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from lexicon_store.errors import ManifestError
from lexicon_store.manifest import check_relative_path

segments = st.sampled_from(["..", ".", "", "a", "b.zst", "C:", "c:", "\\", "~", "x\\..", "%2e"])
paths = st.one_of(
    st.lists(segments, min_size=1, max_size=6).map("/".join),
    st.lists(segments, min_size=1, max_size=6).map("\\".join),
    st.text(alphabet="./\\:aC~ ", max_size=12),
)


@settings(max_examples=400, deadline=None)
@given(paths)
def test_accepted_paths_stay_inside(path: str) -> None:
    base = Path("/srv/release")
    try:
        check_relative_path(path, "test")
    except ManifestError:
        return
    joined = os.path.normpath(base / path)
    assert joined.startswith(str(base) + os.sep)
    assert "\\" not in path and ":" not in path and ".." not in path.split("/")
