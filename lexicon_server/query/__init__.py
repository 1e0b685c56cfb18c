"""Plain query functions over the read-only corpus; the MCP tools are thin wrappers on these."""

__all__: list[str] = []
