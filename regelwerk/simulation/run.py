"""A simulation run: which games are left (a resume skips those in the results file), which
backend plays them, every record streamed to the results file as it arrives, and the report.

Ctrl-C is not an error here: the games that finished are kept, the report says it is not
complete, and `--resume` plays the rest. The report of a resumed run is the report of an
uninterrupted one (but for `timing`).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..interpreter.tools.agents import AgentSpecError, assign_agents
from ..interpreter.tools.simulate import PlaySettings
from .bundle import bundle_of
from .local import InProcess, ProcessPool
from .progress import Progress
from .report import build_report, settings_json
from .results import ResultsWriter, read_results, results_header
from .stats import r6


@dataclass
class SimulationRun:
    report: dict[str, Any]
    records: dict[int, dict] = field(default_factory=dict)  # by game index, in range(games)
    interrupted: bool = False


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def make_backend(ruleset: Any, jobs: int | None = None, dask: str | None = None, dask_client: Any = None,
                 games_per_chunk: int | None = None, todo: int | None = None) -> Any:
    """In this process for one job, a process pool for more, a Dask cluster for `dask`."""
    jobs = jobs or default_jobs()
    if dask is not None or dask_client is not None:
        from .dask_backend import DaskCluster

        return DaskCluster(bundle_of(ruleset), dask or "local", jobs, dask_client, games_per_chunk)
    if todo is not None:
        jobs = max(1, min(jobs, todo))
    if jobs == 1:
        return InProcess(ruleset)
    return ProcessPool(bundle_of(ruleset), jobs, games_per_chunk)


def _normal(record: dict) -> dict:
    """The record as it reads back from JSON: the same data whether it was played here, in a
    worker, or read from a results file."""
    return json.loads(json.dumps(record, sort_keys=True))


def run_simulation(ruleset: Any, games: int, settings: PlaySettings, *, jobs: int | None = None,
                   dask: str | None = None, dask_client: Any = None, results: str | Path | None = None,
                   resume: bool = False, progress: Progress | None = None,
                   games_per_chunk: int | None = None) -> SimulationRun:
    """Play games 0..games-1 (those not already in `results` when resuming) and sum them up.
    Bad settings (player count, options, agents) raise here, before any game: EngineError or
    AgentSpecError."""
    progress = progress or Progress()
    # not started: a game that fails as it starts is a finding of every game's record (located)
    players = list(ruleset.new_game(players=settings.players, options=settings.options or None,
                                    start=False).players)
    if assign_agents([f"{p}={a}" for p, a in settings.agents.items()], players) != {
            p: settings.agents.get(p, "random") for p in players}:
        raise AgentSpecError("agent specs must be canonical: random, first, mcts:N")
    header = results_header(ruleset.title, ruleset.hash, settings_json(settings, players))
    records: dict[int, dict] = {}
    keep = None
    if resume:
        if results is None:
            raise ValueError("resuming needs the results file")
        old, keep = read_results(results, header)
        records = {i: r for i, r in old.items() if i < games}
    resumed = len(records)
    todo = [i for i in range(games) if i not in records]
    backend = make_backend(ruleset, jobs, dask, dask_client, games_per_chunk, len(todo))
    writer = ResultsWriter(results, header, keep) if results is not None else None
    played: list[dict] = []
    first_back: list[float] = []

    def on_record(rec: dict) -> None:
        rec = _normal(rec)
        if rec["game"] in records:
            return  # a chunk played twice after a worker died: the same record again
        if not first_back:
            first_back.append(time.perf_counter())
        records[rec["game"]] = rec
        played.append(rec)
        if writer is not None:
            writer.write(rec)
        progress.advance()

    interrupted = False
    t0 = time.perf_counter()
    progress.start(games, resumed)
    try:
        if todo:
            backend.run(settings, todo, on_record)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        progress.close()
        if writer is not None:
            writer.close()
    seconds = time.perf_counter() - t0
    timing = _timing(backend, seconds, played, resumed, first_back[0] - t0 if first_back else None)
    return SimulationRun(build_report(ruleset, settings, games, records, timing), records, interrupted)


def _timing(backend: Any, seconds: float, played: list[dict], resumed: int,
            first: float | None) -> dict[str, Any]:
    """Wall time and rate of this run; `first_record` is the start-up (workers spawned, rules
    loaded) plus the first chunk; game_seconds sums the wall time spent in games, in any
    worker, and game_cpu_seconds the processor time (less than wall time on a busy machine)."""
    per_game = [r.get("seconds", 0.0) for r in played]
    cpu = [r.get("cpu_seconds", 0.0) for r in played]
    slowest = max(played, key=lambda r: r.get("seconds", 0.0), default=None)
    return {
        "backend": backend.name,
        "workers": backend.workers,
        "seconds": r6(seconds),
        "played": len(played),
        "resumed": resumed,
        "games_per_second": r6(len(played) / seconds) if seconds > 0 else None,
        "first_record": r6(first) if first is not None else None,
        "game_seconds": {"total": r6(sum(per_game)), "mean": r6(sum(per_game) / len(per_game)) if per_game else None,
                         "max": r6(max(per_game)) if per_game else None},
        "game_cpu_seconds": {"total": r6(sum(cpu)), "mean": r6(sum(cpu) / len(cpu)) if cpu else None},
        "slowest_game": slowest["game"] if slowest else None,
    }
