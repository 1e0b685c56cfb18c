"""Files that ship inside the package: the source lock and the licence texts.

They are kept once, at the repository root. A built wheel carries them under
`lexicon_server/_data/` (pyproject's hatch `force-include`), so a tool install with no
checkout reads them through importlib.resources. A checkout (an editable install) has no
`_data/` folder inside the package, so there the repository's own file is the answer.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["SHIPPED", "in_checkout", "package_file"]

# Name -> why it ships. Everything here is force-included by pyproject.toml.
SHIPPED = {
    "sources.lock.json": "pins every starter source; `lexicon-build` reads it",
    "LICENSE": "the code's licence (Apache-2.0)",
    "DATA_LICENSES.md": "licences of the test fixtures and the starter sources",
}

_PACKAGE = "lexicon_server"
_FOLDER = "_data"


def _checkout_root() -> Path:
    return Path(__file__).resolve().parent.parent


def in_checkout() -> bool:
    """True when the package is imported from a source checkout, not from a built wheel."""
    shipped = resources.files(_PACKAGE).joinpath(_FOLDER)
    return not shipped.is_dir() and (_checkout_root() / "pyproject.toml").is_file()


def package_file(name: str) -> Path:
    """The path of a shipped file: inside the installed package, else the checkout's copy."""
    if name not in SHIPPED:
        raise KeyError(f"{name!r} is not one of the files Lexicon ships ({', '.join(SHIPPED)})")
    shipped = resources.files(_PACKAGE).joinpath(_FOLDER, name)
    if shipped.is_file():
        # A wheel install unpacks into a real directory, so the resource is a real path.
        return Path(str(shipped))
    return _checkout_root() / name
