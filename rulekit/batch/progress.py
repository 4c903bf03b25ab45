# SPDX-License-Identifier: MIT
"""A transient progress display on standard error while long work runs (batches, `rulekit autoplay`)."""
from __future__ import annotations

import contextlib
import sys


def with_progress(total, label, work):
    """Run ``work(tick)`` with a progress bar on standard error whenever that is a terminal."""
    with stderr_progress(label, total) as update:
        return work(update and (lambda n: update(n)))


@contextlib.contextmanager
def stderr_progress(label: str, total: int | None, quiet_stdout: bool = True):
    """A transient progress display on standard error while it is a terminal, so that it
    never mixes with a report on standard output or in a file. Yields ``update(advance,
    text)``, or None when there is nothing to show: standard error is not a terminal, or
    standard output is one that already shows every step (``quiet_stdout`` false)."""
    if not sys.stderr.isatty() or (not quiet_stdout and sys.stdout.isatty()):
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
    columns = () if total else (SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True, redirect_stdout=False,
                  redirect_stderr=False) as progress:
        task = progress.add_task(label, total=total)
        yield lambda advance=0, text=None: progress.update(task, advance=advance, description=text or label)
