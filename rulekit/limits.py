# SPDX-License-Identifier: MIT
"""Limits and defaults, each with its reason, in one place (issue 56).

A value is written here once; the module that applies it imports it under the name it has always
had there (``from ..limits import YAML_DEPTH as MAX_DEPTH``), so reading that module still shows
what bounds it. The runtime's and the compiler's own limits (``engine/limits.py``, the step limit
of ``engine/vm.py``, the watchdog's seconds, the parser's digits in ``dsl/parser.py``, the
language server's child in ``lsp/bounded.py``, items and zones in ``builder/components.py`` and
``builder/board.py``) are still theirs.
This module imports nothing: every folder may read it."""
from __future__ import annotations

# ---- content files (content/loader.py, content/overlay.py) ---------------------------------------
# The largest content file read: the shipped games' largest is about 64 KB; a larger one is a
# mistake or an attack, refused before YAML reads it (RK0106).
MAX_FILE_BYTES = 4 * 1024 * 1024
# Values (scalars, lists, mappings) one file may hold, aliases expanded: a shipped game.yaml holds
# under a thousand; bounds the memory and time a file can make the loader spend (RK0106).
MAX_NODES = 200_000
# A log holds its actions beyond MAX_NODES, as many as its closing `action_count` declares and it
# lists written out; one takes at least 4 bytes ("- x" and a newline), so never more than this.
MAX_LOGGED_ACTIONS = MAX_FILE_BYTES // 4
# How deeply YAML may nest (RK0108): content needs a handful of levels; a deeper file is refused
# before the values are walked.
YAML_DEPTH = 64
# Digits of a number written in content, in YAML (RK0116) or the effect language (RK0221): Python
# reads at most 4,300, and no rule needs a tenth of these. dsl/parser.py's MAX_DIGITS is the same number
# (tests/test_limits.py holds them together).
MAX_DIGITS = 1000
# $ref/allOf hops followed from one schema when a variant's keys are checked: the game schema needs
# a few; more is a loop.
SCHEMA_REFS = 32

# ---- source lines quoted in diagnostics (source.py) ----------------------------------------------
# A file larger than this is read only up to the line a diagnostic quotes.
READ_WHOLE = 1 << 20
# Characters of one line read to quote it: a minified one-line file is not read whole for a caret.
MAX_LINE_READ = 1 << 16

# ---- seeds (testing/script.py, batch/simulate.py, cli/parsing.py) --------------------------------
# A game's seed is 64 bits (engine/rng.py's SplitMix64): 0..MAX_SEED in scripts and logs
# (schemas/script.schema.json says the same); simulate's --seed takes either sign, hashed into
# each game's seed.
MAX_SEED = 2 ** 64 - 1

# ---- how long a game may last (agents/game_loop.py, testing/random_play.py, batch/simulate.py) ---
# The most any bot game may last, whatever the cap derived from the game: a stalled game (RK4012)
# costs at most this many steps.
BOT_GAME_ACTIONS = 100_000
# The derived cap: CAP_FACTOR times the longest of CAP_PROBES seeded random games of the content,
# at least CAP_MIN. Bots can stall a game random play ends (all passing); ten times what random play
# needs is room for slow strategies, and three games see the content's spread cheaply.
CAP_PROBES = 3
CAP_FACTOR = 10
CAP_MIN = 1_000
# `rulekit test`'s random games: one not over after this many actions fails (the shipped games end
# in a few hundred; a game that never ends is a rules bug this finds).
RANDOM_GAME_ACTIONS = 20_000
# `rulekit test --random N`: random games per player count, checked before any is played (10**22
# was taken and played for ever); a million is already days of play at the action cap.
MAX_RANDOM_GAMES = 1_000_000

# ---- rulekit simulate's numbers, checked before anything is sized by them (batch/simulate.py) ----
# A batch file: resuming it keeps a byte a game (100 MB).
MAX_GAMES = 100_000_000
# A report without a batch file keeps every record, about 500 bytes each (500 MB).
MAX_GAMES_HELD = 1_000_000
# Local workers are capped at twice the cores anyway; Ray asks for this many CPUs.
MAX_JOBS = 4096
# --max-actions: 100 times the derived cap's ceiling (BOT_GAME_ACTIONS).
MAX_ACTIONS_CAP = 10_000_000
# How deeply a batch file's line may nest before it is parsed: json.loads recurses once a level
# (200,000 deep ran out of stack); a record's are 2 deep, and record_problem refuses any other shape.
BATCH_LINE_DEPTH = 32
# --sweep's points: each is a batch; fifty is already a long run, and a plot stays readable.
SWEEP_POINTS = 50
# Digits of a --sweep value: it is written into a variant, where YAML numbers have at most MAX_DIGITS.
SWEEP_DIGITS = 100
# Seconds: the least a mutant's trial is given when --timeout does not say (rulekit mutate), which
# is otherwise four times the unmutated game's trial: a trial of a fraction of a second would
# otherwise time out on any pause of the machine.
MUTANT_SECONDS = 10.0
# The most --timeout may give one mutant's trial (a day): the bound is handed to a pipe's poll,
# which takes no infinity, NaN or 1e308 (they were internal errors, exit 101).
MUTANT_MAX_SECONDS = 86_400.0

# ---- fixed action ids for learning (rl/actions.py) -----------------------------------------------
# The least bound of a number the rules leave open (a bid): enough for the shipped games' economies.
DEFAULT_MAX_NUMBER = 60
# Times the largest number random play offered: stronger players hold more.
HEADROOM = 4
# Seeded random games per player count that size the numbers.
PLAYOUTS = 3
# One of them not over by then is cut short (its numbers still count): the bound of `rulekit test`'s
# random games (RANDOM_GAME_ACTIONS), written apart as it bounds another thing.
PLAYOUT_ACTIONS = 20_000
# Action ids a game's vocabulary may have (RK0971): a learner's output layer is this wide.
ACTION_IDS = 100_000

# ---- observations (rl/observe.py, rl/observe_log.py) ---------------------------------------------
# The largest whole number an observation holds as itself: a float32 (what the RL environments hand
# a learner) has a 24-bit significand, so every whole number up to 2**24 is exact and beyond it
# neighbours merge. A larger value is clipped to it, alike where it is read afresh (rl/observe.py)
# and where it is followed from the log (rl/observe_log.py).
OBSERVATION_LIMIT = float(2 ** 24)
