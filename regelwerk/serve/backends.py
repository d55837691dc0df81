"""Which store `--db` names: a `postgresql://` (or `postgres://`) URL, else a sqlite file."""

from __future__ import annotations

from .store import GameStore, SqliteStore


def open_store(db: str) -> GameStore:
    """The store for `--db`; StoreError says why it cannot be opened."""
    if db.startswith(("postgresql://", "postgres://")):
        from .store_pg import PostgresStore

        return PostgresStore(db)
    return SqliteStore(db)
