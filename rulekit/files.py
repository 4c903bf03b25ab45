# SPDX-License-Identifier: MIT
"""Writing files so that nothing the user had is lost, and nothing rulekit does not own
is replaced.

Every regular file rulekit replaces (logs, saves, reports, plots, listings, schemas,
cache files) is written to a temporary file in the same folder and then moved over the
old one with ``os.replace``: a reader, a full disk, Ctrl-C or a kill in the middle sees
the old file whole or the new one whole, never half of either.

An output that exists and is not a regular file is not rulekit's to replace: a character
device or a named pipe (``/dev/null``, a terminal, a FIFO) is written in place, a path
naming one of the process's open descriptors (``/dev/stdout``, ``/dev/fd/N``) is written
to that descriptor, and anything else (a folder, a block device, a socket) is refused.
"""
from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
import tempfile

from .errors import UsageError
from .source import file_kind

_LINKS = 40    # links followed at most when looking for a descriptor's path


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomic(path, data: bytes, mode: int | None = None, durable: bool = True, follow: bool = True) -> None:
    """Replace the regular file ``path`` by ``data`` all at once (OSError when it cannot be
    written, or when ``path`` is there and not a regular file).

    The new file keeps the old one's permissions (a new one gets ``mode``, else the
    usual 0666 less the umask). A symbolic link is followed, not replaced; with
    ``follow=False`` whatever is at the name (a link, a pipe) is replaced itself and what
    it pointed to is untouched (cache files). ``durable`` also flushes it to the disk
    before the move (a cache need not survive a power cut)."""
    path = os.fspath(path)
    if follow:
        path = os.path.realpath(path)
    try:
        info = os.stat(path) if follow else os.lstat(path)
    except FileNotFoundError:
        info = None
    if follow and info is not None and not stat.S_ISREG(info.st_mode):
        raise OSError(errno.EINVAL, "not a regular file", path)
    if mode is None:
        regular = info is not None and stat.S_ISREG(info.st_mode)
        mode = info.st_mode & 0o7777 if regular else 0o666 & ~_umask()
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
    """Write a user's output file (UTF-8, ``\\n`` lines): see :func:`write_bytes`."""
    write_bytes(path, text.encode("utf-8", "surrogateescape"), make_folder)


def write_bytes(path: str, data: bytes, make_folder: bool = False) -> None:
    """Write a user's output file: a regular (or new) one atomically, a device or pipe in
    place, an open descriptor's path to that descriptor. Any failure is a usage error
    (exit 2) naming the path. ``make_folder`` creates its folder first."""
    path = os.fspath(path)
    folder = os.path.dirname(path)
    try:
        if folder and make_folder:
            if os.path.exists(folder) and not os.path.isdir(folder):
                raise UsageError(f"cannot write `{path}`: `{folder}` is a file, not a folder")
            os.makedirs(folder, exist_ok=True)
        how, fd = _plan(path)
        if how == "descriptor":
            _flush_standard_streams()
            _write_all(fd, data)
        elif how == "in place":
            _write_in_place(path, data)
        else:
            write_atomic(path, data)
    except OSError as exc:
        raise UsageError(f"cannot write `{path}`: {exc.strerror or exc}") from None


def check_writable(path: str) -> None:
    """Fail now (exit 2) if ``path`` cannot be written later by :func:`write_bytes`: its
    folder is missing or not writable, or it is something that is never written (a
    folder, a block device, a socket). For outputs written after a long run (a pipe's
    reader may come later: only a pipe no one reads when it is written is an error)."""
    how, _fd = _plan(path)
    if how == "descriptor":
        return
    if how == "in place":
        if not os.access(path, os.W_OK):
            raise UsageError(f"cannot write `{path}`: permission denied")
        return
    target = os.path.realpath(path)
    folder = os.path.dirname(target)
    if not os.path.isdir(folder):
        shown = (os.path.dirname(path) or ".") if target == os.path.abspath(path) else folder
        raise UsageError(f"cannot write `{path}`: no folder `{shown}`")
    if not os.access(folder, os.W_OK) or (os.path.exists(target) and not os.access(target, os.W_OK)):
        raise UsageError(f"cannot write `{path}`: permission denied")


def _plan(path: str) -> tuple[str, int | None]:
    """How ``path`` is written: ``("descriptor", fd)``, ``("in place", None)`` for a device
    or a pipe, ``("replace", None)`` for a regular or new file; a usage error for what is
    never written."""
    fd = _descriptor(path)
    if fd is not None:
        try:
            info = os.fstat(fd)
        except OSError:
            raise UsageError(f"cannot write `{path}`: descriptor {fd} is not open") from None
        _refuse(path, info.st_mode, in_place=True)
        return "descriptor", fd
    try:
        info = os.stat(path)
    except OSError:   # missing (or unreachable: the write itself says why)
        return "replace", None
    if stat.S_ISREG(info.st_mode):
        return "replace", None
    _refuse(path, info.st_mode)
    return "in place", None


def _refuse(path: str, mode: int, in_place: bool = False) -> None:
    """A usage error unless ``mode`` is a character device or a pipe (any descriptor but a
    folder when ``in_place``: a socket or a file the caller opened is written as it is)."""
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode) or (in_place and not stat.S_ISDIR(mode)):
        return
    raise UsageError(f"cannot write `{path}`: it is {file_kind(mode)}")


def _descriptor(path: str) -> int | None:
    """The open descriptor ``path`` names (``/dev/stdout``, ``/dev/fd/N``,
    ``/proc/self/fd/N``, or a link to one), else None: writing it by name would open it
    afresh (or replace the file behind it) instead of going on where the caller's
    descriptor stands."""
    folders = {os.path.realpath(f) for f in ("/proc/self/fd", "/dev/fd") if os.path.isdir(f)}
    if not folders:
        return None
    here = os.path.abspath(path)
    for _step in range(_LINKS):
        head, name = os.path.split(here)
        if name.isdigit() and os.path.realpath(head) in folders:
            return int(name)
        try:
            target = os.readlink(here)
        except OSError:
            return None
        here = os.path.normpath(os.path.join(head, target))
    return None


def _write_in_place(path: str, data: bytes) -> None:
    """Write a character device or a pipe through an ordinary open (never created, never
    truncated, never renamed over); a pipe no process reads is an error, not a hang."""
    flags = os.O_WRONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise UsageError(f"cannot write `{path}`: it is a named pipe (FIFO) that no process is reading") from None
        raise
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISREG(mode):    # it changed since it was looked at
            raise OSError(errno.EAGAIN, "it changed while being opened")
        _refuse(path, mode)
        os.set_blocking(fd, True)
        _write_all(fd, data)
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _flush_standard_streams() -> None:
    """What Python holds for stdout and stderr goes first (a descriptor is written directly)."""
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        with contextlib.suppress(Exception):
            stream.flush()
