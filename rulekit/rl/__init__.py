# SPDX-License-Identifier: MIT
"""Reinforcement learning: the PettingZoo and Gymnasium environments, the fixed action ids, the
observation (followed from the log, boards as planes)."""
