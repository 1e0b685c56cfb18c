"""The corpus format: schema files and the read-only reader."""

__all__: list[str] = []
