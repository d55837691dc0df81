"""The ASGI app (Starlette): the HTTP JSON API of docs/serve.md, the websocket, the pages.

Handlers stay thin: they read and bound the request, find the seat by its token, and call the
session (session.py) in a worker thread, since the engine's work is plain Python that would
otherwise hold up every other connection. Every refusal is JSON `{"error": message}` with its
status; no response carries a traceback. Tokens arrive in query strings and bodies and are
never logged (uvicorn's access log is off, see command.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from anyio import to_thread
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..interpreter.engine.errors import EngineError
from .board import board_data, board_script
from .catalogue import Catalogue
from .hub import Hub
from .limits import IDLE_AFTER, MAX_LIVE
from .session import ApiError, Table, create_game
from .store import GameStore, StoreError

PAGE = Path(__file__).resolve().parent / "page"
ASSETS = {"serve.js": "text/javascript", "lobby.js": "text/javascript", "serve.css": "text/css"}
MAX_BODY = 64 * 1024  # a move or a create request is a few hundred bytes
log = logging.getLogger("regelwerk.serve")


def _error(status: int, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": message, **extra}, status_code=status)


async def read_json(request: Request, limit: int = MAX_BODY) -> dict:
    """The request's JSON object, read at most `limit` bytes far; ApiError 413/400 otherwise."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise ApiError(413, f"the request body is larger than {limit} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body.extend(chunk)
        if len(body) > limit:
            raise ApiError(413, f"the request body is larger than {limit} bytes")
    try:
        data = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise ApiError(400, "the request body is not UTF-8 text") from None
    except json.JSONDecodeError as err:
        raise ApiError(400, f"bad JSON: {err.msg} at line {err.lineno} column {err.colno}") from None
    if not isinstance(data, dict):
        raise ApiError(400, "the request body must be a JSON object")
    return data


class Server:
    """The games being served: the catalogue, the store, the live tables and the hub.

    The store holds every game; memory holds the tables in use. A table nobody asked for in
    `idle_after` seconds, with no page watching and no bot moving, is dropped, and so is the
    least recently used beyond `max_live`; its next request rebuilds it from the store, as
    after a restart. Dropping happens when a table is added, so memory only grows by one
    table at a time past the limit."""

    def __init__(self, catalogue: Catalogue, store: GameStore, idle_after: float = IDLE_AFTER,
                 max_live: int = MAX_LIVE):
        self.catalogue = catalogue
        self.store = store
        self.idle_after, self.max_live = idle_after, max_live
        self.tables: dict[str, Table] = {}
        self.hub = Hub()
        self._loading = threading.Lock()
        self._driving: set[str] = set()
        self._tasks: set[asyncio.Task] = set()

    # ------------------------------------------------------------------ tables
    def _load(self, game_id: str) -> Table | None:
        """The live table of a game, rebuilt from the store when not in memory (or broken)."""
        with self._loading:
            table = self.tables.get(game_id)
            if table is not None and not table.broken:
                return table
            stored = self.store.load(game_id)
            if stored is None:
                return None
            rules = self.catalogue.get(stored.ruleset)
            if rules is None:
                raise ApiError(503, f"game {game_id} is of ruleset {stored.ruleset!r}, which this "
                               "server does not host")
            try:
                table = Table(stored, rules, self.store)
            except EngineError as err:
                log.error("%s", err.message)
                raise ApiError(503, f"game {game_id} cannot be restored from the database") from None
            self._add(table)
            return table

    def _keep(self, table: Table) -> None:
        with self._loading:
            self._add(table)

    def _add(self, table: Table) -> None:
        """Keep a new live table, first letting idle ones go (the class docstring). Called with
        `_loading` held."""
        now = time.monotonic()
        busy = set(self.hub.rooms) | self._driving
        by_age = sorted(self.tables.items(), key=lambda kv: kv[1].used)
        over = len(self.tables) + 1 - self.max_live
        for gid, old in by_age:
            if gid in busy or not (over > 0 or now - old.used > self.idle_after):
                continue
            if old.lock.acquire(blocking=False):  # not while a request is playing on it
                try:
                    old.broken = True  # a request still holding it rebuilds from the store
                    del self.tables[gid]
                    over -= 1
                finally:
                    old.lock.release()
        self.tables[table.id] = table

    async def table(self, game_id: str) -> Table:
        if not isinstance(game_id, str) or len(game_id) > 64:
            raise ApiError(404, "no such game")
        table = self.tables.get(game_id)
        if table is None or table.broken:
            table = await to_thread.run_sync(self._load, game_id)
            if table is None:
                raise ApiError(404, f"no game {game_id!r}")
            self.drive(table)
        table.used = time.monotonic()
        return table

    def seat(self, table: Table, token: object) -> str | None:
        """The seat a token opens: None for no token (a spectator); 403 for a wrong one."""
        if token is None:
            return None
        player = table.seat_of(token)
        if player is None:
            raise ApiError(403, "unknown token for this game")
        return player

    @staticmethod
    def url(game_id: str, token: str | None) -> str:
        return f"/play/{game_id}" + (f"?token={token}" if token else "")

    # ------------------------------------------------------------------ bots and pushes
    def drive(self, table: Table) -> None:
        """Let the bots of a game move, one committed move at a time, pushing each change."""
        if table.id in self._driving:
            return
        self._driving.add(table.id)
        task = asyncio.get_running_loop().create_task(self._drive(table))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _drive(self, table: Table) -> None:
        try:
            while await to_thread.run_sync(table.bot_step):
                await self.hub.publish(table)
        except Exception:  # noqa: BLE001 - a store failure: the table rebuilds on the next request
            log.exception("game %s: a bot's move failed", table.id)
        finally:
            self._driving.discard(table.id)

    async def changed(self, table: Table) -> None:
        await self.hub.publish(table)
        self.drive(table)

    async def resume(self) -> None:
        """At start: every stored game whose bots are to move goes on by itself."""
        ids = await to_thread.run_sync(self.store.game_ids)
        for gid in ids:
            try:
                await self.table(gid)
            except ApiError as err:
                log.error("game %s: %s", gid, err.message)

    async def idle(self) -> None:
        """Wait until no bot is moving (tests and the benchmark)."""
        while self._driving:
            await asyncio.sleep(0.01)

    # ------------------------------------------------------------------ routes
    async def rulesets(self, request: Request) -> Response:
        return JSONResponse(self.catalogue.listing())

    async def create(self, request: Request) -> Response:
        body = await read_json(request)
        name = body.get("ruleset")
        rules = self.catalogue.get(name)
        if rules is None:
            raise ApiError(422, f"no ruleset {name!r} on this server (" + ", ".join(self.catalogue.rulesets) + ")")
        game_id = secrets.token_urlsafe(9)
        table, tokens = await to_thread.run_sync(create_game, self.store, rules, name, body, game_id)
        await to_thread.run_sync(self._keep, table)
        self.drive(table)
        seats = {p: {"token": t, "url": self.url(game_id, t)} for p, t in tokens.items()}
        return JSONResponse({"id": game_id, "seats": seats, "watch": self.url(game_id, None)}, status_code=201)

    async def state(self, request: Request) -> Response:
        table = await self.table(request.path_params["id"])
        token = request.query_params.get("token")
        player = self.seat(table, token)
        state = await to_thread.run_sync(table.state, player, self.url(table.id, token if player else None))
        return JSONResponse(state)

    async def move(self, request: Request) -> Response:
        table = await self.table(request.path_params["id"])
        body = await read_json(request)
        token = body.get("token")
        if token is None:
            raise ApiError(403, "a move needs the seat's \"token\"")
        player = self.seat(table, token)
        assert player is not None
        try:
            state = await to_thread.run_sync(table.play, player, body.get("move"), body.get("step"),
                                              self.url(table.id, token))
        finally:
            if table.broken:
                self.tables.pop(table.id, None)
        await self.changed(table)
        return JSONResponse(state)

    async def trace(self, request: Request) -> Response:
        table = await self.table(request.path_params["id"])
        player = self.seat(table, request.query_params.get("token"))
        text = await to_thread.run_sync(table.trace, player)
        return Response(text, media_type="application/x-ndjson; charset=utf-8")

    async def socket(self, ws: WebSocket) -> None:
        try:
            table = await self.table(ws.path_params["id"])
            token = ws.query_params.get("token")
            player = self.seat(table, token)
        except ApiError as err:
            await ws.close(code=4000 + err.status, reason=err.message[:120])
            return
        await ws.accept()
        url = self.url(table.id, token if player else None)
        self.hub.join(table.id, ws, player, url)
        try:
            state = await to_thread.run_sync(table.state, player, url)
            await ws.send_text(json.dumps({"type": "state", "state": state}, ensure_ascii=False))
            while True:
                await ws.receive_text()  # the page sends nothing that matters: keep-alives
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            self.hub.leave(table.id, ws)

    async def lobby(self, request: Request) -> Response:
        return FileResponse(PAGE / "lobby.html", media_type="text/html")

    async def play_page(self, request: Request) -> Response:
        return FileResponse(PAGE / "play.html", media_type="text/html")

    async def board(self, request: Request) -> Response:
        table = await self.table(request.path_params["id"])
        return JSONResponse(await to_thread.run_sync(board_data, table.rules, table.game))

    async def asset(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name == "board.js":
            return Response(board_script(), media_type="text/javascript")
        if name not in ASSETS:
            raise ApiError(404, "no such file")
        return FileResponse(PAGE / name, media_type=ASSETS[name])


def _api_error(request: Request, err: Exception) -> Response:
    assert isinstance(err, ApiError)
    return _error(err.status, err.message, **err.extra)


def _http_error(request: Request, err: Exception) -> Response:
    assert isinstance(err, HTTPException)
    return _error(err.status_code, str(err.detail))


def _internal(request: Request, err: Exception) -> Response:
    if isinstance(err, StoreError):
        log.error("%s", err)
        return _error(503, "the game database failed; nothing was changed")
    log.error("internal error on %s %s: %s", request.method, request.url.path, type(err).__name__)
    return _error(500, "internal error")


def build_app(catalogue: Catalogue, store: GameStore, idle_after: float = IDLE_AFTER,
              max_live: int = MAX_LIVE) -> Starlette:
    """The app for these rulesets and this store (memory: see `Server`)."""
    server = Server(catalogue, store, idle_after, max_live)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.resume()
        yield
        for task in list(server._tasks):
            task.cancel()

    app = Starlette(
        routes=[
            Route("/", server.lobby),
            Route("/play/{id}", server.play_page),
            Route("/static/{name}", server.asset),
            Route("/favicon.ico", lambda request: Response(status_code=204)),
            Route("/api/rulesets", server.rulesets),
            Route("/api/games", server.create, methods=["POST"]),
            Route("/api/games/{id}", server.state),
            Route("/api/games/{id}/moves", server.move, methods=["POST"]),
            Route("/api/games/{id}/trace", server.trace),
            Route("/api/games/{id}/board", server.board),
            WebSocketRoute("/ws/games/{id}", server.socket),
        ],
        exception_handlers={ApiError: _api_error, HTTPException: _http_error, Exception: _internal},
        lifespan=lifespan,
    )
    app.state.server = server
    return app
