"""Live updates: the websockets open on each game, and the push of each seat's state to them.

Every connection belongs to one seat (or a spectator) of one game, fixed when it opened with
its token; after every change of a game each connection gets that seat's state, made by the
same code as `GET /api/games/ID` (session.Table.state), so a socket never carries more than
the seat may see.
"""

from __future__ import annotations

import asyncio
import json

from anyio import to_thread
from starlette.websockets import WebSocket

from .session import Table


class Hub:
    """game id -> {websocket: (the seat it speaks for or None for a spectator, its page url)}."""

    def __init__(self) -> None:
        self.rooms: dict[str, dict[WebSocket, tuple[str | None, str]]] = {}

    def join(self, game_id: str, ws: WebSocket, player: str | None, url: str) -> None:
        self.rooms.setdefault(game_id, {})[ws] = (player, url)

    def leave(self, game_id: str, ws: WebSocket) -> None:
        room = self.rooms.get(game_id)
        if room is not None:
            room.pop(ws, None)
            if not room:
                del self.rooms[game_id]

    async def publish(self, table: Table) -> None:
        """Send each connection of this game its seat's state (one state per seat, made once)."""
        room = dict(self.rooms.get(table.id, {}))
        if not room:
            return
        seats = set(room.values())
        states = await to_thread.run_sync(
            lambda: {s: json.dumps({"type": "state", "state": table.state(*s)}, ensure_ascii=False)
                     for s in seats})
        await asyncio.gather(*(self._send(table.id, ws, states[p]) for ws, p in room.items()))

    async def _send(self, game_id: str, ws: WebSocket, text: str) -> None:
        try:
            await ws.send_text(text)
        except Exception:  # noqa: BLE001 - a closed connection: forget it, the page reconnects
            self.leave(game_id, ws)
