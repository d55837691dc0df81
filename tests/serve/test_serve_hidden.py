"""No byte sent to a seat or a spectator holds a value hidden from it (issue 26), as a
property over random games of the hidden-card canary and the seed rulesets.

The test plays through the HTTP API and the websockets only, as people would, and keeps
every byte each seat (and a spectator) received: states, move answers (refusals included),
traces and pushes. What a seat legitimately saw is worked out from the true, unfiltered trace
by tests/test_visibility_property.py's `seen_by`, independently of the visibility module;
every other value that stood in hidden state (another hand, the deck) must be absent. The
canary's cards are unique words, so a leak is a plain word search; in the seed rulesets the
hidden values are searched as words too, less what the rules' own texts and the public state
ever showed. The seed of the game never appears anywhere.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from regelwerk.interpreter.tools.trace import trace_lines

from regelwerk.serve.app import build_app
from regelwerk.serve.catalogue import Catalogue
from regelwerk.serve.store import SqliteStore
from tests.test_visibility_property import canary_moves, leaks, seen_by, start_of, tokens

from .conftest import CANARY, ROOT, TestClient

SEEDS = {"khan": (ROOT / "rulesets/khan/khan.rules", 3), "shogun": (ROOT / "rulesets/shogun/shogun.rules", 4),
         "root": (ROOT / "rulesets/root/root.rules", 2)}
STATIC = ("rule", "quote", "source", "spec", "at", "require", "note", "kind", "title", "format")


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return Catalogue([str(CANARY)] + [str(p) for p, _ in SEEDS.values()])


class Received:
    """Every text one client (a seat, or the spectator under None) was sent."""

    def __init__(self) -> None:
        self.text: dict[str | None, list[str]] = {}

    def add(self, who: str | None, text: str) -> None:
        self.text.setdefault(who, []).append(text)


def play_served(client: TestClient, name: str, players: int, seed: int, max_moves: int,
                tries: list[str]) -> tuple[Any, Received, dict]:
    """A random game over HTTP with every seat human; returns the true game, what each seat
    was sent, and the create answer."""
    rnd = random.Random(seed)
    got = Received()
    r = client.post("/api/games", json={"ruleset": name, "players": players, "seed": seed, "seats": {}})
    assert r.status_code == 201, r.text
    g = r.json()
    gid = g["id"]
    tok: dict[str | None, str | None] = {p: s["token"] for p, s in g["seats"].items()}
    tok[None] = None
    sockets = {}
    for who, t in tok.items():
        ws = client.websocket_connect(f"/ws/games/{gid}" + (f"?token={t}" if t else ""))
        sockets[who] = ws.__enter__()
        got.add(who, sockets[who].receive_text())

    def get(who: str | None, path: str = "") -> str:
        params = {"token": tok[who]} if tok[who] else {}
        r = client.get(f"/api/games/{gid}{path}", params=params)
        assert r.status_code == 200, r.text
        got.add(who, r.text)
        return r.text

    def post(who: str, move: str, step: int | None = None) -> int:
        body: dict[str, Any] = {"token": tok[who], "move": move}
        if step is not None:
            body["step"] = step
        r = client.post(f"/api/games/{gid}/moves", json=body)
        got.add(who, r.text)
        if r.status_code == 200:  # every socket is pushed its seat's state before the answer
            for w, ws in sockets.items():
                got.add(w, ws.receive_text())
        else:
            assert r.status_code in (409, 422), r.text
        return r.status_code

    try:
        for n in range(max_moves):
            if n % 10 == 0:
                for who in tok:
                    get(who, "/trace")
            for who in [p for p in tok if p is not None]:  # tries that are mostly refused
                if rnd.random() < 0.2:
                    post(who, rnd.choice(tries))
            states = {who: json.loads(get(who)) for who in tok}
            if states[None]["result"] is not None:
                break
            who = rnd.choice(states[None]["to_move"])
            assert post(who, rnd.choice(states[who]["legal"]), states[who]["steps"]) == 200
        for who in tok:
            get(who, "/trace")
            get(who)
    finally:
        for ws in sockets.values():
            ws.__exit__(None, None, None)
    game = client.app.state.server.tables[gid].game
    return game, got, g


def hidden_values(values: dict, model: Any, player: str | None) -> set[str]:
    """The words of every value of these state variables hidden from `player` (None: a spectator)."""
    out: set[str] = set()
    for name, decl in model.vars.items():
        v = values.get(name)
        if decl.hidden == "all":
            tokens(v, out)
        elif decl.hidden == "owner" and isinstance(v, dict):
            for k, x in v.items():
                if k != player:
                    tokens(x, out)
    return {w for w in out if not re.fullmatch(r"-?\d+|true|false|none", w)}


def hidden_written(lines: list[dict], model: Any, player: str | None) -> set[str]:
    """The words of every value the true trace wrote into state hidden from `player`."""
    out: set[str] = set()
    for step in lines[1:]:
        for c in step.get("changes", []):
            decl = model.vars.get(str(c.get("path", "")).split("[")[0].split(".")[0])
            if decl is None or not decl.hidden:
                continue
            if decl.hidden == "owner" and c.get("owner") == player:
                continue
            if decl.hidden == "owner" and c.get("per_owner"):
                for v in (c.get("old"), c.get("new")):
                    if isinstance(v, dict):
                        tokens({k: x for k, x in v.items() if k != player}, out)
                continue
            tokens([c.get("old"), c.get("new")], out)
    return {w for w in out if not re.fullmatch(r"-?\d+|true|false|none", w)}


def check(client: TestClient, name: str, players: int, seed: int, max_moves: int, tries: list[str],
          words: set[str] | None = None) -> int:
    """Play one served game and search every byte each seat got; the number of hidden words."""
    rules = client.app.state.server.catalogue.get(name)
    game, got, created = play_served(client, name, players, seed, max_moves, tries)
    lines = [json.loads(x) for x in trace_lines(game)]
    start = start_of(rules, players, seed)
    public: set[str] = set(game.players) | set(rules.model.vars)  # names, not values
    for fields in rules.model.record_fields.values():
        public.update(fields)
    for step in lines:  # the rules' own texts are no secret, whatever words they use
        for key in STATIC:
            if isinstance(step.get(key), str):
                public.update(re.findall(r"\w+", step[key]))
    hidden_count = 0
    for who in [*game.players, None]:
        saw = seen_by(who or "\x00", lines, rules.model, start)
        candidates = words if words is not None else hidden_written(lines, rules.model, who)
        candidates = candidates | hidden_values(start, rules.model, who) | hidden_values(game.vars, rules.model, who)
        secret = candidates - saw - public
        secret = {w for w in secret if not re.fullmatch(r"-?\d+|true|false|none|hidden", w)}
        hidden_count += len(secret)
        text = "\n".join(got.text[who])
        found = leaks(text, secret)
        assert not found, f"{who or 'the spectator'} was sent {sorted(found)[:10]} ({name}, seed {seed})"
        assert str(seed) not in re.findall(r"\d+", text), f"the seed reached {who or 'the spectator'}"
        if who is not None:
            others = [s["token"] for p, s in created["seats"].items() if p != who]
            assert not any(t in text for t in others), f"{who} was sent another seat's token"
    return hidden_count


@pytest.fixture
def served(catalogue: Catalogue, tmp_path_factory: pytest.TempPathFactory):
    store = SqliteStore(str(tmp_path_factory.mktemp("hidden") / "games.sqlite"))
    with TestClient(build_app(catalogue, store), raise_server_exceptions=False) as c:
        yield c
    store.close()


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(seed=st.integers(10**9, 2**62), players=st.sampled_from([2, 3]))
def test_a_canary_seat_is_sent_no_card_it_never_saw(served: TestClient, seed: int, players: int) -> None:
    cards = set(served.app.state.server.catalogue.get("canary").model.enums["Card"].members)
    assert check(served, "canary", players, seed, 60, canary_moves(), cards) > 0


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_a_seed_ruleset_seat_is_sent_nothing_hidden(served: TestClient, name: str) -> None:
    path, players = SEEDS[name]
    hidden = sum(check(served, name, players, seed, 25, ["pass", "choose(1)", "choose(true)"])
                 for seed in (10**12 + 7, 10**12 + 8))
    if name != "shogun":  # shogun hides only numbers (bids) and orders of public names
        assert hidden > 0, f"{name}: nothing was hidden from anyone: the test would test nothing"
