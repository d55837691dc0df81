"""Running games on this machine: in this process (one job) or in a pool of worker processes.

Workers are started with `spawn`, so each is a fresh interpreter with its own hash seed that
loads the rules from their texts, exactly as a cluster worker does; games are handed out in
chunks sized by the clock (`Chunker`) and come back as records, in whatever order they
finish.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..interpreter.tools.simulate import PlaySettings, play_record
from .bundle import RulesBundle
from .worker import init_process, play_given_chunk, prepared

OnRecord = Callable[[dict], None]


class Chunker:
    """Hands out the games in chunks that take about `target` seconds each: one game a chunk
    until games have been timed, then as many as fit (at most `most`). Small chunks keep the
    progress display moving and the load balanced; bigger ones cost less to hand out. Which
    worker plays which game never changes a record, so the sizes may follow the clock."""

    def __init__(self, indices: list[int], games_per_chunk: int | None = None, target: float = 1.5,
                 most: int = 500):
        self.todo = list(indices)
        self.fixed = games_per_chunk
        self.target = target
        self.most = most
        self.timed = 0
        self.seconds = 0.0

    def __bool__(self) -> bool:
        return bool(self.todo)

    def timed_games(self, records: list[dict]) -> None:
        for r in records:
            self.timed += 1
            self.seconds += r.get("seconds", 0.0)

    def next(self) -> list[int]:
        if self.fixed:
            size = self.fixed
        elif not self.timed:
            size = 1
        else:
            size = max(1, min(self.most, int(self.target * self.timed / max(self.seconds, 1e-6))))
        chunk, self.todo = self.todo[:size], self.todo[size:]
        return chunk


class InProcess:
    """One job: the games are played here, with the driver's own ruleset."""

    name = "in-process"

    def __init__(self, ruleset: Any):
        self.ruleset, self.firings = prepared(ruleset)
        self.workers = 1

    def run(self, settings: PlaySettings, indices: list[int], on_record: OnRecord) -> None:
        for i in indices:
            on_record(play_record(self.ruleset, i, settings, self.firings))


class WorkersLost(Exception):
    """Worker processes kept dying on the same games (out of memory? a crash in C code?)."""


class ProcessPool:
    """`jobs` worker processes, each loading the rules once (on its first chunk). A worker that
    dies breaks the pool: a new pool plays the chunks that were in flight, up to `RESTARTS`
    times, so a lost worker costs time but no game."""

    name = "processes"
    RESTARTS = 3

    def __init__(self, bundle: RulesBundle, jobs: int, games_per_chunk: int | None = None):
        self.bundle = bundle
        self.workers = jobs
        self.games_per_chunk = games_per_chunk

    def run(self, settings: PlaySettings, indices: list[int], on_record: OnRecord) -> None:
        todo = Chunker(indices, self.games_per_chunk)
        retry: list[list[int]] = []
        for _attempt in range(self.RESTARTS + 1):
            try:
                self._run_pool(settings, todo, retry, on_record)
                return
            except BrokenProcessPool:
                continue  # `retry` holds the chunks that were in flight
        times = self.RESTARTS + 1
        raise WorkersLost(f"worker processes died {times} time{'s' if times != 1 else ''}; games "
                          f"{', '.join(str(i) for c in retry for i in c)} were being played")

    def _run_pool(self, settings: PlaySettings, todo: Chunker, retry: list[list[int]],
                  on_record: OnRecord) -> None:
        ctx = multiprocessing.get_context("spawn")
        before = {p.pid for p in multiprocessing.active_children()}
        pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx, initializer=init_process,
                                   initargs=(self.bundle,))
        clean = False
        running: dict[Future, list[int]] = {}
        try:
            while todo or retry or running:
                while (todo or retry) and len(running) < 2 * self.workers:  # a little ahead
                    chunk = retry.pop() if retry else todo.next()
                    running[pool.submit(play_given_chunk, self.bundle.hash, settings, chunk)] = chunk
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for fut in done:
                    chunk = running.pop(fut)
                    try:
                        records = fut.result()
                    except BrokenProcessPool:
                        retry.append(chunk)
                        retry.extend(running.values())
                        raise
                    todo.timed_games(records)
                    for rec in records:
                        on_record(rec)
            clean = True
        finally:
            pool.shutdown(wait=clean, cancel_futures=True)
            if not clean:  # interrupted or broken: do not wait for chunks still being played
                for proc in multiprocessing.active_children():
                    if proc.pid not in before:  # only this pool's workers
                        proc.terminate()
