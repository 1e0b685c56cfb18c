"""`lexicon-glossary`: check and edit a glossary file without an MCP client.

Each command parses its options, calls one `Glossary` method and renders the result,
as text for people or, with --json, in the same shape the MCP tools return.
Exit status: 0 done, 1 refused or failed (term exists, term not found, invalid or
unwritable file), 2 bad usage.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from lexicon_server.config import load_config
from lexicon_server.glossary.errors import GlossaryError, TermExists, TermNotFound
from lexicon_server.glossary.glossary import DEFAULT_MAX_RESULTS, MAX_RESULTS, Glossary
from lexicon_server.glossary.model import Entry

__all__ = ["main"]

DEFAULT_FILE = Path("glossary.jsonl")

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])


def _entry(entry: Entry) -> dict[str, str]:
    return {"term": entry.term, "description": entry.description}


def _emit(as_json: bool, body: dict[str, Any], text: str) -> None:
    click.echo(json.dumps(body, ensure_ascii=False, indent=2) if as_json else text)


def _run(as_json: bool, action: Callable[[], T]) -> T:
    """Run one library call; render its refusal or failure and exit 1."""
    try:
        return action()
    except TermExists as exc:
        body: dict[str, Any] = {
            "existingEntry": _entry(exc.existing),
            "error": {"message": "exists already"},
        }
        message = f"{exc}\n  {exc.existing.term}: {exc.existing.description}"
    except TermNotFound as exc:
        body = {"error": {"message": "term not found"}}
        message = str(exc)
    except GlossaryError as exc:
        body = {"error": {"message": str(exc)}}
        message = str(exc)
    except OSError as exc:
        body = {"error": {"message": f"cannot write the glossary file: {exc}"}}
        message = f"cannot write the glossary file: {exc}"
    if as_json:
        click.echo(json.dumps(body, ensure_ascii=False, indent=2))
    else:
        click.echo(f"error: {message}", err=True)
    sys.exit(1)


_json = click.option("--json", "as_json", is_flag=True, help="Print JSON shaped like the tools'.")


@click.group()
@click.option(
    "--file",
    "path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Glossary file. Default: $LEXICON_GLOSSARY, else ./glossary.jsonl.",
)
@click.pass_context
def cli(ctx: click.Context, path: Path | None) -> None:
    """Find, map, add, edit, delete and check project glossary terms."""
    if path is None:
        path = load_config().glossary_path or DEFAULT_FILE
    ctx.obj = Glossary(path)


@cli.command()
@click.argument("query")
@click.option(
    "-n",
    "--max-results",
    type=click.IntRange(1, MAX_RESULTS),
    default=DEFAULT_MAX_RESULTS,
    show_default=True,
)
@click.option(
    "--dictionary",
    is_flag=True,
    help="Also show general English senses from the installed Lexicon dataset.",
)
@_json
@click.pass_obj
def find(glossary: Glossary, query: str, max_results: int, dictionary: bool, as_json: bool) -> None:
    """Search terms and descriptions, best match first."""
    hits = _run(as_json, lambda: glossary.find(query, max_results))
    body: dict[str, Any] = {"results": [{"entry": _entry(h.entry), "score": h.score} for h in hits]}
    lines = [f"{h.entry.term}\n    {h.entry.description}" for h in hits] or ["no matches"]
    if dictionary:
        report = _dictionary(query, [h.entry.term for h in hits])
        body["dictionary"] = report
        lines.append("\ndictionary (general English, not the project's meaning):")
        if report["status"] != "ok":
            lines.append(f"    {report['message']}")
        for word in report["words"]:
            senses = word["senses"]
            lines.append(f"  {word['word']}: {'' if senses else 'not in the dictionary'}")
            lines += [f"    ({s['pos']}) {s['gloss']} [{s['source']}]" for s in senses]
    _emit(as_json, body, "\n".join(lines))


def _dictionary(query: str, terms: list[str]) -> dict[str, Any]:
    """The dictionary section, from the active dataset if there is one."""
    from dataclasses import asdict

    from lexicon_server.corpus.reader import Corpus
    from lexicon_server.glossary.dictionary import dictionary_senses
    from lexicon_store.selection import NoActiveSelection, load_active

    try:
        corpus: Corpus | None = Corpus(load_active(load_config().data_dir))
    except NoActiveSelection:
        corpus = None
    try:
        report = dictionary_senses(corpus, [query, *terms])
    finally:
        if corpus is not None:
            corpus.close()
    section = asdict(report)
    if section["message"] is None:
        del section["message"]
    return section


def _term_and_description(func: F) -> F:
    """What add and edit take: TERM, DESCRIPTION, --json, and the glossary (passed first)."""
    declarations: tuple[Callable[[Any], Any], ...] = (
        click.pass_obj,
        _json,
        click.argument("description"),
        click.argument("term"),
    )
    for declare in declarations:  # innermost first, as decorators apply
        func = declare(func)
    return func


@cli.command("map")
@click.argument("term", required=False)
@_json
@click.pass_obj
def map_(glossary: Glossary, term: str | None, as_json: bool) -> None:
    """List terms and the other terms whose descriptions mention them."""
    items = _run(as_json, lambda: glossary.map(term))
    body = {"terms": [{"term": i.term, "mentionedIn": list(i.mentioned_in)} for i in items]}
    lines = [f"{i.term}: {', '.join(i.mentioned_in) or '-'}" for i in items]
    _emit(as_json, body, "\n".join(lines))


@cli.command()
@_term_and_description
def add(glossary: Glossary, term: str, description: str, as_json: bool) -> None:
    """Append a new term; refuses a term that already exists."""
    result = _run(as_json, lambda: glossary.add(term, description))
    _emit(
        as_json,
        {"totalEntries": result.total_entries},
        f"added {term.strip()!r} ({result.total_entries} entries)",
    )


@cli.command()
@_term_and_description
def edit(glossary: Glossary, term: str, description: str, as_json: bool) -> None:
    """Replace the full description of an existing term."""
    result = _run(as_json, lambda: glossary.edit(term, description))
    done = "updated" if result.changed else "unchanged (same description)"
    _emit(as_json, {"totalEntries": result.total_entries}, f"{done}: {term.strip()!r}")


@cli.command()
@click.argument("term")
@_json
@click.pass_obj
def delete(glossary: Glossary, term: str, as_json: bool) -> None:
    """Remove exactly one term (matched after normalization, never fuzzily)."""
    result = _run(as_json, lambda: glossary.delete(term))
    assert result.deleted is not None
    _emit(
        as_json,
        {"totalEntries": result.total_entries, "deletedEntry": _entry(result.deleted)},
        f"deleted {result.deleted.term!r} ({result.total_entries} entries left)",
    )


@cli.command()
@_json
@click.pass_obj
def check(glossary: Glossary, as_json: bool) -> None:
    """Validate the file as the server does at start-up (for CI and pre-commit)."""
    count = _run(as_json, glossary.check)
    _emit(
        as_json,
        {"file": str(glossary.path), "totalEntries": count},
        f"{glossary.path}: ok, {count} entries",
    )


def main() -> None:
    cli(prog_name="lexicon-glossary")
