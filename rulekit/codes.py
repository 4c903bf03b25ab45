# SPDX-License-Identifier: MIT
"""Every diagnostic and error code rulekit reports, with what it means.

The codes (``RK0301``, ``RK4009``...) are written as plain strings where they are
raised, across a dozen modules; this table is the one place to look one up.
``tests/test_codes.py`` keeps it complete: every code in ``rulekit/`` must be here,
every code here must still be used, and every code must be covered by the
"Diagnostic codes" table of docs/language.md. Adding a code means adding a row here
(and to that table); the code is still raised as a string where it happens.
"""

from __future__ import annotations

CODES: dict[str, str] = {
    # RK00xx: errors in general, usage
    "RK0000": "a rulekit error that names no code of its own (the base class's default)",
    "RK0001": "usage: no such game, script, variant or bot, a bad option, an unwritable path",
    "RK0002": "a report of content diagnostics, raised together (each shows its own code)",
    # RK010x-RK011x: reading YAML files and their includes
    "RK0100": "a file cannot be read",
    "RK0101": "invalid YAML",
    "RK0102": "a duplicate key in a mapping",
    "RK0103": "a mapping key that is not a plain name",
    "RK0104": "a YAML tag, not allowed in content",
    "RK0105": "a YAML merge key (`<<`), not supported",
    "RK0106": "a file too large, or expanding to too many values (aliases)",
    "RK0107": "a file that is not valid UTF-8",
    "RK0108": "YAML nested too deep",
    "RK0109": "an empty file",
    "RK0110": "a game file or included file that is not a mapping of sections",
    "RK0111": "an included file that does not exist",
    "RK0112": "a section or key defined in two files",
    "RK0113": "an included file outside the game's folder",
    "RK0114": "a game's file (game.yaml, a variant, a script of its folder) that is a symbolic link to a file "
              "outside the game's folder: named, never read",
    "RK0115": "a content file that is not a regular file (a FIFO, a device, a socket, a folder, a /proc file): "
              "named, never read",
    "RK0116": "a number written in a YAML file with more than 1,000 digits",
    "RK0117": "a text written in the rules (a label, a template) of more than 1,000,000 characters",
    # RK012x: schema (schemas/*.schema.json)
    "RK0120": "an unknown key",
    "RK0121": "a missing required key",
    "RK0122": "a value that is not one of the allowed choices",
    "RK0123": "a value of the wrong type",
    "RK0124": "a value the schema rejects otherwise (range, pattern, length...)",
    "RK0125": "a drawing hint (`render:`, a zone's `layout:`) naming an unknown zone, variable, kind or property",
    "RK0126": "a `narrate:` template for a variable, property, zone or component kind the game does not define",
    # RK013x: variant overlays (rulekit/content/overlay.py)
    "RK0130": "a variant changes a name (parameter, procedure, phase, invariant, item...) the game does not have; "
              "a new one goes under `add:`",
    "RK0131": "a variant removes something the game does not have (`null` for an absent key, `remove: true` "
              "for an absent id), or merges an empty list",
    "RK0132": "a name under a variant's `add:` that the game already has",
    "RK0133": "a `before:`/`after:` naming no entry of the list, both given, or moving an entry from under `add:`",
    "RK0134": "`remove:` or `replace:` under a variant's `add:`",
    # RK02xx: effect-language syntax (RK0210-RK0218: the catalogue in dsl/syntax_errors.py)
    "RK0200": "an unexpected character",
    "RK0201": "an unexpected token, or an unexpected end of script",
    "RK0210": "a missing `:` at the end of a block header",
    "RK0211": "a `choose` option that is not a quoted label",
    "RK0212": "`=` where a comparison `==` belongs",
    "RK0213": "a block header without an indented block",
    "RK0214": "an incomplete expression in a script (an operator without its right side)",
    "RK0215": "unbalanced brackets",
    "RK0216": "`&&`, `||` or `!` instead of `and`, `or`, `not`",
    "RK0217": "a bare value as a statement (neither an assignment nor an effect call)",
    "RK0218": "an incomplete expression in an expression field (an operator without its right side)",
    "RK0219": "nested too deeply (more than 100 levels), or too complex to compile",
    "RK0220": "an inconsistent dedent: a line's indentation matches no enclosing block",
    "RK0221": "a written number of more than 1,000 digits",
    # RK030x-RK032x: names, calls and assignments in the effect language
    "RK0301": "unknown name",
    "RK0302": "a function, procedure or effect named without calling it",
    "RK0303": "unknown attribute",
    "RK0304": "a procedure called inside an expression",
    "RK0305": "unknown function, effect or procedure",
    "RK0306": "an effect used as a value",
    "RK0307": "a wrong number of arguments",
    "RK0308": "an unknown keyword argument, or a keyword given to a procedure",
    "RK0309": "a keyword argument given twice",
    "RK0310": "a missing argument",
    "RK0311": "a procedure's result stored anywhere but a local name",
    "RK0312": "a constant, zone or set assigned",
    "RK0313": "an attribute that cannot be changed (an item or member property, a player zone)",
    "RK0314": "an assignment to something other than a name or attribute",
    "RK0315": "a computed value thrown away",
    "RK0316": "`break` or `continue` outside a loop",
    "RK0317": "unknown option group",
    "RK0318": "a function that is not pure (calls an effect, e.g. rolls)",
    "RK0319": "`items`/`item`/`has` with an unknown component kind, item id or property",
    "RK0320": "effect-language text expected, something else given",
    "RK0321": "an argument of an evidently wrong kind (a number where a zone belongs)",
    "RK0322": "`by KEY` given to what does not compare items by a key",
    # RK033x-RK034x: building the game (sets, items, zones, flow; warnings included)
    "RK0330": "a member of two sets",
    "RK0331": "two items share an id",
    "RK0332": "unknown start zone",
    "RK0333": "a flow that never ends (no `rounds` nor `end_after_round_if`)",
    "RK0334": "warning: a procedure that is never called",
    "RK0335": "unknown set (in `generate:` or a zone family's `keys:`)",
    "RK0336": "a bad item id template",
    "RK0337": "a name declared twice, as two different things",
    "RK0338": "too many items or zones",
    "RK0340": "warning: a local assigned but never read",
    "RK0341": "two phases with one id",
    "RK0342": "warning: a phase that can never run (`when: false`)",
    "RK0343": "a search `rollout_bot` that is no declared bot",
    "RK0344": "`in` (or `not in`) on a family of zones: test one of its spaces",
    "RK0345": "warning: a parameter that nothing reads (a variant that changes it changes nothing)",
    "RK0346": "an option group that includes itself (directly or through others)",
    # RK035x: types of parameters and variables (rulekit/content/typed.py)
    "RK0350": "a `type:` that names no type, set or component kind",
    "RK0351": "a parameter's or variable's value of the wrong type",
    "RK0352": "a value outside its `min`/`max` (or `min` above `max`, or bounds on a value that is no number)",
    "RK0353": "an unknown symbol: a word in a value that is no set member nor item id",
    # item properties (rulekit/content/properties.py)
    "RK0354": "an item property's value of the wrong type for its kind (declared under `properties:` or inferred)",
    "RK0355": "an unknown symbol in an item property: a misspelt member of the set the kind's values are from",
    "RK0356": "a property the rules read that some items of a kind lack, with no default",
    "RK0357": "a `properties:` entry that contradicts its kind: a default given twice, or on a state or generated one",
    # RK30xx: playing
    "RK3001": "an illegal action (the state is unchanged; the legal ones are named)",
    "RK3002": "an action for a player who is not among those still to choose in a simultaneous decision "
              "(they chose already, or were not asked)",
    # RK40xx: running content
    "RK4000": "content cannot be evaluated (a division by zero, a value read before it was set, "
              "a property an item lacks, recursion too deep)",
    "RK4001": "a content runtime error without a more specific code (no such item, kind, space or attribute)",
    "RK4002": "a value of the wrong kind (not a whole number, an item or a zone)",
    "RK4003": "a variable outside its bounds (below `min` or above `max`)",
    "RK4004": "not an item in any zone",
    "RK4005": "a zone full (at its capacity)",
    "RK4006": "a bad pin (an order that is not a permutation, a roll out of range)",
    "RK4008": "procedure calls nested too deeply (recursion?)",
    "RK4009": "the step limit reached without a decision (an endless loop?)",
    "RK4010": "a choice with no legal option",
    "RK4011": "two legal options with the same label",
    "RK4012": "a game that does not end within `--max-actions`",
    "RK4013": "a choice for someone who is not a player (or a `choose_all` listing a player twice)",
    "RK4014": "a `range` longer than 1,000,000 numbers",
    "RK4015": "a value too large to build: a text or list of more than 1,000,000 elements, a number of more "
              "than about 3,900 digits (Python prints no more than 4,300)",
    "RK4016": "one step of the rules computed for a minute of CPU time without reaching a decision",
    "RK4017": "`**` with an exponent that is not a whole number of at least 0",
    "RK4018": "no player may win: `scoring.eligible` is false for everyone",
    "RK4019": "an `assert` whose test is false (its message is shown)",
    "RK4020": "an index past the end (or before the start) of a list, a text or a zone",
    "RK4021": "a key that is not in a table or mapping",
    "RK4022": "an operation on a value of a kind it does not take (`none + 1`, `[1] + 1`, indexing a number, "
              "a list as a key)",
    "RK4023": "a value outside what an operation takes (`max` of an empty list)",
    # RK50xx: scripts and logs
    "RK5001": "a script step failed (the default of script errors)",
    "RK5002": "the game's content changed since the log was made",
    "RK5003": "an action after the game ended",
    "RK5004": "an action by the wrong player",
    "RK5005": "an illegal action in a script",
    "RK5006": "an expectation that cannot be evaluated",
    "RK5007": "an expectation that failed",
    "RK5008": "a replay that ends with a different result than the log",
    "RK5009": "a script's game or variant that cannot be used",
    "RK5010": "a script's player count that the game does not allow",
    "RK5011": "a script's action or pattern that no option of the game could ever print (a typo, not a refusal)",
    "RK5012": "a `refuse:` step that failed: the action was accepted, refused for another reason, or changed the state",
    "RK5013": "a `legal:` step that failed (an action missing, one that should not be legal, the wrong player)",
    "RK5014": "a `score:` step that failed (another score, or the game not scored yet)",
    "RK5015": "an `over:` step that failed",
    "RK5016": "a `rulekit test` check that failed: an invariant broken in a random game, a changed transcript",
    "RK5020": "a log of a format version this rulekit does not read (a newer rulekit wrote it)",
    "RK5021": "a log cut short: its closing `action_count` is missing or does not match its actions",
    "RK5022": "a pin for a zone the game does not have, or for a random stream no `roll` draws from",
    "RK5023": "a `pins: top:` item that is no item of the game, is listed twice, or is not in its zone when it is "
              "shuffled",
    "RK5024": "a script's or log's `seed:` or `players:` that is not a whole number in range (a seed is 0 to 2**64-1)",
    "RK5025": "a pinned roll or shuffle the game cannot use: a roll that is not a whole number from 1 to the die's "
              "sides, an order naming no item or one twice, or not a permutation of its zone when it is shuffled",
    "RK5026": "an invariant of the game broken in a script, after setup and `position:` or after an action (or a "
              "player variable below zero), unless the script names it in `skip_invariants:`",
    "RK5027": "a `skip_invariants:` id that is no invariant of the game",
    "RK5028": "a `sees:` step that failed: the player is shown another value, other items, only a count, or more",
    "RK5029": "a `sees:` entry naming no zone, space, variable or player of the game, or of the wrong shape for "
              "what it names (a count for a variable)",
    "RK5030": "`rulekit test --update` or `pytest --snapshot-update` refused: the game is installed (a package's "
              "files) or read-only; copy it to change its snapshots",
    "RK5031": "a stored snapshot file (`__snapshots__/NAME.ambr`) that is not syrupy's amber format, version 1",
    "RK5032": "a `rulekit test --variant` the game does not have (or given for a folder of scripts)",
    # RK60xx: saved states
    "RK6001": "saved-state data that `rulekit.engine.serialize.from_dict` cannot read (or a state it cannot save)",
    # RK9999: internal
    "RK9999": "an internal error: a bug in rulekit (exit code 101)",
}


def meaning(code: str) -> str:
    """What ``code`` means, or a note that rulekit does not know it."""
    return CODES.get(code, f"unknown code {code}")
