# SPDX-License-Identifier: MIT
"""The `rulekit` command: the console script (`entry.py`), the parsers and the commands."""
