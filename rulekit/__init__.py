# SPDX-License-Identifier: MIT
"""rulekit: board-game rules as content. One generic engine interprets any game
written as YAML plus a small effect language."""
from .engine.api import apply, apply_index, current_players, legal_actions, new_game, prompt
from .engine.state import State as GameState
from .errors import DiagnosticReport, IllegalAction, RulekitError
from .games import load_game
from .model import Game

__all__ = ["load_game", "Game", "GameState", "new_game", "apply", "apply_index", "legal_actions", "prompt",
           "current_players", "RulekitError", "DiagnosticReport", "IllegalAction"]
__version__ = "0.1.0"
