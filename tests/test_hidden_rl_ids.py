# SPDX-License-Identifier: MIT
"""An option whose label prints a value hidden from the seat choosing it (issue 52) takes a blind
slot by position, as a blind pick's option does: its notation's id would tell the learner the
value (tests/games/veiled: tiles offered by a hidden worth, another player's `owner` coins)."""
from __future__ import annotations

from pathlib import Path

from rulekit.engine.redact import Marked
from rulekit.rl.actions import BLIND, vocabulary
from rulekit.rl.rl_play import Play

VEILED = str(Path(__file__).parent / "games" / "veiled")
SEEDS = range(6)


def _started(seed: int) -> Play:
    play = Play(VEILED)
    play.start(seed)
    return play


def _seen_by_first(play: Play) -> tuple:
    """What the seat to act's RL interface shows of its decision: its legal ids, its mask and its
    notations, but for its own coins (`bank my {p.coins}`, a value it may see, which keeps its id)."""
    seat = play.acting()[0]
    labels = play._decision(seat).labels
    own = {i for i, index in play.legal(seat).items() if labels[index].startswith("bank my ")}
    assert len(own) == 1
    mask = play.mask(seat).copy()
    mask[list(own)] = 0
    return ({i: index for i, index in play.legal(seat).items() if i not in own}, mask.tobytes(),
            [text for text in play.legal_notations(seat) if not text.startswith("bank my ")])


def test_the_deals_differ_in_the_hidden_values():
    labels = {_started(seed).state.pending.labels for seed in SEEDS}
    assert len(labels) > 1
    for seed in SEEDS:
        found = _started(seed).state.pending.labels
        assert all(label.__class__ is Marked for label in found if label != "pass")


def test_ids_mask_and_notations_do_not_depend_on_the_hidden_values():
    seen = [_seen_by_first(_started(seed)) for seed in SEEDS]
    assert all(one[0] == seen[0][0] for one in seen), [one[0] for one in seen]
    assert all(one[1] == seen[0][1] for one in seen)
    assert all(one[2] == seen[0][2] for one in seen), [one[2] for one in seen]


def test_hidden_values_take_blind_slots_by_position():
    play = _started(0)
    vocab = play.vocabulary
    assert vocab.blind > 0
    seat = play.acting()[0]
    legal = play.legal(seat)
    labels = play.state.pending.labels
    notations = {vocab.notations[i]: index for i, index in legal.items()}
    # the three tiles and p2's coins by position; `pass` and p1's own coins by their notations
    assert notations == {BLIND.format(1): 0, BLIND.format(2): 1, BLIND.format(3): 2, BLIND.format(4): 3,
                         "pass": 5, labels[4]: 4}
    assert labels[4].startswith("bank my ") and labels[4] != "bank my ?"
    assert sorted(play.legal_notations(seat)) == sorted(["take one worth ? (#1)", "take one worth ? (#2)",
                                                         "take one worth ? (#3)", "match p2's ?", labels[4], "pass"])
    for label in labels[:4]:        # the hidden values' own notations are not legal ids
        assert vocab.id_of(label) not in legal


def test_a_blind_slot_plays_the_option_at_its_position():
    play = _started(3)
    seat = play.acting()[0]
    second = play.state.zones[next(k for k in play.state.zones if k.text == "row")][1]
    slot = play.vocabulary.blind_id(1)
    assert play.apply(seat, slot)
    assert second in play.state.zones[next(k for k in play.state.zones if k.text == "p1.hand")]
    other = play.acting()[0]
    assert other != seat
    assert set(play.legal(other)) >= {play.vocabulary.blind_id(k) for k in range(3)}


def test_the_other_seats_decision_is_blind_too():
    seen = []
    for seed in SEEDS:
        play = _started(seed)
        seat = play.acting()[0]
        play.apply(seat, play.vocabulary.id_of("pass"))
        seen.append(_seen_by_first(play))
    assert all(one[0] == seen[0][0] for one in seen)
    assert all(one[2] == seen[0][2] for one in seen)


def test_the_vocabulary_keeps_its_ids_for_the_same_content():
    play = _started(0)
    assert vocabulary(play.game) is play.vocabulary
    assert play.vocabulary.notations[-play.vocabulary.blind:] == tuple(
        BLIND.format(k + 1) for k in range(play.vocabulary.blind))
