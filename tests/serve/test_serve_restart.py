"""Nothing lost (issue 26): a real server killed with kill -9 at random moments, many times,
and started again on the same sqlite file, ends every game exactly as a server that was never
interrupted; and whatever it printed holds no seat's token."""

from __future__ import annotations

import hashlib
import http.client
import json
import random
import threading
import time
from pathlib import Path

import pytest

from .server_proc import ROOT, ServerProcess

RULES = [str(ROOT / "rulesets/classic/connect4.rules"), str(ROOT / "rulesets/examples/kuhn.rules")]
# (ruleset, seats): two people; a person against a bot that moves on the server; two bots
GAMES = [("connect4", {"Red": "human", "Yellow": "human"}), ("connect4", {"Red": "human", "Yellow": "random"}),
         ("kuhn", {}), ("connect4", {"Red": "random", "Yellow": "random"})]


def choose(legal: list[str], game: int, steps: int) -> str:
    """The client's move: a function of the position only, so a retried decision is the same."""
    h = int.from_bytes(hashlib.sha256(f"{game}/{steps}".encode()).digest()[:4], "big")
    return sorted(legal)[h % len(legal)]


def play_all(server: ServerProcess, kills: int, rnd: random.Random) -> tuple[list[dict], list[str]]:
    """Create the games, play them to the end over HTTP (killing the server `kills` times at
    random moments and restarting it); each game's final spectator state and traces."""
    created = []
    for i, (name, seats) in enumerate(GAMES):
        status, g = server.request("POST", "/api/games", {"ruleset": name, "seed": 100 + i, "seats": seats})
        assert status == 201, g
        created.append(g)
    tokens = [t["token"] for g in created for t in g["seats"].values()]
    left = kills
    accepted: list[tuple[int, str, int, int]] = []  # (game, seat, steps before, steps after)
    timer: threading.Timer | None = None
    for _ in range(2000):
        if left and timer is None and rnd.random() < 0.8:  # a kill some milliseconds from now
            timer = threading.Timer(rnd.uniform(0, 0.03), server.kill9)
            timer.start()
        try:
            pending = 0
            for i, g in enumerate(created):
                watch = server.get(f"/api/games/{g['id']}")
                if watch["result"] is not None:
                    continue
                pending += 1
                for who in watch["to_move"]:
                    if who not in g["seats"]:
                        continue  # a bot: it moves on the server
                    tok = g["seats"][who]["token"]
                    state = server.get(f"/api/games/{g['id']}?token={tok}")
                    if who in state["to_move"] and state["legal"]:
                        status, body = server.request("POST", f"/api/games/{g['id']}/moves", {
                            "token": tok, "move": choose(state["legal"], i, state["steps"]),
                            "step": state["steps"]})
                        assert status in (200, 409), body  # 409: a bot or a restart came between
                        if status == 200:
                            accepted.append((i, who, state["steps"], body["steps"]))
            if not pending and not left and timer is None:  # every game over and every kill done:
                break  # (games that end before the kills do leave the rest to an idle server)
        except (OSError, ConnectionError, http.client.HTTPException) as err:  # also a body cut short
            assert timer is not None, f"the server failed without being killed: {err}"
        if timer is not None and not timer.is_alive():  # it was killed: start it again
            timer.join()
            timer = None
            left -= 1
            server.start()
            for i, g in enumerate(created):  # every accepted move is still there
                done = max((after for j, _, _, after in accepted if j == i), default=0)
                assert server.get(f"/api/games/{g['id']}")["steps"] >= done, "an accepted move was lost"
    else:
        pytest.fail("the games did not end")
    assert left == 0, "not every kill happened"
    if timer is not None:
        timer.cancel()
    time.sleep(0.2)
    finals = []
    for g in created:
        finals.append({"state": server.get(f"/api/games/{g['id']}"),
                       "traces": {p: _text(server, f"/api/games/{g['id']}/trace?token={s['token']}")
                                  for p, s in g["seats"].items()}})
    for i, who, before, _ in accepted:  # and each stands in the trace where it was played
        lines = [json.loads(x) for x in finals[i]["traces"][who].splitlines()]
        assert (lines[before + 1].get("decision") or {}).get("by") == who
    for f in finals:
        f["state"].pop("id"), f["state"].pop("url")
    return finals, tokens


def _text(server: ServerProcess, path: str) -> str:
    import urllib.request

    with urllib.request.urlopen(server.base + path, timeout=30) as r:
        return r.read().decode()


def run(tmp_path: Path, name: str, kills: int, seed: int) -> tuple[list[dict], list[str], str]:
    folder = tmp_path / name
    folder.mkdir()
    server = ServerProcess(RULES, str(folder / "games.sqlite"), folder)
    server.start()
    try:
        finals, tokens = play_all(server, kills, random.Random(seed))
    finally:
        server.stop()
    return finals, tokens, server.output()


@pytest.mark.parametrize("seed", [1])
def test_kill_9_at_random_moments_loses_nothing(tmp_path: Path, seed: int) -> None:
    calm, calm_tokens, calm_out = run(tmp_path, "calm", 0, seed)
    killed, tokens, out = run(tmp_path, "killed", 8, seed)
    for a, b in zip(calm, killed, strict=True):
        assert a["state"] == b["state"]
        assert list(a["traces"].values()) == list(b["traces"].values())
    assert all(f["state"]["result"] is not None for f in killed)
    for t in calm_tokens + tokens:  # tokens are never logged, not even at start-up or on errors
        assert t not in calm_out and t not in out
