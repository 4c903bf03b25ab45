#!/usr/bin/env python
# SPDX-License-Identifier: MIT
"""Batavia (3-5 players) written by hand in plain Python: a speed yardstick.

This module exists only so benchmarks can compare rulekit's random-play throughput with
what plain, sensibly written Python pays for the same rules. It is a benchmark yardstick,
not a second engine: it imports nothing from rulekit, has no hidden-information views,
logging, variants or invariant checks, and nothing in rulekit depends on it.

The rules follow the rulekit content in ``games/batavia/*.yaml`` (and the digest
``shared/rules/batavia.md``), rulings included: opening bid may be 0, bidding ends when
everyone but the standing high bidder has passed, the auction winner starts this round's
actions, pirates attack again while the total is still at or above the threshold, the
merchant goes to the goal only when none of the player's seals has a tile ahead, cash-in is
all-or-nothing, and so on. Every ``choose`` of the content is a decision here, with the same
options under the same conditions (single-option decisions included, as in rulekit), so
decisions per game compare one for one:

    auction     ("bid", n) for n in max(bid+1, min_bid)..bonds, ("pass",)
    action      ("draw",), ("play",) if may_play
    play loop   ("lay", c) for each company in hand, ("done",) once a card is laid and
                the player holds a majority (with a tile ahead, once the goal is taken)
    move        ("move", c) only when 2+ seals have a tile ahead
    cash-in     ("cash",), ("keep",) when the tile taken is of a new company

Usage: ``python benchmarks/reference/batavia.py --players 5 --games 200``
"""
from __future__ import annotations

import argparse
import random
import time

# ---------------------------------------------------------------- constants (content params)
N_COMPANIES = 5          # english, danish, french, dutch, swedish
N_GOODS = 7              # tea, cotton, porcelain, silk, ginger, nutmeg, pepper
COMPANIES = range(N_COMPANIES)
GOODS = range(N_GOODS)
CARDS_PER_COMPANY = 22
HAND_SIZE = 10
DRAW_COUNT = 2
MIN_BID = 0
BOND_START = 15
CRATE_START = 12
ROUTE_LENGTH = 35
GOAL_SPACE = ROUTE_LENGTH + 1
FACE_UP_AT_START = 10
REVEAL_STEP = 5
DIE_SIDES = 6
GOOD_MAJORITY = (10, 11, 12, 13, 14, 15, 16)
GOOD_TIE = (5, 5, 6, 6, 7, 7, 8)
CASH_IN_VALUE = (0, 1, 3, 6, 10, 15)
BONDS_MOST, BONDS_TIED, GOAL_GOLD, SEAL_GOLD = 5, 2, 4, 2
NO_ONE = -1

# ---------------------------------------------------------------- actions (cheap, shared tuples)
BID, PASS, DRAW, PLAY, LAY, DONE, MOVE, CASH, KEEP = range(9)
A_PASS = (PASS,)
A_DRAW = (DRAW,)
A_PLAY = (PLAY,)
A_DONE = (DONE,)
A_CASH = (CASH,)
A_KEEP = (KEEP,)
A_BID = tuple((BID, n) for n in range(BOND_START * 5 + 1))
A_LAY = tuple((LAY, c) for c in COMPANIES)
A_MOVE = tuple((MOVE, c) for c in COMPANIES)
NAMES = ("bid", "pass", "draw", "play", "lay", "done", "move", "cash", "keep")

# ---------------------------------------------------------------- phases (what the pending decision is)
AUCTION, ACTION, LAYING, MOVING, CASHING, OVER = range(6)


class Batavia:
    """The whole game state; ``legal_actions()`` lists the pending decision's options,
    ``apply(action)`` takes one and runs the game on to the next decision."""

    __slots__ = (
        "n", "rng", "threshold",
        # ship cards: deck/discard are lists of company indices (top = end); the rest counts
        "deck", "discard", "lot", "hand", "hand_size", "fleet", "in_play", "total_in_play",
        "seal", "bonds", "gold", "pos", "crates", "posts", "stock",
        # route: company and good of the tile on each space 1..35, NO_ONE once taken
        "route_company", "route_good", "revealed", "goal_taker",
        # flow
        "phase", "to_move", "start_player", "round_order", "round_index",
        "auction_order", "passed", "n_passed", "high", "bid", "speaker",
        "laid", "move_choices", "scores",
    )

    # ------------------------------------------------------------ setup
    def __init__(self, players: int, rng: random.Random | None = None, _blank: bool = False):
        if _blank:
            return
        if not 3 <= players <= 5:
            raise ValueError("Batavia is for 3-5 players")
        n = self.n = players
        self.rng = rng = rng or random.Random()
        self.threshold = 21 if n == 3 else 25

        # lay_out_route: 5 shuffled piles (one per company); 7 times take the top of each
        # pile, shuffle those 5 and lay them on the next free spaces.
        piles = []
        for _ in COMPANIES:
            goods = list(GOODS)
            rng.shuffle(goods)
            piles.append(goods)
        self.route_company = route_company = [NO_ONE]
        self.route_good = route_good = [NO_ONE]
        for _ in range(ROUTE_LENGTH // N_COMPANIES):
            staging = list(COMPANIES)
            rng.shuffle(staging)
            for c in staging:
                route_company.append(c)
                route_good.append(piles[c].pop())
        self.revealed = FACE_UP_AT_START
        self.goal_taker = NO_ONE

        # equip_players
        self.deck = [c for c in COMPANIES for _ in range(CARDS_PER_COMPANY)]
        rng.shuffle(self.deck)
        self.discard = []
        self.lot = [0] * N_COMPANIES
        self.hand = [[0] * N_COMPANIES for _ in range(n)]
        self.hand_size = [0] * n
        self.fleet = [[0] * N_COMPANIES for _ in range(n)]
        self.in_play = [0] * N_COMPANIES
        self.total_in_play = 0
        self.seal = [NO_ONE] * N_COMPANIES
        self.bonds = [BOND_START] * n
        self.gold = [0] * n
        self.pos = [0] * n
        self.crates = [CRATE_START] * n
        self.posts = [[0] * N_COMPANIES for _ in range(n)]     # trading-post tiles held
        self.stock = [[0] * N_GOODS for _ in range(n)]         # crates per warehouse
        for p in range(n):
            self._turn_cards(HAND_SIZE, self.hand[p])
            self.hand_size[p] = HAND_SIZE
        self.start_player = 0
        self.scores = None
        self.laid = 0
        self.move_choices = None
        self._start_auction()

    def clone(self, rng: random.Random | None = None) -> Batavia:
        """A copy sharing nothing mutable, for search. Chance events in the copy (die rolls,
        reshuffles) draw from ``rng``; by default from an exact copy of this state's generator,
        so the copy replays the same future. Copying a Mersenne Twister costs about twice as
        much as the rest of the state, so a search that brings its own generator passes it."""
        s = Batavia(0, _blank=True)
        s.n = self.n
        if rng is None:
            rng = random.Random()
            rng.setstate(self.rng.getstate())
        s.rng = rng
        s.threshold = self.threshold
        s.deck = self.deck[:]
        s.discard = self.discard[:]
        s.lot = self.lot[:]
        s.hand = [h[:] for h in self.hand]
        s.hand_size = self.hand_size[:]
        s.fleet = [f[:] for f in self.fleet]
        s.in_play = self.in_play[:]
        s.total_in_play = self.total_in_play
        s.seal = self.seal[:]
        s.bonds = self.bonds[:]
        s.gold = self.gold[:]
        s.pos = self.pos[:]
        s.crates = self.crates[:]
        s.posts = [t[:] for t in self.posts]
        s.stock = [w[:] for w in self.stock]
        s.route_company = self.route_company[:]
        s.route_good = self.route_good      # goods never change once laid
        s.revealed = self.revealed
        s.goal_taker = self.goal_taker
        s.phase = self.phase
        s.to_move = self.to_move
        s.start_player = self.start_player
        s.round_order = self.round_order    # never mutated, replaced each round
        s.round_index = self.round_index
        s.auction_order = self.auction_order
        s.passed = self.passed[:]
        s.n_passed = self.n_passed
        s.high = self.high
        s.bid = self.bid
        s.speaker = self.speaker
        s.laid = self.laid
        s.move_choices = self.move_choices  # never mutated, replaced on each move
        s.scores = self.scores
        return s

    # ------------------------------------------------------------ ship cards
    def _turn_cards(self, k: int, counts: list) -> int:
        """Take up to k cards from the draw pile into ``counts``, reshuffling the discard
        pile into a new draw pile when it runs out; returns how many were taken."""
        deck = self.deck
        taken = 0
        for _ in range(k):
            if not deck:
                if not self.discard:
                    break
                deck.extend(self.discard)
                self.discard.clear()
                self.rng.shuffle(deck)
            counts[deck.pop()] += 1
            taken += 1
        return taken

    def _update_seal(self, c: int) -> None:
        """The seal lies with the one player holding strictly the most cards of c, or nobody."""
        most = 0
        holder = NO_ONE
        for q, f in enumerate(self.fleet):
            k = f[c]
            if k > most:
                most = k
                holder = q
            elif k == most:
                holder = NO_ONE
        self.seal[c] = holder

    def _best_other(self, p: int, c: int) -> int:
        best = 0
        for q, f in enumerate(self.fleet):
            if q != p and f[c] > best:
                best = f[c]
        return best

    # ------------------------------------------------------------ the route
    def _next_tile(self, p: int, c: int) -> int:
        """Space of the next tile of company c ahead of p's merchant, or 0 when none."""
        rc = self.route_company
        for i in range(self.pos[p] + 1, GOAL_SPACE):
            if rc[i] == c:
                return i
        return 0

    def _may_play(self, p: int) -> bool:
        if self.hand_size[p] == 0:
            return False
        hand, fleet = self.hand[p], self.fleet[p]
        goal_taken = self.goal_taker != NO_ONE
        for c in COMPANIES:
            if fleet[c] + hand[c] > self._best_other(p, c) and (not goal_taken or self._next_tile(p, c)):
                return True
        return False

    def _play_complete(self, p: int) -> bool:
        goal_taken = self.goal_taker != NO_ONE
        for c in COMPANIES:
            if self.seal[c] == p and (not goal_taken or self._next_tile(p, c)):
                return True
        return False

    # ------------------------------------------------------------ A. the auction
    def _start_auction(self) -> None:
        a = self.start_player
        n = self.n
        self._turn_cards(self.rng.randint(1, DIE_SIDES), self.lot)   # added to any unsold lot
        self.auction_order = [(a + k) % n for k in range(1, n + 1)]  # left of a, ..., a
        self.passed = [False] * n
        self.n_passed = 0
        self.high = NO_ONE
        self.bid = MIN_BID - 1
        self.speaker = 0
        self.phase = AUCTION
        self._next_bidder()

    def _next_bidder(self) -> None:
        n = self.n
        while True:
            if self.n_passed == n or (self.high != NO_ONE and self.n_passed == n - 1):
                self._end_auction()
                return
            p = self.auction_order[self.speaker % n]
            self.speaker += 1
            if not self.passed[p] and p != self.high:
                self.to_move = p
                return

    def _end_auction(self) -> None:
        w = self.high
        if w != NO_ONE:
            # pay_spread: one bond at a time to the others, from the winner's left
            n = self.n
            bonds = self.bonds
            for k in range(self.bid):
                bonds[w] -= 1
                bonds[(w + 1 + k % (n - 1)) % n] += 1
            lot, hand = self.lot, self.hand[w]
            for c in COMPANIES:
                hand[c] += lot[c]
                self.hand_size[w] += lot[c]
                lot[c] = 0
            self.start_player = w
        # B. actions, from the start player clockwise
        self.round_order = [(self.start_player + k) % self.n for k in range(self.n)]
        self.round_index = 0
        self.phase = ACTION
        self.to_move = self.round_order[0]

    # ------------------------------------------------------------ B. the actions
    def _end_action(self) -> None:
        """After every action: pirates, then the next player, the next round or the end."""
        if self.total_in_play >= self.threshold:
            self._pirates()
        self.round_index += 1
        if self.round_index < self.n:
            self.phase = ACTION
            self.to_move = self.round_order[self.round_index]
        elif self.goal_taker != NO_ONE:
            self._finish()
        else:
            self._start_auction()

    def _pirates(self) -> None:
        in_play = self.in_play
        while self.total_in_play >= self.threshold:
            most = max(in_play)
            for c in COMPANIES:
                if in_play[c] == most:
                    for f in self.fleet:
                        if f[c]:
                            self.discard.extend([c] * f[c])
                            f[c] = 0
                    in_play[c] = 0
                    self.total_in_play -= most
                    self.seal[c] = NO_ONE

    def _move_merchant(self, p: int) -> None:
        choices = [c for c in COMPANIES if self.seal[c] == p and self._next_tile(p, c)]
        if not choices:
            self.pos[p] = GOAL_SPACE
            self.goal_taker = p
            self._end_action()
        elif len(choices) == 1:
            self._take_tile(p, self._next_tile(p, choices[0]))
        else:
            self.move_choices = [A_MOVE[c] for c in choices]
            self.phase = MOVING

    def _take_tile(self, p: int, space: int) -> None:
        c = self.route_company[space]
        g = self.route_good[space]
        posts = self.posts[p]
        new_company = posts[c] == 0
        self.pos[p] = space
        self.route_company[space] = NO_ONE
        posts[c] += 1
        if self.crates[p]:
            self.crates[p] -= 1
            self.stock[p][g] += 1
        if space > self.revealed - REVEAL_STEP:
            self.revealed = min(self.revealed + REVEAL_STEP, ROUTE_LENGTH)
        if new_company and p != self.goal_taker:
            self.phase = CASHING
        else:
            self._end_action()

    # ------------------------------------------------------------ the end
    def _finish(self) -> None:
        n = self.n
        for p in range(n):
            hand, fleet = self.hand[p], self.fleet[p]
            for c in COMPANIES:
                fleet[c] += hand[c]
                hand[c] = 0
            self.hand_size[p] = 0
        for c in COMPANIES:
            self._update_seal(c)
        scores = self.gold[:]
        for g in GOODS:
            most = max(w[g] for w in self.stock)
            if most:
                tied = sum(1 for w in self.stock if w[g] == most)
                gold = GOOD_MAJORITY[g] if tied == 1 else GOOD_TIE[g]
                for p in range(n):
                    if self.stock[p][g] == most:
                        scores[p] += gold
        most = max(self.bonds)
        tied = self.bonds.count(most)
        for p in range(n):
            if self.bonds[p] == most:
                scores[p] += BONDS_MOST if tied == 1 else BONDS_TIED
        scores[self.goal_taker] += GOAL_GOLD
        for holder in self.seal:
            if holder != NO_ONE:
                scores[holder] += SEAL_GOLD
        self.scores = scores
        self.phase = OVER
        self.to_move = NO_ONE

    # ------------------------------------------------------------ the interface
    @property
    def over(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> list:
        p = self.to_move
        phase = self.phase
        if phase == AUCTION:
            acts = list(A_BID[max(self.bid + 1, MIN_BID):self.bonds[p] + 1])
            acts.append(A_PASS)
            return acts
        if phase == ACTION:
            return [A_DRAW, A_PLAY] if self._may_play(p) else [A_DRAW]
        if phase == LAYING:
            hand = self.hand[p]
            acts = [A_LAY[c] for c in COMPANIES if hand[c]]
            if self.laid and self._play_complete(p):
                acts.append(A_DONE)
            return acts
        if phase == MOVING:
            return self.move_choices
        if phase == CASHING:
            return [A_CASH, A_KEEP]
        return []

    def apply(self, action: tuple) -> None:
        p = self.to_move
        kind = action[0]
        if kind == LAY:
            c = action[1]
            self.hand[p][c] -= 1
            self.hand_size[p] -= 1
            self.fleet[p][c] += 1
            self.in_play[c] += 1
            self.total_in_play += 1
            self.laid += 1
            self._update_seal(c)
        elif kind == BID:
            self.high = p
            self.bid = action[1]
            self._next_bidder()
        elif kind == PASS:
            self.passed[p] = True
            self.n_passed += 1
            self._next_bidder()
        elif kind == DRAW:
            self.hand_size[p] += self._turn_cards(DRAW_COUNT, self.hand[p])
            self._end_action()
        elif kind == PLAY:
            self.laid = 0
            self.phase = LAYING
        elif kind == DONE:
            self._move_merchant(p)
        elif kind == MOVE:
            self._take_tile(p, self._next_tile(p, action[1]))
        elif kind == CASH:
            posts = self.posts[p]
            held = 0
            for c in COMPANIES:
                if posts[c]:
                    posts[c] -= 1
                    held += 1
            self.gold[p] += CASH_IN_VALUE[held]
            self._end_action()
        elif kind == KEEP:
            self._end_action()
        else:
            raise ValueError(f"unknown action {action!r}")


# ---------------------------------------------------------------- random play
def _play_game(players: int, seed: int) -> tuple[int, Batavia]:
    rng = random.Random(seed)
    state = Batavia(players, rng)
    decisions = 0
    choice = rng.choice
    while state.phase != OVER:
        state.apply(choice(state.legal_actions()))
        decisions += 1
    return decisions, state


def play(players: int, seed: int) -> int:
    """One full game, every decision uniformly random; returns the number of decisions.
    (The final scores are on the state: see ``_play_game``.)"""
    return _play_game(players, seed)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    decisions = 0
    winning = 0
    t0 = time.process_time()
    for seed in range(args.games):
        d, state = _play_game(args.players, seed)
        decisions += d
        winning += max(state.scores)
    elapsed = time.process_time() - t0
    print(f"batavia reference  {args.players}p  {args.games / elapsed:7.1f} games/s  "
          f"{decisions / elapsed:8.0f} decisions/s  {decisions / args.games:6.1f} decisions/game  "
          f"mean winning score {winning / args.games:5.1f}")


if __name__ == "__main__":
    main()
