"""The corpus builder: parsers for upstream formats and the writers of the corpus."""

__all__: list[str] = []
