"""The games `regelwerk serve` hosts, on the engine's public API: made from the rulesets the
server was started with (nothing else is ever loaded), kept as their moves in the store,
rebuilt by replaying them, and shown to each seat through the visibility module (a seat sees
what its player may see; a spectator what nobody's hand shows).

Every method is synchronous and takes the game's own lock, so two moves for one game are
serialised; the web layer (app.py) calls them from worker threads.
"""

from __future__ import annotations

import hmac
import random
import secrets
import threading
from typing import Any

from ..interpreter.engine.errors import EngineError, IllegalAction
from ..interpreter.observe.visibility import observer
from ..interpreter.tools.agents import AgentSpecError, check_agent_spec, derived_seed, make_agent
from .store import GameRow, StaleMove

MAX_SEED = 2 ** 63


class ServeError(Exception):
    """A request the server refuses: an HTTP status and a message for the client."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


class GameHost:
    """The rulesets on offer and the games of them, stored in `store`."""

    def __init__(self, rulesets: dict[str, Any], store: Any):
        self.rulesets = rulesets
        self.store = store
        self._games: dict[str, Any] = {}  # id -> the live game (rebuilt from the store on demand)
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    # ------------------------------------------------------------------ the catalogue
    def catalogue(self) -> list[dict[str, Any]]:
        out = []
        for name, r in sorted(self.rulesets.items()):
            p = r.model.players
            out.append({"name": name, "title": r.title, "players": [p.min_count, p.max_count]})
        return out

    # ------------------------------------------------------------------ making a game
    def create(self, body: Any) -> dict[str, Any]:
        """A new game from `{"ruleset", "players"?, "seed"?, "options"?, "seats"}`."""
        if not isinstance(body, dict):
            raise ServeError(400, "expected a JSON object")
        name = body.get("ruleset")
        ruleset = self.rulesets.get(name) if isinstance(name, str) else None
        if ruleset is None:
            raise ServeError(422, f"no ruleset {str(name)[:60]!r} here; offered: {', '.join(sorted(self.rulesets))}")
        seed = body.get("seed", secrets.randbelow(MAX_SEED))
        if type(seed) is not int or not 0 <= seed < MAX_SEED:
            raise ServeError(422, "seed: a whole number from 0")
        options = body.get("options") or {}
        players = body.get("players")
        try:
            game = ruleset.new_game(players=players, seed=seed, options=options, record=True)
        except EngineError as err:
            raise ServeError(422, err.message) from None
        seats_in = body.get("seats")
        if not isinstance(seats_in, dict):
            raise ServeError(422, "seats: a map of each player to \"human\" or an agent (random, mcts:N)")
        unknown = sorted(set(seats_in) - set(game.players))
        if unknown:
            raise ServeError(422, f"seats: {unknown[0]!r} is not a player here ({', '.join(game.players)})")
        seats: dict[str, dict[str, str]] = {}
        for p in game.players:
            kind = seats_in.get(p, "human")
            if kind == "human":
                seats[p] = {"token": secrets.token_urlsafe(18)}
            else:
                try:
                    seats[p] = {"agent": check_agent_spec(str(kind))}
                except AgentSpecError as err:
                    raise ServeError(422, f"seats: {p}: {err}") from None
        game_id = secrets.token_urlsafe(9)
        row = GameRow(game_id, name, ruleset.hash, len(game.players), seed, options, seats)
        self.store.create(row)
        with self._lock(game_id):
            self._games[game_id] = game
            self._bots(row, game)
        return {"id": game_id, "watch": f"/play/{game_id}",
                "seats": {p: {"token": s["token"], "url": f"/play/{game_id}?token={s['token']}"}
                          for p, s in seats.items() if "token" in s}}

    # ------------------------------------------------------------------ reading a game
    def state(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The game as the seat with `token` may see it (no token: a spectator)."""
        with self._lock(game_id):
            row, game = self._load(game_id)
            return self._state(row, game, self._seat(row, token))

    def trace(self, game_id: str, token: str | None) -> list[dict[str, Any]]:
        """The steps so far, each as the seat may see it."""
        with self._lock(game_id):
            row, game = self._load(game_id)
            seen = observer(game.prog.model, self._seat(row, token) or "")
            return [seen.step(s) for s in game.trace or []]

    # ------------------------------------------------------------------ moving
    def move(self, game_id: str, body: Any) -> dict[str, Any]:
        """Play `{"token", "move", "step"?}` for the seat: 403 without a seat, 409 when it is
        not its decision or `step` is not the game's, 422 for an illegal move (with the reason
        as the seat may see it). The move is stored before this returns."""
        if not isinstance(body, dict):
            raise ServeError(400, "expected a JSON object")
        token, text, step = body.get("token"), body.get("move"), body.get("step")
        if not isinstance(token, str) or not token:
            raise ServeError(403, "a move needs the seat's token")
        with self._lock(game_id):
            row, game = self._load(game_id)
            player = self._seat(row, token)
            if player is None:
                raise ServeError(403, "no seat of this game has that token")
            if step is not None and step != row.step:
                raise ServeError(409, f"the game is at step {row.step}, not {step}: reload it")
            if game.is_over:
                raise ServeError(409, "the game is over")
            if player not in self._to_move(game):
                raise ServeError(409, f"it is not {player}'s decision now")
            if not isinstance(text, str) or not text.strip() or len(text) > 2000:
                raise ServeError(422, "move: the text of one of your legal moves")
            seen = observer(game.prog.model, player)
            try:
                self._apply(game, text, player)
            except IllegalAction:
                ex = seen.explanation(game.explain(text, player=player), game)
                raise ServeError(422, f"{text}: {ex.reason}") from None
            except EngineError as err:  # a rule failed: the game is rebuilt from what was stored
                self._games.pop(game_id, None)
                raise ServeError(422, seen.message(err.message, game)) from None
            try:
                self.store.add_move(game_id, row.step, player, text)
            except StaleMove:  # another server wrote first: forget what this one played
                self._games.pop(game_id, None)
                raise ServeError(409, "the game moved on: reload it") from None
            row.moves.append([player, text])
            self._bots(row, game)
            return self._state(row, game, player)

    # ------------------------------------------------------------------ inside
    def _lock(self, game_id: str) -> threading.Lock:
        with self._guard:
            lock = self._locks.get(game_id)
            if lock is None:
                lock = self._locks[game_id] = threading.Lock()
            return lock

    def _load(self, game_id: str) -> tuple[GameRow, Any]:
        row = self.store.get(game_id) if isinstance(game_id, str) and len(game_id) < 100 else None
        if row is None:
            raise ServeError(404, "no such game")
        game = self._games.get(game_id)
        if game is None or game.step_no != row.step:  # after a restart: replay what was stored
            ruleset = self.rulesets.get(row.ruleset)
            if ruleset is None or ruleset.hash != row.ruleset_hash:
                raise ServeError(410, f"the game's ruleset {row.ruleset!r} is no longer served as it was")
            game = ruleset.new_game(players=row.players, seed=row.seed, options=row.options or None, record=True)
            for player, text in row.moves:
                self._apply(game, text, player)
            self._games[game_id] = game
        return row, game

    @staticmethod
    def _apply(game: Any, text: str, player: str) -> None:
        if game.window is not None and game.pending is not None:
            game.apply(text, player=player)
        else:
            game.apply(text)

    @staticmethod
    def _to_move(game: Any) -> list[str]:
        if game.is_over or game.pending is None:
            return []
        if game.pending.get("kind") == "simultaneous":
            return list(game.pending["players"])
        p = game.decision_player()
        return [p] if p is not None else []

    def _seat(self, row: GameRow, token: str | None) -> str | None:
        """The player whose seat holds `token` (compared in constant time), None for none."""
        if not token:
            return None
        found = None
        for player, seat in row.seats.items():
            mine = seat.get("token")
            if mine is not None and hmac.compare_digest(mine.encode(), token.encode()):
                found = player
        if found is None:
            raise ServeError(403, "no seat of this game has that token")
        return found

    def _bots(self, row: GameRow, game: Any) -> None:
        """Let the server's agents move while one of them is to decide; each move is stored."""
        while not game.is_over:
            bots = [p for p in self._to_move(game) if "agent" in row.seats[p]]
            if not bots:
                return
            player = bots[0]
            if game.window is not None and game.pending is not None:
                move = _window_move(game, player, row)
            else:
                move = make_agent(row.seats[player]["agent"], derived_seed(row.seed, row.step, player))(game)
            text = str(move)
            self._apply(game, text, player)
            self.store.add_move(row.id, row.step, player, text)
            row.moves.append([player, text])

    def _state(self, row: GameRow, game: Any, player: str | None) -> dict[str, Any]:
        seen = observer(game.prog.model, player or "")
        return {"id": row.id, "ruleset": row.ruleset, "players": list(game.players), "you": player,
                "to_move": self._to_move(game), "legal": (seen.legal(game) or []) if player else [],
                "view": seen.view(game), "steps": row.step, "result": game.result,
                "url": f"/play/{row.id}" + (f"?token={row.seats[player]['token']}" if player else "")}


def _window_move(game: Any, player: str, row: GameRow) -> Any:
    """A bot's part of a simultaneous decision: uniformly from its own moves, seeded (every
    agent plays a simultaneous decision this way for now; outside one, the agent decides)."""
    moves = game.legal_actions(player=player)
    return random.Random(derived_seed(row.seed, row.step, player, "window")).choice(moves)
