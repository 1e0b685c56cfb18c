"""Helpers shared by several test areas (importable as `_support`: pytest puts `tests/` on
the path through `pythonpath` in pyproject.toml)."""

__all__: list[str] = []
