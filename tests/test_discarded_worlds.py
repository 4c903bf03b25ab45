# SPDX-License-Identifier: MIT
"""A search bot's imagined world that the content cannot play is discarded and counted, never
the end of a batch (tests/games/redeal: hands hold one colour each, free redealing mixes
in the hidden deck's cards, and the opponent is left with nothing to play, RK4010)."""
from __future__ import annotations

import json

import pytest

import rulekit
from rulekit.agents import _impossible, make_agent, play_out
from rulekit.batch import simulate as sim
from rulekit.engine import api
from rulekit.engine.determinize import determinize
from rulekit.errors import ContentRuntimeError, DiagnosticReport

from conftest import GAMES, load_test_game, run_cli

REDEAL = str(GAMES / "redeal")


@pytest.mark.parametrize("bot", ["mcts:30", "mcts-crn:30"])
def test_a_search_bot_discards_the_worlds_the_content_cannot_play(bot):
    game = load_test_game("redeal")
    _plays_out(game, bot, discards=True)


def test_greedy_never_lists_the_options_of_a_position_it_only_judges():
    """Greedy judges the position its move reaches by the estimate alone: that the opponent
    has nothing to play there (RK4010) is never found out, so no world is discarded."""
    _plays_out(load_test_game("redeal"), "greedy", discards=False)


def test_greedy_discards_a_world_that_fails_on_the_way_to_the_position_it_judges(write_game):
    text = (GAMES / "redeal" / "game.yaml").read_text().replace(
        "                    p.points += c.value * round",
        "                    p.points += c.value * round\n"
        "                    for q in players:\n"
        "                        assert all([d.colour == colour_of(q) for d in q.hand]), 'an imagined hand'")
    assert "imagined hand" in text
    _plays_out(rulekit.load_game(write_game(text)), "greedy", discards=True)


def _plays_out(game, bot: str, discards: bool) -> None:
    for seed in range(2):
        s = api.new_game(game, 2, seed)
        agents = [make_agent(bot, seed * 31 + k) for k in range(2)]
        play_out(s, agents)
        assert s.over and len(s.actions) == 6
        assert (sum(agent.discarded for agent in agents) > 0) is discards
        hands = [s.zones[k] for k in s.zones if k.name == "hand"]
        assert all(not hand for hand in hands)      # every card of each colour was played


def test_a_world_without_error_is_searched_as_before():
    """In a game whose worlds never fail nothing is discarded (Goa and Batavia's bot games are
    pinned by their digests)."""
    game = load_test_game("subsets")
    s = api.new_game(game, 2, 0)
    bot = make_agent("mcts:10", 0)
    bot.choose(s)
    assert bot.discarded == 0


def test_simulate_reports_discarded_worlds_and_exits_0(capsys, tmp_path):
    code, out, _ = run_cli(capsys, "simulate", REDEAL, "--games", "2", "--bots", "mcts:20")
    assert code == 0
    discarded = int(out.split("discarded worlds: ")[1].split()[0])
    assert discarded > 0 and "rules could not play" in out
    report = tmp_path / "report.json"
    assert run_cli(capsys, "simulate", REDEAL, "--games", "2", "--bots", "mcts:20", "--format", "json",
                   "--out", str(report))[0] == 0
    data = json.loads(report.read_text())
    assert data["summary"]["discarded_worlds"] == discarded == sum(g["discarded_worlds"] for g in data["games"])
    code, out, _ = run_cli(capsys, "simulate", REDEAL, "--games", "2", "--bots", "random", "--format", "csv")
    assert code == 0 and out.splitlines()[0].endswith("discarded_worlds,stalled,variant")
    assert all(line.endswith(",0,0,base") for line in out.splitlines()[1:])


def test_random_bots_report_no_discarded_worlds(capsys):
    code, out, _ = run_cli(capsys, "simulate", REDEAL, "--games", "2", "--bots", "random")
    assert code == 0 and "discarded worlds" not in out
    assert sim.summarise(sim.run_batch(REDEAL, games=2))["discarded_worlds"] == 0


def test_an_error_of_the_real_game_still_stops_the_batch(write_game, capsys):
    """Discarding hides nothing: the real game's own failure is reported on its line."""
    text = (GAMES / "redeal" / "game.yaml").read_text().replace(
        "                    p.points += c.value * round",
        "                    p.points += c.value * round\n                    if round == 2:\n"
        "                        p.points = p.points // 0")
    folder = write_game(text)
    code, out, _ = run_cli(capsys, "simulate", folder, "--games", "1", "--bots", "mcts:10")
    assert code == 1 and "RK4000" in out and "division by zero" in out


def test_the_cpu_bound_of_a_step_is_never_a_discarded_world():
    assert _impossible(ContentRuntimeError("no option", None, "RK4010"))
    assert _impossible(ContentRuntimeError("bound", None, "RK4003"))
    assert not _impossible(ContentRuntimeError("a minute of CPU", None, "RK4016"))


def test_an_error_the_real_game_shares_is_raised_not_discarded(write_game):
    """Where every world fails and the real game fails the same way (the estimate itself
    divides by zero), the error is the content's: the bot raises it on its line."""
    text = (GAMES / "redeal" / "game.yaml").read_text().replace('estimate: "p.points"',
                                                               'estimate: "p.points // (round - round)"')
    game = rulekit.load_game(write_game(text))
    for spec in ("greedy", "mcts:12"):
        s = api.new_game(game, 2, 1)
        with pytest.raises(ContentRuntimeError) as info:
            make_agent(spec, 1).choose(s)
        assert "cannot compute the estimate: division by zero" in str(info.value)
        assert info.value.span.line == text.splitlines().index('estimate: "p.points // (round - round)"') + 1


def test_a_bot_that_learnt_nothing_from_its_worlds_picks_at_random():
    """mcts:1 searches one world: where that world fails (and the real game does not), the
    bot still picks a legal option."""
    game = load_test_game("redeal")
    failed = 0
    for seed in range(12):
        s = api.new_game(game, 2, seed)
        api.apply_index(s, 0)
        bot = make_agent("mcts:1", seed)
        index = bot.choose(s)
        assert 0 <= index < len(s.pending.choices)
        failed += bot.discarded
    assert failed > 0


def _hands(world, owner):
    return [item for key, items in world.zones.items() if key.name == "hand" and key.owner == owner for item in items]


def test_a_hand_that_says_what_it_is_dealt_from_is_imagined_only_so():
    free, known = load_test_game("redeal"), load_test_game("redeal", ("known",))
    mixed = 0
    for seed in range(20):
        for game in (free, known):
            s = api.new_game(game, 2, seed)
            world, _ = determinize(s, 0, seed)
            assert _hands(world, 0) == _hands(s, 0)              # the observer's own hand stays
            colours = {item.split("-")[0] for item in _hands(world, 1)}
            if game is known:
                assert colours == {"blue"} and sorted(_hands(world, 1)) == sorted(_hands(s, 1))
            else:
                mixed += colours != {"blue"}
    assert mixed > 5


def test_worlds_dealt_as_declared_are_never_discarded():
    game = load_test_game("redeal", ("known",))
    for bot in ("greedy", "mcts:30", "mcts-crn:30"):
        s = api.new_game(game, 2, 0)
        agents = [make_agent(bot, k) for k in range(2)]
        play_out(s, agents)
        assert s.over and [agent.discarded for agent in agents] == [0, 0]


@pytest.mark.parametrize(("dealt_from", "code", "line"), [
    ('"[c for c in items(\'card\') if c.colour ==]"', "RK0201", 26),
    ('"[c for c in items(\'card\') if c.colour == colour(p)]"', "RK0305", 26),
    ("5", "RK0123", 26),
])
def test_a_bad_dealt_from_is_an_error_on_its_line(write_game, dealt_from, code, line):
    text = (GAMES / "redeal" / "game.yaml").read_text().replace(
        "    hand: {visibility: owner}", f"    hand: {{visibility: owner, dealt_from: {dealt_from}}}")
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(write_game(text))
    found = [(d.code, d.span.line) for d in info.value.diagnostics if d.severity == "error"]
    assert found[0] == (code, line)


def test_a_dealt_from_that_gives_no_items_stops_on_its_line(write_game):
    text = (GAMES / "redeal" / "game.yaml").read_text().replace(
        "    hand: {visibility: owner}", "    hand: {visibility: owner, dealt_from: \"seat(p)\"}")
    s = api.new_game(rulekit.load_game(write_game(text)), 2, 0)
    with pytest.raises(ContentRuntimeError) as info:
        determinize(s, 0, 1)
    assert info.value.code == "RK4002" and "`dealt_from` of `hand` must give a list" in str(info.value)
    assert info.value.span.line == 26
