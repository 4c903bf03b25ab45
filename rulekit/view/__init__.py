# SPDX-License-Identifier: MIT
"""What people look at: `rulekit play`, SVG and HTML pictures, `rulekit compile` listings,
`rulekit diff`, and how values read when printed."""
