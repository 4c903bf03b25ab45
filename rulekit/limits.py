# SPDX-License-Identifier: MIT
"""Limits and defaults, each with its reason, in one place (issue 56).

Every limit a user may meet (a bound that refuses or stops something: a content file, a value the
rules build, a step, a search, a cache, the language server's child) and every default a command
uses is written here once; the module that applies it imports it under the name it has always had
there (``from ..limits import YAML_DEPTH as MAX_DEPTH``), so reading that module still shows what
bounds it, and a test that patches that module's name still reaches the code that reads it.
What stays where it is: tuning constants that change only how the work is done (its speed, how it
is batched), never what a user is refused or given (the compiler's `forms.UNROLL_SIZE`,
`analysis.INLINE_SIZE`, `codegen.FLAT_DEPTH`, the memo's trial rates, the watchdog's TICKS,
simulate's PIECE and AHEAD, `rl/observe.SOFT_SCALE`), and the widths of listings and drawings
(`view/`), which shape what is printed. `tests/test_limits_one_place.py` lists those named like a
limit and checks that no other MAX_*, *_LIMIT, *_SECONDS (...) number is written outside this module.
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
# reads at most 4,300, and no rule needs a tenth of these. content/loader.py and dsl/parser.py both
# read this one value.
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

# ---- values the rules build (engine/limits.py, runtime.py, library.py, state.py, mutate.py) -----
# How large a value content may build: a text or list of MAX_SIZE elements, a whole number of
# MAX_BITS bits (about 3,900 digits: Python prints no more than 4,300). Beyond them a runaway rule
# (`s = s + s` in a loop) is stopped on its line (RK4015), in a moment, instead of eating the
# machine's memory or failing where the value is printed.
MAX_SIZE = 1_000_000
MAX_BITS = 13_000
# Characters of all the labels of one decision (ten texts of the longest).
MAX_LABELS = 10_000_000
# Each value is bounded above, but a loop may copy a value within the bounds many times and keep
# every copy (`keep = keep + [xs[:]]`): a few seconds reach gigabytes. So one run of the rules (from
# a decision to the next) may build at most MAX_BUILT elements in the copies the engine makes
# (RK4024). 20 million list items are 160 MB of pointers; the shipped games build well under
# 100,000 in a step (a decision's options and a few sorted hands).
MAX_BUILT = 20_000_000
# How far the process's resident memory may grow during one run of the rules before the command
# line's watchdog (engine/watchdog.py) stops it on its line (RK4024): far above any shipped game's
# step, far below the machines' memory.
MAX_STEP_MEMORY = 1 << 30
# `range` (engine/library.py): a longer one is RK4014 on its line, before it is allocated; no board
# needs more, so a longer one is a runaway bound.
MAX_RANGE = 1_000_000
# `subsets` and the built-ins that list choices (engine/library.py): as many as the longest list
# content may build (MAX_SIZE), refused before any is listed.
MAX_SUBSETS = 1_000_000
# Trail extensions one `longest_trail` may try (engine/graphs.py, a second or two): the search
# grows exponentially with the edges a player holds, so past it RK4030 stops it rather than hang.
MAX_TRAIL_STEPS = 1_000_000
# ---- decisions in steps (engine/moves.py) --------------------------------------------------------
# Positions one expansion of a move made in steps (a procedure marked `move: whole`) may reach, and
# steps one such move may take: every complete move is played out on a copy of the state (bots,
# scripts and `legal` see whole moves), so past these RK4031 stops it on the procedure's line
# rather than copy states without end (a claim of 129 options, each with a few payments, is some
# hundreds).
MAX_MOVE_POSITIONS = 20_000
MAX_MOVE_STEPS = 64

# ---- how long a step may run (engine/vm.py, runtime.py, watchdog.py, api.py) --------------------
# Statements and loop turns of one run of the rules without a decision (vm.run, the api's
# step_limit default): a runaway loop stops with RK4009 on its line (docs/design.md, 2.2).
DEFAULT_STEP_LIMIT = 2_000_000
# Procedure calls nested (runtime.call): recursion stops at this depth with RK4008 on its line.
CALL_DEPTH = 200
# Seconds of CPU time one step of the rules may compute without a decision before the command
# line's watchdog stops it on its line (RK4016): a minute; RULEKIT_STEP_SECONDS sets another.
STEP_SECONDS = 60

# ---- what content may declare and write (builder/components.py, builder/board.py, dsl/texts.py) --
# Items a game may have, listed or generated (a `range:` of items is listed only up to it).
MAX_ITEMS = 100_000
# Zones in all families (`keys:`, `range:`) of a game.
MAX_ZONES = 100_000
# Expression/block nesting an effect-language text may have (RK0219): the parser and the compiler
# recurse, so a deeper text is refused before it runs them out of stack.
MAX_NESTING = 100

# ---- what is remembered (engine/memo.py, agents/estimates.py, dsl/parse_cache.py, code_cache.py) --
# Results one static content function keeps before its table starts over: memory stays bounded
# however many different arguments a long run asks about.
STATIC_MEMO_LIMIT = 100_000
# States whose estimates a search bot's table remembers before it starts over.
ESTIMATES_KEPT = 8192
# Parsed texts one game's cache file keeps; past this it keeps only the last load's.
PARSE_CACHE_ENTRIES = 2_000
# Compiled codes one game's cache file keeps; past this it keeps only the last load's.
CODE_CACHE_ENTRIES = 4_000
# A process keeps in memory the parsed texts and compiled codes of the last load of this many games
# (a folder with its variants), so a game loaded again (a test suite's, the language server's
# variants) is parsed and compiled once; a process that loads a game at every edit keeps that
# load's, never every version it saw (issue 51: memory flat over thousands of edits).
KEPT_LOADS = 64
# ...and, of what no such load used (a script's expectations, code compiled outside a load), the
# newest this many entries.
KEPT_LOOSE_ENTRIES = 4_000
# A bigger cache file is not read (it is written afresh): a cache file is never a way to make a load
# spend memory.
CACHE_FILE_BYTES = 64 * 1024 * 1024

# ---- the language server's child that plays a script (lsp/bounded.py) ---------------------------
# Seconds of the child's CPU time a script's whole run may take (RULEKIT_LSP_SCRIPT_SECONDS sets
# another): the server must go on answering.
LSP_SCRIPT_SECONDS = 10
# Times LSP_SCRIPT_SECONDS of wall-clock time, for a child that waits without computing.
LSP_BACKSTOP = 30
# A child's address space (RLIMIT_AS): a runaway value stops near it (RK4024 at 1 GB of growth).
LSP_CHILD_MEMORY = 2 << 30
# Requests a child serves before it is retired, so that what it keeps stays bounded.
LSP_CHILD_REQUESTS = 50
