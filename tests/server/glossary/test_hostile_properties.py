"""Property tests: hostile glossary files and hostile tool arguments never give a
traceback; each is read or refused with a named error, and a refused write leaves the
file's bytes as they were (issue 27: the probe, kept in the suite)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client

from lexicon_server.glossary import Glossary, GlossaryError, GlossaryFormatError

from .conftest import glossary_server, outcome

_GOOD = [b'{"term":"Alpha","description":"The first."}', b'{"term":"Beta","description":"B."}']
_HOSTILE = [
    b'{"term":"Bad\\ud800","description":"half a pair"}',  # lone surrogate escape
    b'{"term":"Low","description":"\\udc00 alone"}',
    b'{"term":"Raw\xff\xfe","description":"not UTF-8"}',
    b"[" * 5_000,  # deep nesting
    b'{"term":' + b"[" * 5_000 + b"}",
    b'{"term":"T","term":"U","description":"d"}',  # duplicate key
    b'{"term":1,"description":"d"}',
    b'{"term":"T","description":null}',
    b'{"term":"T","description":"d","tags":[]}',
    b'"just a string"',
    b"NaN",
    b"1" * 5_000,  # an integer longer than Python converts
    b'{"term":"T","description":"' + b"x" * 10_001 + b'"}',  # over the description limit
    b'{"term":"' + b"t" * 201 + b'","description":"d"}',
    b'{"term":"  ;. ","description":"d"}',
    b'{"term":"alpha","description":"again"}',  # a duplicate term of a good line
    b"",
    b"   ",
]


@st.composite
def glossary_bytes(draw: st.DrawFn) -> bytes:
    lines = draw(st.lists(st.sampled_from(_GOOD + _HOSTILE) | st.binary(max_size=40), max_size=6))
    ending = draw(st.sampled_from([b"\n", b"\r\n"]))
    data = ending.join(lines) + draw(st.sampled_from([b"", ending]))
    return (b"\xef\xbb\xbf" if draw(st.booleans()) else b"") + data


_SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@_SETTINGS
@given(data=glossary_bytes(), term=st.text(max_size=30), description=st.text(max_size=30))
def test_any_file_is_read_or_refused_by_name_and_a_refused_write_keeps_its_bytes(
    tmp_path_factory: Any, data: bytes, term: str, description: str
) -> None:
    path = Path(tmp_path_factory.mktemp("g")) / "glossary.jsonl"
    path.write_bytes(data)
    glossary = Glossary(path)
    try:
        count = glossary.check()
    except GlossaryFormatError as exc:
        assert exc.line >= 1 and f"{path}:{exc.line}" in str(exc)
        assert f"lexicon-glossary --file {path} check" in str(exc)
        str(exc).encode("utf-8", errors="backslashreplace")  # a message can be printed
        with pytest.raises(GlossaryFormatError):
            glossary.add("Gamma", "G.")
        assert path.read_bytes() == data  # a broken file is never rewritten
        return
    # A file that loads gives answers that can be sent: every text encodes as UTF-8.
    entries = glossary.entries()
    assert len(entries) == count
    for entry in entries:
        (entry.term + entry.description).encode("utf-8")
    for item in glossary.map():
        json.dumps([item.term, *item.mentioned_in], ensure_ascii=False).encode("utf-8")
    try:
        glossary.add(term, description)
    except GlossaryError:
        assert path.read_bytes() == data  # refused: nothing written


_TEXT = st.text(max_size=60) | st.sampled_from(["", " ", "\x00", "a\u2028b", "x" * 1_001])
_ARGUMENTS = {
    "glossary_find": st.fixed_dictionaries(
        {"query": _TEXT},
        optional={"maxResults": st.integers(-5, 200) | st.just("5"), "dictionary": st.booleans()},
    ),
    "glossary_map": st.fixed_dictionaries({}, optional={"term": _TEXT | st.none()}),
    "glossary_add": st.fixed_dictionaries({"term": _TEXT, "description": _TEXT}),
    "glossary_edit": st.fixed_dictionaries({"term": _TEXT, "description": _TEXT}),
    "glossary_delete": st.fixed_dictionaries(
        {"term": _TEXT | st.integers()}, optional={"extra": st.just(1)}
    ),
}
_REASONS = {
    "invalid_argument",
    "term_exists",
    "term_not_found",
    "glossary_error",
    "glossary_read_only",
}


@settings(max_examples=40, deadline=None)
@given(
    calls=st.lists(
        st.sampled_from(sorted(_ARGUMENTS)).flatmap(
            lambda name: _ARGUMENTS[name].map(lambda args: (name, args))
        ),
        min_size=1,
        max_size=4,
    ),
    read_only=st.booleans(),
)
def test_hostile_arguments_get_an_answer_or_a_named_error(
    tmp_path_factory: Any, calls: list[tuple[str, dict[str, Any]]], read_only: bool
) -> None:
    path = Path(tmp_path_factory.mktemp("g")) / "glossary.jsonl"
    path.write_bytes(b"\n".join(_GOOD) + b"\n")
    if read_only:
        path.chmod(0o444)
    server = glossary_server(path)

    async def go() -> list[tuple[bool, Any, str, bytes, bytes]]:
        seen = []
        async with Client(server) as client:
            for name, args in calls:
                before = path.read_bytes()
                error, body, text = outcome(await client.call_tool(name, args))
                seen.append((error, body, text, before, path.read_bytes()))
        return seen

    for (name, _), (error, body, text, before, after) in zip(calls, anyio.run(go), strict=True):
        if error:
            assert body["error"]["reason"] in _REASONS, body
            assert after == before, name  # a refusal writes nothing
        else:
            assert json.loads(text) == body
        if read_only:
            assert after == before
            # add and delete always write when they succeed, so on a read-only file they
            # are refused (edit writing the description already there changes nothing)
            assert error or name not in ("glossary_add", "glossary_delete")
