"""Random mixes of server faults: the outcome is always verified data or a clear error.

Never a final file with wrong bytes, never a leftover partial that claims to be done.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexicon_store.download import (
    Downloader,
    DownloadError,
    DownloadPolicy,
    file_digest,
    partial_path,
)

SIZE = 300_000

_fault = st.one_of(
    st.builds(
        lambda after, times: ("drop", {"after": after, "times": times}),
        st.integers(0, SIZE - 1),
        st.sampled_from([1, 2, -1]),
    ),
    st.builds(
        lambda status, times, ranged: (
            "status",
            {"status": status, "times": times, "only_ranged": ranged},
        ),
        st.sampled_from([404, 416, 429, 500, 503]),
        st.sampled_from([1, 3, -1]),
        st.booleans(),
    ),
    st.builds(
        lambda kind, ranged: (kind, {"only_ranged": ranged}),
        st.sampled_from(["ignore_range", "bad_content_range", "etag_change"]),
        st.booleans(),
    ),
    st.builds(
        lambda after, times: ("corrupt", {"after": after, "times": times}),
        st.integers(0, SIZE - 1),
        st.sampled_from([1, -1]),
    ),
)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(faults=st.lists(_fault, max_size=4), ignore_if_range=st.booleans())
def test_any_fault_mix_ends_verified_or_in_a_clear_error(
    server: Any,
    files: Any,
    policy: DownloadPolicy,
    tmp_path: Path,
    faults: list[tuple[str, dict[str, Any]]],
    ignore_if_range: bool,
) -> None:
    item = files.add("p.zst", SIZE)
    for path in (item.dest, partial_path(item.dest)):
        path.unlink(missing_ok=True)
    server.clear()
    server.state.ignore_if_range = ignore_if_range
    for kind, options in faults:
        server.fault(kind, **options)
    quick = dataclasses.replace(policy, max_total_attempts=12)
    try:
        [result] = Downloader(quick).download([item])
    except DownloadError as exc:
        assert exc.fix  # every error says what to run
        assert not item.dest.exists()
    else:
        assert file_digest(item.dest) == item.digest
        assert not partial_path(item.dest).exists()
        assert result.bytes_received >= SIZE - result.resumed_from
