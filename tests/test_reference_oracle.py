# SPDX-License-Identifier: MIT
"""The hand-written references (``benchmarks/reference/``) as an oracle for the shipped games.

As OpenSpiel's ``test_consistent`` checks one implementation against another, each test plays the
same seeds in rulekit and in the plain-Python reference, decision for decision. The reference
draws the chance (its own ``random``); every outcome it draws (a shuffle's order, a die) is pinned
into rulekit (``State.pins``, as a script's ``pins:`` are) just before rulekit takes the same
action, so both lay out, deal, reshuffle and roll alike, setup and Goa's part B included, and
rulekit must draw exactly what was pinned for that step (same zones and streams, same order).
At every decision both must agree on whose decision it is and on the options offered: rulekit's
labels mapped to the reference's action tuples, compared as multisets, so a missing or extra
option fails with both lists shown. Between steps they must agree on each player's counters
(Batavia: bonds, gold, merchant's space at every decision; Goa: ships, colonists, ducats and the
score as it stands, at the markers, auctions, action turns and additional actions only: inside an
action the two may pay in another order, e.g. the reference takes a progress's ships before the
spices are chosen). At the end the scores and the winners must be the same (Batavia is scored
only then: its finish lays the hands down). The choices are a seeded random pick among rulekit's
options; ``RULEKIT_LONG`` sets the seeds per player count (200 agreed when this was written).

The references make every ``choose`` of the content a decision with the same options (their
docstrings), so nothing is left out of the comparison. Pieces are matched by content order, which
is the references' numbering (checked); Batavia's ship cards of one company are alike, so a pinned
deck gives the reference's sequence of companies the ids rulekit's zone holds.
"""
from __future__ import annotations

import importlib.util
import os
import random
import sys
from collections import Counter
from pathlib import Path

import pytest

from rulekit.engine import api, scoring
from rulekit.games import load_game

pytestmark = pytest.mark.slow

SEEDS = range(int(os.environ.get("RULEKIT_LONG") or 40))      # per player count
REFERENCE = Path(__file__).resolve().parents[1] / "benchmarks" / "reference"


def _reference(name: str):
    """Import benchmarks/reference/NAME.py (the benchmarks folder is no package on the path)."""
    key = f"_reference_{name}"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, REFERENCE / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]


# ---------------------------------------------------------------- the driver (both games)
def _seat(s) -> int:
    return s.pending.player


def _mapped(adapter, labels: list, ref) -> list:
    """Each rulekit label as the reference's action; a label the reference cannot name shows as is."""
    out = []
    for label in labels:
        try:
            out.append(adapter.to_ref(label, ref))
        except (KeyError, ValueError, IndexError):
            out.append(("unmapped", label))
    return out


def _disagreement(what: str, where: str, history: list, **shown) -> str:
    lines = [f"{where}: {what}", f"  last actions: {history[-8:]}"]
    lines += [f"  {k}: {v}" for k, v in shown.items()]
    return "\n".join(lines)


def _compare_decision(adapter, s, ref, where: str, history: list) -> tuple:
    """Whose turn, the options offered and the counters; returns rulekit's labels and them mapped."""
    labels = api.legal_actions(s)
    mapped = _mapped(adapter, labels, ref)
    offered = list(ref.legal_actions())
    if _seat(s) != adapter.seat(ref):
        pytest.fail(_disagreement("not the same player to decide", where, history,
                                  rulekit=f"p{_seat(s) + 1} {labels}",
                                  reference=f"p{adapter.seat(ref) + 1} {offered}"))
    if Counter(mapped) != Counter(offered):
        missing = Counter(offered) - Counter(mapped)
        extra = Counter(mapped) - Counter(offered)
        show = adapter.show
        pytest.fail(_disagreement("not the same options", where, history, pending=adapter.pending(ref),
                                  only_in_reference=sorted(map(show, missing), key=repr),
                                  only_in_rulekit=sorted(map(show, extra), key=repr),
                                  rulekit=[(label, show(a)) for label, a in zip(labels, mapped)],
                                  reference=list(map(show, offered))))
    if not adapter.settled(ref):
        return labels, mapped
    ours, theirs = adapter.counters_rk(s), adapter.counters_ref(ref)
    if ours != theirs:
        pytest.fail(_disagreement(f"not the same counters {adapter.counters} per player", where, history,
                                  rulekit=ours, reference=theirs))
    return labels, mapped


def _apply_both(adapter, s, ref, label: str, action: tuple, where: str, history: list) -> None:
    """The reference first; what chance it drew is pinned into rulekit, which must draw just that."""
    ref.apply(action)
    pins = adapter.chance(ref, s)
    for key, order in pins:
        s.pins.setdefault(key, []).append(order)
    mark = len(s.events)
    try:
        api.apply(s, label)
    except Exception as exc:    # a pinned order rulekit could not use: the zone held other pieces
        pytest.fail(_disagreement(f"rulekit failed: {exc}", where, history, reference_drew=[k for k, _ in pins]))
    _check_drawn(s, mark, pins, where, history)


def _check_drawn(s, mark: int, pins: list, where: str, history: list) -> None:
    """rulekit drew, since event ``mark``, exactly the chance pinned: same zones and streams, same order."""
    drawn = [f"{e[0]}:{e[1]}" for e in s.events[mark:] if e[0] in ("shuffle", "roll")]
    if drawn != [key for key, _ in pins] or any(s.pins.values()):
        pytest.fail(_disagreement("chance out of step", where, history, reference_drew=[key for key, _ in pins],
                                  rulekit_drew=drawn))


def play_against_reference(adapter, players: int, seed: int) -> int:
    """One game in both, compared at every decision; the number of decisions."""
    ref = adapter.new_reference(players, seed)
    setup = adapter.chance(ref, None)
    s = api.new_game(adapter.game, players, seed=seed, pins=_pins(setup))
    choose = random.Random(f"oracle {adapter.name} {players} {seed}")
    history: list = []
    _check_drawn(s, 0, setup, f"{adapter.name} players={players} seed={seed} setup", history)
    while not s.over:
        where = f"{adapter.name} players={players} seed={seed} decision {len(history)}"
        if adapter.over(ref):
            pytest.fail(_disagreement("the reference ended first", where, history, rulekit=api.legal_actions(s)))
        labels, mapped = _compare_decision(adapter, s, ref, where, history)
        k = choose.randrange(len(labels))
        history.append(f"p{_seat(s) + 1}: {labels[k]}")
        _apply_both(adapter, s, ref, labels[k], mapped[k], where, history)
    _compare_result(adapter, s, ref, f"{adapter.name} players={players} seed={seed}, over after "
                    f"{len(history)} decisions", history)
    return len(history)


def _compare_result(adapter, s, ref, where: str, history: list) -> None:
    if not adapter.over(ref):
        pytest.fail(_disagreement("rulekit ended first", where, history, reference=list(ref.legal_actions())))
    scores = [s.result["scores"][f"p{i + 1}"]["total"] for i in range(s.n)]
    winners = sorted(int(w[1:]) - 1 for w in s.result["winners"])
    if (scores, winners) != (list(ref.scores), adapter.winners(ref)):
        pytest.fail(_disagreement("not the same result", where, history, rulekit=(scores, winners),
                                  reference=(ref.scores, adapter.winners(ref)), breakdown=s.result["scores"]))


def _pins(pairs: list) -> dict:
    pins: dict = {}
    for key, order in pairs:
        pins.setdefault(key, []).append(order)
    return pins


# ---------------------------------------------------------------- Batavia
class _Chance:
    """The reference Batavia's random generator, keeping what it drew for rulekit's pins."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.drawn: list = []

    def shuffle(self, items: list) -> None:
        self.rng.shuffle(items)
        self.drawn.append(("shuffle", list(items)))

    def randint(self, a: int, b: int) -> int:
        value = self.rng.randint(a, b)
        self.drawn.append(("roll", value))
        return value


class _ShipOrder:
    """A pinned order of rulekit's ship cards, worked out when rulekit shuffles: cards of one
    company are alike, so the reference's sequence of companies is given the ids in the zone."""

    def __init__(self, s, zone: str, companies: list, names: tuple):
        self.s, self.zone, self.companies, self.names = s, zone, companies, names

    def __iter__(self):
        key = next(k for k in self.s.zones if k.text == self.zone)
        by_company: dict = {}
        for ident in sorted(self.s.zones[key]):
            by_company.setdefault(ident.split("-")[1], []).append(ident)
        want = Counter(self.names[c] for c in self.companies)
        have = Counter({c: len(ids) for c, ids in by_company.items()})
        assert want == have, f"shuffling `{self.zone}`: the reference has {dict(want)}, rulekit {dict(have)}"
        return iter([by_company[self.names[c]].pop() for c in self.companies])


class Batavia:
    name = "batavia"
    counters = ("bonds", "gold", "pos")

    def __init__(self):
        self.ref = _reference("batavia")
        self.game = load_game("batavia")
        sets = self.game.components.sets
        self.companies, self.goods = sets["companies"], sets["goods"]
        assert len(self.companies) == self.ref.N_COMPANIES and len(self.goods) == self.ref.N_GOODS

    def new_reference(self, players: int, seed: int):
        return self.ref.Batavia(players, _Chance(seed))     # its generator: ``ref.rng``

    def seat(self, ref) -> int:
        return ref.to_move

    def over(self, ref) -> bool:
        return ref.over

    def pending(self, ref) -> str:
        return ("auction", "action", "laying", "moving", "cashing", "over")[ref.phase]

    def winners(self, ref) -> list:
        return [p for p, v in enumerate(ref.scores) if v == max(ref.scores)]

    def show(self, action: tuple) -> tuple:
        """The action with its kind named: ("bid", 3) for (0, 3)."""
        return (self.ref.NAMES[action[0]],) + action[1:] if isinstance(action[0], int) else action

    def settled(self, ref) -> bool:
        """Every step of Batavia is done in one piece: the counters agree at every decision."""
        return True

    def counters_rk(self, s) -> list:
        return [[p[k] for k in self.counters] for p in s.p]

    def counters_ref(self, ref) -> list:
        return [[ref.bonds[i], ref.gold[i], ref.pos[i]] for i in range(ref.n)]

    def chance(self, ref, s) -> list:
        """The reference's new draws as rulekit pins: in setup 5 piles, 7 stagings, the deck; then
        the die of each auction and the reshuffles of the deck."""
        drawn, ref.rng.drawn = ref.rng.drawn, []
        pins, shuffles = [], 0
        for kind, value in drawn:
            if kind == "roll":
                pins.append(("roll:dice", value))
                continue
            if s is None and shuffles < len(self.companies):     # a pile of tiles: goods, top last
                c = self.companies[shuffles]
                pins.append((f"shuffle:pile[{c}]", [f"{c}-{self.goods[g]}" for g in value]))
            elif s is None and shuffles < len(self.companies) + 7:
                pins.append(("shuffle:staging", self._staging(ref, shuffles - len(self.companies))))
            else:
                pins.append(("shuffle:deck", _ShipOrder(s, "deck", value, self.companies) if s
                             else self._whole_deck(value)))
            shuffles += 1
        return pins

    def _staging(self, ref, k: int) -> list:
        """The k-th five tiles laid on the route, as the reference laid them (spaces 5k+1..5k+5)."""
        spaces = range(5 * k + 1, 5 * k + 6)
        return [f"{self.companies[ref.route_company[i]]}-{self.goods[ref.route_good[i]]}" for i in spaces]

    def _whole_deck(self, companies: list) -> list:
        count: Counter = Counter()
        out = []
        for c in companies:
            count[c] += 1
            out.append(f"ship-{self.companies[c]}-{count[c]}")
        return out

    def to_ref(self, label: str, ref) -> tuple:
        r, words = self.ref, label.split()
        if words[0] == "bid":
            return r.A_BID[int(words[1])]
        if words[0] == "play" and len(words) == 2:
            return r.A_LAY[self.companies.index(words[1])]
        if words[0] == "move":
            return r.A_MOVE[self.companies.index(words[1])]
        if words[:2] == ["cash", "in"]:
            held = sum(1 for k in ref.posts[ref.to_move] if k)
            return r.A_CASH if int(words[2]) == held else ("cash in", int(words[2]))
        return {"pass": r.A_PASS, "draw": r.A_DRAW, "play": r.A_PLAY, "done": r.A_DONE, "keep": r.A_KEEP}[label]


# ---------------------------------------------------------------- Goa
def _goa_recording(goa):
    """The reference Goa, keeping the outcome of each shuffle (which zone, the order) for rulekit's pins."""

    class Recording(goa.Goa):     # no __slots__: a dict for the record
        def _lay_out(self, pile) -> None:
            self.laying = "tiles_a" if pile is goa.A_TILES else "tiles_b"
            try:
                super()._lay_out(pile)
            finally:
                self.laying = None

        def _shuffle(self, items: list) -> None:
            super()._shuffle(items)
            self.__dict__.setdefault("drawn", []).append((getattr(self, "laying", None), list(items)))

    return Recording


class Goa:
    name = "goa"
    counters = ("ships", "colonists", "ducats", "score")    # Goa scores the position as it stands

    def __init__(self):
        self.ref = r = _reference("goa")
        self.Reference = _goa_recording(r)
        self.game = game = load_game("goa")
        c = game.components
        sets = c.sets
        self.spices, self.columns, self.places = sets["spices"], sets["columns"], sets["colony_names"]
        kinds = c.item_kind
        self.tiles = [k for k in c.items if kinds[k] in ("tile_a", "tile_b")]
        self.cards = [k for k in c.items if kinds[k] == "expedition"]
        self.colonies = [k for k in c.items if kinds[k] == "colony"]
        self.tile_of = {k: i for i, k in enumerate(self.tiles)}
        self.card_of = {k: i for i, k in enumerate(self.cards)}
        self.colony_of = {k: i for i, k in enumerate(self.colonies)}
        self.space_of = {name: r.SPACE_RC.index((m["row"], m["col"])) for name in sets["spaces"]
                         for m in (c.members[name],)}
        self._check_pieces(c.items)

    def _check_pieces(self, props: dict) -> None:
        """rulekit's items, in content order, are the reference's numbered pieces (a mismatch is a
        broken adapter, not a disagreement)."""
        r, spice = self.ref, self.spices.index
        assert [(props[k]["type"], -1 if props[k]["spice"] is None else spice(props[k]["spice"]), props[k]["fields"],
                 props[k]["amount"], props[k]["vp"]) for k in self.tiles] == list(r._TILES)
        assert [(props[k]["effect"], props[k]["action"], props[k]["colonists"], self.ref_symbol(props[k]["symbol"]))
                for k in self.cards] == list(zip(r.CARD_EFFECT, r.CARD_ACTION, r.CARD_COLONISTS, r.CARD_SYMBOL))
        assert [(self.places.index(props[k]["place"]), props[k]["fields"], tuple(map(spice, props[k]["allows"])))
                for k in self.colonies] == list(zip(r.COL_PLACE, r.COL_FIELDS, r.COL_ALLOWS))
        assert len(self.space_of) == r.N_SPACES and sorted(self.space_of.values()) == list(range(r.N_SPACES))

    def ref_symbol(self, name: str) -> int:
        return self.game.components.sets["symbols"].index(name)

    def new_reference(self, players: int, seed: int):
        return self.Reference(players, random.Random(seed).getrandbits(64))

    def seat(self, ref) -> int:
        return ref.to_move

    def over(self, ref) -> bool:
        return ref.over

    def pending(self, ref) -> tuple:
        return ref.stack[-1]

    def winners(self, ref) -> list:
        return ref.winners()

    def show(self, action: tuple) -> tuple:
        return action

    def settled(self, ref) -> bool:
        """No step half done: inside an action the two may pay in another order (progress: the
        reference takes the ships before the spices are chosen, rulekit after), so the counters
        are compared only at the markers, auctions, action turns and additional actions."""
        return ref.stack[-1][0] in ("markers", "auction", "turn", "additional")

    def counters_rk(self, s) -> list:
        totals = scoring.score(s)["scores"]
        return [[p["ships"], p["colonists"], p["ducats"], totals[f"p{i + 1}"]["total"]] for i, p in enumerate(s.p)]

    def counters_ref(self, ref) -> list:
        return [[pl.ships, pl.colonists, pl.ducats, vp] for pl, vp in zip(ref.players, ref.final_scores())]

    def chance(self, ref, s) -> list:
        """The reference's new shuffles as rulekit pins: tiles laid out (top last, laid from a1 on, as
        the reference lays space 0 on), the expedition deck (top last)."""
        drawn, ref.drawn = ref.__dict__.get("drawn", []), []
        return [(f"shuffle:{zone}", [self.tiles[t] for t in order]) if zone
                else ("shuffle:expedition_deck", [self.cards[x] for x in order]) for zone, order in drawn]

    # ------------------------------------------------------------ labels -> the reference's actions
    def to_ref(self, label: str, ref) -> tuple:
        r, w = self.ref, label.split()
        p = ref.to_move
        pl = ref.players[p]
        verb = w[0]
        fixed = {"pass": r.PASS, "stop": r.STOP, "stop selling": r.STOP, "end turn": r.END_TURN,
                 "additional action": r.ADDITIONAL, "found it": r.FOUND_IT, "give up": r.GIVE_UP,
                 "take ship": r.TAKE_SHIP, "take colonist": r.TAKE_COLONIST, "take spice": r.TAKE_SPICE}
        if label in fixed:
            return fixed[label]
        if verb in ("flag", "place"):
            return (verb, self.space_of[w[-1]])
        if verb in ("bid", "expedition"):
            return (verb, int(w[1]))
        if verb in ("play", "discard"):
            return (verb, self.card_of[w[1]])
        if verb == "use":
            t = self.tile_of[w[1]]
            return ("viceroy", t, self.columns.index(w[3])) if len(w) == 4 else ("use", t)
        if verb == "fulfil":
            return ("duty", self.tile_of[w[1]])
        if verb == "exchange":
            return ("exchange", self.tile_of[w[1]], self.space_of[w[3]])
        if verb == "fill":
            return self._fill(w, pl)
        if verb == "pay":
            return ("from",) + self._holding(pl, w[3])
        if w[:2] == ["hand", "in"]:
            return ("hand_in_colonists", int(w[2])) if len(w) == 4 else ("hand_in", self.spices.index(w[2]))
        if verb == "sell":
            return ("sell", self.spices.index(w[1]))
        if verb == "put":
            return ("put", self.spices.index(w[1]))
        if verb == "replace":
            return ("replace", pl.plant_tile.index(self.tile_of[w[1]]))
        if verb == "keep":
            return r.FACE_DOWN
        if verb == "take":
            return self._take(w, ref)
        if verb == "progress":
            return self._progress(w)
        return self._action(w, ref, pl)

    def _holding(self, pl, ident: str) -> tuple:
        """(0, plantation index) or (1, colony index) on the reference player's boards."""
        if ident in self.tile_of:
            return (0, pl.plant_tile.index(self.tile_of[ident]))
        return (1, pl.col_id.index(self.colony_of[ident]))

    def _fill(self, w: list, pl) -> tuple:
        if w[1] == "up":
            return ("fill_up",) + self._holding(pl, w[2])
        if len(w) == 4:
            return ("fill_colony", pl.col_id.index(self.colony_of[w[1]]), self.spices.index(w[3]))
        return ("fill", pl.plant_tile.index(self.tile_of[w[1]]))

    def _take(self, w: list, ref) -> tuple:
        if len(w) == 2:
            return ("colony", self.colony_of[w[1]])
        kind = ("ships", "colonists", "spices").index(w[2])
        if ref.stack[-1][0] == "refill":
            return ("refill", kind, int(w[1]))
        return (("take_ships", "take_colonists")[kind], int(w[1]))

    def _progress(self, w: list) -> tuple:
        c = self.columns.index(w[1])
        if len(w) == 2:
            return ("progress", c)
        x = self.card_of[w[3]]
        return (self.ref.CARD_EFFECT[x], x, c)

    def _action(self, w: list, ref, pl) -> tuple:
        """build ships / harvest / taxes / found PLACE, each maybe `with CARD` and `spying pN`."""
        x = self.card_of[w[w.index("with") + 1]] if "with" in w else -1
        spy = q = -1
        if "spying" in w:
            spy = [t for t in pl.tiles if self.ref.TILE_TYPE[t] == "spy"][0]     # none: IndexError, unmapped
            q = int(w[w.index("spying") + 1][1:]) - 1
        if w[0] == "build":
            return ("build", spy, q)
        if w[0] == "taxes":
            return ("taxes", spy, q)
        if w[0] == "harvest":
            return ("harvest", x, spy, q)
        if w[0] == "found":
            return ("found", self.places.index(w[1]), x, spy, q)
        raise ValueError(w)


ADAPTERS = {"batavia": Batavia, "goa": Goa}
_loaded: dict = {}


def _adapter(name: str):
    if name not in _loaded:
        _loaded[name] = ADAPTERS[name]()
    return _loaded[name]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_batavia_plays_as_the_reference(players):
    adapter = _adapter("batavia")
    for seed in SEEDS:
        play_against_reference(adapter, players, seed)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_goa_plays_as_the_reference(players):
    adapter = _adapter("goa")
    for seed in SEEDS:
        play_against_reference(adapter, players, seed)


def _no_reshuffle(self) -> None:
    """A reference that turns the discard pile over without shuffling it."""
    if not self.deck and self.discard:
        self.deck, self.discard = self.discard, []


@pytest.mark.parametrize("game, players, patch, value, symptom", [
    ("batavia", 3, "MIN_BID", 1, "not the same options"),           # the opening bid of 0 is refused
    ("batavia", 4, "GOAL_GOLD", 5, "not the same result"),          # the goal tile scores 5
    ("goa", 2, "START_DUCATS", 11, "not the same counters"),         # everyone but the start player has 11
    ("goa", 4, "Goa._reshuffle_if_empty", _no_reshuffle, "chance out of step"),
])
def test_the_oracle_sees_a_difference(monkeypatch, game, players, patch, value, symptom):
    """The comparison can fail: a reference changed in one rule is caught, with what differs."""
    adapter = _adapter(game)
    owner, _, attr = patch.rpartition(".")
    monkeypatch.setattr(getattr(adapter.ref, owner) if owner else adapter.ref, attr, value)
    with pytest.raises(pytest.fail.Exception, match=symptom):
        for seed in SEEDS:
            play_against_reference(adapter, players, seed)
