# SPDX-License-Identifier: MIT
"""One module a command, each with its parser (`add_parser`) beside its body (`run`): `rulekit NAME`
is `commands/NAME.py`. A body imports its work lazily, from view/, batch/, rl/ or below."""
