# SPDX-License-Identifier: MIT
"""Many games at once: `rulekit simulate` (local workers or Ray), `--sweep`, the balance statistics
and how they print, batch files, `rulekit mutate`."""
