"""Running games on this machine: in this process (one job) or in a pool of worker processes.

Workers are started with `spawn`, so each is a fresh interpreter with its own hash seed that
loads the rules from their texts, exactly as a cluster worker does; games are handed out in
chunks and come back as records, in whatever order they finish.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from ..interpreter.simulate import PlaySettings, play_record
from .bundle import RulesBundle
from .worker import init_process, play_chunk, prepared

OnRecord = Callable[[dict], None]


def chunks(indices: list[int], workers: int, games_per_chunk: int | None = None) -> Iterator[list[int]]:
    """Small enough that every worker gets many (progress and load balance), big enough that
    handing them out costs little."""
    size = games_per_chunk or max(1, min(25, len(indices) // (workers * 12) or 1))
    for i in range(0, len(indices), size):
        yield indices[i:i + size]


class InProcess:
    """One job: the games are played here, with the driver's own ruleset."""

    name = "in-process"

    def __init__(self, ruleset: Any):
        self.ruleset, self.firings = prepared(ruleset)
        self.workers = 1

    def run(self, settings: PlaySettings, indices: list[int], on_record: OnRecord) -> None:
        for i in indices:
            on_record(play_record(self.ruleset, i, settings, self.firings))


class ProcessPool:
    """`jobs` worker processes, each loading the rules once (on its first chunk)."""

    name = "processes"

    def __init__(self, bundle: RulesBundle, jobs: int, games_per_chunk: int | None = None):
        self.bundle = bundle
        self.workers = jobs
        self.games_per_chunk = games_per_chunk

    def run(self, settings: PlaySettings, indices: list[int], on_record: OnRecord) -> None:
        ctx = multiprocessing.get_context("spawn")
        before = {p.pid for p in multiprocessing.active_children()}
        pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx, initializer=init_process)
        clean = False
        try:
            todo = list(chunks(indices, self.workers, self.games_per_chunk))
            running: set[Future] = set()
            while todo or running:
                while todo and len(running) < 2 * self.workers:  # a little ahead, not all at once
                    running.add(pool.submit(play_chunk, self.bundle, settings, todo.pop(0)))
                done, running = wait(running, return_when=FIRST_COMPLETED)
                for fut in done:
                    for rec in fut.result():
                        on_record(rec)
            clean = True
        finally:
            pool.shutdown(wait=clean, cancel_futures=True)
            if not clean:  # interrupted or failed: do not wait for chunks still being played
                for proc in multiprocessing.active_children():
                    if proc.pid not in before:  # only this pool's workers
                        proc.terminate()
