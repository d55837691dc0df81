"""Where served games live: one small interface, a sqlite3 backend and (store_pg.py) PostgreSQL.

A game is stored as what made it (ruleset, players, seed, options, seats) and the list of
accepted moves, each with the game's save (`Game.to_json()`) after it. The move list is the
truth: replaying it from the start rebuilds the game with its whole trace, and the save lets
a check (and an operator) see the position without the engine. Each move is one transaction:
its row and the game's new save are committed together before the server answers, and the
primary key (game, index) makes a second writer of the same index fail instead of
interleaving.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass, field
from typing import Any, Protocol


class StoreError(Exception):
    """The database refused or could not be read; the message says which game and why."""


class Conflict(StoreError):
    """Another move took this index first (two writers of one game)."""


@dataclass
class Seat:
    """One player's seat: a person (with the SHA-256 of their token) or a bot (its agent spec)."""

    agent: str | None = None
    token_hash: str | None = None

    def to_json(self) -> dict:
        return {"agent": self.agent, "token_hash": self.token_hash}

    @staticmethod
    def from_json(data: dict) -> Seat:
        return Seat(agent=data.get("agent"), token_hash=data.get("token_hash"))


@dataclass
class Move:
    """One accepted move: who made it (None for the plain form) and its canonical text."""

    player: str | None
    text: str


@dataclass
class StoredGame:
    """A game as the store keeps it."""

    id: str
    ruleset: str
    players: int
    seed: int
    options: dict[str, Any]
    seats: dict[str, Seat]
    moves: list[Move] = field(default_factory=list)


class GameStore(Protocol):
    """What the server needs of a database (sqlite3 here, PostgreSQL in store_pg.py)."""

    def create(self, game: StoredGame, save: dict) -> None: ...

    def append(self, game_id: str, index: int, move: Move, save: dict) -> None:
        """Commit move number `index` (0-based) and the save after it; Conflict if taken."""

    def load(self, game_id: str) -> StoredGame | None: ...

    def game_ids(self) -> list[str]: ...

    def close(self) -> None: ...


SCHEMA = (
    """CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY, ruleset TEXT NOT NULL, players INTEGER NOT NULL,
        seed BIGINT NOT NULL, options TEXT NOT NULL, seats TEXT NOT NULL,
        moves INTEGER NOT NULL DEFAULT 0, save TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS moves (
        game_id TEXT NOT NULL REFERENCES games(id), idx INTEGER NOT NULL,
        player TEXT, move TEXT NOT NULL, PRIMARY KEY (game_id, idx))""",
)


def _dump(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def row_game(row: tuple, moves: list[tuple]) -> StoredGame:
    """A StoredGame from a `games` row (id, ruleset, players, seed, options, seats) and its moves."""
    gid, ruleset, players, seed, options, seats = row
    return StoredGame(gid, ruleset, int(players), int(seed), json.loads(options),
                      {p: Seat.from_json(s) for p, s in json.loads(seats).items()},
                      [Move(p, m) for p, m in moves])


def game_row(game: StoredGame, save: dict) -> tuple:
    return (game.id, game.ruleset, game.players, game.seed, _dump(game.options),
            _dump({p: s.to_json() for p, s in game.seats.items()}), len(game.moves), _dump(save))


class SqliteStore:
    """The default store: one sqlite3 file in WAL mode, a transaction per move, synchronous
    FULL so that a committed move survives a crash of the process or the machine."""

    def __init__(self, path: str):
        self.path = path
        self._lock = threading.Lock()  # one connection, used from the server's worker threads
        try:
            self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            for stmt in SCHEMA:
                self._db.execute(stmt)
        except sqlite3.Error as err:
            raise StoreError(f"{path}: cannot open the game database: {err}") from None

    def create(self, game: StoredGame, save: dict) -> None:
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute("INSERT INTO games (id, ruleset, players, seed, options, seats, moves, save) "
                                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", game_row(game, save))
                self._db.execute("COMMIT")
            except sqlite3.Error as err:
                self._rollback()
                raise StoreError(f"game {game.id}: cannot store it: {err}") from None

    def append(self, game_id: str, index: int, move: Move, save: dict) -> None:
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute("INSERT INTO moves (game_id, idx, player, move) VALUES (?, ?, ?, ?)",
                                 (game_id, index, move.player, move.text))
                self._db.execute("UPDATE games SET moves = ?, save = ? WHERE id = ?",
                                 (index + 1, _dump(save), game_id))
                self._db.execute("COMMIT")
            except sqlite3.IntegrityError:
                self._rollback()
                raise Conflict(f"game {game_id}: move {index} is stored already") from None
            except sqlite3.Error as err:
                self._rollback()
                raise StoreError(f"game {game_id}: cannot store move {index}: {err}") from None

    def _rollback(self) -> None:
        try:
            self._db.execute("ROLLBACK")
        except sqlite3.Error:
            pass  # no transaction was open

    def load(self, game_id: str) -> StoredGame | None:
        with self._lock:
            row = self._db.execute("SELECT id, ruleset, players, seed, options, seats FROM games WHERE id = ?",
                                   (game_id,)).fetchone()
            if row is None:
                return None
            moves = self._db.execute("SELECT player, move FROM moves WHERE game_id = ? ORDER BY idx",
                                     (game_id,)).fetchall()
        return row_game(row, moves)

    def save_of(self, game_id: str) -> dict | None:
        """The stored save after the last move (for checks and operators)."""
        with self._lock:
            row = self._db.execute("SELECT save FROM games WHERE id = ?", (game_id,)).fetchone()
        return json.loads(row[0]) if row else None

    def game_ids(self) -> list[str]:
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT id FROM games ORDER BY rowid")]

    def close(self) -> None:
        with self._lock:
            self._db.close()

