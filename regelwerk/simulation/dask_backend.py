"""Running games on a Dask cluster (`pip install regelwerk[dask]`).

The rules travel as texts (a `RulesBundle`), never as paths: they are one task's result that
every chunk depends on, so a worker fetches them once, loads them once per process, checks
the ruleset hash and keeps them. If a worker dies, the scheduler hands its chunks to another
worker (and recomputes the rules task if need be); a chunk that still fails that way is
submitted again under a new key. Records come back by game index, so it does not matter who
played what.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from ..interpreter.tools.simulate import PlaySettings
from .bundle import RulesBundle
from .local import Chunker
from .worker import play_chunk

RESUBMITS = 3  # times a chunk is sent again after the cluster gave up on it


class DaskUnavailable(Exception):
    """The `dask` extra is not installed, the scheduler cannot be reached, or the cluster kept
    losing the workers that played the same games."""


def _rules(bundle: RulesBundle) -> RulesBundle:
    return bundle


def _import() -> Any:
    try:
        import distributed
    except ModuleNotFoundError as err:
        raise DaskUnavailable("--dask needs the dask extra: pip install 'regelwerk[dask]'") from err
    return distributed


class DaskCluster:
    """Games on a running scheduler (`address`), on a LocalCluster started here (`"local"`,
    `workers` processes), or on the cluster of a `Client` the caller already holds."""

    name = "dask"

    def __init__(self, bundle: RulesBundle, address: str = "local", workers: int = 2,
                 client: Any = None, games_per_chunk: int | None = None):
        self.bundle = bundle
        self.address = address
        self.local_workers = workers
        self.client = client
        self.games_per_chunk = games_per_chunk
        self.workers = 0

    def _connect(self) -> tuple[Any, list]:
        distributed = _import()
        if self.client is not None:
            return self.client, []
        if self.address == "local":
            cluster = distributed.LocalCluster(n_workers=self.local_workers, threads_per_worker=1,
                                               processes=True, dashboard_address=":0",
                                               silence_logs=logging.ERROR)
            client = distributed.Client(cluster)
            return client, [client, cluster]
        try:
            client = distributed.Client(self.address, timeout="10s")
        except (OSError, TimeoutError) as err:
            raise DaskUnavailable(f"--dask {self.address}: cannot reach the scheduler ({err})") from None
        return client, [client]

    def run(self, settings: PlaySettings, indices: list[int], on_record: Callable[[dict], None]) -> None:
        distributed = _import()
        client, owned = self._connect()
        try:
            self.workers = max(1, sum(w.get("nthreads", 1)
                                      for w in client.scheduler_info()["workers"].values()))
            rules = client.submit(_rules, self.bundle, key=f"regelwerk-rules-{self.bundle.hash[:16]}",
                                  pure=False)
            todo = Chunker(indices, self.games_per_chunk)
            pending: dict[Any, tuple[list[int], int]] = {}
            queue = distributed.as_completed()

            def submit(chunk: list[int], tries: int) -> None:
                fut = client.submit(play_chunk, rules, settings, chunk, pure=False)
                pending[fut] = (chunk, tries)
                queue.add(fut)

            while todo and len(pending) < 2 * self.workers:
                submit(todo.next(), 0)
            for fut in queue:
                chunk, tries = pending.pop(fut)
                try:
                    records = fut.result()
                except distributed.KilledWorker:
                    if tries >= RESUBMITS:
                        raise DaskUnavailable(f"games {', '.join(map(str, chunk))} killed their workers "
                                              f"{RESUBMITS + 1} times (out of memory?)") from None
                    submit(chunk, tries + 1)
                    continue
                todo.timed_games(records)
                while todo and len(pending) < 2 * self.workers:  # a little ahead, not all at once
                    submit(todo.next(), 0)
                for rec in records:
                    on_record(rec)
        finally:
            for thing in owned:
                thing.close()
