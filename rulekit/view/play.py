# SPDX-License-Identifier: MIT
"""``rulekit play``: one human seat against bots, in the terminal.

The picture is always ``view(state, seat)`` (what the seated player may see under
the content's declared visibility; nothing else is read), the legal actions are
numbered, and a line of input is one of:

* a number from the list, or an action in notation (``bid 3``), or its start, word by word
  (``cla r1`` for ``claim r1 red``): one action begun so is played, several are listed numbered
  and nothing changes. A number is the action's place in the whole list; past GROUP_OVER options
  the list is shown a line per group of those that begin with the same words;
* ``undo`` - back to your previous decision: the game is replayed from the start
  with the logged actions before it (the engine is deterministic, and the bots are
  replayed too, so the same choice again brings the same answers); never past an action
  that showed you something you could not see before (a draw from a hidden pile, a shuffle,
  a roll, an item turned face up), which would show it again;
* ``save FILE`` / ``load FILE`` - the game's log, in the format of ``rulekit run``
  (``rulekit.testing.script.make_log``); ``load`` also takes any script;
* ``show [ZONE]`` - the state again, or one zone in full (``show deck``, ``show p2.hand``;
  a board as a grid, ``show p1.wall``);
* ``state`` or ``s`` - the whole state again;
* ``help``, ``quit``.

The whole state is shown at the start (and after ``undo`` or ``load``); after that, each time
it is the seat's turn again, only the lines that changed since the seat last saw the table
(a board that changed, as a grid), then the content's ``prompt`` and the legal actions.

A bare word that is also a legal action means the action; ``/undo``, ``/quit``...
always mean the command. Input is read line by line, so a plain pipe can drive a game
(``printf '1\\n1\\n' | rulekit play GAME``); without a terminal there are no colours,
and each line read is echoed after a ``>``. The game ends with the scoring breakdown.
Exit 0 after the end or ``quit``, 2 when the input ends before the game does.
"""
from __future__ import annotations

import copy
import os
import sys

from rich.columns import Columns
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ..agents import action_cap, bot_list, deal_bots, make_agent, stalled
from ..dsl.narrate import Teller
from ..dsl.secrecy import telling_options
from ..engine import api
from ..engine.redact import hidden_items, revealed
from ..engine.simultaneous import split
from ..engine.state import PLAYERS
from ..engine.view import HIDDEN, sight, view
from ..errors import EXIT_CONTENT, EXIT_OK, EXIT_USAGE, IllegalAction, RulekitError, UsageError
from ..testing.script import make_log, pins_from, write_log
from ..testing.transcripts import board_names, board_rows
from .render import internal_vars, internal_zones
from .report import score_table, show_value, winners_line

COMMANDS = ("undo", "save", "load", "show", "state", "s", "help", "quit", "exit")
SHORT = 8   # longer item lists of other players and the table are summarised by kind
# More legal actions than this are listed a line per group of those that begin alike (docs/cli.md,
# `rulekit play`): a shared-board turn offers ~150, 38 lines of columns. Twelve or fewer fit in two
# lines of columns, where groups would save nothing. It shapes a listing only, so it stays here
# (limits.py leaves the widths of listings to view/).
GROUP_OVER = 12

HELP = """\
Type the number of an action, the action itself in notation, or its start (`cla r1`):
a start that only one action has plays it; one that several have lists them, numbered.
  undo        back to your previous decision (never past a draw, shuffle or reveal)
  save FILE   write the game's log (replay it with `rulekit run FILE`; it names hidden items too)
  load FILE   continue a game from a log or script
  state, s    the whole state again (after an action, only what changed is shown)
  show        the state again; `show ZONE` lists one zone in full (`show p2.hand`)
  help        this text
  quit        stop playing
A word that is also a legal action plays it; `/undo`, `/quit`, ... are always commands."""


def _parse_seat(text, n: int | None = None) -> int:
    raw = str(text).strip().lower()
    if raw.startswith("p"):
        raw = raw[1:]
    if not raw.isdigit() or int(raw) < 1:
        raise UsageError(f"a seat is a number from 1 (or p1, p2, ...), not `{text}`")
    seat = int(raw) - 1
    if n is not None and seat >= n:
        raise UsageError(f"seat {text} is not at a {n}-player table")
    return seat


class Session:
    """One game at a table: the human's seat, the bots, and everything needed to
    rebuild the state from its log."""

    def __init__(self, game, players, seat, bots: str, variants, seed: int, console: Console,
                 reader, pins_spec=None, position=None, max_actions: int | None = None, verbose: bool = False):
        self.console = console
        self.verbose = verbose
        self.max_actions = max_actions
        self.read_line = reader
        self.bot_specs = bot_list(bots)
        self.start(game, players, seat, tuple(variants), seed, pins_spec, position, [])

    # -- building states ---------------------------------------------------------
    def start(self, game, players, seat, variants, seed, pins_spec, position, actions) -> None:
        n = game.default_players if players is None else players
        if not game.min_players <= n <= game.max_players:
            raise UsageError(f"{game.title} is for {game.min_players}-{game.max_players} players, not {n}")
        if not 0 <= seat < n:
            raise UsageError(f"seat p{seat + 1} is not at a {n}-player table")
        self.seat_bots = deal_bots(self.bot_specs, n)
        self.game, self.n, self.seat, self.variants, self.seed = game, n, seat, variants, seed
        self.pins_spec, self.position = pins_spec, position
        self.skip_invariants = None
        self.telling = None     # secrecy.telling_options of the game, read at the first action
        self.replay(actions)

    def _bot_spec(self, who: int) -> str:
        return self.seat_bots[who]

    def replay(self, actions, bots=None) -> None:
        """Rebuild the state from the start with ``actions``. The bots are restored from
        ``bots`` (a copy taken at that point of this session) or, without one, asked to
        choose again at each of their decisions, so their own random streams stay in step
        and the same choices bring the same answers."""
        position = None
        if self.position is not None:
            position = self.game.compile_script(self.position)
        self.state = api.new_game(self.game, self.n, self.seed, pins_from(self.pins_spec), position=position)
        if bots is not None:
            self.agents = copy.deepcopy(bots)
        else:
            self.agents = [None if i == self.seat else make_agent(self._bot_spec(i), self.seed * 1000 + i)
                           for i in range(self.n)]
            self.snapshots: dict[int, list] = {}
        self.actors: list[int] = []
        self.barrier = None     # (index, label, why) of the last action that showed the seat something
        self.teller = None
        self.shown = None       # the picture this seat was last shown (entry -> text); None: show it whole
        for action in actions:
            named, _ = split(str(action))       # `p2: bid 5`: one of several deciding at once
            who = self.state.pending.player if named is None else named
            if who != self.seat and bots is None:
                self.agents[who].choose(self.state)   # keep the bot's own stream in step
            self.apply(who, lambda s, a=action: api.apply(s, a))

    def apply(self, who: int, act) -> None:
        """``act(state)`` by ``who``, remembering it as undo's barrier when it showed the seat
        something it could not see before (engine/redact.py, ``revealed``)."""
        s = self.state
        hidden, mark, at = hidden_items(s, self.seat), len(s.events), len(s.actions)
        decision = s.pending
        act(s)
        why = revealed(s, self.seat, s.events[mark:], hidden) or self._told(who, decision, s, mark)
        if why is not None:
            self.barrier = (at, s.actions[at], why)
        self.actors.append(who)

    def _told(self, who: int, decision, s, mark: int) -> str | None:
        """Why the action just taken (by ``who``, at ``decision``) told the seat a hidden item
        through a number it sees, or None: its option stores a value of an item the seat could not
        see (secrecy.telling_options: a hidden pile's, or another player's `owner` zone's) in a
        variable, and a variable the seat sees changed. Undo stops before it, as before a draw."""
        telling = self.telling
        if telling is None:
            telling = self.telling = telling_options(self.game.data, self.game.texts)
        if not telling or decision is None:
            return None
        label = s.actions[-1]
        index = decision.index(label)
        if index is None:                    # one of several deciding at once: `p2: label`
            index = decision.index(split(label)[1])
        span = None if index is None else decision.spec.options.get(decision.choices[index][0])
        zones = span is not None and telling.get((str(span.path), span.line, span.column))
        if not zones:
            return None
        pzones = self.game.board.pzones
        secret = [z for z, vis in zones.items() if vis == "hidden" or not (z in pzones and who == self.seat)]
        seen = [e[1] for e in s.events[mark:] if e[0] in ("set", "set_element") and self._sees_variable(e[1])]
        if not secret or not seen:
            return None
        return f"it changed {seen[0]} by an item of {secret[0]}, which you could not see"

    def _sees_variable(self, name: str) -> bool:
        who, _, var = name.rpartition(".")
        variables = self.game.variables
        vis = variables.gvis.get(var, "public") if not who else variables.pvis.get(var, "public")
        return vis == "public" or (vis == "owner" and who == str(PLAYERS[self.seat]))

    # -- the loop ----------------------------------------------------------------
    def run(self) -> int:
        out = self.console
        out.print(f"[bold]{escape(self.game.title)}[/bold]: {self.n} players, seed {self.seed}; "
                  f"you are [bold]{PLAYERS[self.seat]}[/bold]. Type `help` for commands.", soft_wrap=True)
        shown = True
        while not self.state.over:
            s = self.state
            self.tell()
            who = s.pending.player       # the first still to choose, in a simultaneous decision
            if who != self.seat:
                cap = self.max_actions or action_cap(self.game, self.n)
                if len(s.actions) >= cap:      # the bots alone would go on for ever
                    self.say(stalled(s, cap).render())
                    return EXIT_CONTENT
                index = self.agents[who].choose(s)
                self.teller.action(s, who, index)
                self.apply(who, lambda state, i=index: api.apply_index(state, i))
                self.say(f"  {self.teller.acted(s)}")
                shown = True
                continue
            if shown:
                self.snapshots.setdefault(len(s.actions), copy.deepcopy(self.agents))
                self.show_state(changes_only=True)
                shown = False
            line = self.read_line(f"{PLAYERS[self.seat]}> ")
            if line is None:
                self.say("input ended before the game did (use `save FILE` to keep a game)")
                return EXIT_USAGE
            outcome = self.handle(line.strip())
            if outcome == "quit":
                self.say("stopped.")
                return EXIT_OK
            if outcome == "moved":
                shown = True
        self.tell()
        self.show_scores()
        return EXIT_OK

    def tell(self) -> None:
        """What happened since the last action (what the seat may see of it), indented."""
        if self.teller is None:         # a new or rebuilt game: tell from here on
            self.teller = Teller(self.verbose, self.seat)
            if self.state.actions:      # rebuilt (undo, load): what happened before was told
                self.teller.mark = len(self.state.events)
                return
        for line in self.teller.since(self.state):
            self.say(f"    {line}")

    def handle(self, line: str) -> str | None:
        """Act on one line of input; returns "moved" when the state changed."""
        if not line:
            return None
        s = self.state
        legal = s.pending.labels
        word, _, rest = line.partition(" ")
        forced = word.startswith("/")
        command = word[1:].lower() if forced else word.lower()
        if line not in legal and (forced or command in COMMANDS) and command in COMMANDS:
            name = {"exit": "quit", "s": "state"}.get(command, command)
            return getattr(self, f"cmd_{name}")(rest.strip())
        if forced:
            self.say(f"unknown command `{word}`; type `help`")
            return None
        shown = sight(s, self.seat).labels(legal)     # the options as listed to the seat
        if line.isdigit() and line not in shown:
            number = int(line)
            if not 1 <= number <= len(legal):
                self.say(f"there is no action {number}: choose 1-{len(legal)} (or type help)")
                return None
            line = legal[number - 1]
        elif line in shown:
            line = legal[shown.index(line)]
        elif picks := _begun(line, shown):
            if len(picks) > 1:          # never one of several silently: list them, change nothing
                self.say(f"`{' '.join(line.split())}` begins {len(picks)} of your actions: "
                         "type more of one, or its number")
                self.list_options(shown, picks)
                return None
            line = legal[picks[0]]
        elif shown != list(legal):      # the refusal would list options as the log writes them
            self.say(f"`{line}` is not one of your actions: type its number or its text as listed")
            self._say_groups(shown)
            return None
        index = s.pending.index(line)
        if index is not None:
            self.teller.action(s, self.seat, index)
        try:
            self.apply(self.seat, lambda state: api.apply(state, line))
        except IllegalAction as exc:
            self.say(exc.render())
            self._say_groups(shown)
            return None
        self.say(f"  {self.teller.acted(s) if index is not None else PLAYERS[self.seat]}")
        return "moved"

    def say(self, text: str) -> None:
        """A plain message: no markup, no highlighting, never wrapped."""
        self.console.print(text, markup=False, highlight=False, soft_wrap=True)

    # -- commands ----------------------------------------------------------------
    def cmd_help(self, _rest) -> None:
        self.say(HELP)

    def cmd_quit(self, _rest) -> str:
        return "quit"

    def cmd_state(self, _rest) -> None:
        self.show_state()

    def cmd_show(self, rest) -> None:
        if not rest:
            self.show_state()
            return
        picture = view(self.state, self.seat)
        name = rest.strip()
        content = _find_zone(picture, name)
        if name in board_names(self.game) and _is_family(picture["zones"].get(name)):
            content = picture["zones"][name]      # a shared board: its rows, as a player's own prints
        if content is None:
            self.say(f"no zone `{name}` (zones: {', '.join(_zone_names(picture))})")
            return
        if _is_family(content):         # a family of a player's own, or one of its boards
            kinds, states = self.game.components.item_kind, picture["items"]
            board = name.rpartition(".")[2] in board_names(self.game)
            text = _board(content, kinds, states) if board else _family(content, kinds, states)
            self.say(f"{name}:{chr(10) if board else ' '}{text}")
            return
        self.say(f"{name}: {_items(content, None, states=picture['items'])}")

    def cmd_undo(self, _rest) -> str | None:
        mine = [i for i, who in enumerate(self.actors) if who == self.seat]
        if not mine:
            self.say("nothing to undo: you have not decided anything yet")
            return None
        back = mine[-1]
        if self.barrier is not None and back <= self.barrier[0]:
            at, label, why = self.barrier
            self.say(f"cannot undo: step {at + 1} (`{sight(self.state, self.seat).text(label)}`) cannot be "
                     f"taken back, {why}; what it showed stays shown")
            return None
        undone = self.state.actions[back:]
        self.snapshots = {k: v for k, v in self.snapshots.items() if k <= back}
        self.replay(self.state.actions[:back], self.snapshots.get(back))
        self.say(f"undone: {len(undone)} action(s) since your last decision "
                 f"(`{sight(self.state, self.seat).text(undone[0])}`); back at round {self.state.g.get('round')}")
        return "moved"

    def cmd_save(self, rest) -> None:
        if not rest:
            self.say("save where? `save FILE`")
            return
        try:
            write_log(rest, make_log(self.state, self.variants, self.seed, self.pins_spec, self.position,
                                     self.skip_invariants))
        except UsageError as exc:
            self.say(exc.render())
            return
        self.say(f"saved {len(self.state.actions)} actions to {rest} "
                 f"(replay with `rulekit run {rest}`; a log is the game's whole record, naming what is hidden "
                 "from you too)")

    def cmd_load(self, rest) -> str | None:
        from ..testing.script import run_script
        if not rest:
            self.say("load what? `load FILE`")
            return None
        if not os.path.isfile(rest):
            self.say(f"no such file `{rest}`")
            return None
        try:
            result = run_script(rest)
            log = result.log
            self.start(result.state.game, result.state.n, self.seat, tuple(log.get("variants") or ()),
                       int(log.get("seed", 0)), log.get("pins"), log.get("position"), log["actions"])
            self.skip_invariants = log.get("skip_invariants")     # a position broken on purpose stays so
        except RulekitError as exc:
            self.say(exc.render())
            return None
        self.say(f"loaded {rest}: {self.game.title}, {self.n} players, seed {self.seed}, "
                           f"{len(self.state.actions)} actions played")
        return "moved"

    # -- pictures ----------------------------------------------------------------
    def show_state(self, changes_only: bool = False) -> None:
        """The table as the seat sees it, then the decision. ``changes_only``: only the lines
        that changed since the seat last saw the table (all of it the first time)."""
        out = self.console
        s = self.state
        picture = view(s, self.seat)
        me = str(PLAYERS[self.seat])
        entries = self._entries(picture, me)
        before = self.shown if changes_only else None
        self.shown = entries
        head = f"{self.game.round_name} {picture.get('round')}"
        if picture.get("to_move"):
            head += f", {picture['to_move']} to act" + (" (you)" if picture["to_move"] == me else "")
        if before is not None:
            entries = {k: v for k, v in entries.items() if before.get(k) != v}
            head += ": what changed (`s` shows all)"
        out.rule(Text(head), style="dim")
        shown = [text for (kind, *_k), text in entries.items() if kind == "var"]
        if shown:
            self._print(Text("  ".join(shown)))
        zones = [(key[1], text) for key, text in entries.items() if key[0] == "zone"]
        if zones:
            table = Table(show_header=False, box=None, pad_edge=False, padding=(0, 1))
            table.add_column("zone", style="bold", no_wrap=True)
            table.add_column("items")
            for name, text in zones:
                table.add_row(name, Text(text))
            self._print(table)
        rows: dict = {p: [] for p in picture["players"]} if before is None else {}
        for key, text in entries.items():
            if key[0] == "player":
                rows.setdefault(key[1], []).append(text)
        if rows:
            players = Table(box=None, pad_edge=False, padding=(0, 1), show_header=False)
            players.add_column("player", style="bold", no_wrap=True)
            players.add_column("state")
            for p, parts in rows.items():
                players.add_row(p + (" (you)" if p == me else ""), Text(" | ".join(parts)))
            self._print(players)
        if before is not None and not entries:
            self.say("(nothing on the table changed)")
        legal = picture.get("legal") or []
        prompt = sight(s, self.seat).text(api.prompt(s)) if self.seat in api.current_players(s) else None
        if prompt:
            self.say(prompt)
        self.list_options(legal)

    def list_options(self, shown: list[str], picks: list[int] | None = None) -> None:
        """The options ``picks`` (indexes of ``shown``, the options as the seat reads them; None:
        all, under the heading `Your legal actions (N)`), each by its number in the whole list: in
        columns, or past GROUP_OVER a line per group of them that begin with the same words."""
        whole = picks is None
        picks = list(range(len(shown))) if picks is None else picks
        lines = _grouped(shown, picks, self.console.width)
        if whole:
            head = f"Your legal actions ({len(shown)})"
            if lines is not None:
                example = next(words for words, count in _heads(shown, self.console.width) if count > 1)
                head += f" in groups: type a group's words (`{example}`) to list it"
            self.console.print(Text(head + ":"), style="bold", soft_wrap=True)
        if lines is not None:
            for text in lines:
                self.say(text)
            return
        digits = len(str(max(picks) + 1)) if picks else 1
        width = max(digits + 2 + len(shown[i]) for i in picks) if picks else 1
        cells = [Text(f"{i + 1:>{digits}}  {shown[i]}") for i in picks]
        self._print(Columns(cells, width=min(width, 60), padding=(0, 3)))

    def _say_groups(self, shown: list[str]) -> None:
        """After a refusal, when the actions are listed in groups: the words each group begins with."""
        heads = _heads(shown, self.console.width)
        if heads:
            named = ", ".join(f"`{words}`" + (f" ({count})" if count > 1 else "") for words, count in heads)
            self.say(f"your actions begin: {named}; type a start to list the actions it begins")

    def _entries(self, picture: dict, me: str) -> dict:
        """The picture's lines, each by what it shows: ("var", name), ("zone", name) or
        ("player", p, name) -> its text (a board as a grid), in the order they print."""
        kinds = self.game.components.item_kind
        states = picture["items"]
        internal = internal_zones(self.game) | internal_vars(self.game)     # the rules' bookkeeping
        grids = board_names(self.game)
        out: dict = {}
        for k, v in picture["vars"].items():
            if k not in internal:
                out[("var", k)] = f"{k}={_value(v)}"
        for name, content in picture["zones"].items():
            if name in internal:
                continue
            if _is_family(content):
                text = _board(content, kinds, states) if name in grids else _family(content, kinds, states)
            else:
                text = _items(content, SHORT, kinds, states)
            out[("zone", name)] = text
        for p, row in picture["players"].items():
            for key, value in row.items():
                if key in internal:
                    continue
                if _is_family(value):       # a family of the player's own: its spaces, a board as a grid
                    text = _board(value, kinds, states) if key in grids else _family(value, kinds, states)
                    text = f"{key}:{chr(10) if chr(10) in text else ' '}{text}"
                elif isinstance(value, (list, dict)):
                    text = f"{key}: {_items(value, None if p == me else SHORT, kinds, states)}"
                else:
                    text = f"{key}={_value(value)}"
                out[("player", p, key)] = text
        return out

    def _print(self, renderable) -> None:
        """Print without the blanks rich pads table rows with."""
        with self.console.capture() as capture:
            self.say(renderable)
        self.console.file.write("\n".join(line.rstrip() for line in capture.get().splitlines()) + "\n")

    def show_scores(self) -> None:
        result = self.state.result
        self.console.print(score_table(self.state, you=self.seat))
        self.console.print(winners_line(result))
        you = str(PLAYERS[self.seat])
        self.console.print("you win!" if you in result["winners"]
                           else f"you placed {result['ranking'].index(you) + 1} of {self.state.n}")


# -- long lists of options: groups by their first words, and a typed start ---------------------------
def _lower_words(text: str) -> list[str]:
    return text.lower().split()


def _begun(line: str, shown: list[str]) -> list[int]:
    """The options (indexes of ``shown``) that ``line`` begins, word by word, case and spacing aside:
    each typed word is the start of the option's word in its place (`cla r1` begins `claim r1 red`).
    Of those, only the ones whose words the typed ones are most often whole: the option typed out
    in full, or `claim r1` for `claim r1 red` even when `claim r10 red` is legal too."""
    typed = _lower_words(line)
    if not typed:
        return []
    best, picks = -1, []
    for i, text in enumerate(shown):
        words = _lower_words(text)
        if len(typed) > len(words) or not all(w.startswith(t) for t, w in zip(typed, words)):
            continue
        score = len(typed) + 1 if words == typed else sum(t == w for t, w in zip(typed, words))
        if score > best:
            best, picks = score, [i]
        elif score == best:
            picks.append(i)
    return picks


def _common(lists) -> int:
    """How many leading words (case aside) all the word lists share."""
    lists = [[w.lower() for w in words] for words in lists]
    if not lists:
        return 0
    depth = 0
    while all(len(words) > depth and words[depth] == lists[0][depth] for words in lists):
        depth += 1
    return depth


def _by_word(picks: list[int], words: dict, depth: int) -> list[list[int]]:
    """``picks`` by their word at ``depth`` (case aside; none: those with no more words), each group
    in the order of its first option."""
    groups: dict[str, list[int]] = {}
    for i in picks:
        groups.setdefault(words[i][depth].lower() if len(words[i]) > depth else "", []).append(i)
    return list(groups.values())


def _groups(shown: list[str], picks: list[int], width: int):
    """(depth, groups, words) when ``picks`` are more than GROUP_OVER and begin alike: the words all
    share are passed over (depth of them) and the next one groups them. None when a line a group
    would be as many lines as the columns of ``width`` characters that list them all."""
    if len(picks) <= GROUP_OVER:
        return None
    words = {i: shown[i].split() for i in picks}
    depth = _common(words.values())
    groups = _by_word(picks, words, depth)
    cell = min(len(str(max(picks) + 1)) + 2 + max(len(shown[i]) for i in picks), 60)
    rows = -(-len(picks) // max(1, (width + 3) // (cell + 3)))      # as list_options' columns fill
    if len(groups) >= rows:
        return None
    return depth, groups, words


def _numbers(group: list[int]) -> str:
    """The numbers of a group's options as runs (`1-32`), or nothing past two runs."""
    runs: list[list[int]] = []
    for i in group:
        if runs and runs[-1][1] == i:
            runs[-1][1] = i + 1
        else:
            runs.append([i + 1, i + 1])
    if len(runs) > 2:
        return ""
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def _heads(shown: list[str], width: int) -> list[tuple[str, int]]:
    """The groups all of ``shown`` are listed in, as (their words, how many): none for columns."""
    found = _groups(shown, list(range(len(shown))), width)
    if found is None:
        return []
    depth, groups, words = found
    return [(" ".join(words[g[0]][:depth + 1]), len(g)) for g in groups]


def _fit(head: str, parts: list[str], room: int) -> str:
    """``head`` and as many of ``parts`` as fit in ``room`` characters, then `...` and the last."""
    text = head + ", ".join(parts)
    if len(text) <= room or len(parts) <= 2:
        return text
    kept = [parts[0]]
    for part in parts[1:-1]:
        if len(head + ", ".join(kept + [part, "...", parts[-1]])) > room:
            break
        kept.append(part)
    return head + ", ".join(kept + ["...", parts[-1]])


def _grouped(shown: list[str], picks: list[int], width: int) -> list[str] | None:
    """The lines listing ``picks`` in groups (see _groups), or None for columns. A lone option is
    its number and text; a group is its numbers, its words, its count and the first of its options
    (those that begin alike again summarised the same way: `claim r1 (3)`) as fit, and the last."""
    found = _groups(shown, picks, width)
    if found is None:
        return None
    depth, groups, words = found
    numbers = [str(g[0] + 1) if len(g) == 1 else _numbers(g) for g in groups]
    digits = max(len(n) for n in numbers)
    room = max(width - digits - 3, 40)
    lines = []
    for group, number in zip(groups, numbers):
        if len(group) == 1:
            text = shown[group[0]]
        else:
            inner = _common(words[i] for i in group)
            parts = []
            for sub in _by_word(group, words, inner):
                first = sub[0]
                parts.append(shown[first] if len(sub) == 1 else f"{' '.join(words[first][:inner + 1])} ({len(sub)})")
            text = _fit(f"{' '.join(words[group[0]][:depth + 1])} ({len(group)}): ", parts, room)
        lines.append(f"{number:>{digits}}  {text}")
    return lines


def _family(content: dict, kinds, states: dict) -> str:
    """Non-empty members of a zone family; neighbours showing the same are grouped."""
    runs: list = []
    for key, sub in content.items():
        text = _items(sub, SHORT, kinds, states) if _size(sub) else None
        if runs and runs[-1][2] == text:
            runs[-1][1] = key
        else:
            runs.append([key, key, text])
    parts = [f"[{a}]" if a == b else f"[{a}..{b}]" for a, b, _t in runs]
    return "  ".join(f"{label} {text}" for label, (_a, _b, text) in zip(parts, runs) if text is not None) or "-"


def _board(content: dict, kinds, states: dict) -> str:
    """A board's cells as a grid, a line per row (`1  forest-1  .  lake-2`): each cell its top item,
    `.` when empty, `+N` for more under it."""
    return "\n".join(board_rows(content, lambda shown: _items(shown[-1:], None, kinds, states)))


def _is_family(content) -> bool:
    return isinstance(content, dict) and "count" not in content


def _size(content) -> int:
    return content.get("count", 0) if isinstance(content, dict) else len(content)


_value = show_value


def _state(ident: str, states: dict | None) -> str:
    """An item's id with its state in brackets, leaving out what is unset (false, 0, none,
    empty) and ``face_up`` (a shown item of a face-up zone is face up)."""
    parts = []
    for prop, value in ((states or {}).get(ident) or {}).items():
        if prop == "face_up" or value in (False, 0, None, "none", []):
            continue
        parts.append(prop if value is True else f"{prop} {_value(value)}")
    return f"{ident} ({', '.join(parts)})" if parts else ident


def _items(content, limit: int | None, kinds: dict | None = None, states: dict | None = None) -> str:
    """Items of a zone as text (each with its set state); past ``limit`` items, a count per component kind."""
    if isinstance(content, dict):
        n = content.get("count", 0)
        return f"({n} hidden)" if n else "-"
    if not content:
        return "-"
    hidden = sum(1 for x in content if x == HIDDEN)
    seen = [x for x in content if x != HIDDEN]
    if limit is not None and len(content) > limit:
        counts: dict[str, int] = {}
        for ident in seen:
            kind = (kinds or {}).get(ident, "item")
            counts[kind] = counts.get(kind, 0) + 1
        parts = [f"{k} x{c}" for k, c in counts.items()]
        if hidden:
            parts.append(f"{hidden} face down")
        return f"{len(content)} items ({', '.join(parts)})"
    return ", ".join("(face down)" if x == HIDDEN else _state(x, states) for x in content)


def _zone_names(picture) -> list[str]:
    names = []
    for name, _content in picture["zones"].items():
        names.append(name)
    for p, row in picture["players"].items():
        names.extend(f"{p}.{k}" for k, v in row.items() if isinstance(v, (list, dict)))
    return names


def _find_zone(picture, name: str):
    if "." in name:
        p, _, zone = name.partition(".")
        value = picture["players"].get(p, {}).get(zone)
        return value if isinstance(value, (list, dict)) else None
    if "[" in name and name.endswith("]"):
        fam, _, key = name[:-1].partition("[")
        content = picture["zones"].get(fam)
        return content.get(key) if _is_family(content) else None
    content = picture["zones"].get(name)
    if _is_family(content):
        return [x for c in content.values() if isinstance(c, list) for x in c]
    return content


def _stdin_reader(console: Console, interactive: bool):
    def read(prompt: str):
        if interactive:
            try:
                return console.input(prompt)
            except EOFError:
                return None
        line = sys.stdin.readline()
        if not line:
            return None
        console.print(f"> {line.rstrip()}", markup=False, highlight=False, soft_wrap=True)
        return line
    return read


def play(game_name: str, players=None, seat="1", bots: str = "random", variants=(), seed: int = 1,
         stdin_is_tty: bool | None = None, max_actions: int | None = None, verbose: bool = False) -> int:
    from ..games import load_game
    interactive = sys.stdin.isatty() if stdin_is_tty is None else stdin_is_tty
    console = Console(highlight=False) if interactive and sys.stdout.isatty() else \
        Console(width=100, force_terminal=False, no_color=True, highlight=False)
    game = load_game(game_name, tuple(variants))
    n = game.default_players if players is None else players
    session = Session(game, players, _parse_seat(seat, n), bots, variants, seed, console,
                      _stdin_reader(console, interactive), max_actions=max_actions, verbose=verbose)
    return session.run()


def cmd_play(args) -> int:
    return play(args.game, args.players, args.seat, args.bots, tuple(args.variant), args.seed,
                max_actions=args.max_actions, verbose=args.verbose)
