"""One served game on top of the engine's public API: seats, tokens, moves, bots, views.

A `Table` holds a live `Game` (traced, so each seat can read its filtered trace) and the seats.
Every read and write of a table holds its lock, so two moves for one game are serialised;
the server calls these methods from worker threads. What a seat is shown comes only from
the visibility module (`observer(model, P)`), for a spectator from an observer that is no
player, so it sees public state only. A move is committed to the store before the caller
gets an answer; if the store fails, the table is dropped and rebuilt from the store on the
next request, so memory never runs ahead of the database.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
import time
from typing import Any

from ..api import Ruleset
from ..interpreter.engine.errors import EngineError, IllegalAction
from ..interpreter.engine.moves import parse_action
from ..interpreter.observe.visibility import observer
from ..interpreter.tools.agents import AgentSpecError, check_agent_spec, derived_seed, make_agent
from ..interpreter.tools.trace import trace_lines
from .store import GameStore, Move, Seat, StoredGame

SPECTATOR = ""  # the observer name of a spectator: never a player's name (names are identifiers)
MAX_MCTS = 20_000  # iterations a bot seat may be given: one move of a bot must stay short


class ApiError(Exception):
    """A refusal with its HTTP status and a message the asking seat may see."""

    def __init__(self, status: int, message: str, **extra: Any):
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


def new_token() -> tuple[str, str]:
    """A seat's token and the SHA-256 the store keeps of it (the token itself is never stored)."""
    token = secrets.token_urlsafe(24)
    return token, token_hash(token)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def seat_spec(value: object, player: str) -> str | None:
    """A seat's value in a create request: "human" -> None, else the canonical agent spec."""
    if value == "human":
        return None
    if not isinstance(value, str):
        raise ApiError(400, f"seats.{player}: write \"human\" or an agent such as \"random\" or \"mcts:200\"")
    try:
        spec = check_agent_spec(value)
    except AgentSpecError as err:
        raise ApiError(422, f"seats.{player}: {err}") from None
    if spec == "mcts-cheat" or spec.startswith("mcts-cheat:"):
        raise ApiError(422, f"seats.{player}: mcts-cheat looks at hidden cards; a served game offers "
                       "random, first and mcts:N")
    if spec.startswith("mcts:") and int(spec[5:]) > MAX_MCTS:
        raise ApiError(422, f"seats.{player}: at most mcts:{MAX_MCTS} on a server")
    return spec


class Table:
    """A live game and its seats."""

    def __init__(self, stored: StoredGame, rules: Ruleset, store: GameStore):
        self.stored = stored
        self.rules = rules
        self.store = store
        self.lock = threading.Lock()
        self.broken = False  # the store failed under this table: rebuild it from the store
        self.used = time.monotonic()  # the last request for it (app.Server lets idle tables go)
        game = rules.new_game(players=stored.players, seed=stored.seed, options=stored.options or None,
                              record=True)
        for i, m in enumerate(stored.moves):
            try:
                game.apply(m.text, player=m.player)
            except EngineError as err:
                raise EngineError(f"game {stored.id}: stored move {i} ({m.text}) no longer plays "
                                  f"(were the rules changed?): {err.message}") from None
        self.game = game

    # ------------------------------------------------------------------ seats
    @property
    def id(self) -> str:
        return self.stored.id

    def seat_of(self, token: object) -> str | None:
        """The player whose token this is, compared in constant time; None if none is."""
        if not isinstance(token, str) or not token:
            return None
        digest = token_hash(token)
        found = None
        for player, seat in self.stored.seats.items():
            if seat.token_hash is not None and hmac.compare_digest(digest, seat.token_hash):
                found = player
        return found

    def deciders(self) -> list[str]:
        """Who decides now: several players in a simultaneous window, none when it is over."""
        g = self.game
        if g.is_over or g.pending is None:
            return []
        if g.pending.get("kind") == "simultaneous":
            return list(g.pending["players"])
        who = g.decision_player()
        return [who] if who else []

    # ------------------------------------------------------------------ what a seat sees
    def state(self, player: str | None, url: str) -> dict:
        """`GET /api/games/ID` for one seat (or a spectator), from the visibility module only."""
        with self.lock:
            return self._state(player, url)

    def _state(self, player: str | None, url: str) -> dict:
        g = self.game
        seen = observer(self.rules.model, player or SPECTATOR)
        legal = (seen.legal(g) or []) if player is not None and player in self.deciders() else []
        return {"id": self.id, "ruleset": self.stored.ruleset, "title": self.rules.title,
                "players": list(g.players), "you": player, "to_move": self.deciders(), "legal": legal,
                "view": seen.view(g), "steps": len(g.trace or []), "result": g.result, "url": url,
                "seats": {p: ("human" if s.agent is None else s.agent) for p, s in self.stored.seats.items()}}

    def trace(self, player: str | None) -> str:
        """The trace as JSON Lines, filtered for the seat (the seed never shows)."""
        with self.lock:
            lines = [json.loads(line) for line in trace_lines(self.game)]
        seen = observer(self.rules.model, player or SPECTATOR)
        return "".join(json.dumps(s, ensure_ascii=False, sort_keys=True) + "\n" for s in seen.trace(lines))

    # ------------------------------------------------------------------ moves
    def play(self, player: str, move: object, step: object, url: str) -> dict:
        """A seat's move: checked, applied, committed to the store, then the seat's new state."""
        if not isinstance(move, str) or not move.strip():
            raise ApiError(400, "\"move\" must be the text of a move, such as \"place(b2)\"")
        if step is not None and (type(step) is not int):
            raise ApiError(400, "\"step\" must be a whole number (the state's \"steps\")")
        with self.lock:
            g = self.game
            seen = observer(self.rules.model, player)
            if self.broken:
                raise ApiError(503, "this game is being restored from the database; try again")
            if g.is_over:
                raise ApiError(409, "the game is over", state=self._state(player, url))
            if player not in self.deciders():
                raise ApiError(409, "it is not your decision now (" + (" and ".join(self.deciders()) or "nobody")
                               + " decides)", state=self._state(player, url))
            if step is not None and step != len(g.trace or []):
                raise ApiError(409, f"stale: the game is at step {len(g.trace or [])}, not {step}",
                               state=self._state(player, url))
            try:
                text = str(parse_action(move))
            except (IllegalAction, EngineError) as err:
                raise ApiError(422, seen.message(str(err), g)) from None
            try:
                g.apply(text, player=player)
            except IllegalAction as err:
                raise ApiError(422, *self._refusal(text, player, err)) from None
            except EngineError as err:  # a rule failed: the game may be half-moved; rebuild it
                self.broken = True
                raise ApiError(500, "the rules failed on this move: " + seen.message(str(err), g)) from None
            self._commit(Move(player, text))
            return self._state(player, url)

    def _refusal(self, text: str, player: str, err: IllegalAction) -> tuple[str]:
        """The reason an illegal move is refused, as the seat may see it."""
        g = self.game
        seen = observer(self.rules.model, player)
        try:
            ex = seen.explanation(g.explain(text, player=player), g)
            return (ex.reason or seen.message(str(err), g),)
        except EngineError:
            return (seen.message(str(err), g),)

    def _commit(self, move: Move) -> None:
        """Store the move just applied; on failure mark the table for a rebuild and refuse."""
        index = len(self.stored.moves)
        try:
            self.store.append(self.id, index, move, self.game.to_json())
        except Exception as err:
            self.broken = True
            raise ApiError(503, f"the move could not be stored ({type(err).__name__}); it did not count") from None
        self.stored.moves.append(move)

    def bot_step(self) -> bool:
        """One move of a bot whose decision it is; False when no bot is to move. A bot's
        generator is seeded by the game's seed, its seat and the move's index, so a game
        continued after a restart goes on exactly as it would have."""
        with self.lock:
            g = self.game
            if self.broken or g.is_over:
                return False
            who = g.decision_player()
            seat = self.stored.seats.get(who) if who else None
            if seat is None or seat.agent is None:
                return False
            agent = make_agent(seat.agent, derived_seed(self.stored.seed, who, len(self.stored.moves)))
            text = str(agent(g))
            try:
                g.apply(text, player=who)
            except EngineError:
                self.broken = True
                return False
            self._commit(Move(who, text))
            return True


def create_game(store: GameStore, rules: Ruleset, name: str, body: dict, game_id: str) -> tuple[Table, dict]:
    """A new game from a create request; returns the table and each human seat's token."""
    decl = rules.model.players
    players = body.get("players", decl.min_count)
    if type(players) is not int:
        raise ApiError(400, "\"players\" must be a whole number")
    if not decl.min_count <= players <= decl.max_count:
        raise ApiError(422, f"{rules.title} is for {decl.min_count}..{decl.max_count} players, not {players}")
    seed = body.get("seed")
    if seed is None:
        seed = secrets.randbits(63)  # nobody may know it: with the seed every shuffle can be replayed
    if type(seed) is not int or not 0 <= seed < 2**63:
        raise ApiError(400, "\"seed\" must be a whole number from 0 to 2**63 - 1")
    options = body.get("options") or {}
    if not isinstance(options, dict):
        raise ApiError(400, "\"options\" must be an object of option names and values")
    seats_in = body.get("seats", {})
    if not isinstance(seats_in, dict):
        raise ApiError(400, "\"seats\" must be an object: {PLAYER: \"human\" | AGENT}")
    names = list(decl.names[:players])
    unknown = [p for p in seats_in if p not in names]
    if unknown:
        raise ApiError(422, f"seats: {', '.join(map(str, unknown))} is not a player of this game "
                       f"({', '.join(names)})")
    seats: dict[str, Seat] = {}
    tokens: dict[str, str] = {}
    for p in names:
        spec = seat_spec(seats_in.get(p, "human"), p)
        if spec is None:
            tokens[p], digest = new_token()
            seats[p] = Seat(None, digest)
        else:
            seats[p] = Seat(spec, None)
    stored = StoredGame(game_id, name, players, seed, options, seats)
    try:
        table = Table(stored, rules, store)
    except EngineError as err:
        raise ApiError(422, str(err)) from None
    store.create(stored, table.game.to_json())
    return table, tokens
