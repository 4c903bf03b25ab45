# SPDX-License-Identifier: MIT
"""The run-time half: state, the VM that runs compiled rules, effects, views and logs.

Nothing here parses or checks content; it runs what ``rulekit.dsl`` compiled.
"""
