"""`regelwerk serve` (issue 26, first step): the JSON API over HTTP and the websocket, on SQLite
storage. The contract of docs/serve.md, every refusal with its status, games that survive a
restart from the database, moves that cannot interleave, and no byte sent to a seat that holds
a card its player never saw."""

from __future__ import annotations

import json
import random
import re
import threading
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the serve extra: pip install 'regelwerk[serve]'")
from regelwerk.interpreter.tools.trace import trace_lines  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from test_visibility_property import CANARY, CARDS, leaks, seen_by, start_of  # noqa: E402

import regelwerk  # noqa: E402
from regelwerk.serve.app import build_app  # noqa: E402
from regelwerk.serve.host import GameHost  # noqa: E402
from regelwerk.serve.store import SQLiteStore  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TTT = regelwerk.load(ROOT / "rulesets" / "classic" / "tictactoe.rules")
CANARY_RULES = regelwerk.load(CANARY)


def serve(db: Path, **rulesets) -> tuple[TestClient, GameHost]:
    host = GameHost(rulesets or {"tictactoe": TTT, "canary": CANARY_RULES}, SQLiteStore(db))
    return TestClient(build_app(host)), host


def test_the_catalogue_offers_only_the_rulesets_given(tmp_path):
    client, _ = serve(tmp_path / "g.sqlite")
    assert client.get("/api/rulesets").json() == [
        {"name": "canary", "title": "Canary of secrets", "players": [2, 3]},
        {"name": "tictactoe", "title": "Tic-tac-toe", "players": [2, 2]}]
    r = client.post("/api/games", json={"ruleset": "../rulesets/khan/khan", "seats": {}})
    assert r.status_code == 422 and "no ruleset" in r.json()["error"]


def test_a_game_between_a_person_and_a_bot(tmp_path):
    client, _ = serve(tmp_path / "g.sqlite")
    made = client.post("/api/games", json={"ruleset": "tictactoe", "seed": 3, "seats": {"X": "human", "O": "random"}})
    assert made.status_code == 201
    g = made.json()
    assert set(g) == {"id", "seats", "watch"} and set(g["seats"]) == {"X"}
    token = g["seats"]["X"]["token"]
    assert len(token) >= 20 and g["seats"]["X"]["url"] == f"/play/{g['id']}?token={token}"
    state = client.get(f"/api/games/{g['id']}", params={"token": token}).json()
    assert set(state) == {"id", "ruleset", "players", "you", "to_move", "legal", "view", "steps", "result", "url"}
    assert state["you"] == "X" and state["to_move"] == ["X"] and len(state["legal"]) == 9 and state["steps"] == 0
    after = client.post(f"/api/games/{g['id']}/moves", json={"token": token, "move": "place(b2)", "step": 0})
    assert after.status_code == 200
    s = after.json()
    assert s["steps"] == 2 and s["to_move"] == ["X"]  # the bot answered at once
    assert s["view"]["vars"]["cell"]["b2"] == "X" and list(s["view"]["vars"]["cell"].values()).count("O") == 1
    while s["result"] is None:
        s = client.post(f"/api/games/{g['id']}/moves", json={"token": token, "move": s["legal"][0]}).json()
    assert s["result"]["kind"] in ("winner", "draw") and s["legal"] == []
    watch = client.get(f"/api/games/{g['id']}").json()
    assert watch["you"] is None and watch["legal"] == [] and watch["result"] == s["result"]
    lines = client.get(f"/api/games/{g['id']}/trace", params={"token": token}).text.splitlines()
    assert any(json.loads(x).get("rule") == "place" for x in lines)


def test_every_refusal_has_its_status_and_a_message(tmp_path):
    client, _ = serve(tmp_path / "g.sqlite")
    g = client.post("/api/games", json={"ruleset": "tictactoe", "seed": 1, "seats": {}}).json()
    x, o = g["seats"]["X"]["token"], g["seats"]["O"]["token"]
    url = f"/api/games/{g['id']}/moves"
    assert client.post(url, json={"move": "place(a1)"}).status_code == 403
    assert client.post(url, json={"token": "guess", "move": "place(a1)"}).status_code == 403
    assert client.get(f"/api/games/{g['id']}", params={"token": "guess"}).status_code == 403
    not_yours = client.post(url, json={"token": o, "move": "place(a1)"})
    assert not_yours.status_code == 409 and "not O's decision" in not_yours.json()["error"]
    assert client.post(url, json={"token": x, "move": "place(a1)", "step": 5}).status_code == 409
    assert client.post(url, json={"token": x, "move": "place(a1)"}).status_code == 200
    taken = client.post(url, json={"token": o, "move": "place(a1)"})
    assert taken.status_code == 422 and "the square is already taken" in taken.json()["error"]
    nonsense = client.post(url, json={"token": o, "move": "fly(zz)"})
    assert nonsense.status_code == 422 and nonsense.json()["error"]
    assert client.get("/api/games/nope").status_code == 404
    assert client.post("/api/games/nope/moves", json={"token": x, "move": "x"}).status_code == 404
    bad = client.post(url, content=b"{not json", headers={"content-type": "application/json"})
    assert bad.status_code == 400 and "not JSON" in bad.json()["error"]
    big = client.post(url, content=b"[" + b"1," * 40_000 + b"1]", headers={"content-type": "application/json"})
    assert big.status_code == 413
    assert client.post("/api/games", json={"ruleset": "tictactoe", "seats": {"Z": "human"}}).status_code == 422
    assert client.post("/api/games", json={"ruleset": "tictactoe", "seats": {"X": "genius"}}).status_code == 422
    assert client.post("/api/games", json={"ruleset": "tictactoe", "players": 5, "seats": {}}).status_code == 422


def test_games_survive_a_restart_from_the_database(tmp_path):
    db = tmp_path / "g.sqlite"
    client, _ = serve(db)
    g = client.post("/api/games", json={"ruleset": "tictactoe", "seed": 2, "seats": {}}).json()
    x, o = g["seats"]["X"]["token"], g["seats"]["O"]["token"]
    for token, move in ((x, "place(a1)"), (o, "place(b1)"), (x, "place(a2)")):
        assert client.post(f"/api/games/{g['id']}/moves", json={"token": token, "move": move}).status_code == 200
    before = client.get(f"/api/games/{g['id']}", params={"token": o}).json()
    again, _ = serve(db)  # a new server process on the same file: nothing in memory
    assert again.get(f"/api/games/{g['id']}", params={"token": o}).json() == before
    s = again.post(f"/api/games/{g['id']}/moves", json={"token": o, "move": "place(b2)"}).json()
    assert s["steps"] == 4


def test_two_moves_at_once_are_serialised(tmp_path):
    """Many threads send X's move together: exactly one is taken, the others are refused."""
    client, host = serve(tmp_path / "g.sqlite")
    g = client.post("/api/games", json={"ruleset": "tictactoe", "seed": 2, "seats": {}}).json()
    x = g["seats"]["X"]["token"]
    codes: list[int] = []

    def send(square: str) -> None:
        codes.append(client.post(f"/api/games/{g['id']}/moves",
                                 json={"token": x, "move": f"place({square})", "step": 0}).status_code)

    threads = [threading.Thread(target=send, args=(sq,)) for sq in ("a1", "a2", "a3", "b1", "b3", "c1")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [200] + [409] * 5
    assert host.store.get(g["id"]).step == 1


def test_the_websocket_pushes_each_seat_its_state(tmp_path):
    client, _ = serve(tmp_path / "g.sqlite")
    g = client.post("/api/games", json={"ruleset": "tictactoe", "seed": 2, "seats": {}}).json()
    x, o = g["seats"]["X"]["token"], g["seats"]["O"]["token"]
    with client.websocket_connect(f"/ws/games/{g['id']}?token={o}") as ws:
        first = ws.receive_json()
        assert first["you"] == "O" and first["legal"] == []
        client.post(f"/api/games/{g['id']}/moves", json={"token": x, "move": "place(c3)"})
        pushed = ws.receive_json()
        assert pushed["steps"] == 1 and pushed["to_move"] == ["O"] and len(pushed["legal"]) == 8


def test_the_pages_are_served(tmp_path):
    client, _ = serve(tmp_path / "g.sqlite")
    assert "/api/rulesets" in client.get("/").text
    assert "/ws/games/" in client.get("/play/abc").text


@pytest.mark.parametrize("seed", [1, 7, 23])
def test_no_byte_sent_to_a_seat_holds_a_card_its_player_never_saw(tmp_path, seed):
    """The hidden-card canary played through the API by three people: every response and
    every error sent to each seat is searched for the cards that player never saw."""
    leaked, hidden = _canary_game(tmp_path, seed)
    assert hidden > 0, "nobody was kept from any card: the test would test nothing"
    assert leaked == {}


def test_the_canary_would_catch_a_server_that_sends_the_whole_state(tmp_path, monkeypatch):
    from regelwerk.interpreter.engine.values import jsonable

    shown = GameHost._state
    monkeypatch.setattr(GameHost, "_state", lambda self, row, game, player: {
        **shown(self, row, game, player), "everything": jsonable(game.vars)})
    leaked, _ = _canary_game(tmp_path, 1)
    assert leaked and all(leaked.values())


def _canary_game(tmp_path: Path, seed: int) -> tuple[dict[str, list[str]], int]:
    """Each seat's leaked cards (players with none left out), and how many cards were hidden."""
    client, host = serve(tmp_path / "g.sqlite")
    g = client.post("/api/games", json={"ruleset": "canary", "players": 3, "seed": seed, "seats": {}}).json()
    tokens = {p: s["token"] for p, s in g["seats"].items()}
    sent: dict[str, list[str]] = {p: [] for p in tokens}
    rnd = random.Random(seed)
    tries = [f"{a}({c})" for a in ("lay", "offer") for c in sorted(CARDS)][:12]
    for _ in range(200):
        for p, t in tokens.items():
            sent[p].append(client.get(f"/api/games/{g['id']}", params={"token": t}).text)
        state = json.loads(sent[next(iter(tokens))][-1])
        if state["result"] is not None or not state["to_move"]:
            break
        mover = state["to_move"][0]
        mine = json.loads(client.get(f"/api/games/{g['id']}", params={"token": tokens[mover]}).text)
        for p, t in tokens.items():  # every seat tries moves, its own or not: the refusals too
            tried = rnd.choice(tries)
            r = client.post(f"/api/games/{g['id']}/moves", json={"token": t, "move": tried})
            asked = set(re.findall(r"\w+", tried))  # what the seat typed itself is not a leak
            sent[p].append(" ".join(w for w in re.findall(r"\w+", r.text) if w not in asked))
            if r.status_code == 200:
                break
        else:
            r = client.post(f"/api/games/{g['id']}/moves", json={"token": tokens[mover],
                                                                 "move": rnd.choice(mine["legal"])})
            sent[mover].append(r.text)
    for p, t in tokens.items():
        sent[p].append(client.get(f"/api/games/{g['id']}/trace", params={"token": t}).text)
    _, game = host._load(g["id"])
    lines = [json.loads(x) for x in trace_lines(game)]
    start = start_of(CANARY_RULES, 3, seed)
    hidden, leaked = 0, {}
    for p in tokens:
        secret = CARDS - seen_by(p, lines, CANARY_RULES.model, start)
        hidden += len(secret)
        found = leaks("\n".join(sent[p]), secret)
        if found:
            leaked[p] = sorted(found)
    return leaked, hidden


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(db: Path, port: int):
    import subprocess
    import sys
    import time
    import urllib.request

    proc = subprocess.Popen([sys.executable, "-m", "regelwerk.cli", "serve", str(ROOT / "rulesets" / "classic"),
                             "--port", str(port), "--db", str(db)], stderr=subprocess.PIPE, text=True)
    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rulesets", timeout=1).read()
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError(f"the server did not start: {proc.stderr.read()}")


def _http(method: str, url: str, body: dict | None = None) -> tuple[int, dict]:
    import urllib.error
    import urllib.request

    req = urllib.request.Request(url, method=method, data=None if body is None else json.dumps(body).encode(),
                                 headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def test_a_server_killed_mid_game_continues_every_game_from_its_last_accepted_move(tmp_path):
    """The command line: a server on an SQLite file is killed with SIGKILL after each accepted
    move of a connect four game between two people and started again; the game goes on, and
    ends exactly as the same moves end it without the kills."""
    import signal

    db, port = tmp_path / "games.sqlite", _free_port()
    base = f"http://127.0.0.1:{port}"
    proc = _start(db, port)
    try:
        code, g = _http("POST", f"{base}/api/games", {"ruleset": "connect4", "seed": 5, "seats": {}})
        assert code == 201
        tokens = {p: s["token"] for p, s in g["seats"].items()}
        rnd = random.Random(5)
        played = []
        for _ in range(12):
            state = _http("GET", f"{base}/api/games/{g['id']}?token={tokens['Red']}")[1]
            if state["result"] is not None:
                break
            mover = state["to_move"][0]
            legal = _http("GET", f"{base}/api/games/{g['id']}?token={tokens[mover]}")[1]["legal"]
            move = rnd.choice(legal)
            code, _ = _http("POST", f"{base}/api/games/{g['id']}/moves", {"token": tokens[mover], "move": move})
            assert code == 200
            played.append(move)
            proc.send_signal(signal.SIGKILL)  # after the answer: the move must be on disk
            proc.wait()
            proc = _start(db, port)
        final = _http("GET", f"{base}/api/games/{g['id']}")[1]
    finally:
        proc.kill()
        proc.wait()
    game = regelwerk.load(ROOT / "rulesets" / "classic" / "connect4.rules").new_game(seed=5)
    for move in played:
        game.apply(move)
    assert final["steps"] == len(played) and final["view"]["vars"] == json.loads(json.dumps(game.vars))


def test_serve_refuses_a_folder_without_rulesets(tmp_path, capsys):
    from regelwerk.cli import main

    assert main(["serve", str(tmp_path)]) == 2
    assert "no ruleset" in capsys.readouterr().err
