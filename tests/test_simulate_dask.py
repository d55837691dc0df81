"""Simulation on a Dask cluster (a LocalCluster of two worker processes): the same report as
one process, and no game lost when a worker is killed in the middle of the run."""

from __future__ import annotations

import json
import logging
import os
import signal

import pytest
from bundled import BUNDLED, ROOT

import regelwerk
from regelwerk.simulation import PlaySettings, report_json, run_simulation, without_timing, worker
from regelwerk.simulation.progress import Progress

distributed = pytest.importorskip("distributed")

RACE = ROOT / "tests" / "fixtures" / "sim" / "game" / "race.rules"


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=":0", silence_logs=logging.CRITICAL)
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def same(a: dict, b: dict) -> bool:
    return report_json(without_timing(a)) == report_json(without_timing(b))


def test_dask_gives_the_report_of_one_process(client):
    """Workers get the rules as texts (with an include from another folder and a data file),
    load them once per process and check the hash; records merge by game index."""
    race = regelwerk.load(RACE, root=RACE.parent.parent)
    settings = PlaySettings(players=2, seed=11, agents={"Bob": "mcts:6"})
    here = run_simulation(race, 60, settings, jobs=1)
    there = run_simulation(race, 60, settings, dask_client=client, games_per_chunk=3)
    assert there.report["timing"]["backend"] == "dask" and there.report["timing"]["workers"] == 2
    assert same(here.report, there.report)
    loaded = client.run(worker.loaded)
    assert sorted(loaded.values()) == [[race.hash], [race.hash]]  # each worker loaded it, once


class KillOneWorker(Progress):
    """Kills a worker process (SIGKILL, no goodbye) as soon as the first games are back."""

    def __init__(self, client, after: int):
        self.client, self.after, self.done, self.killed = client, after, 0, None

    def advance(self, n: int = 1) -> None:
        self.done += n
        if self.done == self.after:
            pids = self.client.run(os.getpid)
            busy = self.client.processing()
            victim = max(pids, key=lambda w: (len(busy.get(w, ())), w))  # one with games to lose
            self.killed = (victim, pids[victim], len(busy.get(victim, ())))
            os.kill(pids[victim], signal.SIGKILL)


def test_a_killed_worker_loses_no_game(client):
    ttt = regelwerk.load(BUNDLED["tictactoe"])
    settings = PlaySettings(seed=4, agents={"X": "mcts:60"})
    here = run_simulation(ttt, 48, settings, jobs=1)
    killer = KillOneWorker(client, after=4)
    there = run_simulation(ttt, 48, settings, dask_client=client, games_per_chunk=2, progress=killer)
    assert killer.killed is not None and killer.killed[2] > 0  # it died holding games
    client.wait_for_workers(2, timeout=60)  # the nanny restarts it
    assert killer.killed[1] not in client.run(os.getpid).values()
    assert there.report["complete"] and there.report["games"] == 48
    assert same(here.report, there.report)


def test_cli_dask_local_starts_a_cluster_and_writes_the_same_report(tmp_path):
    from regelwerk.cli import main

    reports = []
    for where in (["--jobs", "1"], ["--dask", "local", "--jobs", "2"]):
        out = tmp_path / f"{where[1]}.json"
        assert main(["simulate", str(BUNDLED["pig"]), "--games", "30", "--json", str(out), "-q", *where]) == 0
        reports.append(json.loads(out.read_text()))
    assert reports[1]["timing"]["backend"] == "dask" and reports[1]["timing"]["workers"] == 2
    assert same(reports[0], reports[1])
