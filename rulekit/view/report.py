# SPDX-License-Identifier: MIT
"""How results and view values read in the terminal and in pictures (shared by the commands)."""
from __future__ import annotations

from ..engine.state import PLAYERS


def show_value(value) -> str:
    """A view value as people read it: `-` for none, yes/no, lists in brackets."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return "[" + ", ".join(show_value(v) for v in value) + "]"
    return str(value)


def score_table(state, you: int | None = None):
    """The final scoring as a rich Table: a column per category, players in ranking order."""
    from rich.markup import escape
    from rich.table import Table
    result = state.result
    cats = [c for c, _t, _f in state.game.scoring.categories]
    title = f"{state.game.title}: final scoring after {state.game.round_name} {state.g.get('round')}"
    table = Table(title=title, min_width=len(title))   # a narrow table would wrap its title
    table.add_column("player")
    for c in cats:
        table.add_column(c, justify="right")
    table.add_column("total", justify="right", style="bold")
    for heading in tiebreak_headings(state.game.scoring):
        table.add_column(escape(heading), justify="right", style="dim")   # a name is text, never markup
    for player in result["ranking"]:
        row = result["scores"][player]
        name = player + (" (you)" if you is not None and player == str(PLAYERS[you]) else "") \
            + (" (may not win)" if row.get("eligible") is False else "")
        table.add_row(name, *[str(row["breakdown"].get(c)) for c in cats], str(row["total"]),
                      *[show_value(v) for v in row["tiebreak"]])
    return table


def tiebreak_headings(scoring) -> list[str]:
    """Each tie-break's column heading: its name (`id:`), else `tie-break N` (`tie-break` alone)."""
    ties = len(scoring.tiebreak)
    names = scoring.tiebreak_names or (None,) * ties
    return [name if name is not None else "tie-break" if ties == 1 else f"tie-break {i + 1}"
            for i, name in enumerate(names)]


def winners_line(result) -> str:
    winners = result["winners"]
    return ("winner: " if len(winners) == 1 else "shared victory: ") + ", ".join(winners)
