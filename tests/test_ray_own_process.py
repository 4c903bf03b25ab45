"""The tests that drive Ray from the test process (marked `ray_driver`) run here, in a pytest of
their own: a Ray driver that loses its cluster ends its process with `_exit(1)`, which inside the
main run ended it with no report (a CI run stopped after 115 of 118 slow tests). In a child, such an
end is this test's failure, with everything the child printed."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import RAY_CHILD, TESTS

pytestmark = pytest.mark.slow


def test_the_ray_driving_tests_pass_in_a_pytest_of_their_own():
    pytest.importorskip("ray")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-o", "addopts=", "-q", "-p", "no:cacheprovider", "-m", "ray_driver",
         "tests/test_simulate.py", "tests/test_simulate_ray.py", "tests/test_simulate_stream.py"],
        cwd=TESTS.parent, env=dict(os.environ, **{RAY_CHILD: "1"}), capture_output=True, text=True, timeout=1800)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-3000:]
    summary = run.stdout.strip().splitlines()[-1]
    assert "8 passed" in summary and "skipped" not in summary, run.stdout[-2000:]      # every one of them ran
