"""What runs inside a worker process (local or on a Dask worker): the ruleset loaded once
per process from its texts, then chunks of games played by index."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from multiprocessing.connection import wait
from typing import Any

from ..interpreter.tools.simulate import Firings, PlaySettings, play_record
from .bundle import RulesBundle, load_bundle

_LOADED: dict[str, tuple[Any, Firings]] = {}  # ruleset hash -> (ruleset, firing map)


def prepared(ruleset: Any) -> tuple[Any, Firings]:
    return ruleset, Firings(ruleset.program(True).rules)


def ruleset_for(bundle: RulesBundle) -> tuple[Any, Firings]:
    """The bundle's ruleset, loaded (and its hash checked) once per process."""
    got = _LOADED.get(bundle.hash)
    if got is None:
        got = _LOADED[bundle.hash] = prepared(load_bundle(bundle))
    return got


_GIVEN: dict[str, RulesBundle] = {}  # a local pool worker's bundle, handed over once at its start


def loaded() -> list[str]:
    """The hashes of the rulesets this process has loaded (a cluster check: once each)."""
    return sorted(_LOADED)


def init_process(bundle: RulesBundle) -> None:
    """A local pool worker's start: Ctrl-C is the driver's to handle (the terminal sends it to
    the whole process group), the worker dies with the driver, and the rules' texts are kept.
    They are loaded by the first chunk, so that an error in loading them comes back to the
    driver with its message."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()
    _GIVEN[bundle.hash] = bundle


def die_with_parent() -> None:
    """End this worker as soon as the process that started it is gone, however it ended
    (`kill -9` included: no handler of the driver runs then, so the pool cannot stop us).

    multiprocessing gives every child it starts a sentinel of its parent
    (`multiprocessing.parent_process().sentinel`): with `spawn` on POSIX the read end of a pipe
    whose only write end the parent holds, which turns readable (EOF) when the kernel closes
    the parent's files as it dies; on Windows the parent's process handle, signalled when it
    exits. A daemon thread waits on it without polling and exits the process. This works on
    every system Python's `spawn` does, unlike Linux's PR_SET_PDEATHSIG (which fires when the
    parent *thread* that started us ends) or polling `os.getppid()` (POSIX only, and late)."""
    parent = multiprocessing.parent_process()
    if parent is None or parent.sentinel is None:
        return

    def watch() -> None:
        wait([parent.sentinel])
        os._exit(1)  # the driver is gone: nobody will read our results

    threading.Thread(target=watch, name="die-with-parent", daemon=True).start()


def play_given_chunk(ruleset_hash: str, settings: PlaySettings, indices: list[int]) -> list[dict]:
    """`play_chunk` with the bundle this process was started with (chunks stay small)."""
    return play_chunk(_GIVEN[ruleset_hash], settings, indices)


def play_chunk(bundle: RulesBundle, settings: PlaySettings, indices: list[int]) -> list[dict]:
    """Play the games `indices`; failures are records too, so a chunk always comes back whole."""
    ruleset, firings = ruleset_for(bundle)
    return [play_record(ruleset, i, settings, firings) for i in indices]
