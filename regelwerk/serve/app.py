"""The web layer of `regelwerk serve`: a Starlette app with the JSON API of docs/serve.md, a
websocket per seat that pushes the seat's state after every change, and two small pages (the
lobby and a seat's page). Game logic runs in worker threads (host.py); nothing here knows a
ruleset.

Requests are bounded (64 KiB), bad JSON is a 400 with a message, every refusal is JSON
`{"error": ...}` with its status, and nothing ever writes a token to a log (uvicorn's access
log, which prints query strings, is off).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from .host import GameHost, ServeError
from .pages import lobby_page, seat_page

MAX_BODY = 64 * 1024


async def _json_body(request: Request) -> Any:
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > MAX_BODY):
        raise ServeError(413, f"a request body is at most {MAX_BODY} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise ServeError(413, f"a request body is at most {MAX_BODY} bytes")
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ServeError(400, f"the body is not JSON: {err}") from None


class Hub:
    """The open websockets of each game, with the seat (or None) each belongs to."""

    def __init__(self) -> None:
        self.sockets: dict[str, set[tuple[WebSocket, str | None]]] = {}

    async def push(self, host: GameHost, game_id: str) -> None:
        for ws, token in list(self.sockets.get(game_id, ())):
            try:
                await ws.send_json(await run_in_threadpool(host.state, game_id, token))
            except Exception:  # noqa: BLE001 - a socket that went away is simply dropped
                self.sockets.get(game_id, set()).discard((ws, token))


def build_app(host: GameHost) -> Starlette:
    hub = Hub()

    async def guarded(work: Any) -> Response:
        try:
            return await work()
        except ServeError as err:
            return JSONResponse({"error": err.message}, status_code=err.status)

    async def rulesets(request: Request) -> Response:
        return JSONResponse(host.catalogue())

    async def create(request: Request) -> Response:
        async def work() -> Response:
            made = await run_in_threadpool(host.create, await _json_body(request))
            return JSONResponse(made, status_code=201)
        return await guarded(work)

    async def state(request: Request) -> Response:
        async def work() -> Response:
            return JSONResponse(await run_in_threadpool(host.state, request.path_params["id"],
                                                        request.query_params.get("token")))
        return await guarded(work)

    async def move(request: Request) -> Response:
        async def work() -> Response:
            game_id = request.path_params["id"]
            out = await run_in_threadpool(host.move, game_id, await _json_body(request))
            asyncio.get_running_loop().create_task(hub.push(host, game_id))
            return JSONResponse(out)
        return await guarded(work)

    async def trace(request: Request) -> Response:
        async def work() -> Response:
            steps = await run_in_threadpool(host.trace, request.path_params["id"], request.query_params.get("token"))
            text = "".join(json.dumps(s, ensure_ascii=False, sort_keys=True) + "\n" for s in steps)
            return Response(text, media_type="application/x-ndjson")
        return await guarded(work)

    async def socket(ws: WebSocket) -> None:
        game_id, token = ws.path_params["id"], ws.query_params.get("token")
        try:
            first = await run_in_threadpool(host.state, game_id, token)
        except ServeError as err:
            await ws.close(code=4000 + err.status, reason=err.message[:100])
            return
        await ws.accept()
        hub.sockets.setdefault(game_id, set()).add((ws, token))
        await ws.send_json(first)
        try:
            while True:
                await ws.receive_text()  # the client sends nothing; this waits for it to leave
        except WebSocketDisconnect:
            pass
        finally:
            hub.sockets.get(game_id, set()).discard((ws, token))

    async def lobby(request: Request) -> Response:
        return HTMLResponse(lobby_page())

    async def play(request: Request) -> Response:
        return HTMLResponse(seat_page(request.path_params["id"]))

    routes = [Route("/", lobby), Route("/play/{id}", play),
              Route("/api/rulesets", rulesets), Route("/api/games", create, methods=["POST"]),
              Route("/api/games/{id}", state), Route("/api/games/{id}/moves", move, methods=["POST"]),
              Route("/api/games/{id}/trace", trace), WebSocketRoute("/ws/games/{id}", socket)]
    return Starlette(routes=routes)
