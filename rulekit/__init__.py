# SPDX-License-Identifier: MIT
"""rulekit: board-game rules as content. One generic engine interprets any game
written as YAML plus a small effect language."""

__all__ = ["load_game", "Game", "GameState", "new_game", "apply", "apply_index", "legal_actions", "prompt",
           "current_players", "RulekitError", "DiagnosticReport", "IllegalAction"]
__version__ = "0.1.0"
_loading = [False]


def __getattr__(name: str):
    """The public names (and the subpackages they bring), imported on first use: importing ``rulekit``
    itself loads nothing, so the command line handles Ctrl-C from its first instruction (cli/entry.py)."""
    if name.startswith("__") or _loading[0]:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    _loading[0] = True
    try:
        from .engine.api import apply, apply_index, current_players, legal_actions, new_game, prompt
        from .engine.state import State as GameState
        from .errors import DiagnosticReport, IllegalAction, RulekitError
        from .games import load_game
        from .model import Game
    finally:
        _loading[0] = False
    globals().update(apply=apply, apply_index=apply_index, current_players=current_players,
                     legal_actions=legal_actions, new_game=new_game, prompt=prompt, GameState=GameState,
                     DiagnosticReport=DiagnosticReport, IllegalAction=IllegalAction, RulekitError=RulekitError,
                     load_game=load_game, Game=Game)
    if name not in globals():
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return globals()[name]


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
