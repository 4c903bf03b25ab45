# SPDX-License-Identifier: MIT
"""Pictures of batch results (`simulate --plot`, `--compare`, `--sweep`): matplotlib, an optional
extra, imported only when a plot is asked for, and a figure written as a user's output file."""
from __future__ import annotations

import io

from ..errors import UsageError
from ..extras import needs
from ..files import write_bytes


def pyplot():
    """matplotlib's pyplot drawing off screen, or the usage error that says how to install it."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UsageError(needs("--plot", "plot")) from None
    return plt


def save(plt, fig, path: str) -> None:
    """Write ``fig`` to ``path`` as a PNG (atomically, as every output file), and free it."""
    picture = io.BytesIO()
    try:
        fig.savefig(picture, format="png")
    finally:
        plt.close(fig)
    write_bytes(path, picture.getvalue())
