# SPDX-License-Identifier: MIT
"""The ``rulekit`` console script and ``python -m rulekit``: Ctrl-C (or SIGTERM) at any moment is
exit 2 with ``interrupted`` on standard error, never a traceback.

Importing the command line takes a good part of a second, and Python turns a Ctrl-C there, or
while the interpreter shuts a finished run down (pool threads, atexit), into a traceback. So the
handlers are installed before anything else is imported (``rulekit`` itself imports nothing
eagerly, and this module only atexit, os, signal and sys), and a signal outside the command itself ends
the process at once. While the command runs, the first signal raises KeyboardInterrupt, so that
the command's own handling runs (cli._run: files being written keep their old text, simulate ends
its workers); a second one, while that handling runs, ends the process at once.
"""
import atexit
import os
import signal
import sys

EXIT_INTERRUPTED = 2        # errors.EXIT_USAGE, as docs/cli.md says of Ctrl-C; not imported: see above
_SIGNALS = (signal.SIGINT, signal.SIGTERM)
_state = {"pid": 0, "armed": False, "said": {"interrupted": False}}


def main(argv: list[str] | None = None) -> int:
    """Run the command line with Ctrl-C and SIGTERM handled from the first instruction to the last."""
    _state.update(pid=os.getpid(), armed=False, said={"interrupted": False})
    for number in _SIGNALS:
        signal.signal(number, _on_signal)
    sys.unraisablehook = _unraisable
    atexit.unregister(_ignore_signals)
    atexit.register(_ignore_signals)    # registered first, run last: see _ignore_signals
    try:
        from . import app as cli  # the slow part: a signal here ends the process at once
        cli.SAID["interrupted"] = False
        _state.update(armed=True, said=cli.SAID)
        return cli.main(argv)
    except KeyboardInterrupt:           # raised by _on_signal outside cli._run's own handling
        _say_interrupted()
        return EXIT_INTERRUPTED
    finally:
        _state["armed"] = False         # from here to the process's end a signal ends it at once


def _ignore_signals() -> None:
    """After the last exit hook, Python's finalisation puts back the default handlers, and a Ctrl-C
    then (a second one, just after a quick exit) would kill the process by SIGINT instead of exit 2."""
    for number in _SIGNALS:
        signal.signal(number, signal.SIG_IGN)


def _on_signal(signum, _frame) -> None:
    if os.getpid() != _state["pid"]:    # a forked worker before it set its own handlers: its parent ends it
        if signum == signal.SIGTERM:
            os._exit(EXIT_INTERRUPTED)
        return
    if _state["armed"]:
        _state["armed"] = False
        raise KeyboardInterrupt
    _say_interrupted()
    os._exit(EXIT_INTERRUPTED)


def _unraisable(info) -> None:
    """A KeyboardInterrupt raised where Python cannot raise (a ``__del__``, an at-fork hook) would be
    printed with a traceback and lost: signal it again, once out of there."""
    if info.exc_type is KeyboardInterrupt and os.getpid() == _state["pid"]:
        import threading
        _state["armed"] = True
        again = threading.Timer(0.01, os.kill, (os.getpid(), signal.SIGINT))
        again.daemon = True
        again.start()
        return
    sys.__unraisablehook__(info)


def _say_interrupted() -> None:
    """Say ``interrupted`` once, whether cli._run has said it or not."""
    if _state["said"]["interrupted"]:
        return
    _state["said"]["interrupted"] = True
    try:
        os.write(2, b"interrupted\n")   # not sys.stderr: the signal may have come in the middle of a write to it
    except OSError:
        pass
