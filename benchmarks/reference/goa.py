#!/usr/bin/env python
# SPDX-License-Identifier: MIT
"""Goa (Rüdiger Dorn, 2-4 players) written by hand in plain Python: a speed yardstick.

This module exists only so benchmarks can compare rulekit's random-play throughput with
what plain, sensibly written Python pays for the same rules. It is a benchmark yardstick,
not a second engine: it imports nothing from rulekit, has no hidden-information views,
logging, variants (the Pro variant is left out) or invariant checks, and nothing in
rulekit depends on it.

The rules follow the rulekit content in ``games/goa/*.yaml`` (and the digest
``shared/rules/goa.md``), rulings and reconstructed numbers included: the swapped
Quilon/Madras spice pairs, 10 finite action cards, the flag's action card also for an
owner who keeps it, the hand limit binding only at the end of an Expedition, one
expedition card per action turn, tiles and cards used only in one's own action turns,
spices existing only on fields, and so on. Every ``choose`` of the content is a decision
here, with the same options under the same conditions (single-option decisions
included, as in rulekit), so decisions per game compare one for one:

    markers       ("flag", s) for the flag holder, then ("place", s) per marker
    auctions      ("bid", n) for n in bid+1..ducats, ("pass",); the owner speaks last,
                  and only if someone bid
    action turn   the "extras" (use a tile, Viceroy, Duty, Exchange, play or discard an
                  expedition card) and every action variant (progress with or without a
                  progress card, build ships / harvest / taxes / found, each also with the
                  Spy and the action cards, ("expedition", n) for n = 1..draw), repeated
                  until an action is taken; afterwards the extras and ("end",)
    inside        ("fill", ...) per spice gained, ("from", ...) when a spice to pay lies
                  on two or more plantations/colonies, ("hand_in", sp) for the Duty,
                  ("sell", sp), harvest mix, Second harvest, Refill, hand-limit play or
                  discard, found colony (extras, found / hand in / give up), colony tile
                  and its spice fields, plantation overflow, ships-or-colonists
    additional    ("additional",), ("pass",) if at most one action card is held

The game is a small resumable state machine: ``stack`` holds the pending procedures as
immutable tuples (the top one asks the current question), so ``clone()`` is a few list
copies. ``legal_actions()`` returns the options of the pending decision as tuples and
``apply(action)`` answers it. The state keeps an int seed for its own chance events
(shuffles); ``play()`` draws it from ``random.Random(seed)``, which then makes the choices.

Usage: ``python benchmarks/reference/goa.py --players 4 --games 200``
"""
from __future__ import annotations

import argparse
import random
import time

# ---------------------------------------------------------------- constants (content params)
ROUNDS = 8
PART_B_ROUND = 5
START_SHIPS, START_COLONISTS = 4, 2
START_DUCATS, START_DUCATS_FIRST = 10, 7
ACTION_CARDS_TOTAL = 10
PLANTATION_SPACES = 4
COLONY_SPACES = 4
DUTY_SPICES = 6
MONEY_VP = 3
FOUND_CARDS = 2
REFILL_CARDS = 2
SECOND_HARVEST_MAX = 3
KEEP_ACTION_CARDS = 1
SELL_PRICE = 3

# spices and columns are small ints
GINGER, PEPPER, CINNAMON, NUTMEG, CLOVE = range(5)
ALL_SPICES = (GINGER, PEPPER, CINNAMON, NUTMEG, CLOVE)
SHIPS, HARVEST, TAXES, EXPEDITION, COLONISTS = range(5)
COLUMNS = range(5)

# development board: VALUES[column][row], COSTS[column][row] = spices to move row -> row + 1
VALUES = (
    (0, 1, 2, 3, 4, 5),        # ships
    (0, 1, 2, 3, 4, 5),        # harvest
    (0, 4, 5, 6, 8, 10),       # taxes
    (0, 1, 1, 2, 2, 3),        # expedition: cards drawn
    (0, 0, 1, 2, 3, 4),        # colonists
)
HAND_LIMIT = (0, 1, 2, 3, 4, 5)
COSTS = (
    ((), (GINGER,), (GINGER, CINNAMON), (GINGER, CINNAMON, NUTMEG), (GINGER, CINNAMON, NUTMEG, PEPPER)),
    ((), (NUTMEG,), (NUTMEG, CLOVE), (NUTMEG, CLOVE, CINNAMON), (NUTMEG, CLOVE, CINNAMON, GINGER)),
    ((), (CINNAMON,), (PEPPER, CINNAMON), (PEPPER, CINNAMON, CLOVE), (PEPPER, CINNAMON, CLOVE, NUTMEG)),
    ((), (PEPPER,), (PEPPER, NUTMEG), (PEPPER, NUTMEG, GINGER), (PEPPER, NUTMEG, GINGER, CLOVE)),
    ((), (CLOVE,), (CLOVE, GINGER), (CLOVE, GINGER, PEPPER), (CLOVE, GINGER, PEPPER, CINNAMON)),
)
DUCAT_PROGRESS = (0, 0, 5, 10, 15, 20)   # progress card paying ducats: cost to move INTO row r

ROW_VP = (0, 0, 1, 3, 6, 10)
COLONY_VP = (0, 1, 3, 6, 10)
SYMBOL_VP = (0, 1, 3, 6, 10, 15, 20)

# ---------------------------------------------------------------- game tiles
# One record per tile id: type, spice (-1 none), fields, amount, vp. Ids 0..26 are A, 27..53 B.
ROUND_KINDS = frozenset(("round_ship", "round_colonist", "round_spice", "round_ducats"))
KEPT_KINDS = frozenset(("duty", "exchange", "second_harvest", "spy", "refill", "viceroy")) | ROUND_KINDS


def _build_tiles():
    a, b = [], []
    for sp in ALL_SPICES:
        a.append(("plantation", sp, 1, 0, 1))
    for sp in ALL_SPICES:
        a.append(("plantation", sp, 2, 0, 0))
        a.append(("plantation", sp, 2, 0, 0))
    a += [("round_ship", -1, 0, 1, 0), ("round_colonist", -1, 0, 1, 0), ("round_spice", -1, 0, 1, 0),
          ("round_ducats", -1, 0, 4, 0), ("duty", -1, 0, 0, 4), ("action_cards", -1, 0, 2, 0),
          ("expedition_cards", -1, 0, 2, 0), ("ships", -1, 0, 4, 0), ("colonists", -1, 0, 4, 0),
          ("settlement", -1, 0, 1, 0), ("ships_or_colonists", -1, 0, 3, 0), ("ships_or_colonists", -1, 0, 3, 0)]
    for sp in ALL_SPICES:
        b.append(("plantation", sp, 2, 0, 0))
    for sp in ALL_SPICES:
        b.append(("plantation", sp, 3, 0, 0))
    b += [("second_harvest", -1, 0, 0, 0), ("exchange", -1, 0, 0, 0),
          ("mission", -1, 0, 0, 2), ("mission", -1, 0, 0, 2), ("mission", -1, 0, 0, 3), ("mission", -1, 0, 0, 3),
          ("duty", -1, 0, 0, 4), ("spy", -1, 0, 0, 0), ("refill", -1, 0, 0, 0), ("viceroy", -1, 0, 0, 0),
          ("expedition_cards", -1, 0, 3, 0), ("action_cards", -1, 0, 2, 0), ("ships", -1, 0, 4, 0),
          ("colonists", -1, 0, 4, 0), ("ships_or_colonists", -1, 0, 3, 0), ("ships_or_colonists", -1, 0, 3, 0),
          ("settlement", -1, 0, 1, 0)]
    assert len(a) == 27 and len(b) == 27
    return a + b


_TILES = _build_tiles()
TILE_TYPE = tuple(t[0] for t in _TILES)
TILE_SPICE = tuple(t[1] for t in _TILES)
TILE_FIELDS = tuple(t[2] for t in _TILES)
TILE_AMOUNT = tuple(t[3] for t in _TILES)
TILE_VP = tuple(t[4] for t in _TILES)
A_TILES = tuple(range(27))
B_TILES = tuple(range(27, 54))

# ---------------------------------------------------------------- expedition cards
TIGER, FISH, PALM, SHELL, STATUE = range(5)
# effect, action card (red A), symbols of the copies with colonists 1, 2, 3
_EFFECTS = (
    ("ships2", False, (TIGER, FISH, PALM)),
    ("colonists2", False, (SHELL, STATUE, TIGER)),
    ("ducats5", False, (FISH, PALM, SHELL)),
    ("spices2", False, (STATUE, TIGER, FISH)),
    ("sell_spices", False, (PALM, SHELL, STATUE)),
    ("harvest_mix", True, (TIGER, FISH, PALM)),
    ("colony_extra_card", True, (SHELL, STATUE, TIGER)),
    ("progress_ships", True, (FISH, PALM, SHELL)),
    ("progress_spices", True, (STATUE, TIGER, FISH)),
    ("progress_ducats", True, (PALM, SHELL, STATUE)),
)
CARD_EFFECT = tuple(e for e, _, _ in _EFFECTS for _k in range(3))
CARD_ACTION = tuple(a for _, a, _ in _EFFECTS for _k in range(3))
CARD_COLONISTS = tuple(k + 1 for _ in _EFFECTS for k in range(3))
CARD_SYMBOL = tuple(s for _, _, syms in _EFFECTS for s in syms)
N_CARDS = len(CARD_EFFECT)   # 30

# ---------------------------------------------------------------- colony tiles (swapped pairs ruling)
QUILON, COCHIN, MADRAS, CALICUT = range(4)
PLACE_NEED = (6, 8, 10, 12)
_COLONIES = (
    [(QUILON, 1, pair) for pair in ((PEPPER, NUTMEG), (GINGER, CINNAMON), (CINNAMON, CLOVE),
                                    (NUTMEG, GINGER), (CLOVE, PEPPER))]
    + [(COCHIN, 1, ALL_SPICES)] * 4
    + [(MADRAS, 2, pair) for pair in ((GINGER, PEPPER), (PEPPER, CINNAMON), (CINNAMON, NUTMEG),
                                      (NUTMEG, CLOVE), (CLOVE, GINGER))]
    + [(CALICUT, 2, ALL_SPICES)] * 4
)
COL_PLACE = tuple(c[0] for c in _COLONIES)
COL_FIELDS = tuple(c[1] for c in _COLONIES)
COL_ALLOWS = tuple(c[2] for c in _COLONIES)

# ---------------------------------------------------------------- the board
# Spaces 0..24 are the 5x5 tile spaces (row-major), 25..44 the edge spaces (no corners).
SPACE_RC = [(r, c) for r in range(1, 6) for c in range(1, 6)]
SPACE_RC += [(0, c) for c in range(1, 6)] + [(6, c) for c in range(1, 6)]
SPACE_RC += [(r, 0) for r in range(1, 6)] + [(r, 6) for r in range(1, 6)]
N_SPACES = len(SPACE_RC)    # 45
ADJACENT = tuple(tuple(t for t in range(N_SPACES)
                       if abs(SPACE_RC[s][0] - SPACE_RC[t][0]) + abs(SPACE_RC[s][1] - SPACE_RC[t][1]) == 1)
                 for s in range(N_SPACES))
AROUND = tuple(tuple(t for t in range(N_SPACES)
                     if t != s and abs(SPACE_RC[s][0] - SPACE_RC[t][0]) <= 1
                     and abs(SPACE_RC[s][1] - SPACE_RC[t][1]) <= 1)
               for s in range(N_SPACES))
TILE_SPACES = range(25)

# constant options
STOP = ("stop",)
PASS = ("pass",)
END_TURN = ("end",)
ADDITIONAL = ("additional",)
FOUND_IT = ("found_it",)
GIVE_UP = ("give_up",)
TAKE_SHIP = ("take_ship",)
TAKE_COLONIST = ("take_colonist",)
TAKE_SPICE = ("take_spice",)
FACE_DOWN = ("face_down",)
EXTRA_TAGS = frozenset(("use", "viceroy", "duty", "exchange", "play", "discard"))


class Player:
    __slots__ = ("ships", "colonists", "ducats", "rows", "level_rewarded", "hand", "actions",
                 "plant_tile", "plant_filled", "col_id", "col_spices", "tiles", "round_used", "scored")

    def __init__(self):
        self.ships = START_SHIPS
        self.colonists = START_COLONISTS
        self.ducats = 0
        self.rows = [1, 1, 1, 1, 1]         # success marker row per column
        self.level_rewarded = 1             # highest all-markers row rewarded with an action card
        self.hand = []                      # expedition card ids
        self.actions = 0                    # action cards held
        self.plant_tile = []                # plantation tile ids on the supply board
        self.plant_filled = []              # spices on each (parallel list)
        self.col_id = []                    # colony tile ids
        self.col_spices = []                # spices on each colony (tuples, parallel list)
        self.tiles = []                     # kept tiles (per-round, one-time, Duty, Exchange)
        self.round_used = 0                 # bit set of per-round tiles used this round
        self.scored = []                    # missions, face-down 1-field plantations, fulfilled Duty

    def clone(self):
        c = Player.__new__(Player)
        c.ships = self.ships
        c.colonists = self.colonists
        c.ducats = self.ducats
        c.rows = self.rows[:]
        c.level_rewarded = self.level_rewarded
        c.hand = self.hand[:]
        c.actions = self.actions
        c.plant_tile = self.plant_tile[:]
        c.plant_filled = self.plant_filled[:]
        c.col_id = self.col_id[:]
        c.col_spices = self.col_spices[:]
        c.tiles = self.tiles[:]
        c.round_used = self.round_used
        c.scored = self.scored[:]
        return c

    def spice_counts(self):
        on = [0, 0, 0, 0, 0]
        filled = self.plant_filled
        for i, t in enumerate(self.plant_tile):
            on[TILE_SPICE[t]] += filled[i]
        for spices in self.col_spices:
            for sp in spices:
                on[sp] += 1
        return on

    def spice_total(self):
        return sum(self.plant_filled) + sum(len(s) for s in self.col_spices)

    def spice_sources(self, sp):
        """Where spice sp can be paid from: ("from", 0, plantation) and ("from", 1, colony)."""
        out = [("from", 0, i) for i, t in enumerate(self.plant_tile)
               if TILE_SPICE[t] == sp and self.plant_filled[i] > 0]
        for i, spices in enumerate(self.col_spices):
            if sp in spices:
                out.append(("from", 1, i))
        return out

    def fill_options(self):
        """The gain-a-spice options: each plantation with an empty field, each colony field
        with each spice its tile allows (empty when no field is free)."""
        out = []
        filled = self.plant_filled
        for i, t in enumerate(self.plant_tile):
            if filled[i] < TILE_FIELDS[t]:
                out.append(("fill", i))
        for i, cid in enumerate(self.col_id):
            if len(self.col_spices[i]) < COL_FIELDS[cid]:
                for sp in COL_ALLOWS[cid]:
                    out.append(("fill_colony", i, sp))
        return out


class Goa:
    """The game state. ``legal_actions()`` lists the options of the pending decision
    (asked of ``to_move``); ``apply(action)`` answers it and runs to the next one."""

    __slots__ = ("n", "chance", "players", "round", "grid", "deck", "discard", "turned", "action_supply",
                 "colony_supply", "colonies_left", "firsts", "flag_holder", "chain", "chain_owner",
                 "card_played", "stack", "to_move", "legal", "over", "scores")

    def __init__(self, players: int, seed: int):
        assert 2 <= players <= 4
        n = self.n = players
        self.chance = seed                  # seed of the next shuffle (chance is rare: a few per game)
        self.players = [Player() for _ in range(n)]
        self.round = 0
        self.grid = [-1] * N_SPACES
        self._lay_out(A_TILES)
        self.deck = list(range(N_CARDS))
        self._shuffle(self.deck)
        self.discard = []
        self.turned = []                    # cards turned by Found colony, until discarded
        self.action_supply = ACTION_CARDS_TOTAL
        self.colony_supply = list(range(len(_COLONIES)))
        self.colonies_left = [5, 4, 5, 4]
        self.firsts = 0                     # bit set: column c reached row 4 (bit 2c) / row 5 (bit 2c+1)
        self.chain = []
        self.chain_owner = []
        self.card_played = False
        self.over = False
        self.scores = None
        # start player: turn cards (first seat first) until a tiger shows; turned cards are discarded
        holder, i = -1, 0
        while holder < 0:
            if not self.deck:
                holder = 0
                break
            card = self.deck.pop()
            self.discard.append(card)
            if CARD_SYMBOL[card] == TIGER:
                holder = i % n
            i += 1
        self.flag_holder = holder
        for p, pl in enumerate(self.players):
            pl.ducats = START_DUCATS_FIRST if p == holder else START_DUCATS
        self.stack = [("round",)]
        self.to_move = -1
        self.legal = []
        self._run()

    # ------------------------------------------------------------ public interface
    def legal_actions(self) -> list:
        return self.legal

    def apply(self, action: tuple) -> None:
        task = self.stack[-1]
        APPLY[task[0]](self, task, action)
        self._run()

    def clone(self) -> Goa:
        c = Goa.__new__(Goa)
        c.n = self.n
        c.chance = self.chance
        c.players = [pl.clone() for pl in self.players]
        c.round = self.round
        c.grid = self.grid[:]
        c.deck = self.deck[:]
        c.discard = self.discard[:]
        c.turned = self.turned[:]
        c.action_supply = self.action_supply
        c.colony_supply = self.colony_supply[:]
        c.colonies_left = self.colonies_left[:]
        c.firsts = self.firsts
        c.flag_holder = self.flag_holder
        c.chain = self.chain[:]
        c.chain_owner = self.chain_owner[:]
        c.card_played = self.card_played
        c.stack = self.stack[:]             # tuples: immutable
        c.to_move = self.to_move
        c.legal = self.legal                # never mutated in place
        c.over = self.over
        c.scores = self.scores
        return c

    # ------------------------------------------------------------ machinery
    def _run(self) -> None:
        """Run the pending procedures until one asks a question, or the game ends."""
        stack = self.stack
        while stack:
            task = stack[-1]
            if RUN[task[0]](self, task):
                return
        self.over = True
        self.legal = []
        self.to_move = -1
        self.scores = self.final_scores()

    def _ask(self, p: int, options: list) -> bool:
        self.to_move = p
        self.legal = options
        return True

    # ------------------------------------------------------------ helpers (no decisions)
    def _shuffle(self, items: list) -> None:
        """Shuffle in place. The state keeps only an int seed for its chance events (setup,
        part B, reshuffles), so clone() copies an int rather than a Mersenne Twister."""
        r = random.Random(self.chance)
        r.shuffle(items)
        self.chance = r.getrandbits(64)

    def _lay_out(self, pile) -> None:
        tiles = list(pile)
        self._shuffle(tiles)
        grid = self.grid
        for s in TILE_SPACES:
            grid[s] = tiles.pop()
        # the 2 left over go back in the box

    def _reshuffle_if_empty(self) -> None:
        if not self.deck and self.discard:
            self.deck = self.discard
            self.discard = []
            self._shuffle(self.deck)

    def _draw_expedition(self, pl: Player, n: int) -> None:
        for _ in range(n):
            self._reshuffle_if_empty()
            if self.deck:
                pl.hand.append(self.deck.pop())

    def _turn_cards(self, n: int, into: list) -> int:
        """Turn n cards into `into` (they join the discard pile later); their colonist total."""
        total = 0
        for _ in range(n):
            self._reshuffle_if_empty()
            if self.deck:
                card = self.deck.pop()
                into.append(card)
                total += CARD_COLONISTS[card]
        return total

    def _gain_action_cards(self, pl: Player, n: int) -> None:
        k = n if n <= self.action_supply else self.action_supply
        self.action_supply -= k
        pl.actions += k

    def _advance(self, p: int, c: int) -> None:
        """Move a success marker one row down, with the first-to-row-4/5 and all-markers rewards."""
        pl = self.players[p]
        rows = pl.rows
        rows[c] += 1
        r = rows[c]
        if r >= 4:
            bit = 1 << (2 * c + r - 4)
            if not self.firsts & bit:
                self.firsts |= bit
                self._draw_expedition(pl, 1)
        level = min(rows)
        if level >= 2 and level > pl.level_rewarded:
            pl.level_rewarded = level
            self._gain_action_cards(pl, 1)

    def _start_turn(self, p: int) -> None:
        self.card_played = False
        self.stack.append(("turn", p, 0))

    def _pay_spices(self, p: int, need) -> None:
        """Hand in the spices `need`, one by one (pushed so the first is paid first)."""
        stack = self.stack
        for sp in reversed(need):
            stack.append(("take", p, sp))

    def _gain_tile(self, p: int, tid: int) -> None:
        pl = self.players[p]
        kind = TILE_TYPE[tid]
        if kind == "plantation":
            if len(pl.plant_tile) >= PLANTATION_SPACES:
                self.stack.append(("plantation", p, tid))
            else:
                pl.plant_tile.append(tid)
                pl.plant_filled.append(TILE_FIELDS[tid])
        elif kind == "mission":
            pl.scored.append(tid)
        elif kind in KEPT_KINDS:
            pl.tiles.append(tid)
        elif kind == "ships":
            pl.ships += TILE_AMOUNT[tid]
        elif kind == "colonists":
            pl.colonists += TILE_AMOUNT[tid]
        elif kind == "ships_or_colonists":
            self.stack.append(("ships_or_colonists", p, TILE_AMOUNT[tid]))
        elif kind == "settlement":
            pl.ships += 1
            pl.colonists += 1
            self._gain_action_cards(pl, TILE_AMOUNT[tid])
        elif kind == "action_cards":
            self._gain_action_cards(pl, TILE_AMOUNT[tid])
        elif kind == "expedition_cards":
            self._draw_expedition(pl, TILE_AMOUNT[tid])

    def _play_card(self, p: int, card: int) -> None:
        """Play a non-action expedition card (it goes to the discard pile)."""
        pl = self.players[p]
        self.card_played = True
        pl.hand.remove(card)
        self.discard.append(card)
        effect = CARD_EFFECT[card]
        if effect == "ships2":
            pl.ships += 2
        elif effect == "colonists2":
            pl.colonists += 2
        elif effect == "ducats5":
            pl.ducats += 5
        elif effect == "spices2":
            self.stack.append(("spices", p, 2))
        elif effect == "sell_spices":
            self.stack.append(("sell", p))

    def _use_action_card(self, pl: Player, card: int) -> None:
        """Play an action card (red A) with the action being named."""
        self.card_played = True
        pl.hand.remove(card)
        self.discard.append(card)

    # ------------------------------------------------------------ the extras option group
    def _extras(self, p: int, pl: Player) -> list:
        """Tiles and cards usable in one's own action turn (before, during, after the action)."""
        opts = []
        for t in pl.tiles:
            kind = TILE_TYPE[t]
            if kind in ROUND_KINDS:
                if not (pl.round_used >> t) & 1:
                    opts.append(("use", t))
            elif kind == "second_harvest" or kind == "refill":
                opts.append(("use", t))
            elif kind == "viceroy":
                low = min(pl.rows)
                if low < 5:
                    for c in COLUMNS:
                        if pl.rows[c] == low:
                            opts.append(("viceroy", t, c))
            elif kind == "duty":
                if pl.spice_total() >= DUTY_SPICES:
                    opts.append(("duty", t))
            elif kind == "exchange":
                grid = self.grid
                for s in TILE_SPACES:
                    if grid[s] >= 0:
                        opts.append(("exchange", t, s))
        if not self.card_played:
            for card in pl.hand:
                if not CARD_ACTION[card]:
                    opts.append(("play", card))
        for card in pl.hand:
            opts.append(("discard", card))
        return opts

    def _apply_extra(self, p: int, a: tuple) -> None:
        pl = self.players[p]
        tag = a[0]
        if tag == "discard":
            pl.hand.remove(a[1])
            self.discard.append(a[1])
        elif tag == "play":
            self._play_card(p, a[1])
        elif tag == "use":
            t = a[1]
            kind = TILE_TYPE[t]
            if kind in ROUND_KINDS:
                pl.round_used |= 1 << t
                if kind == "round_ship":
                    pl.ships += 1
                elif kind == "round_colonist":
                    pl.colonists += 1
                elif kind == "round_spice":
                    self.stack.append(("spices", p, 1))
                else:
                    pl.ducats += TILE_AMOUNT[t]
            elif kind == "second_harvest":
                pl.tiles.remove(t)
                self.stack.append(("second_harvest", p, 0))
            else:   # refill: turn 2 cards, discard them, then choose ships / colonists / spices
                pl.tiles.remove(t)
                turned = []
                total = self._turn_cards(REFILL_CARDS, turned)
                self.discard.extend(turned)
                self.stack.append(("refill", p, total))
        elif tag == "viceroy":
            pl.tiles.remove(a[1])
            self._advance(p, a[2])
        elif tag == "duty":
            t = a[1]
            pl.tiles.remove(t)
            pl.scored.append(t)
            self.stack.append(("hand_in", p, DUTY_SPICES))
        else:   # exchange: take the grid tile as if won, the Exchange tile takes its space
            t, s = a[1], a[2]
            other = self.grid[s]
            pl.tiles.remove(t)
            self.grid[s] = t
            self._gain_tile(p, other)

    # ------------------------------------------------------------ round structure
    def _run_round(self, task) -> bool:
        stack = self.stack
        stack.pop()
        self.round += 1
        if self.round > ROUNDS:
            return False
        if self.round == PART_B_ROUND:
            self._lay_out(B_TILES)      # the A tiles left on the grid leave the game
        self.chain = []
        self.chain_owner = []
        for pl in self.players:
            pl.round_used = 0
        stack.append(("round",))
        stack.append(("additional", 0, 0))
        stack.append(("actions", 0))
        stack.append(("auctions", 0))
        stack.append(("markers", 1))
        return False

    def _run_markers(self, task) -> bool:
        k = task[1]
        grid = self.grid
        if k == 1:
            opts = [("flag", s) for s in range(N_SPACES)
                    if grid[s] < 0 and any(grid[t] >= 0 for t in ADJACENT[s])]
            return self._ask(self.flag_holder, opts)
        if k > self.n + 1:
            self.stack.pop()
            return False
        chain = self.chain
        opts = [("place", s) for s in AROUND[chain[-1]] if grid[s] >= 0 and s not in chain]
        if not opts:
            opts = [("place", s) for s in TILE_SPACES if grid[s] >= 0 and s not in chain]
        return self._ask((self.flag_holder + k - 1) % self.n, opts)

    def _apply_markers(self, task, a) -> None:
        self.chain.append(a[1])
        self.chain_owner.append(self.to_move)
        self.stack[-1] = ("markers", task[1] + 1)

    def _run_auctions(self, task) -> bool:
        k = task[1]
        if k >= len(self.chain):
            self.stack.pop()
            return False
        self.stack[-1] = ("auctions", k + 1)
        self.stack.append(("auction", k, self.chain_owner[k], 1, -1, 0))
        return False

    def _run_auction(self, task) -> bool:
        _, k, owner, i, high, bid = task
        n = self.n
        if i < n:
            q = (owner + i) % n
        elif i == n and high >= 0:
            q = owner
        else:
            self.stack.pop()
            players = self.players
            if high < 0:
                winner = owner
            else:
                winner = high
                players[high].ducats -= bid
                if high != owner:
                    players[owner].ducats += bid
            if k == 0:
                self.flag_holder = winner
                self._gain_action_cards(players[winner], 1)
            else:
                s = self.chain[k]
                tid = self.grid[s]
                self.grid[s] = -1
                self._gain_tile(winner, tid)
            return False
        opts = [("bid", x) for x in range(bid + 1, self.players[q].ducats + 1)]
        opts.append(PASS)
        return self._ask(q, opts)

    def _apply_auction(self, task, a) -> None:
        _, k, owner, i, high, bid = task
        if a[0] == "bid":
            high, bid = self.to_move, a[1]
        self.stack[-1] = ("auction", k, owner, i + 1, high, bid)

    def _run_actions(self, task) -> bool:
        i = task[1]
        if i >= 3 * self.n:
            self.stack.pop()
            return False
        self.stack[-1] = ("actions", i + 1)
        self._start_turn((self.flag_holder + i) % self.n)
        return False

    def _run_additional(self, task) -> bool:
        _, i, passed = task
        n = self.n
        everyone = (1 << n) - 1
        while passed != everyone:
            p = (self.flag_holder + i) % n
            i += 1
            bit = 1 << p
            if passed & bit:
                continue
            held = self.players[p].actions
            if held == 0:
                passed |= bit
                continue
            self.stack[-1] = ("additional", i, passed)
            return self._ask(p, [ADDITIONAL, PASS] if held <= KEEP_ACTION_CARDS else [ADDITIONAL])
        self.stack.pop()
        return False

    def _apply_additional(self, task, a) -> None:
        p = self.to_move
        if a[0] == "additional":
            self.players[p].actions -= 1
            self.action_supply += 1
            self._start_turn(p)
        else:
            self.stack[-1] = ("additional", task[1], task[2] | (1 << p))

    # ------------------------------------------------------------ the action turn
    def _run_turn(self, task) -> bool:
        _, p, stage = task
        pl = self.players[p]
        opts = self._extras(p, pl)
        if stage == 0:
            self._action_options(p, pl, opts)
        else:
            opts.append(END_TURN)
        return self._ask(p, opts)

    def _action_options(self, p: int, pl: Player, opts: list) -> None:
        rows = pl.rows
        on = pl.spice_counts()
        ships = pl.ships
        free_card = not self.card_played
        # 1. progress, paying the printed spices and one ship per spice
        for c in COLUMNS:
            r = rows[c]
            if r < 5:
                need = COSTS[c][r]
                if ships >= len(need) and all(on[sp] for sp in need):   # a column's spices differ
                    opts.append(("progress", c))
        mix_cards, colony_cards = [], []
        if free_card:
            for x in pl.hand:
                effect = CARD_EFFECT[x]
                if effect == "progress_ships":
                    for c in COLUMNS:
                        r = rows[c]
                        if r < 5 and ships >= len(COSTS[c][r]):
                            opts.append(("progress_ships", x, c))
                elif effect == "progress_spices":
                    for c in COLUMNS:
                        r = rows[c]
                        if r < 5 and all(on[sp] for sp in COSTS[c][r]):
                            opts.append(("progress_spices", x, c))
                elif effect == "progress_ducats":
                    for c in COLUMNS:
                        r = rows[c]
                        if r < 5 and pl.ducats >= DUCAT_PROGRESS[r + 1]:
                            opts.append(("progress_ducats", x, c))
                elif effect == "harvest_mix":
                    mix_cards.append(x)
                elif effect == "colony_extra_card":
                    colony_cards.append(x)
        spies = [t for t in pl.tiles if TILE_TYPE[t] == "spy"]
        others = [(p + i) % self.n for i in range(1, self.n)] if spies else ()
        # 2.-4. build ships, harvest, taxes (the Spy uses another player's row)
        opts.append(("build", -1, -1))
        opts.append(("harvest", -1, -1, -1))
        opts.append(("taxes", -1, -1))
        for x in mix_cards:
            opts.append(("harvest", x, -1, -1))
        for t in spies:
            for q in others:
                opts.append(("build", t, q))
                opts.append(("harvest", -1, t, q))
                opts.append(("taxes", t, q))
                for x in mix_cards:
                    opts.append(("harvest", x, t, q))
        # 5. expedition: draw 1..draw value
        for k in range(1, VALUES[EXPEDITION][rows[EXPEDITION]] + 1):
            opts.append(("expedition", k))
        # 6. found colony: a colony not founded yet, with a tile left
        if len(pl.col_id) < COLONY_SPACES:
            founded = [COL_PLACE[cid] for cid in pl.col_id]
            left = self.colonies_left
            for place in (QUILON, COCHIN, MADRAS, CALICUT):
                if left[place] and place not in founded:
                    opts.append(("found", place, -1, -1, -1))
                    for x in colony_cards:
                        opts.append(("found", place, x, -1, -1))
                    for t in spies:
                        for q in others:
                            opts.append(("found", place, -1, t, q))
                            for x in colony_cards:
                                opts.append(("found", place, x, t, q))

    def _apply_turn(self, task, a) -> None:
        p = task[1]
        tag = a[0]
        if tag in EXTRA_TAGS:
            self._apply_extra(p, a)
            return
        stack = self.stack
        if tag == "end":
            stack.pop()
            return
        stack[-1] = ("turn", p, 1)      # the action is taken; then the moments after it
        pl = self.players[p]
        players = self.players
        if tag == "progress":
            c = a[1]
            need = COSTS[c][pl.rows[c]]
            stack.append(("advance", p, c))
            self._pay_spices(p, need)
            pl.ships -= len(need)
        elif tag == "progress_ships" or tag == "progress_spices" or tag == "progress_ducats":
            x, c = a[1], a[2]
            self._use_action_card(pl, x)
            need = COSTS[c][pl.rows[c]]
            stack.append(("advance", p, c))
            if tag == "progress_ships":
                pl.ships -= len(need)
            elif tag == "progress_spices":
                self._pay_spices(p, need)
            else:
                pl.ducats -= DUCAT_PROGRESS[pl.rows[c] + 1]
        elif tag == "build" or tag == "taxes":
            t, q = a[1], a[2]
            if t >= 0:
                pl.tiles.remove(t)
                src = players[q]
            else:
                src = pl
            if tag == "build":
                pl.ships += VALUES[SHIPS][src.rows[SHIPS]]
            else:
                pl.ducats += VALUES[TAXES][src.rows[TAXES]]
        elif tag == "harvest":
            x, t, q = a[1], a[2], a[3]
            if x >= 0:
                self._use_action_card(pl, x)
            if t >= 0:
                pl.tiles.remove(t)
                src = players[q]
            else:
                src = pl
            amount = VALUES[HARVEST][src.rows[HARVEST]]
            stack.append(("harvest_mix", p, amount) if x >= 0 else ("spices", p, amount))
        elif tag == "expedition":
            self._draw_expedition(pl, a[1])
            stack.append(("hand_limit", p))
        else:   # found
            place, x, t, q = a[1], a[2], a[3], a[4]
            cards = FOUND_CARDS
            if x >= 0:
                self._use_action_card(pl, x)
                cards += 1
            if t >= 0:
                pl.tiles.remove(t)
                src = players[q]
            else:
                src = pl
            base = VALUES[COLONISTS][src.rows[COLONISTS]]
            total = self._turn_cards(cards, self.turned)
            stack.append(("found", p, place, base + total))

    # ------------------------------------------------------------ procedures inside actions
    def _run_advance(self, task) -> bool:
        self.stack.pop()
        self._advance(task[1], task[2])
        return False

    def _run_take(self, task) -> bool:
        """Hand in one spice; the player picks the field when two or more hold it."""
        _, p, sp = task
        sources = self.players[p].spice_sources(sp)
        if len(sources) > 1:
            return self._ask(p, sources)
        self.stack.pop()
        self._take_from(self.players[p], sp, sources[0])
        return False

    def _apply_take(self, task, a) -> None:
        self.stack.pop()
        self._take_from(self.players[task[1]], task[2], a)

    @staticmethod
    def _take_from(pl: Player, sp: int, source: tuple) -> None:
        i = source[2]
        if source[1] == 0:
            pl.plant_filled[i] -= 1
        else:
            spices = list(pl.col_spices[i])
            spices.remove(sp)
            pl.col_spices[i] = tuple(spices)

    def _run_spices(self, task) -> bool:
        """Gain up to k spices, one field at a time; the player may stop early."""
        _, p, k = task
        if k > 0:
            opts = self.players[p].fill_options()
            if opts:
                opts.append(STOP)
                return self._ask(p, opts)
        self.stack.pop()
        return False

    def _apply_spices(self, task, a) -> None:
        if a[0] == "stop":
            self.stack.pop()
            return
        _, p, k = task
        self.stack[-1] = ("spices", p, k - 1)
        self._fill(self.players[p], a)

    @staticmethod
    def _fill(pl: Player, a: tuple) -> None:
        if a[0] == "fill":
            pl.plant_filled[a[1]] += 1
        else:
            pl.col_spices[a[1]] = pl.col_spices[a[1]] + (a[2],)

    def _run_harvest_mix(self, task) -> bool:
        _, p, k = task
        if k <= 0:
            self.stack.pop()
            return False
        opts = [TAKE_SHIP, TAKE_COLONIST]
        pl = self.players[p]
        if pl.fill_options():
            opts.append(TAKE_SPICE)
        return self._ask(p, opts)

    def _apply_harvest_mix(self, task, a) -> None:
        _, p, k = task
        self.stack[-1] = ("harvest_mix", p, k - 1)
        pl = self.players[p]
        if a[0] == "take_ship":
            pl.ships += 1
        elif a[0] == "take_colonist":
            pl.colonists += 1
        else:
            self.stack.append(("spices", p, 1))

    def _run_hand_limit(self, task) -> bool:
        p = task[1]
        pl = self.players[p]
        if len(pl.hand) <= HAND_LIMIT[pl.rows[EXPEDITION]]:
            self.stack.pop()
            return False
        opts = []
        if not self.card_played:
            opts = [("play", c) for c in pl.hand if not CARD_ACTION[c]]
        opts += [("discard", c) for c in pl.hand]
        return self._ask(p, opts)

    def _apply_hand_limit(self, task, a) -> None:
        self._apply_extra(task[1], a)

    def _run_found(self, task) -> bool:
        _, p, place, have = task
        pl = self.players[p]
        short = PLACE_NEED[place] - have
        opts = self._extras(p, pl)
        if short <= 0:
            opts.append(FOUND_IT)
        else:
            if pl.colonists >= short:
                opts.append(("hand_in_colonists", short))
            opts.append(GIVE_UP)
        return self._ask(p, opts)

    def _apply_found(self, task, a) -> None:
        _, p, place, have = task
        tag = a[0]
        if tag in EXTRA_TAGS:
            self._apply_extra(p, a)
            return
        pl = self.players[p]
        stack = self.stack
        stack.pop()
        self.discard.extend(self.turned)
        self.turned = []
        if tag == "give_up":
            pl.colonists += 1
            return
        if tag == "hand_in_colonists":
            pl.colonists -= a[1]
        stack.append(("colony", p, place))

    def _run_colony(self, task) -> bool:
        """Pick one of the remaining tiles of the colony (identical tiles offered once)."""
        _, p, place = task
        opts, seen = [], []
        for cid in self.colony_supply:
            if COL_PLACE[cid] == place and COL_ALLOWS[cid] not in seen:
                seen.append(COL_ALLOWS[cid])
                opts.append(("colony", cid))
        return self._ask(p, opts)

    def _apply_colony(self, task, a) -> None:
        p = task[1]
        cid = a[1]
        pl = self.players[p]
        self.colony_supply.remove(cid)
        self.colonies_left[COL_PLACE[cid]] -= 1
        pl.col_id.append(cid)
        pl.col_spices.append(())
        self.stack[-1] = ("put", p, len(pl.col_id) - 1, COL_FIELDS[cid])

    def _run_put(self, task) -> bool:
        """Fill a colony's empty fields one by one, choosing a spice its tile allows."""
        _, p, i, left = task
        if left <= 0:
            self.stack.pop()
            return False
        cid = self.players[p].col_id[i]
        return self._ask(p, [("put", sp) for sp in COL_ALLOWS[cid]])

    def _apply_put(self, task, a) -> None:
        _, p, i, left = task
        pl = self.players[p]
        pl.col_spices[i] = pl.col_spices[i] + (a[1],)
        self.stack[-1] = ("put", p, i, left - 1)

    def _run_hand_in(self, task) -> bool:
        p = task[1]
        on = self.players[p].spice_counts()
        return self._ask(p, [("hand_in", sp) for sp in ALL_SPICES if on[sp]])

    def _apply_hand_in(self, task, a) -> None:
        _, p, k = task
        if k > 1:
            self.stack[-1] = ("hand_in", p, k - 1)
        else:
            self.stack.pop()
        self.stack.append(("take", p, a[1]))

    def _run_sell(self, task) -> bool:
        p = task[1]
        on = self.players[p].spice_counts()
        opts = [("sell", sp) for sp in ALL_SPICES if on[sp]]
        if not opts:
            self.stack.pop()
            return False
        opts.append(STOP)
        return self._ask(p, opts)

    def _apply_sell(self, task, a) -> None:
        if a[0] == "stop":
            self.stack.pop()
            return
        p = task[1]
        self.players[p].ducats += SELL_PRICE
        self.stack.append(("take", p, a[1]))

    def _run_second_harvest(self, task) -> bool:
        """Fill up to 3 plantations and/or colonies completely."""
        _, p, k = task
        if k >= SECOND_HARVEST_MAX:
            self.stack.pop()
            return False
        pl = self.players[p]
        opts = [("fill_up", 0, i) for i, t in enumerate(pl.plant_tile) if pl.plant_filled[i] < TILE_FIELDS[t]]
        for i, cid in enumerate(pl.col_id):
            if len(pl.col_spices[i]) < COL_FIELDS[cid]:
                opts.append(("fill_up", 1, i))
        opts.append(STOP)
        return self._ask(p, opts)

    def _apply_second_harvest(self, task, a) -> None:
        if a[0] == "stop":
            self.stack.pop()
            return
        _, p, k = task
        self.stack[-1] = ("second_harvest", p, k + 1)
        pl = self.players[p]
        i = a[2]
        if a[1] == 0:
            pl.plant_filled[i] = TILE_FIELDS[pl.plant_tile[i]]
        else:
            self.stack.append(("put", p, i, COL_FIELDS[pl.col_id[i]] - len(pl.col_spices[i])))

    def _run_refill(self, task) -> bool:
        _, p, total = task
        return self._ask(p, [("refill", 0, total), ("refill", 1, total), ("refill", 2, total)])

    def _apply_refill(self, task, a) -> None:
        _, p, total = task
        self.stack.pop()
        pl = self.players[p]
        if a[1] == 0:
            pl.ships += total
        elif a[1] == 1:
            pl.colonists += total
        else:
            self.stack.append(("spices", p, total))

    def _run_plantation(self, task) -> bool:
        """Four plantations already: replace one, or keep a new 1-field one face down."""
        _, p, tid = task
        opts = [("replace", i) for i in range(len(self.players[p].plant_tile))]
        if TILE_FIELDS[tid] == 1:
            opts.append(FACE_DOWN)
        return self._ask(p, opts)

    def _apply_plantation(self, task, a) -> None:
        _, p, tid = task
        self.stack.pop()
        pl = self.players[p]
        if a[0] == "face_down":
            pl.scored.append(tid)
            return
        old = pl.plant_tile.pop(a[1])
        pl.plant_filled.pop(a[1])
        if TILE_FIELDS[old] == 1:
            pl.scored.append(old)       # kept face down for its 1 VP
        pl.plant_tile.append(tid)
        pl.plant_filled.append(TILE_FIELDS[tid])

    def _run_ships_or_colonists(self, task) -> bool:
        _, p, amount = task
        return self._ask(p, [("take_ships", amount), ("take_colonists", amount)])

    def _apply_ships_or_colonists(self, task, a) -> None:
        self.stack.pop()
        pl = self.players[task[1]]
        if a[0] == "take_ships":
            pl.ships += a[1]
        else:
            pl.colonists += a[1]

    # ------------------------------------------------------------ scoring
    def final_scores(self) -> list:
        richest = max(pl.ducats for pl in self.players)
        scores = []
        for pl in self.players:
            vp = sum(ROW_VP[r] for r in pl.rows)
            vp += COLONY_VP[len(pl.col_id)]
            per_symbol = [0] * 5
            for card in pl.hand:
                per_symbol[CARD_SYMBOL[card]] += 1
            vp += sum(SYMBOL_VP[k] for k in per_symbol)
            if pl.ducats == richest:
                vp += MONEY_VP
            vp += sum(1 for t in pl.plant_tile if TILE_FIELDS[t] == 1)
            vp += sum(TILE_VP[t] for t in pl.scored)    # missions, face-down plantations, Duty
            scores.append(vp)
        return scores

    def winners(self) -> list:
        """Most VP; a tie goes to the most money among the tied; still tied: a shared win."""
        scores = self.scores
        best = max(scores)
        tied = [p for p in range(self.n) if scores[p] == best]
        money = max(self.players[p].ducats for p in tied)
        return [p for p in tied if self.players[p].ducats == money]


RUN = {
    "round": Goa._run_round,
    "markers": Goa._run_markers,
    "auctions": Goa._run_auctions,
    "auction": Goa._run_auction,
    "actions": Goa._run_actions,
    "additional": Goa._run_additional,
    "turn": Goa._run_turn,
    "advance": Goa._run_advance,
    "take": Goa._run_take,
    "spices": Goa._run_spices,
    "harvest_mix": Goa._run_harvest_mix,
    "hand_limit": Goa._run_hand_limit,
    "found": Goa._run_found,
    "colony": Goa._run_colony,
    "put": Goa._run_put,
    "hand_in": Goa._run_hand_in,
    "sell": Goa._run_sell,
    "second_harvest": Goa._run_second_harvest,
    "refill": Goa._run_refill,
    "plantation": Goa._run_plantation,
    "ships_or_colonists": Goa._run_ships_or_colonists,
}
APPLY = {
    "markers": Goa._apply_markers,
    "auction": Goa._apply_auction,
    "additional": Goa._apply_additional,
    "turn": Goa._apply_turn,
    "take": Goa._apply_take,
    "spices": Goa._apply_spices,
    "harvest_mix": Goa._apply_harvest_mix,
    "hand_limit": Goa._apply_hand_limit,
    "found": Goa._apply_found,
    "colony": Goa._apply_colony,
    "put": Goa._apply_put,
    "hand_in": Goa._apply_hand_in,
    "sell": Goa._apply_sell,
    "second_harvest": Goa._apply_second_harvest,
    "refill": Goa._apply_refill,
    "plantation": Goa._apply_plantation,
    "ships_or_colonists": Goa._apply_ships_or_colonists,
}


def play_game(players: int, seed: int) -> tuple:
    """One full game with uniformly random choices: (decisions taken, final state)."""
    rng = random.Random(seed)
    state = Goa(players, rng.getrandbits(64))   # the game's chance seed, then the choices
    decisions = 0
    while not state.over:
        options = state.legal_actions()
        state.apply(options[rng.randrange(len(options))])
        decisions += 1
    return decisions, state


def play(players: int, seed: int) -> int:
    """Play one full game choosing uniformly at random; the number of decisions taken."""
    return play_game(players, seed)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    decisions = 0
    winning = 0
    t0 = time.process_time()
    for seed in range(args.games):
        d, state = play_game(args.players, seed)
        decisions += d
        winning += max(state.scores)
    elapsed = time.process_time() - t0
    print(f"goa reference  {args.players}p  {args.games / elapsed:7.1f} games/s  "
          f"{decisions / elapsed:8.0f} decisions/s  {decisions / args.games:6.1f} decisions/game  "
          f"mean winning score {winning / args.games:5.1f}")


if __name__ == "__main__":
    main()
