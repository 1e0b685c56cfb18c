"""Offline MCP server and corpus builder for Lexicon."""

__all__: list[str] = []
