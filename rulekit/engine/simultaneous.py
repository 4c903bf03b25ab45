# SPDX-License-Identifier: MIT
"""Simultaneous decisions: ``choose_all q in players:``.

Every listed player picks one option at once; nobody sees another's pick until all have
chosen, then each pick's option body runs, in the order the players were listed. The
generated code of the statement (``dsl/codegen.py``, ``r_ChooseAll``) keeps everything in
its frame's locals, as tuples, so a state waiting here clones, saves and resumes like any
other: who decides (``who``), the picks made so far (``picks``, hidden from every view),
and, while options are listed, the players still to list.

The pending :class:`Simultaneous` decision is *focused* on one of the players still to
choose (the first listed, unless someone asks for another with :meth:`Simultaneous.focus`):
``decision.player`` and ``choices`` are that player's, so bots, ``apply_index`` and every
tool that knows one player to move work unchanged, player after player. A pick does not run
its option; it is recorded (the option is wrapped as ``(record block, (player, option))``),
and the others are asked again, with the options listed before (nothing changes until all
have chosen). ``decision.players`` lists everyone still to choose.
"""
from __future__ import annotations

import re

from ..codes import CHOOSER_NOT_A_PLAYER, NO_LEGAL_OPTION, NOT_TO_CHOOSE
from ..errors import ContentRuntimeError, IllegalAction
from . import mutate
from .state import PLAYERS, Decision


class SimSpec:
    """One ``choose_all`` statement: the env keys of its bookkeeping, its blocks, and the
    ``ChooseSpec`` of its options (``inner``) and of the recording wrapper (``outer``)."""

    __slots__ = ("name", "who", "picks", "pick", "pending", "listed", "step", "ask", "record", "inner", "outer",
                 "span")

    def __init__(self, slot: str, name: str, ask: int, record: int, span):
        self.name = name                  # env key of the deciding player's variable (`q`)
        self.who = f"{slot}.who"          # the listed players, in order
        self.picks = f"{slot}.picks"      # ((player, option), ...) chosen so far: secret
        self.pick = f"{slot}.pick"        # the pick being recorded (bound by the engine)
        self.pending = f"{slot}.pending"  # the players whose options are being listed
        self.listed = f"{slot}.listed"    # ((player, wrapped options), ...) listed, not chosen yet
        self.step = f"{slot}.step"        # which pick's body runs next
        self.ask = ask                    # block that asks those still to choose
        self.record = record              # block that records a pick
        self.inner = None                 # ChooseSpec of the options (set once they are written)
        self.outer = None                 # ChooseSpec of the wrapped options
        self.span = span

    def __repr__(self):
        return f"<choose_all at {self.span}>"

    def label(self, s, env, pick) -> str:
        """The notation of a wrapped option: the option's own, written with the variable bound
        to the player it was listed for."""
        player, choice = pick
        writer = self.inner.labels[choice[0]]
        if writer.__class__ is str:
            return writer
        return writer(s, {**env, self.name: player}, *choice[1:])


class Simultaneous(Decision):
    """A pending ``choose_all``: every player in ``players`` still has to choose."""

    __slots__ = ("lists", "sim")

    def __init__(self, lists: tuple, focus: int, sim: SimSpec, state):
        player, choices = lists[focus]
        super().__init__(player, choices, sim.outer, state)
        self.lists = lists        # ((player, wrapped options), ...): everyone still to choose, in listed order
        self.sim = sim

    @property
    def players(self) -> tuple:
        return tuple(player for player, _ in self.lists)

    def focus(self, player: int) -> Simultaneous:
        """The same decision, asked of ``player`` (one of :attr:`players`)."""
        if player == self.player:
            return self
        at = next(i for i, (q, _) in enumerate(self.lists) if q == player)
        return Simultaneous(self.lists, at, self.sim, self.state)

    def chosen(self, player: int) -> str | None:
        """The notation of what ``player`` has picked (None: not picked), for their own view."""
        state = self.state
        env = state.frames[-1].env
        pick = next((pick for pick in env[self.sim.picks] if pick[0] == player), None)
        return None if pick is None else self.sim.label(state, env, pick)

    def bound_to(self, state) -> Simultaneous:
        if self._labels is not None:
            return self
        at = next(i for i, (q, _) in enumerate(self.lists) if q == self.player)
        return Simultaneous(self.lists, at, self.sim, state)


# ------------------------------------------------------------------ what generated code calls

def begin(s, f, sim: SimSpec, players) -> None:
    """Start the statement: who decides (each a player of this game, once)."""
    who = []
    for q in (players if isinstance(players, (list, tuple)) else [players]):
        if (q.__class__ is bool or not isinstance(q, int) or not 0 <= q < s.n):
            raise ContentRuntimeError(f"`choose_all` asks {mutate.fmt(q)}, who is not a player of this game "
                                      f"(p1..p{s.n})", sim.span, CHOOSER_NOT_A_PLAYER)
        if q in who:
            raise ContentRuntimeError(f"`choose_all` lists {PLAYERS[q]} twice: each player decides once",
                                      sim.span, CHOOSER_NOT_A_PLAYER)
        who.append(PLAYERS[q])
    f.env[sim.who] = tuple(who)
    f.env[sim.picks] = ()


def ask(s, f, sim: SimSpec) -> bool:
    """True when everyone has chosen (their picks then stand in the listed order); otherwise
    prepares to list the options of everyone still to choose, first one first."""
    env = f.env
    who, picks = env[sim.who], env[sim.picks]
    chosen = {q for q, _ in picks}
    pending = tuple(q for q in who if q not in chosen)
    if not pending:
        order = {q: i for i, q in enumerate(who)}
        env[sim.picks] = tuple(sorted(picks, key=lambda pick: order[pick[0]]))
        env[sim.step] = 0
        return True
    env[sim.pending] = pending
    env[sim.listed] = ()
    env[sim.name] = pending[0]
    return False


def collect(s, f, sim: SimSpec, player, choices: list, spec) -> bool:
    """The options of one player are listed: list the next player's (False: the frame runs on),
    or, the last one listed, stop at the decision (True)."""
    if not choices:
        raise ContentRuntimeError(f"no option of this choice is legal for {mutate.fmt(player)}", sim.span,
                                  NO_LEGAL_OPTION)
    env = f.env
    player = PLAYERS[player]
    listed = env[sim.listed] + ((player, tuple([(sim.record, (player, c)) for c in choices])),)
    pending = env[sim.pending]
    if len(listed) < len(pending):
        env[sim.listed] = listed
        env[sim.name] = pending[len(listed)]
        return False
    env[sim.listed] = listed          # kept: nothing changes before all have chosen (see record)
    del env[sim.pending]
    f.pc = sim.ask        # a saved game waiting here lists everyone's options again from the start
    s.pending = Simultaneous(listed, 0, sim, s)
    if s.record:          # a recorded game writes (and checks, RK4011) everyone's notation at once
        for q in s.pending.players:
            s.pending.focus(q).labels  # noqa: B018
    return True


def record(s, f, sim: SimSpec) -> bool:
    """Keep a pick, unseen, until everyone has chosen. Nothing has changed since the options were
    listed, so the others are asked again with the same options (True: stopped at the decision);
    False once everyone has chosen."""
    env = f.env
    pick = env.pop(sim.pick)
    env[sim.picks] = env[sim.picks] + (pick,)
    rest = tuple(entry for entry in env[sim.listed] if entry[0] != pick[0])
    if not rest:
        del env[sim.listed]
        return False
    env[sim.listed] = rest
    f.pc = sim.ask
    s.pending = Simultaneous(rest, 0, sim, s)
    return True


def next_pick(f, sim: SimSpec):
    """Take the next pick (the player's variable bound here, the option's values by its body's
    block as it starts: ``Frame.chosen``); that block, or None when every body has run."""
    env = f.env
    step, picks = env[sim.step], env[sim.picks]
    if step >= len(picks):
        for key in (sim.who, sim.picks, sim.step):
            del env[key]
        return None
    player, choice = picks[step]
    env[sim.step] = step + 1
    env[sim.name] = player
    f.chosen = choice       # its body's block binds the values (Frame.chosen)
    return choice[0]


NAMES = {"SIM_BEGIN": begin, "SIM_ASK": ask, "SIM_COLLECT": collect, "SIM_RECORD": record, "SIM_NEXT": next_pick}


# ------------------------------------------------------------------ the API's side

_SEAT = re.compile(r"\s*p([1-9][0-9]*)\s*:\s*(.*)", re.S)


class NotDeciding(IllegalAction):
    """An action for a player who is not among those still to choose in a simultaneous
    decision (they have chosen already, or were never asked)."""

    code = NOT_TO_CHOOSE


def seat_of(player) -> int | None:
    """A player given as a seat number, a Player or its name (``p2``)."""
    if isinstance(player, str):
        m = re.fullmatch(r"p([1-9][0-9]*)", player.strip())
        return int(m.group(1)) - 1 if m else None
    return int(player)


def split(action: str):
    """``"p2: bid 5"`` -> (1, ``"bid 5"``); anything else -> (None, action)."""
    m = _SEAT.fullmatch(action)
    return (int(m.group(1)) - 1, m.group(2).strip()) if m else (None, action)


def focused(s, action: str, player=None) -> tuple:
    """(the pending decision asked of the player who takes ``action``, the action without a
    ``pN:`` prefix). Refuses a player who is not among those still to choose (RK3002)."""
    decision = s.pending
    seat = seat_of(player) if player is not None else None
    if player is not None and seat is None:
        raise IllegalAction(action, [], f"`{player}` names no player (p1..p{s.n})")
    named, bare = split(action)
    if named is not None and (seat is None or seat == named):
        seat, action = named, bare
    if seat is None or seat == decision.player:
        return decision, action
    if seat in decision.players:
        return decision.focus(seat), action
    who = str(PLAYERS[seat]) if 0 <= seat < len(PLAYERS) else f"p{seat + 1}"
    if not isinstance(decision, Simultaneous):
        raise IllegalAction(action, list(decision.labels), f"it is {PLAYERS[decision.player]}'s decision, "
                            f"not {who}'s", player=who)
    still = ", ".join(str(q) for q in decision.players)
    if seat in s.frames[-1].env.get(decision.sim.who, ()):
        reason = f"{who} has already chosen in this simultaneous decision (still to choose: {still})"
    else:
        reason = f"{who} is not deciding now (to choose: {still})"
    raise NotDeciding(action, [], reason, player=who)

