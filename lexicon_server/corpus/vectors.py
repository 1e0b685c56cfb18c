"""Rows of a float16 `.npy` matrix, read with `pread` rather than memory-mapped.

A mapped file that is truncated underneath its reader raises SIGBUS on the next access
to a lost page, and no Python code can catch that: the whole server dies. Reading rows
with `pread` turns the same damage into a short read, which fails one call with
`DamagedComponent`. A search reads a few dozen rows of ~100 bytes, so the cost is a few
tens of microseconds.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from lexicon_server.corpus.reader import DamagedComponent

if TYPE_CHECKING:
    import numpy as np

    from lexicon_store.selection import ActiveSelection

__all__ = ["RowFile"]


# Rows whose gap is at most this many bytes are read together (see RowFile.rows): one
# larger read costs less than two system calls.
_GAP_BYTES = 8192


class RowFile:
    """A 2-D C-ordered `.npy` array on disk, read a few rows at a time."""

    def __init__(self, selection: ActiveSelection, relative: str) -> None:
        import numpy as np
        from numpy.lib import format as npy

        self._selection = selection
        self._relative = relative
        path = selection.files[relative]
        try:
            self._fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError as exc:
            raise DamagedComponent(selection, relative, f"cannot be opened ({exc})") from None
        try:
            with os.fdopen(os.dup(self._fd), "rb") as handle:
                version = npy.read_magic(handle)
                reader = (
                    npy.read_array_header_1_0 if version == (1, 0) else npy.read_array_header_2_0
                )
                shape, fortran, dtype = reader(handle)
                self._offset = handle.tell()
        except (OSError, ValueError) as exc:
            os.close(self._fd)
            raise DamagedComponent(selection, relative, f"has no valid header ({exc})") from None
        if len(shape) != 2 or fortran:
            os.close(self._fd)
            raise DamagedComponent(selection, relative, f"is not a 2-D C array ({shape})")
        self.dtype: np.dtype[Any] = np.dtype(dtype)
        self.shape: tuple[int, int] = (int(shape[0]), int(shape[1]))
        self._row_bytes = self.shape[1] * self.dtype.itemsize
        expected = self._offset + self.shape[0] * self._row_bytes
        size = os.fstat(self._fd).st_size
        if size < expected:
            os.close(self._fd)
            raise DamagedComponent(
                selection, relative, f"is truncated ({size} bytes, its header needs {expected})"
            )

    def __len__(self) -> int:
        return self.shape[0]

    def _read(self, first: int, count: int) -> bytes:
        want = count * self._row_bytes
        data = os.pread(self._fd, want, self._offset + first * self._row_bytes)
        if len(data) != want:
            raise DamagedComponent(
                self._selection,
                self._relative,
                f"is truncated (rows {first}..{first + count - 1} cannot be read)",
            )
        return data

    def row(self, index: int) -> np.ndarray[Any, Any]:
        import numpy as np

        if not 0 <= index < self.shape[0]:
            raise IndexError(index)
        row = np.frombuffer(self._read(index, 1), dtype=self.dtype)
        if not np.isfinite(row).all():
            raise DamagedComponent(
                self._selection, self._relative, f"holds values that are not numbers (row {index})"
            )
        return row

    def rows(self, keys: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        """The rows `keys` (ascending), as one (len(keys), dim) array. Rows less than
        `_GAP_BYTES` apart are read with one `pread` (the rows between read and dropped): a
        spelling-pattern search asks for thousands of scattered rows."""
        import numpy as np

        out = np.empty((len(keys), self.shape[1]), dtype=self.dtype)
        if len(keys) == 0:
            return out
        if int(keys[0]) < 0 or int(keys[-1]) >= self.shape[0]:
            raise IndexError(f"row out of range 0..{self.shape[0] - 1}")
        gap = max(1, _GAP_BYTES // self._row_bytes)
        cuts = (np.flatnonzero(np.diff(keys) > gap) + 1).tolist()
        for start, end in zip([0, *cuts], [*cuts, len(keys)], strict=True):
            first, last = int(keys[start]), int(keys[end - 1])
            block = np.frombuffer(self._read(first, last - first + 1), dtype=self.dtype)
            out[start:end] = block.reshape(-1, self.shape[1])[keys[start:end] - first]
        finite = np.isfinite(out).all(axis=1)
        if not finite.all():
            # The builder writes finite vectors only: these bytes were overwritten.
            bad = int(keys[int(np.flatnonzero(~finite)[0])])
            raise DamagedComponent(
                self._selection, self._relative, f"holds values that are not numbers (row {bad})"
            )
        return out

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray[Any, Any]:
        """The whole matrix (for tests and tools; a query reads only the rows it needs)."""
        import numpy as np

        whole = np.frombuffer(self._read(0, self.shape[0]), dtype=self.dtype)
        whole = whole.reshape(self.shape)
        return whole if dtype is None else whole.astype(dtype)

    def close(self) -> None:
        fd, self._fd = self._fd, -1
        if fd >= 0:
            os.close(fd)
