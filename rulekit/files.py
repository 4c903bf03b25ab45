# SPDX-License-Identifier: MIT
"""Writing files so that nothing the user had is lost.

Every file rulekit replaces (logs, saves, reports, plots, listings, schemas, cache
files) is written to a temporary file in the same folder and then moved over the old
one with ``os.replace``: a reader, a full disk, Ctrl-C or a kill in the middle sees the
old file whole or the new one whole, never half of either.
"""
from __future__ import annotations

import contextlib
import os
import tempfile

from .errors import UsageError


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomic(path, data: bytes, mode: int | None = None, durable: bool = True) -> None:
    """Replace ``path`` by ``data`` all at once (OSError when it cannot be written).

    The new file keeps the old one's permissions (a new one gets ``mode``, else the
    usual 0666 less the umask); a symbolic link is followed, not replaced. ``durable``
    also flushes it to the disk before the move (a cache need not survive a power cut)."""
    path = os.path.realpath(os.fspath(path))
    if mode is None:
        try:
            mode = os.stat(path).st_mode & 0o7777
        except OSError:
            mode = 0o666 & ~_umask()
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=f".{os.path.basename(path)}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:   # Ctrl-C too: the old file stays, the temporary one goes
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_text(path: str, text: str, make_folder: bool = False) -> None:
    """Write a user's output file atomically (UTF-8, ``\\n`` lines); any failure is a
    usage error (exit 2) naming the path. ``make_folder`` creates its folder first."""
    folder = os.path.dirname(path)
    try:
        if folder and make_folder:
            if os.path.exists(folder) and not os.path.isdir(folder):
                raise UsageError(f"cannot write `{path}`: `{folder}` is a file, not a folder")
            os.makedirs(folder, exist_ok=True)
        if os.path.isdir(path):
            raise UsageError(f"cannot write `{path}`: it is a folder")
        write_atomic(path, text.encode("utf-8", "surrogateescape"))
    except OSError as exc:
        raise UsageError(f"cannot write `{path}`: {exc.strerror or exc}") from None


def check_writable(path: str) -> None:
    """Fail now (exit 2) if ``path`` cannot be written later: its folder is missing or not
    writable, or it is a folder. For outputs written after a long run."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise UsageError(f"cannot write `{path}`: it is a folder")
    if not os.path.isdir(folder):
        raise UsageError(f"cannot write `{path}`: no folder `{os.path.dirname(path) or '.'}`")
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise UsageError(f"cannot write `{path}`: permission denied")
