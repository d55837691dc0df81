"""The game store's contract, the same for sqlite3 and PostgreSQL: what is created and
appended comes back, a second writer of a move index is refused (never interleaved), and
the HTTP API plays a whole game on each backend."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from regelwerk.serve.app import build_app
from regelwerk.serve.backends import open_store
from regelwerk.serve.store import (
    Conflict,
    GameStore,
    Move,
    Seat,
    SqliteStore,
    StoredGame,
    StoreError,
)

from .conftest import TestClient
from .pg_cluster import cluster


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    try:
        with cluster() as url:
            yield url
    except RuntimeError as err:
        pytest.skip(str(err))


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GameStore]:
    if request.param == "sqlite":
        s: GameStore = SqliteStore(str(tmp_path / "g.sqlite"))
    else:
        url = request.getfixturevalue("pg_url")
        s = open_store(url)
        with s._conn() as db:  # type: ignore[attr-defined]
            db.execute("DELETE FROM moves")
            db.execute("DELETE FROM games")
    yield s
    s.close()


def game(gid: str = "g1") -> StoredGame:
    return StoredGame(gid, "tictactoe", 2, 7, {"size": 3}, {"X": Seat(None, "ab" * 32), "O": Seat("random", None)})


def test_what_is_stored_comes_back(store: GameStore) -> None:
    store.create(game(), {"v": 1})
    store.append("g1", 0, Move("X", "place(b2)"), {"v": 2})
    store.append("g1", 1, Move("O", "place(a1)"), {"v": 3})
    back = store.load("g1")
    assert back is not None
    assert (back.ruleset, back.players, back.seed, back.options) == ("tictactoe", 2, 7, {"size": 3})
    assert back.seats["X"].token_hash == "ab" * 32 and back.seats["O"].agent == "random"
    assert [(m.player, m.text) for m in back.moves] == [("X", "place(b2)"), ("O", "place(a1)")]
    assert store.load("nope") is None
    assert store.game_ids() == ["g1"]


def test_a_second_writer_of_an_index_is_refused(store: GameStore) -> None:
    store.create(game(), {})
    results: list[str] = []

    def write(text: str) -> None:
        try:
            store.append("g1", 0, Move("X", text), {})
            results.append("ok")
        except Conflict:
            results.append("conflict")

    threads = [threading.Thread(target=write, args=(f"place(a{i})",)) for i in (1, 2, 3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["conflict", "conflict", "ok"]
    assert len(store.load("g1").moves) == 1


def test_a_whole_game_over_http_on_each_backend(store: GameStore, small_catalogue) -> None:
    with TestClient(build_app(small_catalogue, store)) as c:
        g = c.post("/api/games", json={"ruleset": "tictactoe", "seed": 4, "seats": {"O": "random"}}).json()
        tok = g["seats"]["X"]["token"]
        for _ in range(100):
            s = c.get(f"/api/games/{g['id']}", params={"token": tok}).json()
            if s["result"] is not None:
                break
            if s["legal"]:
                c.post(f"/api/games/{g['id']}/moves", json={"token": tok, "move": s["legal"][0]})
        assert s["result"] is not None
    assert len(store.load(g["id"]).moves) >= 5


def test_a_bad_postgresql_url_is_a_clear_error() -> None:
    with pytest.raises(StoreError, match="cannot connect to the PostgreSQL database"):
        open_store("postgresql://nobody@/nodb?host=/nonexistent&connect_timeout=2")
