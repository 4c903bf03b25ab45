# SPDX-License-Identifier: MIT
"""What people run: the command line, play, pictures, simulation, diffs, listings, the RL env."""
