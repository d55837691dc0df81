"""The PostgreSQL store (psycopg 3), behind the same interface as the sqlite one (store.py).

Same tables, same rules: a move's row and the game's new save in one transaction, committed
before the server answers; the primary key (game, index) refuses a second writer of an index.
A small pool of connections, one per worker thread at a time, so games on different tables
are stored in parallel.
"""

from __future__ import annotations

import queue
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .store import SCHEMA, Conflict, Move, StoredGame, StoreError, _dump, game_row, row_game


class PostgresStore:
    """Games in a PostgreSQL database named by a `postgresql://` URL."""

    def __init__(self, url: str, connections: int = 8):
        try:
            import psycopg
        except ImportError as err:
            raise StoreError(f"a PostgreSQL database needs psycopg (pip install 'regelwerk[serve]'): {err}") from None
        self._psycopg = psycopg
        self._pool: queue.Queue = queue.Queue()
        try:
            for _ in range(connections):
                self._pool.put(psycopg.connect(url, autocommit=False))
        except psycopg.Error as err:
            self.close()
            raise StoreError(f"cannot connect to the PostgreSQL database: {_first_line(err)}") from None
        with self._conn() as db:
            for stmt in SCHEMA:
                db.execute(stmt)

    @contextmanager
    def _conn(self) -> Iterator[Any]:
        """A connection for one transaction: committed if the block ends, rolled back if it raises."""
        db = self._pool.get()
        try:
            yield db
            db.commit()
        except BaseException:
            try:
                db.rollback()
            except self._psycopg.Error:
                pass  # a dead connection: its error is the one reported
            raise
        finally:
            self._pool.put(db)

    def create(self, game: StoredGame, save: dict) -> None:
        try:
            with self._conn() as db:
                db.execute("INSERT INTO games (id, ruleset, players, seed, options, seats, moves, save) "
                           "VALUES (%s, %s, %s, %s, %s, %s, %s, %s)", game_row(game, save))
        except self._psycopg.Error as err:
            raise StoreError(f"game {game.id}: cannot store it: {_first_line(err)}") from None

    def append(self, game_id: str, index: int, move: Move, save: dict) -> None:
        try:
            with self._conn() as db:
                db.execute("INSERT INTO moves (game_id, idx, player, move) VALUES (%s, %s, %s, %s)",
                           (game_id, index, move.player, move.text))
                db.execute("UPDATE games SET moves = %s, save = %s WHERE id = %s", (index + 1, _dump(save), game_id))
        except self._psycopg.errors.UniqueViolation:
            raise Conflict(f"game {game_id}: move {index} is stored already") from None
        except self._psycopg.Error as err:
            raise StoreError(f"game {game_id}: cannot store move {index}: {_first_line(err)}") from None

    def load(self, game_id: str) -> StoredGame | None:
        with self._conn() as db:
            row = db.execute("SELECT id, ruleset, players, seed, options, seats FROM games WHERE id = %s",
                             (game_id,)).fetchone()
            if row is None:
                return None
            moves = db.execute("SELECT player, move FROM moves WHERE game_id = %s ORDER BY idx",
                               (game_id,)).fetchall()
        return row_game(row, moves)

    def game_ids(self) -> list[str]:
        with self._conn() as db:
            return [r[0] for r in db.execute("SELECT id FROM games ORDER BY id")]

    def close(self) -> None:
        while not self._pool.empty():
            try:
                self._pool.get_nowait().close()
            except Exception:  # noqa: BLE001 - closing what is left
                pass


def _first_line(err: Exception) -> str:
    return str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
