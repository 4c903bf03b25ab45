# SPDX-License-Identifier: MIT
"""One game played by learning agents: who is to act, their legal action ids and masks,
their observations, an action id applied, the rewards at the end.

The PettingZoo environments (rl/pettingzoo.py) and the Gymnasium one (rl/gym_env.py)
are thin shells over this. Action ids are the game's fixed vocabulary (rl/actions.py):
id ``i`` is always the notation ``vocabulary.notations[i]``. Each decision's legal notations
are looked up in it once, an option naming an item hidden from its seat, or printing a value
hidden from it (a :class:`~rulekit.engine.redact.Marked` label the seat reads with a ``?``),
taking a blind slot instead (rl/actions.py); a legal option the vocabulary has no id for (a
number past ``max_number``, blind options past the slots) is left out of the mask with one warning
(``unmapped`` counts them). What each
seat sees follows the state's log (rl/observe_log.py): a change made to ``state`` by hand,
not through the engine, needs :meth:`Play.touch`.
"""
from __future__ import annotations

import warnings

import numpy as np

from ..engine import api
from ..engine.redact import Marked
from ..engine.state import PLAYERS
from ..engine.view import sight
from ..games import load_game
from .actions import has_secrets, vocabulary
from .observe import Observer

REWARDS = ("win", "score")


def load(game, variants=()):
    """A loaded game from a Game, a shipped game's name or a folder."""
    return load_game(game, tuple(variants)) if isinstance(game, str) else game


class Play:
    """A game of ``n`` seats, its vocabulary and observer, and the state being played."""

    def __init__(self, game, players: int | None = None, variants=(), reward: str = "win",
                 max_number: int | None = None):
        game = load(game, variants)
        n = game.default_players if players is None else players
        if not game.min_players <= n <= game.max_players:
            raise ValueError(f"{game.title} is for {game.min_players}-{game.max_players} players, not {n}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be 'win' or 'score', not {reward!r}")
        self.game, self.n, self.reward_mode = game, n, reward
        self.vocabulary = vocabulary(game, max_number)
        self._secrets = has_secrets(game)
        self.observer = Observer(game, n)
        self.state = None
        self.unmapped = 0
        self._warned = False
        self._legal: dict = {}

    @property
    def num_distinct_actions(self) -> int:
        return self.vocabulary.num_distinct_actions

    def start(self, seed: int) -> None:
        self.state = api.new_game(self.game, self.n, seed)
        self.touch()

    def touch(self) -> None:
        """The state was changed by hand: forget the legal ids listed and what each seat saw."""
        self._legal = {}
        self.observer.forget()

    def acted(self) -> None:
        """An action was applied through the engine: forget the legal ids listed (what each seat
        sees follows the state's log)."""
        self._legal = {}

    def acting(self) -> list[int]:
        """The seats the game waits for (several in a ``choose_all``)."""
        return list(api.current_players(self.state))

    def _decision(self, seat: int):
        pending = self.state.pending
        return pending if seat == pending.player else pending.focus(seat)

    def legal(self, seat: int) -> dict:
        """Action id -> option index of ``seat``'s decision (empty when it is not to act). An option
        naming an item hidden from the seat (a blind pick), or printing a value hidden from it (its
        label Marked, read with a ``?``), takes the next blind slot, never its notation's id, which
        would tell the seat which hidden items are there or what the value is (rl/actions.py)."""
        found = self._legal.get(seat)
        if found is None:
            s = self.state
            found = {}
            if s.pending is not None and seat in s.pending.players:
                vocab = self.vocabulary
                ids, naming = vocab.ids, vocab.naming if self._secrets else ()
                seen = None
                blind = 0
                for index, label in enumerate(self._decision(seat).labels):
                    i = ids.get(label)
                    if label.__class__ is Marked or (i is not None and i in naming):
                        if seen is None:
                            seen = sight(s, seat)
                        if seen.blind(label):
                            i = vocab.blind_id(blind)
                            blind += 1
                            if i is None:
                                self._unmapped(seat, label, f"more options name items or print values hidden from "
                                                            f"{PLAYERS[seat]} than the {vocab.blind} blind slots")
                                continue
                    if i is None:
                        self._unmapped(seat, label, f"a number past max_number={vocab.max_number}?")
                    else:
                        found[i] = index
            self._legal[seat] = found
        return found

    def _unmapped(self, seat: int, label: str, why: str) -> None:
        """Count a legal option without an id; warn once, naming it as the seat may read it."""
        self.unmapped += 1
        if not self._warned:
            self._warned = True
            label = sight(self.state, seat).text(label)
            warnings.warn(f"the legal action {label!r} has no id in the game's vocabulary ({why}): it is left out "
                          "of the mask", stacklevel=3)

    def mask(self, seat: int) -> np.ndarray:
        """``seat``'s legal ids as an int8 vector of ones (filled as bytes: a fancy index costs more)."""
        out = bytearray(self.num_distinct_actions)
        for i in self.legal(seat):
            out[i] = 1
        return np.frombuffer(out, dtype=np.int8)

    def to_move(self, seat: int) -> int | None:
        """The seat ``seat`` sees to act: itself while it is among those deciding."""
        pending = self.state.pending
        if pending is None:
            return None
        return seat if seat in pending.players else pending.player

    def observation(self, seat: int, normalize: bool = True) -> np.ndarray:
        """``seat``'s observation vector (a copy: the observer follows the state's log in place)."""
        seen = self.observer.follow.look(self.state, seat, self.to_move(seat))
        return (seen.norm_vec if normalize else seen.raw_vec).copy()

    def planes(self, seat: int, normalize: bool = True) -> dict:
        """Board name -> its planes as ``seat`` sees them (rl/board_planes.py); empty without boards."""
        return self.observer.planes(self.state, seat, self.to_move(seat), normalize) if self.observer.boards else {}

    def apply(self, seat: int, action: int) -> bool:
        """Play action id ``action`` for ``seat``: False (nothing changes) when it is not legal."""
        index = self.legal(seat).get(action)
        if index is None:
            return False
        s = self.state
        if s.pending.player != seat:
            s.pending = s.pending.focus(seat)
        api.apply_index(s, index, atomic=False)     # a content error ends the episode: nothing to roll back to
        self.acted()
        return True

    def legal_notations(self, seat: int) -> list[str]:
        """The seat's legal options, in the order of their ids, as the seat may read them
        (view.sight: an item hidden from it named by its kind, a blind pick's options numbered
        as `rulekit play` lists them); the log's notation is what ``legal`` maps to the option."""
        legal = self.legal(seat)
        if not legal:
            return []
        shown = sight(self.state, seat).labels(self._decision(seat).labels)
        return [shown[legal[i]] for i in sorted(legal)]

    def final_rewards(self) -> dict:
        """Seat -> reward at the end: win +1 / others -1 (0 to all when all win), or score minus
        the mean score."""
        result = self.state.result or {}
        scores = result.get("scores", {})
        seats = [str(PLAYERS[i]) for i in range(self.n)]
        if self.reward_mode == "score" and scores:
            totals = {a: float(scores[a]["total"]) for a in seats if a in scores}
            mean = sum(totals.values()) / len(totals)
            return {i: totals.get(a, mean) - mean for i, a in enumerate(seats)}
        winners = set(result.get("winners", ()))
        everyone = winners >= set(seats)
        return {i: 0.0 if everyone else (1.0 if a in winners else -1.0) for i, a in enumerate(seats)}


def whole(value, what: str) -> int:
    """``value`` as an int; a float, text or bool is refused rather than rounded or parsed."""
    if isinstance(value, np.ndarray) and value.shape == ():
        value = value.item()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{what} must be a whole number (int), not {value!r} ({type(value).__name__})")
    return int(value)
