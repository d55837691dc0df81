"""The HTTP contract of `regelwerk serve` (docs/serve.md), each status and refusal."""

from __future__ import annotations

import json

from starlette.testclient import TestClient


def new_game(client: TestClient, **body: object) -> dict:
    r = client.post("/api/games", json={"ruleset": "tictactoe", "seats": {}, **body})
    assert r.status_code == 201, r.text
    return r.json()


def test_rulesets_lists_name_title_players(client: TestClient) -> None:
    r = client.get("/api/rulesets")
    assert r.status_code == 200
    by_name = {x["name"]: x for x in r.json()}
    assert set(by_name) == {"tictactoe", "kuhn", "goofspiel", "canary"}
    assert by_name["tictactoe"]["players"] == [2, 2]
    assert by_name["canary"]["players"] == [2, 3]
    assert by_name["tictactoe"]["title"]


def test_create_gives_a_token_and_page_per_human_seat(client: TestClient) -> None:
    g = new_game(client, seats={"X": "human", "O": "random"})
    assert set(g) == {"id", "seats", "watch"}
    assert set(g["seats"]) == {"X"}
    seat = g["seats"]["X"]
    assert len(seat["token"]) >= 32 and seat["url"] == f"/play/{g['id']}?token={seat['token']}"
    assert g["watch"] == f"/play/{g['id']}"


def test_a_whole_game_between_two_seats(client: TestClient) -> None:
    g = new_game(client, seed=3)
    tok = {p: s["token"] for p, s in g["seats"].items()}
    state = client.get(f"/api/games/{g['id']}", params={"token": tok["X"]}).json()
    assert set(state) >= {"id", "ruleset", "players", "you", "to_move", "legal", "view", "steps", "result", "url"}
    assert state["you"] == "X" and state["to_move"] == ["X"] and "place(b2)" in state["legal"]
    other = client.get(f"/api/games/{g['id']}", params={"token": tok["O"]}).json()
    assert other["legal"] == [] and other["you"] == "O"
    while state["result"] is None:
        who = state["to_move"][0]
        mine = client.get(f"/api/games/{g['id']}", params={"token": tok[who]}).json()
        r = client.post(f"/api/games/{g['id']}/moves",
                        json={"token": tok[who], "move": mine["legal"][0], "step": mine["steps"]})
        assert r.status_code == 200, r.text
        state = r.json()
    assert state["to_move"] == [] and state["legal"] == []
    trace = client.get(f"/api/games/{g['id']}/trace", params={"token": tok["O"]})
    lines = [json.loads(x) for x in trace.text.splitlines()]
    assert lines[0]["seed"] is None and lines[0]["viewer"] == "O"
    assert "result" in lines[-1]


def test_bots_move_on_the_server(client: TestClient) -> None:
    g = new_game(client, seats={"X": "random", "O": "random"}, seed=1)
    for _ in range(200):
        s = client.get(f"/api/games/{g['id']}").json()
        if s["result"] is not None:
            break
        import time
        time.sleep(0.01)
    assert s["result"] is not None and s["you"] is None


def test_refusals(client: TestClient) -> None:
    g = new_game(client, seed=2)
    gid, tok = g["id"], {p: s["token"] for p, s in g["seats"].items()}
    url = f"/api/games/{gid}/moves"
    # 403: missing or unknown token
    assert client.post(url, json={"move": "place(b2)"}).status_code == 403
    r = client.post(url, json={"token": "nope", "move": "place(b2)"})
    assert r.status_code == 403 and "token" in r.json()["error"]
    assert client.get(f"/api/games/{gid}", params={"token": "nope"}).status_code == 403
    # 404: unknown game
    assert client.get("/api/games/nosuchgame").status_code == 404
    assert client.post("/api/games/nosuchgame/moves", json={"token": tok["X"], "move": "x"}).status_code == 404
    # 409: not this seat's decision, or a stale step
    r = client.post(url, json={"token": tok["O"], "move": "place(b2)"})
    assert r.status_code == 409 and "X decides" in r.json()["error"]
    r = client.post(url, json={"token": tok["X"], "move": "place(b2)", "step": 99})
    assert r.status_code == 409 and "stale" in r.json()["error"]
    # 422: illegal move, with its reason
    assert client.post(url, json={"token": tok["X"], "move": "place(b2)"}).status_code == 200
    r = client.post(url, json={"token": tok["O"], "move": "place(b2)"})
    assert r.status_code == 422 and r.json()["error"]
    r = client.post(url, json={"token": tok["O"], "move": "place(("})
    assert r.status_code == 422 and "Traceback" not in r.text
    # 400: bad JSON, wrong types
    r = client.post(url, content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "bad JSON" in r.json()["error"]
    assert client.post(url, json=[1, 2]).status_code == 400
    assert client.post(url, json={"token": tok["O"], "move": 5}).status_code == 400
    assert client.post(url, json={"token": tok["O"], "move": "place(a1)", "step": "x"}).status_code == 400
    # 413: bounded bodies
    r = client.post(url, content=b"{" + b" " * 100_000 + b"}", headers={"content-type": "application/json"})
    assert r.status_code == 413
    # create: unknown ruleset, bad seats, bad players
    assert client.post("/api/games", json={"ruleset": "../../etc/passwd"}).status_code == 422
    assert client.post("/api/games", json={"ruleset": "tictactoe", "seats": {"Q": "human"}}).status_code == 422
    assert client.post("/api/games", json={"ruleset": "tictactoe", "seats": {"X": "genius"}}).status_code == 422
    assert client.post("/api/games", json={"ruleset": "tictactoe", "seats": {"X": "mcts-cheat:5"}}).status_code == 422
    assert client.post("/api/games", json={"ruleset": "tictactoe", "players": 5}).status_code == 422
    assert client.post("/api/games", json={"ruleset": "tictactoe", "players": "2"}).status_code == 400


def test_simultaneous_window_waits_for_the_others(client: TestClient) -> None:
    r = client.post("/api/games", json={"ruleset": "goofspiel", "options": {"cards": 3}, "seed": 2, "seats": {}})
    g = r.json()
    tok = {p: s["token"] for p, s in g["seats"].items()}
    ann = client.get(f"/api/games/{g['id']}", params={"token": tok["Ann"]}).json()
    assert sorted(ann["to_move"]) == ["Ann", "Bob"] and ann["legal"]
    r = client.post(f"/api/games/{g['id']}/moves", json={"token": tok["Bob"], "move": "play_card(3)"})
    assert r.status_code == 200
    bob = r.json()
    assert bob["to_move"] == ["Ann"] and bob["legal"] == []
    ann = client.get(f"/api/games/{g['id']}", params={"token": tok["Ann"]}).json()
    assert "3" not in json.dumps(ann["view"]["vars"].get("bid"))
    r = client.post(f"/api/games/{g['id']}/moves", json={"token": tok["Bob"], "move": "play_card(2)"})
    assert r.status_code == 409


def test_websocket_pushes_the_seat_state(client: TestClient) -> None:
    g = new_game(client, seed=5)
    tok = {p: s["token"] for p, s in g["seats"].items()}
    with client.websocket_connect(f"/ws/games/{g['id']}?token={tok['O']}") as ws:
        first = ws.receive_json()
        assert first["type"] == "state" and first["state"]["you"] == "O"
        client.post(f"/api/games/{g['id']}/moves", json={"token": tok["X"], "move": "place(a1)"})
        pushed = ws.receive_json()
        assert pushed["state"]["to_move"] == ["O"] and pushed["state"]["legal"]


def test_unknown_paths_and_internal_errors_are_json(client: TestClient) -> None:
    r = client.get("/api/nothing")
    assert r.status_code == 404 and r.json()["error"]
    r = client.get("/static/../app.py")
    assert r.status_code == 404


def test_the_seat_page_draws_with_the_viewers_one_board_file(client: TestClient) -> None:
    """/static/board.js is the viewer's boards.js as it is, and the viewer's page inlines the
    same file: the drawing lives in one place (viewer.js keeps none of it)."""
    from importlib import resources

    from regelwerk.viewer.page import script

    shared = resources.files("regelwerk.viewer").joinpath("page", "boards.js").read_text(encoding="utf-8")
    served = client.get("/static/board.js")
    assert served.status_code == 200 and "javascript" in served.headers["content-type"]
    assert served.text.endswith(shared) and "function drawBoards(" in shared
    viewer = resources.files("regelwerk.viewer").joinpath("page", "viewer.js").read_text(encoding="utf-8")
    assert "function drawGrid(" not in viewer and script("viewer.js") == shared + "\n" + viewer
