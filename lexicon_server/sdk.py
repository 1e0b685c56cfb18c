"""The one module that reaches past the MCP SDK's public API (SDK 2.x, `MCPServer`).

Everything here leans on a name the SDK does not document (`_lowlevel_server`,
`_tool_manager`, `FuncMetadata`); a change in the SDK breaks this module and its tests
(tests/server/query/test_arguments.py, tests/server/transport/test_stdio_parse_errors.py),
nothing else. What it offers:

- `add_tools`: the rows of the tool table (`lexicon_server.tool_table`) as SDK tools,
  each with strict, closed arguments (`strict_arguments`) and the answer contract;
- `AnswerContract`: the middleware that keeps the house answer form (`answers`);
- `serve_no_prompts`, `lowlevel_server`: for the server assembly and the transports.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Annotated, Any, cast, get_type_hints

from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, CallToolResult
from pydantic import ConfigDict, PrivateAttr, TypeAdapter, ValidationError

from lexicon_server.answers import error_answer, house_body
from lexicon_server.arguments import argument_rule, refusal
from lexicon_server.query.suggest import with_suggestions
from lexicon_server.tools._shared import published_output, respond, shared_shapes

if TYPE_CHECKING:
    from collections.abc import Callable

    from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
    from mcp.server.lowlevel.server import Server
    from mcp.server.mcpserver import MCPServer

    from lexicon_server.tool_table import ToolSpec

__all__ = [
    "AnswerContract",
    "add_tools",
    "keep_answer_contract",
    "lowlevel_server",
    "serve_no_prompts",
    "strict_arguments",
]

# List methods that take a cursor. Every list fits in one page, so no cursor is valid.
_PAGINATED = frozenset({"tools/list", "resources/list", "resources/templates/list", "prompts/list"})
_STRICT = ConfigDict(strict=True, extra="forbid")


def add_tools(
    server: MCPServer[Any], specs: Iterable[ToolSpec], sources: Mapping[str, Any]
) -> None:
    """Register each row of the tool table on `server`, reading `sources[spec.reads]`.

    The SDK builds a tool's input schema from its function's signature and its output
    schema from the return annotation: both come from the row (the arguments model's
    fields, in order; the result model, published as `tools._shared.published_output`
    for the dictionary rows, whose published schema is then `shared_shapes` of it)."""
    specs = tuple(specs)
    for spec in specs:
        server.add_tool(
            _tool_function(spec, sources),
            name=spec.name,
            title=spec.title,
            description=spec.description,
            annotations=spec.annotations,
            structured_output=True if spec.answer == "dictionary" else None,
        )
    strict_arguments(server, [spec.name for spec in specs])
    for spec in specs:
        if spec.answer == "dictionary":
            tool = server._tool_manager.get_tool(spec.name)
            assert tool is not None  # registered just above
            tool.fn_metadata.output_schema = shared_shapes(TypeAdapter(spec.result).json_schema())
    keep_answer_contract(server)


def _tool_function(spec: ToolSpec, sources: Mapping[str, Any]) -> Callable[..., Any]:
    """A function with the row's signature that answers through the row's query."""
    source, query = sources[spec.reads], spec.query
    call: Callable[..., Any]
    if spec.answer == "dictionary":
        corpus = sources["corpus"]
        asks, name = spec.asks, spec.name

        def answer(arguments: dict[str, Any]) -> Any:
            result = query(source, **arguments)
            if asks is None:
                return result
            word, language = asks
            asked = arguments.get(language) if language else None
            return with_suggestions(corpus, result, arguments[word], asked or "en")

        async def call(**arguments: Any) -> CallToolResult:
            return respond(corpus, lambda: answer(arguments), name)

        output: Any = published_output(spec.result)
    elif inspect.iscoroutinefunction(query):

        async def call(**arguments: Any) -> CallToolResult:
            return cast("CallToolResult", await query(source, **arguments))

        output = spec.result
    else:

        def call(**arguments: Any) -> CallToolResult:
            return cast("CallToolResult", query(source, **arguments))

        output = spec.result
    hints = get_type_hints(spec.arguments, include_extras=True)
    parameters = [
        inspect.Parameter(
            name,
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
            annotation=hints[name],
            default=inspect.Parameter.empty if field.is_required() else field.default,
        )
        for name, field in spec.arguments.model_fields.items()
    ]
    returns = Annotated[CallToolResult, output]
    call.__name__ = call.__qualname__ = spec.name
    call.__signature__ = inspect.Signature(parameters, return_annotation=returns)  # type: ignore[union-attr]
    call.__annotations__ = {p.name: p.annotation for p in parameters} | {"return": returns}
    return call


def strict_arguments(server: MCPServer[Any], names: Iterable[str]) -> None:
    """Make the arguments of the named (registered) tools strict and closed.

    JSON types are respected (a boolean or a string is not an integer; 5.0 is, as JSON
    Schema counts it), an unknown argument is refused, and every refusal names the
    argument, what was given and what is allowed. The SDK has no option for this, and
    its tool manager is the only way to reach a registered tool. The published input
    schema gains `additionalProperties: false`; nothing else in it changes.
    """
    manager = server._tool_manager
    for name in names:
        tool = manager.get_tool(name)
        if tool is None:
            raise KeyError(f"no tool {name!r} is registered")
        if isinstance(tool.fn_metadata, _StrictMetadata):
            continue  # a tool registered twice keeps its first, already strict, registration
        tool.fn_metadata = _StrictMetadata.of(tool.fn_metadata, tool.parameters)
        schema = _untitled(tool.parameters)
        properties = {name: _omittable(prop) for name, prop in schema["properties"].items()}
        tool.parameters = {**schema, "properties": properties, "additionalProperties": False}


def _untitled(schema: Any) -> Any:
    """`schema` without the titles pydantic derives from each name ("Word" for `word`):
    bytes every client reads in `tools/list`, saying nothing the name does not."""
    if isinstance(schema, list):
        return [_untitled(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    return {k: _untitled(v) for k, v in schema.items() if not (k == "title" and isinstance(v, str))}


def _omittable(prop: dict[str, Any]) -> dict[str, Any]:
    """A parameter whose default is null, published as its one other branch with no
    default: a client asks for the default by leaving the parameter out (null is still
    accepted), and every client reads fewer bytes of `tools/list`."""
    branches = prop.get("anyOf")
    if prop.get("default", 0) is not None or not branches or {"type": "null"} not in branches:
        return prop
    kept = [branch for branch in branches if branch != {"type": "null"}]
    if len(kept) != 1:
        return prop
    rest = {k: v for k, v in prop.items() if k not in ("anyOf", "default")}
    return {**kept[0], **rest}


class _StrictMetadata(FuncMetadata):
    """The SDK's argument handling with a strict, closed model and house-form refusals."""

    _parameters: tuple[str, ...] = PrivateAttr(default=())
    _allowed: dict[str, str] = PrivateAttr(default_factory=dict)

    @classmethod
    def of(cls, metadata: FuncMetadata, schema: Mapping[str, Any]) -> _StrictMetadata:
        """`metadata` with a strict subclass of its argument model; `schema` is the
        tool's published input schema, which says what each parameter allows."""
        fields = {name: getattr(metadata, name) for name in FuncMetadata.model_fields}
        strict = cls(**{**fields, "arg_model": _strict_model(metadata.arg_model)})
        properties: Mapping[str, Any] = schema.get("properties", {})
        strict._parameters = tuple(properties)
        strict._allowed = {name: argument_rule(prop) for name, prop in properties.items()}
        return strict

    def validate_arguments(self, arguments_to_validate: dict[str, Any]) -> dict[str, Any]:
        try:
            return super().validate_arguments(arguments_to_validate)
        except ValidationError as exc:
            error = exc
        # Only a refused call gets here, so accepting 5.0 costs a valid call nothing.
        whole = _whole_numbers(arguments_to_validate, error)
        if whole is not None:
            try:
                return super().validate_arguments(whole)
            except ValidationError as exc:
                error = exc
        raise refusal(error, self._parameters, self._allowed)


def _strict_model(model: type[ArgModelBase]) -> type[ArgModelBase]:
    # A subclass keeps the fields, defaults and schema; pydantic merges in the config.
    namespace = {"model_config": _STRICT, "__module__": model.__module__}
    return cast("type[ArgModelBase]", type(model.__name__, (model,), namespace))


def _whole_numbers(arguments: dict[str, Any], error: ValidationError) -> dict[str, Any] | None:
    """`arguments` with each whole float refused as an integer (5.0) made an int, or
    None if there is none."""
    fixed = {}
    for detail in error.errors(include_url=False):
        loc, got = detail["loc"], detail["input"]
        whole = isinstance(got, float) and got.is_integer()
        if whole and detail["type"] == "int_type" and len(loc) == 1:
            fixed[str(loc[0])] = int(got)
    return {**arguments, **fixed} if fixed else None


def keep_answer_contract(server: MCPServer[Any]) -> None:
    """Add `AnswerContract` to `server`'s middleware, once (each tool group calls this)."""
    if not any(isinstance(layer, AnswerContract) for layer in server.middleware):
        server.middleware.append(AnswerContract(server))


class AnswerContract:
    """Server middleware: error answers in the house form, protocol mistakes as -32602."""

    def __init__(self, server: MCPServer[Any]) -> None:
        self._server = server

    async def __call__(
        self, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        params = ctx.params or {}
        if ctx.method in _PAGINATED and params.get("cursor") is not None:
            raise MCPError(
                INVALID_PARAMS,
                f"invalid cursor {params['cursor']!r}: {ctx.method} returns every item in one "
                "page, so call it without a cursor",
            )
        if ctx.method != "tools/call":
            return await call_next(ctx)
        name = params.get("name")
        if not isinstance(name, str) or self._server._tool_manager.get_tool(name) is None:
            raise MCPError(INVALID_PARAMS, f"unknown tool {name!r}: {self._tool_list()}")
        result = await call_next(ctx)
        # The chain hands back the handler's result already in its wire form (a dict).
        if isinstance(result, CallToolResult) and result.is_error:
            result = result.model_dump(by_alias=True)
        if isinstance(result, dict) and result.get("isError"):
            return error_answer(house_body(name, result))
        return result

    def _tool_list(self) -> str:
        names = sorted(tool.name for tool in self._server._tool_manager.list_tools())
        return "the tools are " + ", ".join(names)


def serve_no_prompts(server: MCPServer[Any]) -> None:
    """Drop the prompt handlers the SDK always installs, so that the server advertises
    exactly what it implements (tools and resources). The SDK derives its capabilities
    from the handlers present and has no option for this."""
    handlers = server._lowlevel_server._request_handlers
    for method in ("prompts/list", "prompts/get"):
        handlers.pop(method, None)


def lowlevel_server(server: MCPServer[Any]) -> Server[Any]:
    """The SDK's low-level server under `server`, which the transports run."""
    return server._lowlevel_server
