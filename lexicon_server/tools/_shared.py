"""What every dictionary tool shares: annotations, parameter types and error mapping.

The tools are thin: they call a query function and turn its expected failures into
error answers. A language/capability the selection cannot serve comes back as an error
whose JSON names the reason (one of the four), so a client never mistakes it for "no
such word".
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from lexicon_server.answers import error_answer, error_body
from lexicon_server.corpus.reader import (
    CapabilityUnavailable,
    DamagedComponent,
    SchemaMismatch,
    data_dir_value,
    release_source,
)
from lexicon_server.errors import (
    InvalidArgument,
    LexiconServerError,
    NoSuchSense,
    describe_unavailable,
    fix_command,
)
from lexicon_server.query.arguments import MAX_TEXT_CHARS
from lexicon_server.text_answers import rendered

if TYPE_CHECKING:
    from pydantic import GetJsonSchemaHandler
    from pydantic_core import CoreSchema

    from lexicon_server.corpus.reader import Corpus

__all__ = [
    "Language",
    "Limit",
    "OptionalLanguage",
    "SourceIds",
    "Text",
    "Word",
    "compact_schema",
    "damaged_body",
    "inline_refs",
    "published_output",
    "respond",
    "shared_shapes",
    "tool_annotations",
    "unavailable_body",
]

# A word or phrase a query function checks with `check_text`. That check is on the
# stripped text (so "   " is still refused there, in the same words); the schema bounds
# the text as sent, so a client can check it before calling.
Text = Annotated[str, Field(min_length=1, max_length=MAX_TEXT_CHARS)]
# No descriptions where the name says it all (`word`, `limit`): every client reads each
# description's bytes in `tools/list`; the bounds in the schema stay, they are validation.
Word = Text
Language = Annotated[str, Field(description="ISO 639 tag ('en', 'fr')")]
Limit = Annotated[int, Field(ge=1, le=100)]
SourceIds = Annotated[bool, Field(description="add sense keys and synset ids")]
OptionalLanguage = Annotated[
    str | None,
    Field(description="language tag, e.g. 'fr'; omit for the default described above"),
]


def tool_annotations(title: str) -> ToolAnnotations:
    """Dictionary tools only read a local, fixed corpus. (No `destructiveHint`: the
    specification gives it meaning only for a tool that is not read-only.)"""
    return ToolAnnotations(
        title=title, read_only_hint=True, idempotent_hint=True, open_world_hint=False
    )


_M = TypeVar("_M", bound="BaseModel")


def inline_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with every `$ref` into its `$defs` replaced by the definition itself (the
    result models are not recursive)."""
    defs = schema.get("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, list):
            return [walk(item) for item in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            target = walk(defs[node["$ref"].rsplit("/", 1)[-1]])
            return {**target, **{k: walk(v) for k, v in node.items() if k != "$ref"}}
        return {k: walk(v) for k, v in node.items() if k != "$defs"}

    result: dict[str, Any] = walk(schema)
    return result


def shared_shapes(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` (a model's JSON schema) compacted (`compact_schema`), with each object shape
    it uses more than once written once, in `$defs`, and referred to by `$ref`; a shape
    used once stays inline. The same constraints in fewer bytes: a look-up's pronunciation
    or a result's suggestion is described once, however many places hold one."""
    defs = schema.get("$defs", {})
    forms = {
        name: compact_schema(inline_refs({**body, "$defs": defs})) for name, body in defs.items()
    }
    tree = compact_schema(inline_refs(schema))
    counts: dict[str, int] = {}

    def count(node: Any) -> None:
        if isinstance(node, dict):
            key = _canonical(node)
            counts[key] = counts.get(key, 0) + 1
            for value in node.values():
                count(value)
        elif isinstance(node, list):
            for item in node:
                count(item)

    count(tree)
    shared = {
        _canonical(form): name
        for name, form in forms.items()
        if "properties" in form and counts.get(_canonical(form), 0) > 1
    }

    while True:
        out = _with_refs(tree, forms, shared)
        text = json.dumps(out)
        # A shape used twice only inside another shared shape is now referred to once.
        once = {k for k, name in shared.items() if text.count(f'"#/$defs/{name}"') < 2}
        if not once:
            return out
        shared = {k: name for k, name in shared.items() if k not in once}


def _with_refs(
    tree: dict[str, Any], forms: dict[str, Any], shared: dict[str, str]
) -> dict[str, Any]:
    """`tree` with each shape of `shared` (canonical form -> name) as a `$ref` to `$defs`."""

    def refer(node: Any, root: bool = False) -> Any:
        if isinstance(node, list):
            return [refer(item) for item in node]
        if not isinstance(node, dict):
            return node
        name = None if root else shared.get(_canonical(node))
        if name is not None:
            return {"$ref": f"#/$defs/{name}"}
        return {k: refer(v) for k, v in node.items()}

    out: dict[str, Any] = refer(tree, root=True)
    if shared:
        out["$defs"] = {name: refer(forms[name], root=True) for name in sorted(shared.values())}
    return out


def _canonical(node: Any) -> str:
    return json.dumps(node, sort_keys=True, separators=(",", ":"))


def compact_schema(node: Any) -> Any:
    """`node` (an output schema) without what only costs a client bytes to read.

    Kept: every type, `required` list and enum. Left out: pydantic's generated titles;
    `additionalProperties: false` (so an answer that gains a field in a later release
    still validates); on a property that may be absent, the null branch (such a property
    is left out, never sent as null: see `models.absent_detail`); defaults, which no
    validator uses (docs/tools.md names the value an absent field stands for, and
    `expand.expanded` puts it back from the model); descriptions (docs/tools.md describes
    every field); and the `type` beside an `enum` or `const` whose values are all of that
    type (the values alone admit exactly the same answers). A union of bare types is one
    `type` list.
    """
    if isinstance(node, list):
        return [compact_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "title" and isinstance(value, str):
            continue
        if key == "additionalProperties" and value is False:
            continue
        if key == "description" and isinstance(value, str):
            continue
        if key == "default":
            continue
        if key == "properties":
            needed = frozenset(node.get("required", ()))
            out[key] = {
                name: _optional(compact_schema(prop), name in needed)
                for name, prop in value.items()
            }
            continue
        out[key] = compact_schema(value)
    return _without_implied_type(_one_type(_one_enum(out)))


# The Python values a JSON Schema `type` admits (a bool is not an integer there).
_TYPE_OF: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
}


def _one_enum(node: dict[str, Any]) -> dict[str, Any]:
    """`node` with an `anyOf` of bare `const`/`enum` branches (pydantic's form of
    `Literal["a"] | Literal["b", "c"]`) written as the one `enum` it amounts to."""
    branches = node.get("anyOf")
    if not branches or not all(set(b) <= {"const", "enum"} and len(b) == 1 for b in branches):
        return node
    values = [v for b in branches for v in (b["enum"] if "enum" in b else [b["const"]])]
    return {**{k: v for k, v in node.items() if k != "anyOf"}, "enum": values}


def _one_type(node: dict[str, Any]) -> dict[str, Any]:
    """`node` with an `anyOf` of bare types (pydantic's form of `str | None`, 46 bytes)
    written as one `type` list (`{"type": ["string", "null"]}`, 26 bytes): the same
    answers pass, and a validator checks one keyword instead of two subschemas."""
    branches = node.get("anyOf")
    if not branches or not all(set(b) == {"type"} and isinstance(b["type"], str) for b in branches):
        return node
    rest = {k: v for k, v in node.items() if k != "anyOf"}
    return {**rest, "type": [b["type"] for b in branches]}


def _without_implied_type(node: dict[str, Any]) -> dict[str, Any]:
    """`node` without its `type` when its `enum` or `const` already implies it."""
    kind = node.get("type")
    check = _TYPE_OF.get(kind) if isinstance(kind, str) else None
    if check is None:
        return node
    values = node["enum"] if "enum" in node else [node["const"]] if "const" in node else None
    if not values or not all(check(v) for v in values):
        return node
    return {k: v for k, v in node.items() if k != "type"}


def _optional(prop: dict[str, Any], required: bool) -> dict[str, Any]:
    if required:
        return prop
    kinds = prop.get("type")
    if isinstance(kinds, list) and "null" in kinds and len(kinds) == 2:
        (kept,) = [kind for kind in kinds if kind != "null"]
        return {**prop, "type": kept}
    branches = prop.get("anyOf")
    if branches and {"type": "null"} in branches and len(branches) == 2:
        (kept,) = [b for b in branches if b != {"type": "null"}]
        prop = {**{k: v for k, v in prop.items() if k != "anyOf"}, **kept}
    return prop


def published_output(model: type[BaseModel]) -> type[BaseModel]:
    """The output type a tool declares for the result `model`.

    Its JSON schema is `model`'s, compacted and inlined; `sdk.add_tools` then publishes
    `shared_shapes(model)` in its place (pydantic would try to resolve the `$ref`s of a
    schema handed to it here).
    The SDK re-validates every structured result against the declared output type; for
    the real models that costs 60-150 µs per call, spent on data the query functions
    already return as that model (and clients check the schema themselves). This
    stand-in carries the same schema but is checked shallowly: the result must be a JSON
    object.
    """
    schema: dict[str, Any] = compact_schema(inline_refs(TypeAdapter(model).json_schema()))

    class Published(BaseModel):
        model_config = ConfigDict(extra="allow")

        @classmethod
        def __get_pydantic_json_schema__(
            cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler
        ) -> dict[str, Any]:
            return schema

    Published.__name__ = Published.__qualname__ = model.__name__
    return Published


def respond(corpus: Corpus, query: Callable[[], _M | dict[str, Any]], tool: str) -> CallToolResult:
    """Run `query`; return its result as structured content with `tool`'s text rendering
    of it (`text_answers`), or an error answer.

    `query` returns the result model, or the same result as plain JSON-ready data when
    the query module can build that more cheaply. Expected failures become error answers
    in the house form (`lexicon_server.answers`): no structured content, the JSON as text.
    """
    try:
        # One call runs on one selection, even if the active one changes meanwhile.
        with corpus.pinned():
            try:
                result = query()
            except Exception as exc:
                # Read errors of a damaged database arrive as DamagedComponent already
                # (corpus.connection); for anything else unexpected, a file that changed
                # size since start-up is the likelier cause than a bug: name it.
                damage = None if isinstance(exc, LexiconServerError) else corpus.damage()
                if damage is not None:
                    raise damage from exc
                raise
    except CapabilityUnavailable as exc:
        return error_answer(unavailable_body(exc, corpus))
    except InvalidArgument as exc:
        return error_answer(error_body("invalid_argument", str(exc), parameter=exc.parameter))
    except NoSuchSense as exc:
        return error_answer(error_body("no_such_sense", str(exc), sense_id=exc.sense_id))
    except DamagedComponent as exc:
        return error_answer(damaged_body(exc, remote=corpus.remote_clients))
    except SchemaMismatch as exc:
        return error_answer(error_body("schema_mismatch", str(exc)))
    except LexiconServerError as exc:
        return error_answer(error_body("tool_error", str(exc)))
    data = result if isinstance(result, dict) else result.model_dump(mode="json")
    text = rendered(tool, data)
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


def damaged_body(exc: DamagedComponent, *, remote: bool) -> dict[str, Any]:
    """The error body of a damaged component: its id, its dataset-relative file and the
    commands that find and fix it; for `remote` clients (HTTP) no server path at all."""
    if remote:
        return error_body(
            "damaged_component", exc.remote_message, component=exc.component, file=exc.relative
        )
    return error_body(
        "damaged_component",
        str(exc),
        component=exc.component,
        file=exc.relative,
        verify=exc.verify_command,
        repair=exc.repair_command,
    )


def unavailable_body(exc: CapabilityUnavailable, corpus: Corpus) -> dict[str, Any]:
    """The error body of a language or capability the selection cannot serve; its fix
    carries the data dir and release source the install used, so that it runs as printed
    (for remote clients the data dir is a placeholder: its path is the server's)."""
    selection = corpus.selection
    remote = corpus.remote_clients
    data_dir = data_dir_value(selection, local=not remote)
    source = release_source(selection, local=not remote)
    version = selection.dataset_version
    fix = fix_command(
        exc.reason, exc.language, exc.capability, version, data_dir=data_dir, source=source
    )
    message = describe_unavailable(exc, version, data_dir=data_dir, source=source)
    if fix is not None and data_dir == "DIR":
        message += " (DIR: the server's data dir)"
    return error_body(
        exc.reason, message, language=exc.language, capability=exc.capability, fix=fix
    )
