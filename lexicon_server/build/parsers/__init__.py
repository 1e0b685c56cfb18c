"""Streaming parsers, one module per upstream format."""

__all__: list[str] = []
