"""Where `regelwerk serve` keeps its games: one row per game, with everything needed to rebuild
it exactly (ruleset, players, seed, options, seats) and the moves accepted so far.

A game is stored as its moves, not as a save: replaying them from the seed rebuilds the game
and its whole trace (which a save does not hold), and a move is one small write. Every
accepted move is committed before the server answers; a move is written only if the game is
still at the step the move was made at (`UPDATE ... WHERE step = ?`), so two servers or two
requests can never interleave moves of one game.

The SQLite backend (the standard library's sqlite3, WAL journal) is the default; the interface
is small so that a PostgreSQL backend (psycopg 3) can sit behind it.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol


@dataclass
class GameRow:
    """One stored game."""

    id: str
    ruleset: str  # the ruleset's name (its file name without .rules)
    ruleset_hash: str
    players: int
    seed: int
    options: dict[str, Any]
    seats: dict[str, dict[str, str]]  # player -> {"token": ...} for a person, {"agent": spec} for a bot
    moves: list[list[str]] = field(default_factory=list)  # [player, move text], in order

    @property
    def step(self) -> int:
        return len(self.moves)


class StaleMove(Exception):
    """The game moved on since the move was made (another move came first)."""


class Store(Protocol):
    def create(self, row: GameRow) -> None: ...
    def get(self, game_id: str) -> GameRow | None: ...
    def add_move(self, game_id: str, step: int, player: str, move: str) -> None: ...
    def ids(self) -> list[str]: ...
    def close(self) -> None: ...


class SQLiteStore:
    """Games in one SQLite file (WAL: readers never wait for the writer); a transaction per
    write, committed before it returns."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        self._lock = threading.Lock()  # one connection, used from the server's threads in turn
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")  # a committed move survives a power cut
        self._db.execute("""CREATE TABLE IF NOT EXISTS games (
            id TEXT PRIMARY KEY, ruleset TEXT NOT NULL, ruleset_hash TEXT NOT NULL,
            players INTEGER NOT NULL, seed INTEGER NOT NULL, options TEXT NOT NULL,
            seats TEXT NOT NULL, step INTEGER NOT NULL DEFAULT 0)""")
        self._db.execute("""CREATE TABLE IF NOT EXISTS moves (
            game TEXT NOT NULL REFERENCES games(id), step INTEGER NOT NULL, player TEXT NOT NULL,
            move TEXT NOT NULL, PRIMARY KEY (game, step))""")

    def create(self, row: GameRow) -> None:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, 0)",
                                 (row.id, row.ruleset, row.ruleset_hash, row.players, row.seed,
                                  json.dumps(row.options, sort_keys=True), json.dumps(row.seats, sort_keys=True)))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def get(self, game_id: str) -> GameRow | None:
        with self._lock:
            r = self._db.execute("SELECT id, ruleset, ruleset_hash, players, seed, options, seats, step "
                                 "FROM games WHERE id = ?", (game_id,)).fetchone()
            if r is None:
                return None
            moves = [[p, m] for p, m in self._db.execute(
                "SELECT player, move FROM moves WHERE game = ? AND step < ? ORDER BY step", (game_id, r[7]))]
        return GameRow(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), json.loads(r[6]), moves)

    def add_move(self, game_id: str, step: int, player: str, move: str) -> None:
        """Append move number `step` (0-based) if the game is at that step; else StaleMove."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                done = self._db.execute("UPDATE games SET step = step + 1 WHERE id = ? AND step = ?",
                                        (game_id, step)).rowcount
                if done != 1:
                    raise StaleMove(f"game {game_id} is not at step {step}")
                self._db.execute("INSERT OR REPLACE INTO moves VALUES (?, ?, ?, ?)", (game_id, step, player, move))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def ids(self) -> list[str]:
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT id FROM games ORDER BY rowid")]

    def close(self) -> None:
        with self._lock:
            self._db.close()


def open_store(where: str | None) -> Any:
    """The store at `where`: an SQLite file (the default `regelwerk-serve.sqlite`), or a
    PostgreSQL URL, which needs the serve extra's psycopg (not yet built: refused with a message)."""
    if where and where.startswith(("postgres://", "postgresql://")):
        raise ValueError("PostgreSQL storage is not built yet: use an SQLite file (--db FILE.sqlite)")
    return SQLiteStore(where or "regelwerk-serve.sqlite")
