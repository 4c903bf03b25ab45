# SPDX-License-Identifier: MIT
"""Running many small tasks on Ray with a driver whose work grows linearly with their number.

Waiting on every pending task at once makes each ``ray.wait`` look at all of them: 2,000 tasks
took 0.85 s of driver time and 8,000 took 18.9 s. :func:`drive` keeps a bounded window of tasks
in flight, takes every finished one at each wait (``num_returns`` a quarter of the window) and
hands the results on in task order (benchmarks/ray_driver.py measures it).
"""
from __future__ import annotations

import contextlib
import logging
import os
import warnings
from collections.abc import Callable, Iterator

from ..errors import UsageError
from ..extras import needs

EACH_CPU = 8        # tasks in flight per CPU of the cluster (benchmarks/ray_driver.py)


def window(cpus: int) -> int:
    """Tasks in flight at once: enough to keep every CPU busy while the driver takes results."""
    return max(32, EACH_CPU * cpus)


def drive(ray, remote, tasks: Iterator[tuple], emit: Callable, width: int, take: int | None = None) -> None:
    """Run ``remote.remote(*task)`` for every task, at most ``width`` in flight, giving each result
    to ``emit`` in task order. Each wait returns once ``take`` tasks (default a quarter of the
    window, fewer at the end) are done, and every other done one too. Interrupted or failed, the
    results already here are emitted (in task order, gaps skipped) and the tasks in flight cancelled."""
    import ray.exceptions
    take = take or max(1, width // 4)
    flying: dict = {}           # ref -> task number
    arrived: dict = {}          # task number -> result not yet emitted
    sent = emitted = 0

    def refill() -> None:
        nonlocal sent
        while len(flying) < width and sent - emitted < 2 * width:
            task = next(tasks, None)
            if task is None:
                return
            flying[remote.remote(*task)] = sent
            sent += 1
    try:
        refill()
        while flying:
            refs = list(flying)
            ready, _rest = ray.wait(refs, num_returns=min(take, len(refs)))
            for ref, result in zip(ready, _results(ray, ray.exceptions, ready)):
                arrived[flying.pop(ref)] = result
            while emitted in arrived:
                emit(arrived.pop(emitted))
                emitted += 1
            refill()
    except BaseException:
        try:
            for number in sorted(arrived):
                emit(arrived[number])
        finally:
            for ref in flying:
                with contextlib.suppress(Exception):
                    ray.cancel(ref, force=True)
        raise


def _results(ray, errors, ready: list) -> list:
    """The results of finished tasks; a task's rulekit error is raised as a local run raises it."""
    try:
        return ray.get(ready)
    except errors.RayTaskError as exc:
        cause = getattr(exc, "cause", None)
        if isinstance(cause, BaseException):
            raise cause from None       # the same error a local run gives
        raise
    except errors.RayError as exc:
        raise UsageError(f"the Ray cluster failed while playing the batch: {_first_line(exc)}") from None


@contextlib.contextmanager
def connected(jobs: int):
    """Ray, connected: to the instance this process already is, if any; else to the cluster at
    ``RAY_ADDRESS`` when it is set; else to a private local instance with ``jobs`` CPUs (every core
    when ``jobs`` is 1). A connection or instance made here is shut down on leaving."""
    try:
        with warnings.catch_warnings():     # Ray's own deprecation notices are not part of a report
            warnings.simplefilter("ignore")
            import ray
            import ray.exceptions  # noqa: F401 - drive's
    except ImportError:
        raise UsageError(needs("the Ray backend", "ray")) from None
    started = not ray.is_initialized()
    if started:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _ray_init(ray, jobs)
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


def cpus(ray) -> int:
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def _ray_init(ray, jobs: int) -> None:
    address = os.environ.get("RAY_ADDRESS") or None
    if address is None:
        options = {"address": "local", "num_cpus": jobs if jobs > 1 else (os.cpu_count() or 1),
                   "include_dashboard": False}
        where = "a local Ray instance"
    else:
        _check_reachable(address)
        options = {"address": address}
        where = f"the Ray cluster at `{address}` (RAY_ADDRESS)"
    try:
        ray.init(log_to_driver=False, logging_level=logging.ERROR, **options)
    except ImportError as exc:  # ray:// addresses need the Ray Client extra
        raise UsageError(f"cannot connect to {where}: {exc}; pip install 'ray[client]' for ray:// addresses") from None
    except Exception as exc:  # noqa: BLE001 - Ray raises ConnectionError, RuntimeError, ValueError...
        if ray.is_initialized():
            ray.shutdown()
        raise UsageError(f"cannot start or reach {where}: {_first_line(exc)}") from None


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast on a cluster address nothing listens on (Ray itself retries for minutes)."""
    import socket
    if address in ("auto", "local"):
        return
    scheme, _, rest = address.rpartition("://")
    host, sep, port = rest.rpartition(":")
    if not sep:
        host, port = rest, ("10001" if scheme == "ray" else "6379")
    host = host.strip("[]")
    try:
        number = int(port)
    except ValueError:
        raise UsageError(f"RAY_ADDRESS `{address}` is not HOST:PORT") from None
    try:
        socket.create_connection((host, number), timeout=timeout).close()
    except OSError as exc:
        raise UsageError(f"cannot reach the Ray cluster at `{address}` (RAY_ADDRESS): {exc.strerror or exc}; "
                         "is it running (`ray start --head`)?") from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
