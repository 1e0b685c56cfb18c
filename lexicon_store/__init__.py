"""Content-addressed dataset manager for Lexicon releases."""

__all__: list[str] = []
