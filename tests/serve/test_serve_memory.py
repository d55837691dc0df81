"""What a server keeps in memory (idle and least recently used games leave it, the store keeps
them) and how long a game's rules may run on it (regelwerk/serve/limits.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from regelwerk.serve.app import build_app
from regelwerk.serve.catalogue import Catalogue
from regelwerk.serve.store import SqliteStore

ROOT = Path(__file__).resolve().parents[2]
TTT = ROOT / "rulesets/classic/tictactoe.rules"

# A move whose rules take a great deal of work: stopped by the server's work budget.
HEAVY = """game "Heavy"
players A, B

state
    n: int = 0

action spin(k in 1..2)
    for i in 1..200000
        add k to n
    finish winner current

action rest
    finish draw

flow
    repeat
        turn
            play spin, rest
"""


def _client(catalogue: Catalogue, tmp_path: Path, **memory: float) -> TestClient:
    store = SqliteStore(str(tmp_path / "games.sqlite"))
    return TestClient(build_app(catalogue, store, **memory), raise_server_exceptions=False)


@pytest.fixture(scope="module")
def ttt() -> Catalogue:
    return Catalogue([str(TTT)])


def _new(c: TestClient) -> tuple[str, dict[str, str]]:
    r = c.post("/api/games", json={"ruleset": "tictactoe", "seats": {}, "seed": 1})
    assert r.status_code == 201, r.text
    g = r.json()
    return g["id"], {p: s["token"] for p, s in g["seats"].items()}


def _server(c: TestClient):
    return c.app.state.server


def test_beyond_max_live_the_least_recently_used_game_leaves_memory_and_comes_back(ttt, tmp_path):
    with _client(ttt, tmp_path, max_live=2) as c:
        first, tok = _new(c)
        assert c.post(f"/api/games/{first}/moves", json={"token": tok["X"], "move": "place(b2)"}).status_code == 200
        before = c.get(f"/api/games/{first}", params={"token": tok["O"]}).json()
        second, _ = _new(c)
        third, _ = _new(c)
        live = _server(c).tables
        assert len(live) == 2 and first not in live and {second, third} <= set(live)
        again = c.get(f"/api/games/{first}", params={"token": tok["O"]}).json()
        assert again == before  # rebuilt from the store, the same position
        assert c.post(f"/api/games/{first}/moves", json={"token": tok["O"], "move": "place(a1)"}).status_code == 200
        assert len(_server(c).tables) == 2


def test_idle_games_leave_memory_but_not_one_a_page_watches(ttt, tmp_path):
    with _client(ttt, tmp_path, idle_after=0.0) as c:
        watched, tok = _new(c)
        with c.websocket_connect(f"/ws/games/{watched}?token={tok['X']}") as ws:
            assert ws.receive_json()["type"] == "state"
            idle, _ = _new(c)
            _new(c)  # adding a game lets the idle ones go
            live = _server(c).tables
            assert watched in live and idle not in live
        assert c.get(f"/api/games/{idle}").status_code == 200


def test_a_game_in_the_middle_of_a_move_is_not_let_go(ttt, tmp_path):
    with _client(ttt, tmp_path, max_live=1) as c:
        busy, _ = _new(c)
        table = _server(c).tables[busy]
        with table.lock:  # a request is playing on it
            _new(c)
        assert busy in _server(c).tables and not table.broken


def test_a_table_let_go_under_a_request_is_rebuilt_not_played_twice(ttt, tmp_path):
    with _client(ttt, tmp_path, max_live=1) as c:
        gid, tok = _new(c)
        held = _server(c).tables[gid]
        _new(c)  # lets `held` go
        assert held.broken
        r = c.post(f"/api/games/{gid}/moves", json={"token": tok["X"], "move": "place(b2)"})
        assert r.status_code == 200 and _server(c).tables[gid] is not held
        assert r.json()["steps"] > 0


def test_rules_that_run_past_the_work_budget_fail_the_move_and_keep_the_game(tmp_path):
    path = tmp_path / "heavy.rules"
    path.write_text(HEAVY)
    catalogue = Catalogue([str(path)], time_limit=5.0, work_budget=10_000)
    with _client(catalogue, tmp_path) as c:
        r = c.post("/api/games", json={"ruleset": "heavy", "seats": {}, "seed": 1})
        g = r.json()
        tok = {p: s["token"] for p, s in g["seats"].items()}
        r = c.post(f"/api/games/{g['id']}/moves", json={"token": tok["A"], "move": "spin(1)"})
        assert r.status_code == 500 and "work" in r.json()["error"], r.text
        state = c.get(f"/api/games/{g['id']}", params={"token": tok["A"]}).json()
        assert state["view"]["vars"]["n"] == 0 and state["to_move"] == ["A"]  # the move did not count
        r = c.post(f"/api/games/{g['id']}/moves", json={"token": tok["A"], "move": "rest"})
        assert r.status_code == 200 and r.json()["result"] is not None


def test_the_command_refuses_limits_that_are_not_above_zero(capsys):
    from regelwerk.cli import main

    assert main(["serve", str(TTT), "--time-limit", "0"]) == 2
    assert "--time-limit 0.0: must be above 0" in capsys.readouterr().err
