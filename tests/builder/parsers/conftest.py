"""Shared paths for the parser tests: the committed slices of real upstream files."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.fixture(scope="session")
def fixtures() -> Path:
    return FIXTURES
