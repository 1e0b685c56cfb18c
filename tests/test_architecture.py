"""The rules that keep the house drawable: who imports whom, one exception root per
package, and an `__all__` that says what each module offers."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import lexicon_server
import lexicon_store
from lexicon_server.errors import LexiconServerError
from lexicon_store.errors import StoreError

ROOT = Path(lexicon_server.__file__).resolve().parent.parent
# Modules that are scripts run in a process of their own, not library modules.
SCRIPTS = {"lexicon_server.release.nltk_worker"}


def _modules(package: ModuleType) -> list[str]:
    names = [package.__name__]
    prefix = package.__name__ + "."
    names += [m.name for m in pkgutil.walk_packages(package.__path__, prefix)]
    # A package's __main__ runs its command line when imported.
    return sorted(n for n in names if n not in SCRIPTS and not n.endswith(".__main__"))


def _imports(module: str) -> Iterator[str]:
    """Every lexicon_server module `module` imports, at its top or inside a function."""
    path = ROOT / (module.replace(".", "/") + ".py")
    if not path.exists():
        path = ROOT / module.replace(".", "/") / "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)


def _import_graph(*packages: ModuleType) -> dict[str, set[str]]:
    """Module -> the modules of `packages` it imports (every import statement counted:
    top-level, inside a function, or only for type checking)."""
    modules = {name for package in packages for name in _modules(package)}
    return {m: {i for i in _imports(m) if i in modules and i != m} for m in sorted(modules)}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    return found


# Every module's layer: the longest dotted prefix listed names it, else `<package>.*`
# (a server module under no listed prefix fails test_every_module_has_a_layer, so a new
# subpackage or top-level module must be placed).
LAYER_OF = {
    # lexicon_server's shared definitions (the exception tree, the answer models and forms,
    # the environment read once): every layer may use them; they use no layer
    "lexicon_server": "base",
    "lexicon_server.errors": "base",
    "lexicon_server.models": "base",
    "lexicon_server.answers": "base",
    "lexicon_server.arguments": "base",
    "lexicon_server.config": "base",
    "lexicon_server.expand": "base",
    "lexicon_server.text_answers": "base",
    "lexicon_server.package_data": "base",
    "lexicon_server.corpus": "corpus",
    "lexicon_server.builder": "builder",
    "lexicon_server.query": "query",
    "lexicon_server.tools": "tools",
    "lexicon_server.glossary": "groups",
    "lexicon_server.slang": "groups",
    # the running server's composition: `lexicon-mcp`, the transports, the tool table, the
    # SDK adapter, and each opt-in group's `register(server, ...)`
    "lexicon_server.cli": "app",
    "lexicon_server.server": "app",
    "lexicon_server.http": "app",
    "lexicon_server.http_deadlines": "app",
    "lexicon_server.http_sessions": "app",
    "lexicon_server.http_workers": "app",
    "lexicon_server.stdio": "app",
    "lexicon_server.sdk": "app",
    "lexicon_server.tool_table": "app",
    "lexicon_server.resources": "app",
    "lexicon_server.glossary.tools": "app",
    "lexicon_server.slang.tools": "app",
    "lexicon_server.release": "release",
    "lexicon_server.build_cli": "build_cli",
    # lexicon_store: the stdlib-only reader the server may import and what it needs, the
    # library, and the CLI that renders it
    "lexicon_store.*": "store",  # the root and every module not listed below
    "lexicon_store.errors": "store_base",
    "lexicon_store.commands": "store_base",
    "lexicon_store.selection": "store_reader",
    "lexicon_store.leases": "store_reader",
    "lexicon_store.cli": "store_cli",
}

# Whom each layer may import besides itself. Data flows down: the corpus contract imports
# no other layer of the server; the builder never imports query/ or tools/; the running
# server (app) never imports the builder or the release; the server reaches into the
# store only through its reader; the store knows nothing of the server.
MAY_IMPORT: dict[str, set[str]] = {
    "base": set(),
    "corpus": {"base", "store_reader"},
    "builder": {"corpus", "base"},
    "query": {"corpus", "base", "store_reader"},
    "tools": {"query", "corpus", "base"},
    "groups": {"query", "corpus", "base", "store_reader"},
    "app": {"groups", "tools", "query", "corpus", "base", "store_reader"},
    "release": {"builder", "query", "corpus", "base", "store", "store_reader", "store_base"},
    "build_cli": {"builder", "release"},
    "store_base": set(),
    "store_reader": {"store_base"},
    "store": {"store_reader", "store_base"},
    "store_cli": {"store", "store_reader", "store_base"},
}


def _layer(module: str) -> str | None:
    """The layer of a module of either package (None for anything else)."""
    parts = module.split(".")
    for n in range(len(parts), 1, -1):
        layer = LAYER_OF.get(".".join(parts[:n]))
        if layer is not None:
            return layer
    # A package root names only itself; `<package>.*` names the package's other modules.
    return LAYER_OF.get(module) or LAYER_OF.get(parts[0] + ".*")


def _crossings(graph: dict[str, set[str]]) -> list[str]:
    """Every import in `graph` (module -> modules it imports) that its layer may not make."""
    wrong = []
    for module, imported in graph.items():
        layer = _layer(module)
        for other in map(_layer, imported):
            if layer is None or other is None or other == layer:
                continue
            if other not in MAY_IMPORT[layer]:
                wrong.append(f"{module} ({layer}) imports a module of {other}")
    return sorted(set(wrong))


def test_layers_import_only_what_they_may() -> None:
    """Every import statement of either package (top-level, in a function or for type
    checking only) goes where MAY_IMPORT lets its layer go."""
    crossings = _crossings(_import_graph(lexicon_server, lexicon_store))
    assert not crossings, "\n".join(crossings)


def test_every_module_has_a_layer() -> None:
    unplaced = [
        name
        for package in (lexicon_server, lexicon_store)
        for name in _modules(package)
        if _layer(name) is None
    ]
    assert not unplaced, f"add these to LAYER_OF: {unplaced}"
    assert set(LAYER_OF.values()) == set(MAY_IMPORT)


def test_every_layer_rule_can_fail() -> None:
    """For every layer, an import of each layer it may not import is reported and an
    import of each layer it may import is not."""
    modules = [m for package in (lexicon_server, lexicon_store) for m in _modules(package)]
    one_of = {_layer(m): m for m in reversed(modules)}  # a real module of each layer
    wrong = []
    for layer, allowed in MAY_IMPORT.items():
        for other in sorted(set(MAY_IMPORT) - {layer}):
            reported = bool(_crossings({one_of[layer]: {one_of[other]}}))
            if reported == (other in allowed):
                wrong.append(f"{layer} -> {other}: reported={reported}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(
    ("module", "imported"),
    [
        ("lexicon_server.builder.pipeline", "lexicon_server.query.lookup"),
        ("lexicon_server.builder.pipeline", "lexicon_server.tools.lookup"),
        ("lexicon_server.server", "lexicon_server.builder.pipeline"),
        ("lexicon_server.cli", "lexicon_server.release.start"),
        ("lexicon_server.corpus.reader", "lexicon_server.query.lookup"),
        ("lexicon_server.corpus.reader", "lexicon_server.server"),
        ("lexicon_server.query.lookup", "lexicon_server.tools.lookup"),
        ("lexicon_server.query.lookup", "lexicon_server.sdk"),
        ("lexicon_server.errors", "lexicon_server.corpus.reader"),
        ("lexicon_server.corpus.reader", "lexicon_store.download"),
        ("lexicon_store.ops", "lexicon_server.corpus.reader"),
        ("lexicon_store.selection", "lexicon_store.digests"),
        ("lexicon_store.ops", "lexicon_store.cli"),
    ],
)
def test_the_design_rules_are_among_them(module: str, imported: str) -> None:
    """DESIGN.md's rules, each as an import it forbids."""
    assert _crossings({module: {imported}})


# The SDK's private names (`_lowlevel_server`, `_tool_manager`, `_request_handlers`,
# `FuncMetadata`) are reached in one module only; http_sessions.py subclasses the
# SDK's session manager (its own test guards the attributes it relies on).
SDK_ADAPTERS = {"lexicon_server/sdk.py", "lexicon_server/http_sessions.py"}
SDK_PRIVATE = {"_lowlevel_server", "_tool_manager", "_request_handlers"}


def test_only_the_adapter_touches_sdk_internals() -> None:
    found = []
    packages = ("corpus", "builder", "query", "tools", "release", "glossary", "slang")
    for path in _runtime_files(*packages, top_level=True):
        where = str(path.relative_to(ROOT))
        if where in SDK_ADAPTERS:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            private = isinstance(node, ast.Attribute) and node.attr.startswith("_")
            private = private and not node.attr.startswith("__")
            owner = getattr(node, "value", None)
            mine = isinstance(owner, ast.Name) and owner.id in {"self", "cls"}
            if private and not mine and node.attr in SDK_PRIVATE:
                found.append(f"{where}:{node.lineno} .{node.attr}")
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("mcp."):
                private = any(a.name.startswith("_") for a in node.names)
                if private or "utilities" in (node.module or ""):
                    found.append(f"{where}:{node.lineno} from {node.module}")
    assert not found, "\n".join(found)


def test_no_import_cycle() -> None:
    """No module of either package reaches itself through imports, counting imports
    inside functions and those made only for type checking: the house reads top-down."""
    cycles = _cycles(_import_graph(lexicon_server, lexicon_store))
    assert not cycles, "\n".join(" <-> ".join(c) for c in cycles)


def test_the_cycle_check_can_fail() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]


def test_the_running_server_loads_no_builder_module(sample_data_dir: Path) -> None:
    code = (
        "import sys\n"
        "from lexicon_server.server import open_corpus\n"
        "from lexicon_server.config import load_config\n"
        "from lexicon_server.server import build_server\n"
        f"config = load_config({{'LEXICON_DATA_DIR': {str(sample_data_dir)!r}}})\n"
        "build_server(open_corpus(config), config)\n"
        "loaded = [m for m in sys.modules if m.startswith(('lexicon_server.builder', "
        "'lexicon_server.release'))]\n"
        "print(loaded)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "[]", out.stdout


@pytest.mark.parametrize(
    ("package", "root"), [(lexicon_server, LexiconServerError), (lexicon_store, StoreError)]
)
def test_every_exception_derives_from_its_packages_root(
    package: ModuleType, root: type[Exception]
) -> None:
    strays = []
    for name in _modules(package):
        module = importlib.import_module(name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != name or not issubclass(cls, BaseException):
                continue
            if not issubclass(cls, root):
                strays.append(f"{name}.{cls.__qualname__}")
    assert not strays, f"not under {root.__name__}: {strays}"


@pytest.mark.parametrize("package", [lexicon_server, lexicon_store])
def test_every_module_says_what_it_offers(package: ModuleType) -> None:
    """Each module's `__all__` names only what it defines or re-exports on purpose, and
    every public function and class it defines."""
    problems = []
    for name in _modules(package):
        module = importlib.import_module(name)
        declared = getattr(module, "__all__", None)
        if declared is None:
            problems.append(f"{name}: no __all__")
            continue
        problems += [
            f"{name}: {item!r} is not defined" for item in declared if not hasattr(module, item)
        ]
        for item, value in vars(module).items():
            defined_here = getattr(value, "__module__", None) == name
            public = not item.startswith("_")
            kind = inspect.isfunction(value) or inspect.isclass(value)
            if public and defined_here and kind and item not in declared:
                problems.append(f"{name}: {item} is public but not in __all__")
    assert not problems, "\n".join(problems)


def _runtime_files(*packages: str, top_level: bool = False) -> list[Path]:
    base = ROOT / "lexicon_server"
    files = [path for name in packages for path in sorted((base / name).rglob("*.py"))]
    if top_level:
        files += sorted(base.glob("*.py"))
    return files


def test_only_the_corpus_row_readers_run_sql() -> None:
    """`lexicon_server/corpus/` holds every read of the component files: no `execute(`
    in the query layer, the tools, the slang group or the top-level modules (the builder
    and the release gates are not the running server's read side)."""
    calls = []
    for path in _runtime_files("query", "tools", "slang", top_level=True):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in {"execute", "executemany"}:
                calls.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not calls, "\n".join(calls)


MAX_FUNCTION_LINES = 80
# Functions allowed over MAX_FUNCTION_LINES, by "path:name" (issue 31 item 2 split the
# last of them into resolve -> read -> rank -> shape). Keep it empty.
STILL_LONG: dict[str, int] = {}


def test_no_runtime_function_is_over_80_lines() -> None:
    """Functions of the running server (the query layer, the corpus, the tools and their
    table, the opt-in groups, the top-level modules) read as resolve -> read -> rank ->
    shape, each short enough to read at once."""
    long = []
    for path in _runtime_files("query", "corpus", "tools", "slang", "glossary", top_level=True):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                where = f"{path.relative_to(ROOT / 'lexicon_server')}:{node.name}"
                if lines > STILL_LONG.get(where, MAX_FUNCTION_LINES):
                    long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}: {lines}")
    assert not long, "\n".join(long)
