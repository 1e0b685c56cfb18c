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


def _layer(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "lexicon_server" or len(parts) < 2:
        return None
    return parts[1] if parts[1] in LAYERS else None


# Who may import whom, among the server's layers: the corpus contract imports no other
# layer, the builder only the contract, the query layer the contract, the tools the query
# layer and the contract. (The release acceptance sits above them all.)
LAYERS = {
    "corpus": set(),
    "builder": {"corpus"},
    "query": {"corpus"},
    "tools": {"query", "corpus"},
}


def test_layers_import_only_what_they_may() -> None:
    wrong = []
    for module in _modules(lexicon_server):
        layer = _layer(module)
        if layer is None:
            continue
        for imported in _imports(module):
            other = _layer(imported)
            if other is not None and other != layer and other not in LAYERS[layer]:
                wrong.append(f"{module} imports {imported}")
    assert not wrong, "\n".join(sorted(set(wrong)))


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


# The SDK's private names (`_lowlevel_server`, `_tool_manager`, `_request_handlers`,
# `FuncMetadata`) are reached in one module only; http_sessions.py subclasses the
# SDK's session manager (its own test guards the attributes it relies on).
SDK_ADAPTERS = {"lexicon_server/sdk.py", "lexicon_server/http_sessions.py"}


def test_only_the_adapter_touches_sdk_internals() -> None:
    found = []
    for path in _runtime_files(*LAYERS, "release", "glossary", "slang", top_level=True):
        where = str(path.relative_to(ROOT))
        if where in SDK_ADAPTERS:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            private = isinstance(node, ast.Attribute) and node.attr.startswith("_")
            private = private and not node.attr.startswith("__")
            owner = getattr(node, "value", None)
            if private and not (isinstance(owner, ast.Name) and owner.id in {"self", "cls"}):
                if node.attr in {"_lowlevel_server", "_tool_manager", "_request_handlers"}:
                    found.append(f"{where}:{node.lineno} .{node.attr}")
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("mcp."):
                if "utilities" in (node.module or "") or any(
                    a.name.startswith("_") for a in node.names
                ):
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
# Issue 31 item 2 is not done yet: these still await their split into resolve -> read ->
# rank -> shape. Each may only shrink; remove a row when its function is split.
STILL_LONG = {
    "query/lookup.py:_lookup_data": 214,
    "query/relations.py:_relations_data": 133,
    "query/semantic.py:semantic_data": 103,
    "query/synonyms.py:_synonyms_data": 153,
    "corpus/rhyme_walk.py:candidates": 90,
}


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
