# SPDX-License-Identifier: MIT
"""Development tools the tests install for themselves (never needed to use rulekit)."""
