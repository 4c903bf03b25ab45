"""Shipped rulekit games as data (content only; no code)."""
