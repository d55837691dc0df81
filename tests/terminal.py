"""Starting the command line the way a terminal does, for the tests that press Ctrl-C."""

from __future__ import annotations

import sys

# A process started with SIGINT ignored keeps ignoring it across exec (Unix), and Python then
# installs no KeyboardInterrupt handler: a helper's `make test` under load once saw both Ctrl-C
# tests' children play on after SIGINT. A shell in a terminal starts a command with Ctrl-C's
# default action, so the child sets Python's own handler first, whatever it inherited.
_AS_FROM_A_TERMINAL = ("import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
                       "sys.argv[0] = 'regelwerk'; runpy.run_module('regelwerk.cli', run_name='__main__', alter_sys=True)")


def cli_command(*args: str) -> list[str]:
    """`python -m regelwerk.cli ARGS`, with Ctrl-C raising KeyboardInterrupt in the child."""
    return [sys.executable, "-c", _AS_FROM_A_TERMINAL, *args]
