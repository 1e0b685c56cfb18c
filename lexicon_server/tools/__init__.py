"""Thin MCP tool registrations; each module exposes `register(server, corpus)`."""

__all__: list[str] = []
