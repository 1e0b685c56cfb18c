"""What every build stage is handed: the output directory, the inputs and the profile.

Its own module so that the stages (stages.py) and the plan that lists them (plan.py)
both import it and neither imports the other back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from lexicon_server.builder.inputs import Inputs

__all__ = ["BuildContext", "Progress"]

Progress = Callable[[str], None]


@dataclass(frozen=True)
class BuildContext:
    out: Path
    inputs: Inputs
    profile: str
    dataset_version: str
    say: Progress
