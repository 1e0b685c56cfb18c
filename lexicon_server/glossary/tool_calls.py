"""What the five glossary tools do when called, and their arguments; the tool table
(`lexicon_server.tool_table.glossary_tools`) lists them.

Each function takes the `GlossaryTools` the group serves and the checked arguments, and
returns its answer: a success with structured content, or an error answer in the house
form (`lexicon_server.answers`).
"""

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from mcp_types import CallToolResult, TextContent
from pydantic import BaseModel, Field

from lexicon_server.answers import ToolRefusal, error_answer, error_body
from lexicon_server.arguments import ToolArguments
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
from lexicon_server.glossary.glossary import DEFAULT_MAX_RESULTS, MAX_RESULTS, Glossary
from lexicon_server.glossary.model import Entry

if TYPE_CHECKING:
    from lexicon_server.corpus.reader import Corpus

__all__ = [
    "ADD_DOC",
    "DELETE_DOC",
    "EDIT_DOC",
    "FIND_DOC",
    "MAP_DOC",
    "DeleteArguments",
    "FindArguments",
    "GlossaryTools",
    "MapArguments",
    "TermArguments",
    "add",
    "delete",
    "edit",
    "find",
    "map_terms",
]

FIND_DOC = """\
Look up the project's own vocabulary before guessing what a repository-specific word
means. Matches the whole query and each of its words against glossary terms and
descriptions; best first: exact term, term containing the query, exact description,
description containing it, then entries matching more of the query's words.
Set dictionary=true to also get the general English dictionary senses of the query and
of the matched terms, reported separately from the project's definitions."""

MAP_DOC = """\
Show which other glossary terms mention a term in their descriptions (normalized
substring match, a term never lists itself). Give a term to see only that one; leave
it out to list every term. Use it to find related terms worth reading next."""

ADD_DOC = """\
Add a new term with its full description to the project glossary file. Only for
durable project vocabulary, not notes or todos. If the term already exists (ignoring
case, spacing, ,.; and German umlaut spellings) nothing is written and the existing
entry is returned: use glossary_edit to change it."""

EDIT_DOC = """\
Replace the whole description of an existing glossary term (there is no partial
edit). The term is matched after normalization; its spelling in the file is kept."""

DELETE_DOC = """\
Delete exactly one glossary entry whose term matches after normalization. No fuzzy
matching: the term must be exact apart from case, spacing and punctuation."""

Term = Annotated[str, Field(description="A glossary term, matched after normalization.")]
Description = Annotated[str, Field(description="The complete description to store.")]


class FindArguments(ToolArguments):
    query: Annotated[str, Field(description="Words or a phrase to look up.")]
    # camelCase on purpose: it is the argument name on the wire.
    maxResults: Annotated[
        int, Field(ge=1, le=MAX_RESULTS, description="How many results to return.")
    ] = DEFAULT_MAX_RESULTS
    dictionary: Annotated[
        bool, Field(description="Also return general English dictionary senses.")
    ] = False


class MapArguments(ToolArguments):
    term: Annotated[
        str | None, Field(description="One glossary term; leave out to list every term.")
    ] = None


class TermArguments(ToolArguments):
    """glossary_add and glossary_edit: a term and its whole description."""

    term: Term
    description: Description


class DeleteArguments(ToolArguments):
    term: Term


class GlossaryTools:
    """The glossary file a server's glossary tools serve, and how their failures read."""

    def __init__(self, glossary_path: Path, corpus: "Corpus | None") -> None:
        """Read and validate the file now, so that a bad file stops start-up with its
        name, line and reason (GlossaryFormatError); a missing file is an empty glossary."""
        self.glossary = Glossary(glossary_path)
        self.glossary.load()
        self.corpus = corpus

    def for_client(self, message: str) -> str:
        # Over HTTP the client is on another machine: the server's paths are no use to it
        # and say more about the host than it should learn; the file's name is enough.
        if self.corpus is None or not self.corpus.remote_clients:
            return message
        path = self.glossary.path
        for shown in {str(path), str(path.resolve())}:
            message = message.replace(shown, path.name)
        return message

    @contextmanager
    def failures_as_tool_errors(self) -> Iterator[None]:
        # Expected failures reach the model as messages it can act on: bad input names the
        # parameter, a broken file its line, an unreadable or unwritable file the OS reason.
        try:
            yield
        except (TermExists, TermNotFound):
            raise  # refusals with a structured answer of their own
        except InvalidInput as exc:
            message = self.for_client(str(exc))
            raise ToolRefusal("invalid_argument", message, parameter=exc.parameter) from exc
        except GlossaryReadOnly as exc:
            raise ToolRefusal("glossary_read_only", self.for_client(str(exc))) from exc
        except GlossaryError as exc:
            raise ToolRefusal("glossary_error", self.for_client(str(exc))) from exc
        except OSError as exc:
            message = f"cannot access the glossary file {self.glossary.path}: {exc}"
            raise ToolRefusal("glossary_unreadable", self.for_client(message)) from exc


def _respond(model: BaseModel | dict[str, Any]) -> CallToolResult:
    if isinstance(model, BaseModel):
        body = model.model_dump(mode="json", by_alias=True, exclude_none=True)
    else:
        body = model  # large answers are built as plain dicts; the SDK checks the schema
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=body)


def _not_found() -> CallToolResult:
    return error_answer(error_body("term_not_found", "term not found"))


def _entry_dict(entry: Entry) -> dict[str, str]:
    return {"term": entry.term, "description": entry.description}


def find(tools: GlossaryTools, query: str, maxResults: int, dictionary: bool) -> CallToolResult:
    with tools.failures_as_tool_errors():
        hits = tools.glossary.find(query, maxResults)
    body: dict[str, Any] = {
        "results": [{"entry": _entry_dict(h.entry), "score": h.score} for h in hits]
    }
    if dictionary:
        body["dictionary"] = _dictionary_section(tools, [query, *(h.entry.term for h in hits)])
    return _respond(fit_find(body))


def _dictionary_section(tools: GlossaryTools, words: list[str]) -> dict[str, Any]:
    report = dictionary_senses(tools.corpus, words)
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
    return section


def map_terms(tools: GlossaryTools, term: str | None) -> CallToolResult:
    try:
        with tools.failures_as_tool_errors():
            items = tools.glossary.map(term)
    except TermNotFound:
        return _not_found()
    body = {"terms": [{"term": i.term, "mentionedIn": list(i.mentioned_in)} for i in items]}
    return _respond(fit_map(body))


def add(tools: GlossaryTools, term: str, description: str) -> CallToolResult:
    try:
        with tools.failures_as_tool_errors():
            result = tools.glossary.add(term, description)
    except TermExists as exc:
        body = error_body("term_exists", "exists already")
        return error_answer({**body, "existingEntry": _entry_dict(exc.existing)})
    return _respond(s.AddOutput(total_entries=result.total_entries))


def edit(tools: GlossaryTools, term: str, description: str) -> CallToolResult:
    try:
        with tools.failures_as_tool_errors():
            result = tools.glossary.edit(term, description)
    except TermNotFound:
        return _not_found()
    return _respond(s.EditOutput(total_entries=result.total_entries))


def delete(tools: GlossaryTools, term: str) -> CallToolResult:
    try:
        with tools.failures_as_tool_errors():
            result = tools.glossary.delete(term)
    except TermNotFound:
        return _not_found()
    assert result.deleted is not None
    deleted = s.EntryOutput(term=result.deleted.term, description=result.deleted.description)
    return _respond(s.DeleteOutput(total_entries=result.total_entries, deleted_entry=deleted))
