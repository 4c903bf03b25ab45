# SPDX-License-Identifier: MIT
"""Content as written: YAML with source positions, JSON Schemas, typed values."""
