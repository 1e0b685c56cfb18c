"""Release acceptance and publishing: the gates a release must pass, the acceptance report,
and the maintainer's stage and publish commands (docs/releasing.md)."""

__all__: list[str] = []
