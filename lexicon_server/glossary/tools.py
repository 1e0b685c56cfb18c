"""The five glossary tools, added to an MCPServer only when a glossary file is configured.

Importing this module is cheap (no MCP SDK, no pydantic): `register` imports them
when it runs. This module deliberately has no `from __future__ import annotations`:
the SDK reads the tool functions' annotations at registration, and the models they
name are local to `register`.
"""

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lexicon_server.glossary.glossary import DEFAULT_MAX_RESULTS, MAX_RESULTS, Glossary

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

    from lexicon_server.corpus.reader import Corpus

__all__ = ["TOOL_NAMES", "register"]

TOOL_NAMES = ("glossary_find", "glossary_map", "glossary_add", "glossary_edit", "glossary_delete")

_FIND_DOC = """\
Look up the project's own vocabulary before guessing what a repository-specific word
means. Matches the whole query and each of its words against glossary terms and
descriptions; best first: exact term, term containing the query, exact description,
description containing it, then entries matching more of the query's words.
Set dictionary=true to also get the general English dictionary senses of the query and
of the matched terms, reported separately from the project's definitions."""

_MAP_DOC = """\
Show which other glossary terms mention a term in their descriptions (normalized
substring match, a term never lists itself). Give a term to see only that one; leave
it out to list every term. Use it to find related terms worth reading next."""

_ADD_DOC = """\
Add a new term with its full description to the project glossary file. Only for
durable project vocabulary, not notes or todos. If the term already exists (ignoring
case, spacing, ,.; and German umlaut spellings) nothing is written and the existing
entry is returned: use glossary_edit to change it."""

_EDIT_DOC = """\
Replace the whole description of an existing glossary term (there is no partial
edit). The term is matched after normalization; its spelling in the file is kept."""

_DELETE_DOC = """\
Delete exactly one glossary entry whose term matches after normalization. No fuzzy
matching: the term must be exact apart from case, spacing and punctuation."""


def register(server: "MCPServer[Any]", glossary_path: Path, corpus: "Corpus | None") -> Glossary:
    """Add glossary_find/map/add/edit/delete to `server`, serving the JSONL file at `glossary_path`.

    The file is read and validated now, so a bad file stops start-up with its name, line
    and reason (GlossaryFormatError); a missing file is an empty glossary.
    """
    from collections.abc import Iterator
    from contextlib import contextmanager
    from typing import Annotated

    from mcp_types import CallToolResult, TextContent, ToolAnnotations
    from pydantic import BaseModel, Field

    from lexicon_server.answers import (
        ToolRefusal,
        error_answer,
        error_body,
        keep_answer_contract,
    )
    from lexicon_server.arguments import strict_arguments
    from lexicon_server.glossary import schemas as s
    from lexicon_server.glossary.dictionary import dictionary_senses
    from lexicon_server.glossary.errors import (
        GlossaryError,
        GlossaryReadOnly,
        InvalidInput,
        TermExists,
        TermNotFound,
    )
    from lexicon_server.glossary.fit import fit_find, fit_map
    from lexicon_server.glossary.model import Entry

    glossary = Glossary(glossary_path)
    glossary.load()

    def respond(model: BaseModel | dict[str, Any]) -> CallToolResult:
        if isinstance(model, BaseModel):
            body = model.model_dump(mode="json", by_alias=True, exclude_none=True)
        else:
            body = model  # large answers are built as plain dicts; the SDK checks the schema
        text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
        return CallToolResult(
            content=[TextContent(type="text", text=text)], structured_content=body
        )

    def not_found() -> CallToolResult:
        return error_answer(error_body("term_not_found", "term not found"))

    def entry_dict(entry: Entry) -> dict[str, str]:
        return {"term": entry.term, "description": entry.description}

    def entry_out(entry: Entry) -> s.EntryOutput:
        return s.EntryOutput(term=entry.term, description=entry.description)

    def for_client(message: str) -> str:
        # Over HTTP the client is on another machine: the server's paths are no use to it
        # and say more about the host than it should learn; the file's name is enough.
        if corpus is None or not corpus.remote_clients:
            return message
        for path in {str(glossary.path), str(glossary.path.resolve())}:
            message = message.replace(path, glossary.path.name)
        return message

    @contextmanager
    def failures_as_tool_errors() -> Iterator[None]:
        # Expected failures reach the model as messages it can act on: bad input names the
        # parameter, a broken file its line, an unreadable or unwritable file the OS reason.
        try:
            yield
        except (TermExists, TermNotFound):
            raise  # refusals with a structured answer of their own
        except InvalidInput as exc:
            message = for_client(str(exc))
            raise ToolRefusal("invalid_argument", message, parameter=exc.parameter) from exc
        except GlossaryReadOnly as exc:
            raise ToolRefusal("glossary_read_only", for_client(str(exc))) from exc
        except GlossaryError as exc:
            raise ToolRefusal("glossary_error", for_client(str(exc))) from exc
        except OSError as exc:
            message = f"cannot access the glossary file {glossary.path}: {exc}"
            raise ToolRefusal("glossary_unreadable", for_client(message)) from exc

    reading = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)

    def writing(destructive: bool) -> ToolAnnotations:
        return ToolAnnotations(
            read_only_hint=False,
            destructive_hint=destructive,
            idempotent_hint=True,  # repeating a call with the same arguments changes nothing more
            open_world_hint=False,
        )

    Term = Annotated[str, Field(description="A glossary term, matched after normalization.")]
    Description = Annotated[str, Field(description="The complete description to store.")]

    def glossary_find(
        query: Annotated[str, Field(description="Words or a phrase to look up.")],
        # camelCase on purpose: it is the argument name on the wire.
        maxResults: Annotated[
            int, Field(ge=1, le=MAX_RESULTS, description="How many results to return.")
        ] = DEFAULT_MAX_RESULTS,
        dictionary: Annotated[
            bool, Field(description="Also return general English dictionary senses.")
        ] = False,
    ) -> Annotated[CallToolResult, s.FindOutput]:
        with failures_as_tool_errors():
            hits = glossary.find(query, maxResults)
        body: dict[str, Any] = {
            "results": [{"entry": entry_dict(h.entry), "score": h.score} for h in hits]
        }
        if dictionary:
            report = dictionary_senses(corpus, [query, *(h.entry.term for h in hits)])
            section: dict[str, Any] = {"status": report.status}
            if report.message is not None:
                section["message"] = report.message
            section["words"] = [
                {
                    "word": w.word,
                    "senses": [
                        {"headword": x.headword, "pos": x.pos, "gloss": x.gloss, "source": x.source}
                        for x in w.senses
                    ],
                }
                for w in report.words
            ]
            body["dictionary"] = section
        return respond(fit_find(body))

    def glossary_map(
        term: Annotated[
            str | None, Field(description="One glossary term; leave out to list every term.")
        ] = None,
    ) -> Annotated[CallToolResult, s.MapOutput]:
        try:
            with failures_as_tool_errors():
                items = glossary.map(term)
        except TermNotFound:
            return not_found()
        body = {"terms": [{"term": i.term, "mentionedIn": list(i.mentioned_in)} for i in items]}
        return respond(fit_map(body))

    def glossary_add(
        term: Term, description: Description
    ) -> Annotated[CallToolResult, s.AddOutput]:
        try:
            with failures_as_tool_errors():
                result = glossary.add(term, description)
        except TermExists as exc:
            body = error_body("term_exists", "exists already")
            return error_answer({**body, "existingEntry": entry_dict(exc.existing)})
        return respond(s.AddOutput(total_entries=result.total_entries))

    def glossary_edit(
        term: Term, description: Description
    ) -> Annotated[CallToolResult, s.EditOutput]:
        try:
            with failures_as_tool_errors():
                result = glossary.edit(term, description)
        except TermNotFound:
            return not_found()
        return respond(s.EditOutput(total_entries=result.total_entries))

    def glossary_delete(term: Term) -> Annotated[CallToolResult, s.DeleteOutput]:
        try:
            with failures_as_tool_errors():
                result = glossary.delete(term)
        except TermNotFound:
            return not_found()
        assert result.deleted is not None
        return respond(
            s.DeleteOutput(
                total_entries=result.total_entries, deleted_entry=entry_out(result.deleted)
            )
        )

    # (tool, title, description, annotations); each is registered under its function's name.
    for tool, title, description, annotations in (
        (glossary_find, "Find project glossary terms", _FIND_DOC, reading),
        (glossary_map, "Map glossary terms to the terms that mention them", _MAP_DOC, reading),
        (glossary_add, "Add a glossary term", _ADD_DOC, writing(destructive=False)),
        (
            glossary_edit,
            "Replace a glossary term's description",
            _EDIT_DOC,
            writing(destructive=True),
        ),
        (glossary_delete, "Delete a glossary term", _DELETE_DOC, writing(destructive=True)),
    ):
        server.add_tool(
            tool,
            name=tool.__name__,
            title=title,
            description=description,
            annotations=annotations,
        )
    strict_arguments(server, TOOL_NAMES)
    keep_answer_contract(server)
    return glossary
