"""`lexicon-build`: the one place its commands are mounted.

The builder's commands (`lexicon_server.builder.cli`: fetch, verify and lock sources,
build, check the text) and the release commands (`lexicon_server.release.cli`: the
one-command start, accept, stage, publish) share one group. Run it as `lexicon-build`
or `python -m lexicon_server.build_cli`.
"""

from __future__ import annotations

import click

from lexicon_server.builder.cli import COMMANDS as BUILDER_COMMANDS
from lexicon_server.release.cli import COMMANDS as RELEASE_COMMANDS

__all__ = ["main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Build Lexicon corpora from upstream sources."""


for _command in (*BUILDER_COMMANDS, *RELEASE_COMMANDS):
    main.add_command(_command)

if __name__ == "__main__":
    main()
