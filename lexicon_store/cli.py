"""``lexicon-data``: parse options, call one library function, render its result.

Read-only commands take ``--json``. Progress bars (tqdm, on stderr, only on a
terminal) are the CLI's business; the library reports through a callback.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from . import gc, integrity, ops
from .errors import SelectionError, StoreError, os_error
from .leases import ReaderLease
from .package import DEFAULT_PART_SIZE, package_release
from .plan import parse_list
from .progress import Progress
from .selection import CAPABILITIES, ActiveSelection, default_data_dir

__all__ = ["main"]

F = TypeVar("F", bound=Callable[..., Any])


@contextmanager
def _bars(keep: str | None = None) -> Iterator[Progress]:
    """One bar per task while it runs; the bar of task ``keep`` (a running total) stays."""
    from tqdm import tqdm  # imported here: only long-running commands need it

    bars: dict[str, Any] = {}

    def report(task: str, advanced: int, total: int) -> None:
        bar = bars.get(task)
        if bar is None:
            bar = bars[task] = tqdm(
                total=total or None,
                desc=task,
                unit="B",
                unit_scale=True,
                unit_divisor=1024,
                disable=None,
                leave=task == keep,
            )
        bar.update(advanced)
        if task != keep and total and bar.n >= total:
            # A finished part's bar goes away at once, so only live transfers stay on
            # screen; a later report for the same task (a retry) opens a fresh bar.
            bars.pop(task).close()

    try:
        yield report
    finally:
        for bar in bars.values():
            bar.close()


def _json_out(payload: Any) -> None:
    click.echo(json.dumps(payload, indent=2, sort_keys=True, default=str))


def _render_error(exc: StoreError, as_json: bool) -> None:
    if as_json:
        error: dict[str, Any] = {
            "type": type(exc).__name__,
            "message": exc.message,
            "fix": exc.fix,
        }
        if isinstance(exc, SelectionError):
            error["reason"] = exc.reason
        _json_out({"error": error})
    else:
        click.echo(f"error: {exc.message}", err=True)
        if exc.fix:
            click.echo(f"  fix: {exc.fix}", err=True)


def _handles_errors(func: F) -> F:
    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except StoreError as exc:
            _render_error(exc, bool(kwargs.get("as_json")))
            sys.exit(exc.exit_code)
        except BrokenPipeError:
            # The reader of our output went away (`| head`): click ends quietly, as
            # coreutils do; this is no error of the data dir.
            raise
        except OSError as exc:
            # Disk full, permissions, a vanished mount: the errno decides the class.
            ctx = click.get_current_context()
            root = ctx.find_root().obj
            error = os_error(
                exc,
                doing=f"lexicon-data {ctx.info_name}",
                data_dir=root if isinstance(root, Path) else default_data_dir(),
            )
            _render_error(error, bool(kwargs.get("as_json")))
            sys.exit(error.exit_code)

    return wrapper  # type: ignore[return-value]


def _size(text: str) -> int:
    match = re.fullmatch(r"\s*(\d+)\s*([KMG]?)i?B?\s*", text, re.IGNORECASE)
    if not match:
        raise click.BadParameter(f"{text!r} is not a size like 512M")
    return int(match.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[match.group(2).upper()]


def _selection_dict(selection: ActiveSelection) -> dict[str, Any]:
    return {
        "activation_id": selection.activation_id,
        "created": selection.created,
        "dataset_version": selection.dataset_version,
        "manifest_digest": selection.manifest_digest,
        "profile": selection.profile,
        "installed": {k: sorted(v) for k, v in sorted(selection.installed.items())},
    }


def _installed_text(installed: Mapping[str, frozenset[str]]) -> str:
    return "; ".join(f"{k}: {', '.join(sorted(v))}" for k, v in sorted(installed.items()))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Data dir (default: $LEXICON_DATA_DIR, else ~/.local/share/lexicon).",
)
@click.pass_context
def cli(ctx: click.Context, data_dir: Path | None) -> None:
    """Install, verify, switch and prune Lexicon datasets."""
    ctx.obj = data_dir


_from = click.option(
    "--from", "source", help="Release dir, its manifest.json, an http(s) URL or a template."
)
_trust = [
    click.option("--manifest-digest", help="Expected blake3:<hex> of an unpinned release."),
    click.option("--allow-unpinned", is_flag=True, help="Accept a release no pin vouches for."),
]
_json = click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")


def _with(options: list[Callable[[Any], Any]]) -> Callable[[F], F]:
    def apply(func: F) -> F:
        for option in reversed(options):
            func = option(func)
        return func

    return apply


# What every command on the data dir takes: --json, the group's --data-dir (passed first)
# and the rendering of store errors.
_on_data_dir = _with([_json, click.pass_obj, _handles_errors])


@cli.command()
@click.argument("built_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--dest", required=True, type=click.Path(file_okay=False, path_type=Path))
@click.option("--part-size", default=str(DEFAULT_PART_SIZE), help="Uncompressed bytes per part.")
@click.option("--level", default=3, show_default=True, help="zstd level.")
@_json
@_handles_errors
def package(built_dir: Path, dest: Path, part_size: str, level: int, as_json: bool) -> None:
    """Turn a built dataset dir into a release dir (manifest.json + parts)."""
    with _bars() as bars:
        result = package_release(
            built_dir, dest, part_size=_size(part_size), level=level, progress=bars
        )
    if as_json:
        _json_out(
            {
                "release_dir": str(result.release_dir),
                "manifest_digest": result.manifest_digest,
                "dataset_version": result.manifest.dataset_version,
                "compressed_bytes": result.compressed_bytes,
                "object_bytes": result.object_bytes,
            }
        )
        return
    click.echo(f"Packaged {result.manifest.dataset_version} into {result.release_dir}")
    click.echo(f"  manifest digest: {result.manifest_digest}")
    click.echo(f"  {result.object_bytes} bytes -> {result.compressed_bytes} compressed")
    click.echo(
        f"  install it with: lexicon-data install --from {result.release_dir} "
        f"--all-languages --manifest-digest {result.manifest_digest}"
    )


def _activation_dict(result: ops.ActivateResult | ops.InstallResult) -> dict[str, Any]:
    """What every command that switches the active selection reports first."""
    return {
        "activation_id": result.activation_id,
        "previous_activation": result.previous_activation,
        "dataset_version": result.dataset_version,
        "installed": {k: sorted(v) for k, v in result.installed.items()},
    }


def _echo_activation(result: ops.ActivateResult | ops.InstallResult) -> None:
    click.echo(f"Active: {result.dataset_version} (activation {result.activation_id})")
    click.echo(f"  serving {_installed_text(result.installed)}")


def _render_install(result: ops.InstallResult, as_json: bool) -> None:
    if as_json:
        _json_out(
            _activation_dict(result)
            | {
                "manifest_digest": result.manifest_digest,
                "trust": result.trust,
                "shortfalls": [asdict(s) for s in result.shortfalls],
                "objects_copied": result.stats.objects_copied,
                "objects_reused": result.stats.objects_reused,
            }
        )
        return
    _echo_activation(result)
    click.echo(
        f"  {result.stats.objects_copied} objects copied ({result.stats.object_bytes} bytes), "
        f"{result.stats.objects_reused} already present"
    )
    for s in result.shortfalls:
        click.echo(f"  note: {s.language} has no {s.capability} data ({s.reason})")


def _selection_options(*, adding: bool) -> Callable[[F], F]:
    """The options install and add-language share, declared once (help differs a little)."""
    return _with(
        [
            click.option(
                "--languages",
                required=adding,
                help="Comma-separated language codes" + (" to add." if adding else "."),
            ),
            click.option(
                "--capabilities",
                help="Default: the capabilities already installed."
                if adding
                else f"Comma-separated, from {','.join(CAPABILITIES)}.",
            ),
            click.option(
                "--version",
                "version",
                help="Must be the active dataset version."
                if adding
                else "Dataset version, e.g. starter-2026.11.0.",
            ),
            click.option(
                "--profile", help="Release profile (starter, full); fills {profile} in --from."
            ),
            _from,
            *_trust,
            _on_data_dir,
        ]
    )


def _install_with(
    operation: Callable[..., ops.InstallResult], as_json: bool, **options: Any
) -> None:
    """Run install or add-language (the options named as the library names them) with
    progress bars, and render what it did."""
    with _bars() as bars:
        result = operation(progress=bars, **options)
    _render_install(result, as_json)


@cli.command()
@click.option("--all-languages", is_flag=True, help="Every language the release carries.")
@_selection_options(adding=False)
def install(
    data_dir: Path | None,
    languages: str | None,
    capabilities: str | None,
    as_json: bool,
    **options: Any,
) -> None:
    """Install a selection of a release and make it active."""
    _install_with(
        ops.install,
        as_json,
        data_dir=data_dir,
        languages=parse_list(languages),
        capabilities=parse_list(capabilities),
        **options,
    )


@cli.command("add-language")
@_selection_options(adding=True)
def add_language(
    data_dir: Path | None, languages: str, capabilities: str | None, as_json: bool, **options: Any
) -> None:
    """Add languages to the active selection (fetches only what is new)."""
    _install_with(
        ops.add_language,
        as_json,
        data_dir=data_dir,
        languages=parse_list(languages) or [],
        capabilities=parse_list(capabilities),
        **options,
    )


@cli.command("remove-language")
@click.option("--languages", required=True, help="Comma-separated language codes to remove.")
@click.option("--version", "version", help="Must be the active dataset version if given.")
@_on_data_dir
def remove_language(
    data_dir: Path | None, languages: str, version: str | None, as_json: bool
) -> None:
    """Activate the current selection minus some languages (`prune` frees their space)."""
    if version is not None:
        active, _ = ops.languages(data_dir)
        if active.dataset_version != version:
            raise SelectionError(
                f"the active dataset is {active.dataset_version}, not {version}",
                fix=f"lexicon-data remove-language --languages {languages}",
            )
    result = ops.remove_language(data_dir=data_dir, languages=parse_list(languages) or [])
    _render_activate(result, as_json)


def _render_activate(result: ops.ActivateResult, as_json: bool) -> None:
    if as_json:
        _json_out(_activation_dict(result))
        return
    _echo_activation(result)
    if result.previous_activation and result.previous_activation != result.activation_id:
        click.echo(
            f"  switch back with: lexicon-data activate --activation {result.previous_activation}"
        )


@cli.command()
@click.option("--activation", "activation_id", required=True, help="A retained activation id.")
@_on_data_dir
def activate(data_dir: Path | None, activation_id: str, as_json: bool) -> None:
    """Switch to a retained activation (a pointer swap; nothing is copied)."""
    _render_activate(ops.activate(activation_id, data_dir=data_dir), as_json)


@cli.command()
@click.option("--activation", "activation_id", required=True, help="A retained activation id.")
@click.option("--remove", is_flag=True, help="Unpin instead.")
@click.pass_obj
@_handles_errors
def pin(data_dir: Path | None, activation_id: str, remove: bool) -> None:
    """Keep a retained activation whatever prune --drop-activations does; forget refuses it."""
    ops.pin(activation_id, data_dir=data_dir, pinned=not remove)
    click.echo(f"activation {activation_id} {'unpinned' if remove else 'pinned'}")


@cli.command()
@_on_data_dir
def activations(data_dir: Path | None, as_json: bool) -> None:
    """List retained activations (* active, + pinned)."""
    retained, current = ops.retained_activations(data_dir)
    pinned = ops.pinned(data_dir)
    if as_json:
        _json_out(
            {
                "current": current,
                "activations": [
                    _selection_dict(s)
                    | {"current": s.activation_id == current, "pinned": s.activation_id in pinned}
                    for s in retained
                ],
            }
        )
        return
    if not retained:
        click.echo("no activations retained")
    for s in retained:
        mark = "*" if s.activation_id == current else "+" if s.activation_id in pinned else " "
        click.echo(
            f"{mark} {s.activation_id}  {s.created[:19]}  {s.dataset_version}  "
            f"{_installed_text(s.installed)}"
        )


@cli.command()
@click.argument("language", required=False)
@_on_data_dir
def languages(data_dir: Path | None, language: str | None, as_json: bool) -> None:
    """What the active release carries and what this install serves (or one LANGUAGE)."""
    active, rows = ops.languages(data_dir)
    if language is not None:
        status = {cap: active.availability(language, cap) for cap in CAPABILITIES}
        if as_json:
            _json_out({"language": language, "capabilities": status})
        else:
            for cap, reason in status.items():
                click.echo(f"{language} {cap}: {reason or 'installed'}")
        return
    table: list[dict[str, Any]] = [
        {
            "code": r.code,
            "name": r.name,
            "available": sorted(r.available),
            "installed": sorted(r.installed),
            "capabilities": {c: active.availability(r.code, c) for c in CAPABILITIES},
        }
        for r in rows
    ]
    if as_json:
        _json_out({"dataset_version": active.dataset_version, "languages": table})
        return
    click.echo(
        f"{active.dataset_version}: {len(rows)} languages, "
        f"{sum(1 for r in rows if r.installed)} installed"
    )
    for entry in table:
        cells = "  ".join(
            f"{c}={'installed' if reason is None else reason}"
            for c, reason in entry["capabilities"].items()
        )
        click.echo(f"  {entry['code']:<6} {entry['name']:<20} {cells}")


@cli.command()
@_on_data_dir
def status(data_dir: Path | None, as_json: bool) -> None:
    """The active dataset and disk usage."""
    st = ops.status(data_dir)
    payload = {
        "data_dir": str(st.data_dir),
        "active": None if st.active is None else _selection_dict(st.active),
        "active_bytes": st.active_bytes,
        "retained_activations": st.retained_activations,
        "object_count": st.object_count,
        "object_bytes": st.object_bytes,
        "temporary_bytes": st.temporary_bytes,
        "reclaimable_bytes": st.reclaimable_bytes,
        "readers": [_reader_dict(r) for r in st.readers],
    }
    if as_json:
        _json_out(payload)
        return
    click.echo(f"data dir: {st.data_dir}")
    if st.active is None:
        from .selection import install_command

        click.echo(f"nothing active; install with: {install_command(st.data_dir)}")
    else:
        click.echo(f"active: {st.active.dataset_version} (activation {st.active.activation_id})")
        click.echo(f"  serving {_installed_text(st.active.installed)} ({st.active_bytes} bytes)")
    click.echo(
        f"{st.object_count} objects, {st.object_bytes} bytes; "
        f"{st.retained_activations} activations retained; {st.temporary_bytes} bytes temporary"
    )
    if st.reclaimable_bytes:
        click.echo(f"`lexicon-data prune` would free {st.reclaimable_bytes} bytes")
    click.echo(f"{len(st.readers)} live readers" + (":" if st.readers else ""))
    for reader in st.readers:
        click.echo(f"  {_reader_text(reader)}")


def _reader_dict(reader: ReaderLease) -> dict[str, Any]:
    return {
        "pid": reader.pid,
        "program": reader.program,
        "activation_id": reader.activation_id,
        "started": reader.started,
        "objects": len(reader.objects),
        "lease": str(reader.path),
    }


def _reader_text(reader: ReaderLease) -> str:
    return (
        f"pid {reader.pid} ({reader.program}) serving activation {reader.activation_id} "
        f"since {reader.started}"
    )


@cli.command()
@_on_data_dir
def verify(data_dir: Path | None, as_json: bool) -> None:
    """Re-hash every object the active selection uses."""
    with _bars() as bars:
        report = integrity.verify(data_dir, progress=bars)
    if as_json:
        _json_out(
            {
                "activation_id": report.activation_id,
                "dataset_version": report.dataset_version,
                "checked": report.checked,
                "checked_bytes": report.checked_bytes,
                "ok": report.ok,
                "problems": [asdict(p) for p in report.problems],
                "fix": None if report.ok else report.fix,
            }
        )
    else:
        click.echo(f"checked {report.checked} objects ({report.checked_bytes} bytes)")
        for p in report.problems:
            click.echo(f"  {p.kind}: {p.path} ({p.component}, {p.object})")
    if not report.ok:
        if not as_json:
            click.echo(f"  fix: {report.fix}", err=True)
        sys.exit(1)


@cli.command()
@_from
@_on_data_dir
def repair(data_dir: Path | None, source: str | None, as_json: bool) -> None:
    """Re-install damaged or missing objects of the active selection."""
    with _bars() as bars:
        result = integrity.repair(source=source, data_dir=data_dir, progress=bars)
    if as_json:
        _json_out(
            {
                "repaired": [asdict(p) for p in result.before.problems],
                "remaining": [asdict(p) for p in result.after.problems],
            }
        )
    else:
        click.echo(
            f"{len(result.before.problems)} damaged, "
            f"{result.stats.objects_copied} objects re-installed, "
            f"{len(result.after.problems)} problems remain"
        )
    if not result.after.ok:
        sys.exit(1)


# prune and forget: both free objects, and both can show what they would do first.
_dry_run = click.option(
    "--dry-run", is_flag=True, help="Show what would be forgotten and freed; change nothing."
)


def _render_prune(plan: gc.PrunePlan, dry_run: bool, as_json: bool) -> None:
    if as_json:
        _json_out(
            {
                "dry_run": dry_run,
                "kept_activations": list(plan.kept_activations),
                "dropped_activations": list(plan.dropped_activations),
                "objects": [{"path": str(p), "size": s} for p, s in plan.objects],
                "temporary": [{"path": str(p), "size": s} for p, s in plan.temporary],
                "freed_bytes": plan.freed_bytes,
                "readers": [_reader_dict(r) for r in plan.readers],
                "kept_for_readers": [{"path": str(p), "size": s} for p, s in plan.kept_for_readers],
            }
        )
        return
    verb = "would free" if dry_run else "freed"
    click.echo(
        f"{verb} {plan.freed_bytes} bytes: {len(plan.objects)} objects, "
        f"{len(plan.temporary)} temporary files; "
        f"{len(plan.kept_activations)} activations kept, "
        f"{len(plan.dropped_activations)} forgotten"
    )
    for activation_id in plan.dropped_activations:
        click.echo(f"  {'would forget' if dry_run else 'forgot'} activation {activation_id}")
    if plan.kept_for_readers:
        click.echo(
            f"kept {len(plan.kept_for_readers)} objects ({plan.kept_for_readers_bytes} bytes) "
            "that running readers still serve; they are freed by a prune after those exit:"
        )
        for reader in plan.readers:
            click.echo(f"  {_reader_text(reader)}")


@cli.command()
@click.option(
    "--drop-activations",
    is_flag=True,
    help="Also forget retained activations beyond --keep (never the current or pinned ones).",
)
@click.option(
    "--keep",
    type=int,
    default=None,
    help="With --drop-activations: unpinned activations to keep besides the current one.",
)
@_dry_run
@_on_data_dir
def prune(
    data_dir: Path | None, drop_activations: bool, keep: int | None, dry_run: bool, as_json: bool
) -> None:
    """Free the objects no retained activation references (every activation is kept)."""
    if keep is not None and not drop_activations:
        raise click.UsageError(
            "--keep applies only with --drop-activations; a plain prune keeps every "
            "retained activation (to forget old ones: prune --drop-activations --keep N)"
        )
    wanted = gc.Forget(keep_recent=keep or 0) if drop_activations else None
    _render_prune(gc.prune(data_dir, forget=wanted, dry_run=dry_run), dry_run, as_json)


@cli.command()
@click.option(
    "--activation",
    "activation_ids",
    required=True,
    multiple=True,
    help="A retained activation to forget (repeatable); not the current or a pinned one.",
)
@_dry_run
@_on_data_dir
def forget(
    data_dir: Path | None, activation_ids: tuple[str, ...], dry_run: bool, as_json: bool
) -> None:
    """Forget retained activations, then free the objects only they referenced."""
    _render_prune(gc.forget(activation_ids, data_dir, dry_run=dry_run), dry_run, as_json)


# --- fetch (lexicon_store/fetch.py) ---


@cli.command()
@click.option("--version", "version", required=True, help="Dataset version to mirror.")
@click.option("--profile", help="Release profile (starter, full); fills {profile} in --from.")
@click.option("--languages", help="Mirror only these languages (plus shared components).")
@click.option("--capabilities", help=f"With --languages: from {','.join(CAPABILITIES)}.")
@click.option("--all-languages", is_flag=True, help="Every language (same as a whole profile).")
@click.option("--dest", required=True, type=click.Path(file_okay=False, path_type=Path))
@_from
@_with(_trust)
@_on_data_dir
def fetch(
    data_dir: Path | None,
    languages: str | None,
    capabilities: str | None,
    all_languages: bool,
    dest: Path,
    as_json: bool,
    **choice: Any,
) -> None:
    """Mirror a release into DEST (parts verified, manifest.json last) for install --from.

    Resumable and idempotent; never touches the data dir.
    """
    from .fetch import fetch_release  # keeps httpx out of every other command

    if not (choice["profile"] or languages or all_languages):
        raise click.UsageError("pass --profile NAME, or --languages (or --all-languages)")
    with _bars(keep="fetch") as bars:
        result = fetch_release(
            dest,
            languages=parse_list(languages),
            capabilities=parse_list(capabilities),
            all_languages=all_languages,
            progress=bars,
            **choice,  # the release and its trust, named as ReleaseChoice names them
        )
    if as_json:
        _json_out(asdict(result))
        return
    click.echo(
        f"mirrored {result.dataset_version} into {result.dest}: {result.parts} parts "
        f"({result.parts_reused} already valid), {result.bytes_received} bytes downloaded"
    )
    click.echo(
        f"  on the target machine: lexicon-data install --from {result.dest} "
        f"--version {result.dataset_version} "
        + (f"--languages {languages}" if languages else "--all-languages")
    )


def main() -> None:
    cli()


if __name__ == "__main__":
    main()
