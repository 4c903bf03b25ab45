# SPDX-License-Identifier: MIT
"""Every diagnostic and error code rulekit reports, with what it means.

Each code has a name here (``UNKNOWN_NAME = "RK0301"``), and it is raised by that name
(``Diagnostic(UNKNOWN_NAME, ...)``): the number is written once, in this module, the one
place to look one up. ``tests/test_codes.py`` keeps it true: no code number is written
anywhere else in ``rulekit/``, every name here is raised somewhere, and every code is
covered by the "Diagnostic codes" table of docs/language.md. Adding a code means adding a
line here (and a row to that table).
"""

from __future__ import annotations

CODES: dict[str, str] = {}     # code -> what it means


def _code(code: str, meaning: str) -> str:
    CODES[code] = meaning
    return code


# RK00xx: errors in general, usage
ERROR = _code("RK0000", "a rulekit error that names no code of its own (the base class's default)")
USAGE = _code("RK0001", "usage: no such game, script, variant or bot, a bad option, an unwritable path")
DIAGNOSTIC_REPORT = _code("RK0002", "a report of content diagnostics, raised together (each shows its own code)")
# RK010x-RK011x: reading YAML files and their includes
UNREADABLE_FILE = _code("RK0100", "a file cannot be read")
INVALID_YAML = _code("RK0101", "invalid YAML")
DUPLICATE_KEY = _code("RK0102", "a duplicate key in a mapping")
KEY_NOT_A_NAME = _code("RK0103", "a mapping key that is not a plain name")
YAML_TAG = _code("RK0104", "a YAML tag, not allowed in content")
YAML_MERGE_KEY = _code("RK0105", "a YAML merge key (`<<`), not supported")
FILE_TOO_LARGE = _code("RK0106", "a file too large, or expanding to too many values (aliases)")
NOT_UTF8 = _code("RK0107", "a file that is not valid UTF-8")
YAML_TOO_DEEP = _code("RK0108", "YAML nested too deep")
EMPTY_FILE = _code("RK0109", "an empty file")
NOT_A_MAPPING = _code("RK0110", "a game file or included file that is not a mapping of sections")
MISSING_INCLUDE = _code("RK0111", "an included file that does not exist")
DEFINED_TWICE = _code("RK0112", "a section or key defined in two files")
INCLUDE_OUTSIDE_GAME = _code("RK0113", "an included file outside the game's folder")
LINK_OUTSIDE_GAME = _code("RK0114", "a game's file (game.yaml, a variant, a script of its folder) that is a symbolic "
                                    "link to a file outside the game's folder: named, never read")
NOT_A_REGULAR_FILE = _code("RK0115", "a content file that is not a regular file (a FIFO, a device, a socket, a folder,"
                                     " a /proc file): named, never read")
NUMBER_TOO_LONG_IN_YAML = _code("RK0116", "a number written in a YAML file with more than 1,000 digits")
TEXT_TOO_LONG = _code("RK0117", "a text written in the rules (a label, a template) of more than 1,000,000 characters")
# RK012x: schema (schemas/*.schema.json)
UNKNOWN_KEY = _code("RK0120", "an unknown key")
MISSING_KEY = _code("RK0121", "a missing required key")
NOT_A_CHOICE = _code("RK0122", "a value that is not one of the allowed choices")
WRONG_TYPE = _code("RK0123", "a value of the wrong type")
SCHEMA_REJECTS = _code("RK0124", "a value the schema rejects otherwise (range, pattern, length...)")
UNKNOWN_IN_DRAWING_HINT = _code("RK0125", "a drawing hint (`render:`, a zone's `layout:`) naming an unknown zone, "
                                          "variable, kind or property")
UNKNOWN_IN_NARRATION = _code("RK0126", "a `narrate:` template for a variable, property, zone or component kind the "
                                       "game does not define")
# RK013x: variant overlays (rulekit/content/overlay.py)
VARIANT_CHANGES_UNKNOWN = _code("RK0130", "a variant changes a name (parameter, procedure, phase, invariant, item...) "
                                          "the game does not have; a new one goes under `add:`")
VARIANT_REMOVES_UNKNOWN = _code("RK0131", "a variant removes something the game does not have (`null` for an absent "
                                          "key, `remove: true` for an absent id), or merges an empty list")
VARIANT_ADDS_EXISTING = _code("RK0132", "a name under a variant's `add:` that the game already has")
VARIANT_BAD_POSITION = _code("RK0133", "a `before:`/`after:` naming no entry of the list, both given, or moving an "
                                       "entry from under `add:`")
VARIANT_REMOVE_UNDER_ADD = _code("RK0134", "`remove:` or `replace:` under a variant's `add:`")
# RK014x: maps (a zone family declared `graph:`; rulekit/engine/graphs.py)
GRAPH_BAD_EDGE = _code("RK0140", "a map's edge naming no node, or a node the map does not have, or a name that is "
                                 "both a node and an edge")
GRAPH_NO_POSITION = _code("RK0141", "a map some of whose nodes have a position (`x:`, `y:`) and some not, or none "
                                    "where `rulekit render` draws it")
# RK02xx: effect-language syntax (RK0210-RK0218: the catalogue in dsl/syntax_errors.py)
UNEXPECTED_CHARACTER = _code("RK0200", "an unexpected character")
UNEXPECTED_TOKEN = _code("RK0201", "an unexpected token, or an unexpected end of script")
MISSING_COLON = _code("RK0210", "a missing `:` at the end of a block header")
OPTION_NOT_A_LABEL = _code("RK0211", "a `choose` option that is not a quoted label")
ASSIGN_FOR_COMPARE = _code("RK0212", "`=` where a comparison `==` belongs")
MISSING_BLOCK = _code("RK0213", "a block header without an indented block")
INCOMPLETE_SCRIPT_EXPRESSION = _code("RK0214", "an incomplete expression in a script (an operator without its right "
                                               "side)")
UNBALANCED_BRACKETS = _code("RK0215", "unbalanced brackets")
FOREIGN_OPERATOR = _code("RK0216", "`&&`, `||` or `!` instead of `and`, `or`, `not`")
BARE_VALUE_STATEMENT = _code("RK0217", "a bare value as a statement (neither an assignment nor an effect call)")
INCOMPLETE_EXPRESSION = _code("RK0218", "an incomplete expression in an expression field (an operator without its "
                                        "right side)")
TOO_COMPLEX = _code("RK0219", "nested too deeply (more than 100 levels), or too complex to compile")
INCONSISTENT_DEDENT = _code("RK0220", "an inconsistent dedent: a line's indentation matches no enclosing block")
NUMBER_TOO_LONG = _code("RK0221", "a written number of more than 1,000 digits")
FORMAT_SPEC = _code("RK0222", "a format spec after an expression (`{x:+}`, `{x:.2f}` in a template hole)")
FOREIGN_OPERATOR_IN_EXPRESSION = _code("RK0223", "`&&` or `||` instead of `and`, `or` in an expression outside a "
                                                  "rule block (`points:`, `when:`, a template's hole)")
# RK030x-RK032x: names, calls and assignments in the effect language
UNKNOWN_NAME = _code("RK0301", "unknown name")
NAMED_NOT_CALLED = _code("RK0302", "a function, procedure or effect named without calling it")
UNKNOWN_ATTRIBUTE = _code("RK0303", "unknown attribute")
PROCEDURE_IN_EXPRESSION = _code("RK0304", "a procedure called inside an expression")
UNKNOWN_FUNCTION = _code("RK0305", "unknown function, effect or procedure")
EFFECT_AS_VALUE = _code("RK0306", "an effect used as a value")
WRONG_ARGUMENT_COUNT = _code("RK0307", "a wrong number of arguments")
UNKNOWN_KEYWORD = _code("RK0308", "an unknown keyword argument, or a keyword given to a procedure")
KEYWORD_TWICE = _code("RK0309", "a keyword argument given twice")
MISSING_ARGUMENT = _code("RK0310", "a missing argument")
RESULT_NOT_IN_LOCAL = _code("RK0311", "a procedure's result stored anywhere but a local name")
ASSIGNED_CONSTANT = _code("RK0312", "a constant, zone or set assigned")
UNCHANGEABLE_ATTRIBUTE = _code("RK0313", "an attribute that cannot be changed (an item or member property, a player "
                                         "zone)")
BAD_ASSIGNMENT_TARGET = _code("RK0314", "an assignment to something other than a name or attribute")
VALUE_THROWN_AWAY = _code("RK0315", "a computed value thrown away")
BREAK_OUTSIDE_LOOP = _code("RK0316", "`break` or `continue` outside a loop")
UNKNOWN_OPTION_GROUP = _code("RK0317", "unknown option group")
IMPURE_FUNCTION = _code("RK0318", "a function that is not pure (calls an effect, e.g. rolls)")
UNKNOWN_KIND_ITEM_OR_PROPERTY = _code("RK0319", "`items`/`item`/`has` with an unknown component kind, item id or "
                                                "property")
NOT_EFFECT_TEXT = _code("RK0320", "effect-language text expected, something else given")
WRONG_ARGUMENT_KIND = _code("RK0321", "an argument of an evidently wrong kind (a number where a zone belongs)")
BY_NOT_TAKEN = _code("RK0322", "`by KEY` given to what does not compare items by a key")
VALUE_OF_WRONG_TYPE_ASSIGNED = _code("RK0323", "a value of an evidently wrong type given to a variable (a text to a "
                                               "number)")
OPERANDS_OF_WRONG_TYPES = _code("RK0324", "an operator given values of evidently wrong types (`1 + \"a\"`, `[1] + 1`)")
NEVER_EQUAL = _code("RK0325", "warning: `==` or `!=` between a number and a text, which are never equal")
ATTRIBUTE_OF_WRONG_KIND = _code("RK0326", "an attribute the value evidently has not (a player variable read of an "
                                "item, an item property of a player)")
# RK033x-RK034x: building the game (sets, items, zones, flow; warnings included)
MEMBER_OF_TWO_SETS = _code("RK0330", "a member of two sets")
DUPLICATE_ITEM_ID = _code("RK0331", "two items share an id")
UNKNOWN_START_ZONE = _code("RK0332", "unknown start zone")
ENDLESS_FLOW = _code("RK0333", "a flow that never ends (no `rounds` nor `end_after_round_if`)")
UNUSED_PROCEDURE = _code("RK0334", "warning: a procedure that is never called")
UNKNOWN_SET = _code("RK0335", "unknown set (in `generate:` or a zone family's `keys:`)")
BAD_ID_TEMPLATE = _code("RK0336", "a bad item id template")
DECLARED_TWICE = _code("RK0337", "a name declared twice, as two different things")
TOO_MANY_ITEMS = _code("RK0338", "too many items or zones")
UNUSED_LOCAL = _code("RK0340", "warning: a local assigned but never read")
DUPLICATE_PHASE = _code("RK0341", "two phases with one id")
PHASE_NEVER_RUNS = _code("RK0342", "warning: a phase that can never run (`when: false`)")
UNKNOWN_ROLLOUT_BOT = _code("RK0343", "a search `rollout_bot` that is no declared bot")
IN_ON_FAMILY = _code("RK0344", "`in` (or `not in`) on a family of zones: test one of its spaces")
UNREAD_PARAMETER = _code("RK0345", "warning: a parameter that nothing reads (a variant that changes it changes "
                                   "nothing)")
GROUP_INCLUDES_ITSELF = _code("RK0346", "an option group that includes itself (directly or through others)")
ELSE_NEVER_RUNS = _code("RK0347", "a `choose`'s `else:` that can never run: an option is always listed (no `for`, "
                                  "no `if`)")
FAMILY_SIZE = _code("RK0348", "a zone family's `range:` bound that is no parameter holding a whole number (or "
                              "a computed one with no `max:`)")
# RK035x: types of parameters and variables (rulekit/content/typed.py)
UNKNOWN_TYPE = _code("RK0350", "a `type:` that names no type, set or component kind")
VALUE_OF_WRONG_TYPE = _code("RK0351", "a parameter's or variable's value of the wrong type")
OUT_OF_BOUNDS_VALUE = _code("RK0352", "a value outside its `min`/`max` (or `min` above `max`, or bounds on a value "
                                      "that is no number)")
UNKNOWN_SYMBOL = _code("RK0353", "an unknown symbol: a word in a value that is no set member nor item id")
# item properties (rulekit/content/properties.py)
PROPERTY_OF_WRONG_TYPE = _code("RK0354", "an item property's value of the wrong type for its kind (declared under "
                                         "`properties:` or inferred)")
UNKNOWN_PROPERTY_SYMBOL = _code("RK0355", "an unknown symbol in an item property: a misspelt member of the set the "
                                          "kind's values are from")
PROPERTY_MISSING = _code("RK0356", "a property the rules read that some items of a kind lack, with no default")
PROPERTY_CONTRADICTS_KIND = _code("RK0357", "a `properties:` entry that contradicts its kind: a default given twice, "
                                            "or on a state or generated one")
TABLE_VALUE_OF_WRONG_TYPE = _code("RK0358", "a variant's table value of another type than the game's own there (a text "
                                            "where the game has numbers)")
TABLE_SHORTENED = _code("RK0359", "warning: a variant's list table shorter than the game's own (a rule may read an "
                                  "entry it no longer has)")
PLAYERS_OUTSIDE_GAME = _code("RK0360", "a variant's player count outside the game's own range")
MOVE_NEVER_ASKS = _code("RK0361", "warning: a procedure marked `move: whole` that never asks anyone (no `choose` in it "
                                  "or in what it calls), so it makes no move")
# RK039x: hidden information (rulekit/dsl/secrecy.py)
LABEL_NAMES_HIDDEN = _code("RK0390", "warning: an option's label (or `says`) names an item of a zone other players "
                                     "may not see, and the option never shows it: they read only its kind")
TEXT_PRINTS_HIDDEN = _code("RK0391", "warning: an option's label or `says`, or a `log` text, prints a value other "
                                     "players may not see (`owner` or `hidden`) where redaction cannot follow it (held "
                                     "in a local first, built without a template): every seat reads it as written")
# RK096x: batch files of `rulekit simulate --out FILE.jsonl` (batch/batch_io.py)
RESUME_OTHER_BATCH = _code("RK0960", "a `--resume` batch file of another batch: another game, content hash, seed, "
                                     "player count, bots or action cap (what differs is named)")
BAD_BATCH_LINE = _code("RK0961", "a line of a resumed batch file that is no record of its batch (not JSON, cut short, "
                                 "another batch's seed or seats, a game twice): reported, dropped, its game played "
                                 "again")
BATCH_LOCKED = _code("RK0962", "a batch file another `rulekit simulate` is writing at the same time (its lock file "
                               "`FILE.lock` is held): the second writer refuses to start")
# RK097x: fixed action ids for reinforcement learning (rl/actions.py)
ACTIONS_UNBOUNDED = _code("RK0970", "an option whose label prints values the analysis cannot bound (a built text, "
                                    "a list): the game has no fixed action ids")
ACTIONS_TOO_MANY = _code("RK0971", "a game whose options can print more actions than fixed action ids allow")
# RK098x: bots from the user's own code, `--bots module:policy` (agents/policy.py)
POLICY_ILLEGAL_ACTION = _code("RK0980", "a user's policy (`--bots module:policy`) returned something that is not one "
                                        "of the legal actions it was given")
POLICY_FAILED = _code("RK0981", "a user's policy raised an exception as it chose, or could not be built")
# RK30xx: playing
ILLEGAL_ACTION = _code("RK3001", "an illegal action (the state is unchanged; the legal ones are named)")
NOT_TO_CHOOSE = _code("RK3002", "an action for a player who is not among those still to choose in a simultaneous "
                                "decision (they chose already, or were not asked)")
# RK40xx: running content
CANNOT_EVALUATE = _code("RK4000", "content cannot be evaluated (a division by zero, a value read before it was set, a "
                                  "property an item lacks, recursion too deep)")
RUNTIME_ERROR = _code("RK4001", "a content runtime error without a more specific code (no such item, kind, space or "
                                "attribute)")
WRONG_KIND = _code("RK4002", "a value of the wrong kind (not a whole number, an item or a zone)")
OUT_OF_BOUNDS = _code("RK4003", "a variable outside its bounds (below `min` or above `max`)")
NOT_IN_A_ZONE = _code("RK4004", "not an item in any zone")
ZONE_FULL = _code("RK4005", "a zone full (at its capacity)")
BAD_PIN = _code("RK4006", "a bad pin (an order that is not a permutation, a roll out of range)")
CALLS_TOO_DEEP = _code("RK4008", "procedure calls nested too deeply (recursion?)")
STEP_LIMIT = _code("RK4009", "the step limit reached without a decision (an endless loop?)")
NO_LEGAL_OPTION = _code("RK4010", "a choice with no legal option")
SAME_LABEL_TWICE = _code("RK4011", "two legal options with the same label")
NO_END = _code("RK4012", "a game that does not end within `--max-actions`")
CHOOSER_NOT_A_PLAYER = _code("RK4013", "a choice for someone who is not a player (or a `choose_all` listing a player "
                                       "twice)")
RANGE_TOO_LONG = _code("RK4014", "a `range` longer than 1,000,000 numbers")
VALUE_TOO_LARGE = _code("RK4015", "a value too large to build: a text or list of more than 1,000,000 elements, a "
                                  "number of more than about 3,900 digits (Python prints no more than 4,300)")
STEP_TOO_SLOW = _code("RK4016", "one step of the rules computed for a minute of CPU time without reaching a decision")
BAD_EXPONENT = _code("RK4017", "`**` with an exponent that is not a whole number of at least 0")
NO_ONE_ELIGIBLE = _code("RK4018", "no player may win: `scoring.eligible` is false for everyone")
ASSERTION_FAILED = _code("RK4019", "an `assert` whose test is false (its message is shown)")
INDEX_OUT_OF_RANGE = _code("RK4020", "an index past the end (or before the start) of a list, a text or a zone")
MISSING_KEY_IN_TABLE = _code("RK4021", "a key that is not in a table or mapping")
UNSUPPORTED_OPERATION = _code("RK4022", "an operation on a value of a kind it does not take (`none + 1`, `[1] + 1`, "
                                        "indexing a number, a list as a key)")
VALUE_OUT_OF_DOMAIN = _code("RK4023", "a value outside what an operation takes (`max` of an empty list)")
STEP_BUILT_TOO_MUCH = _code("RK4024", "one step of the rules built more than its bound of values (a list, slice or "
                                      "text copied in a loop) or grew the process's memory past its bound")
SEARCH_TOO_LONG = _code("RK4030", "a search over a map (`longest_trail`) past its bound of steps")
MOVE_TOO_BIG = _code("RK4031", "a move in steps (`move: whole`) that expands to more positions than its bound, "
                               "or takes more steps than its bound")
# RK50xx: scripts and logs
SCRIPT_STEP_FAILED = _code("RK5001", "a script step failed (the default of script errors)")
CONTENT_CHANGED = _code("RK5002", "the game's content changed since the log was made")
ACTION_AFTER_END = _code("RK5003", "an action after the game ended")
WRONG_PLAYER = _code("RK5004", "an action by the wrong player")
ILLEGAL_SCRIPT_ACTION = _code("RK5005", "an illegal action in a script")
EXPECTATION_UNEVALUABLE = _code("RK5006", "an expectation that cannot be evaluated")
EXPECTATION_FAILED = _code("RK5007", "an expectation that failed")
REPLAY_RESULT_DIFFERS = _code("RK5008", "a replay that ends with a different result than the log")
SCRIPT_GAME_UNUSABLE = _code("RK5009", "a script's game or variant that cannot be used")
SCRIPT_PLAYER_COUNT = _code("RK5010", "a script's player count that the game does not allow")
ACTION_NEVER_PRINTED = _code("RK5011", "a script's action or pattern that no option of the game could ever print (a "
                                       "typo, not a refusal)")
REFUSE_FAILED = _code("RK5012", "a `refuse:` step that failed: the action was accepted, refused for another reason, or"
                                " changed the state")
LEGAL_FAILED = _code("RK5013", "a `legal:` step that failed (an action missing, one that should not be legal, the "
                               "wrong player)")
SCORE_FAILED = _code("RK5014", "a `score:` step that failed (another score, or the game not scored yet)")
OVER_FAILED = _code("RK5015", "an `over:` step that failed")
TEST_CHECK_FAILED = _code("RK5016", "a `rulekit test` check that failed: an invariant broken in a random game, a "
                                    "changed transcript")
LOG_FORMAT_TOO_NEW = _code("RK5020", "a log of a format version this rulekit does not read (a newer rulekit wrote it)")
LOG_CUT_SHORT = _code("RK5021", "a log cut short: its closing `action_count` is missing or does not match its actions")
BAD_PIN_TARGET = _code("RK5022", "a pin for a zone the game does not have, or for a random stream no `roll` draws from")
BAD_TOP_PIN = _code("RK5023", "a `pins: top:` item that is no item of the game, is listed twice, or is not in its zone"
                              " when it is shuffled")
BAD_SEED_OR_PLAYERS = _code("RK5024", "a script's or log's `seed:` or `players:` that is not a whole number in range "
                                      "(a seed is 0 to 2**64-1)")
UNUSABLE_PIN = _code("RK5025", "a pinned roll or shuffle the game cannot use: a roll that is not a whole number from 1"
                               " to the die's sides, an order naming no item or one twice, or not a permutation of its"
                               " zone when it is shuffled")
INVARIANT_BROKEN = _code("RK5026", "an invariant of the game broken in a script, after setup and `position:` or after "
                                   "an action (or a player variable below zero), unless the script names it in "
                                   "`skip_invariants:`")
UNKNOWN_INVARIANT = _code("RK5027", "a `skip_invariants:` id that is no invariant of the game")
SEES_FAILED = _code("RK5028", "a `sees:` step that failed: the player is shown another value, other items, only a "
                              "count, or more")
BAD_SEES_ENTRY = _code("RK5029", "a `sees:` entry naming no zone, space, variable or player of the game, or of the "
                                 "wrong shape for what it names (a count for a variable)")
SNAPSHOT_UPDATE_REFUSED = _code("RK5030", "`rulekit test --update` or `pytest --snapshot-update` refused: the game is "
                                          "installed (a package's files) or read-only; copy it to change its snapshots")
BAD_SNAPSHOT_FILE = _code("RK5031", "a stored snapshot file (`__snapshots__/NAME.ambr`) that is not syrupy's amber "
                                    "format, version 1")
UNKNOWN_TEST_VARIANT = _code("RK5032", "a `rulekit test --variant` the game does not have (or given for a folder of "
                                       "scripts)")
# RK60xx: saved states
BAD_SAVED_STATE = _code("RK6001", "saved-state data that `rulekit.engine.serialize.from_dict` cannot read (or a state "
                                  "it cannot save)")
# RK9999: internal
INTERNAL = _code("RK9999", "an internal error: a bug in rulekit (exit code 101)")


def meaning(code: str) -> str:
    """What ``code`` means, or a note that rulekit does not know it."""
    return CODES.get(code, f"unknown code {code}")
