"""The release commands of `lexicon-build` (`start`, `accept`, `stage`, `publish`), which
package, install and publish what the builder made; `lexicon_server.build_cli` mounts them.
Option parsing and rendering only."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from lexicon_server.builder.cli import handles_errors, lock_option, registry_profile, say

__all__ = ["COMMANDS"]

F = TypeVar("F", bound=Callable[..., Any])

_release = click.argument(
    "release_dir", type=click.Path(file_okay=False, exists=True, path_type=Path)
)
_to = click.option(
    "--to", "to", required=True, help="Publication target: a directory, or an http(s) WebDAV URL."
)
_public = click.option(
    "--public-url",
    default=None,
    help="Where users download from, to verify over HTTP (default: read the target back).",
)


def _errors(func: F) -> F:
    """A BuildError as every lexicon-build command renders it (`handles_errors`); a
    StoreError with its fix and its own exit status."""

    @handles_errors
    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from lexicon_store.errors import StoreError

        try:
            return func(*args, **kwargs)
        except StoreError as exc:
            click.echo(f"Error: {exc.message}", err=True)
            if exc.fix:
                click.echo(f"  fix: {exc.fix}", err=True)
            sys.exit(exc.exit_code)

    return wrapper  # type: ignore[return-value]


@click.command("start")
@click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path), default=None)
@registry_profile
@click.option("--word", default="bank", show_default=True, help="The word to ask the server about.")
@lock_option
@handles_errors
def start_cmd(data_dir: Path | None, profile: str, word: str, lock_path: Path | None) -> None:
    """Build (or reuse) the starter corpus, install and activate it, and ask the server."""
    from lexicon_server.release.start import start

    start(
        data_dir=data_dir,
        word=word,
        lock_path=lock_path,
        say=say,
        echo=click.echo,
        profile=profile,
    )


@click.command("accept")
@_release
@click.option(
    "--report",
    "report_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Where to write the report (default: RELEASE_DIR.acceptance.json beside it).",
)
@click.option(
    "--gates",
    "gates_path",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    default=None,
    help="Acceptance profile JSON (default: the one shipped for the release's profile).",
)
@click.option(
    "--wordnet-dir",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    default=None,
    help="WordNet database files for the benchmark gate's NLTK comparison.",
)
@_errors
def accept_cmd(
    release_dir: Path, report_path: Path | None, gates_path: Path | None, wordnet_dir: Path | None
) -> None:
    """Run the acceptance gates on RELEASE_DIR with the network denied; write the report."""
    from dataclasses import replace

    from lexicon_server.release.accept import accept_release
    from lexicon_server.release.acceptance_profile import load_profile

    manifest = json.loads((release_dir / "manifest.json").read_text(encoding="utf-8"))
    profile = replace(load_profile(gates_path, manifest.get("profile")), wordnet_dir=wordnet_dir)
    out = report_path or release_dir.with_name(release_dir.name + ".acceptance.json")
    report = accept_release(release_dir, profile, out, say=say)
    for gate in report["gates"]:
        click.echo(f"{'pass' if gate['passed'] else 'FAIL'}  {gate['name']}: {gate['detail']}")
    click.echo(f"report: {out} (manifest {report['manifest_digest']})")
    if not report["passed"]:
        click.echo("the release is NOT accepted; publish will refuse it", err=True)
        sys.exit(1)


@click.command("stage")
@_release
@_to
@_public
@_errors
def stage_cmd(release_dir: Path, to: str, public_url: str | None) -> None:
    """Upload RELEASE_DIR to a target (parts first, manifest last) and read every asset back."""
    from lexicon_server.release.publish import stage

    result = stage(release_dir, to, public_url)
    click.echo(
        f"staged {result.dataset_version} to {to}: {len(result.uploaded)} assets uploaded, "
        f"{len(result.reused)} already correct; every asset read back from {result.verified_by}"
    )
    click.echo(f"  manifest digest: {result.manifest_digest}")


@click.command("publish")
@_release
@_to
@_public
@click.option(
    "--report",
    "report_path",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="The acceptance report of exactly this release.",
)
@_errors
def publish_cmd(release_dir: Path, to: str, public_url: str | None, report_path: Path) -> None:
    """Publish a staged, accepted release: verify it, then write the release index last."""
    from lexicon_server.release.publish import publish

    done = publish(release_dir, to, public_url, report_path)
    entry = done.entry
    click.echo(f"published {entry['dataset_version']} ({entry['manifest_digest']}) in {to}")
    click.echo("pin it in the code release: add to PINNED_RELEASES in lexicon_store/pins.py")
    click.echo(done.pin)


COMMANDS = (start_cmd, accept_cmd, stage_cmd, publish_cmd)
