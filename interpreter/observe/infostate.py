"""Information states and observations: what one player knows, as stable strings and numbers.

A player's *observation* is the position as `view(player)` shows it (interpreter/observe/visibility.py
decides what that is: the same rules as `trace show --player`), plus the chance event or move
in progress. Their *information state* adds everything they observed before: after each move
is done, every player's record grows by the move as they may see it (another player's secret
arguments as `?`) and the position as they may see it then, folded into a digest. Two
histories a player cannot tell apart give the same string; histories they can tell apart give
different ones (barring a collision of SHA-256). Kept only by games with a history
(`new_game(history=True)` or explicit chance; interpreter/engine/explicit.py).

`observation_tensor` is the same observation as a flat list of numbers whose length depends
only on the ruleset, the number of players and the options (interpreter/observe/encode.py).
"""

from __future__ import annotations

import hashlib
from typing import Any

from ..engine.errors import EngineError
from ..engine.moves import Action
from ..engine.values import value_text
from .viewtext import view_json, view_text
from .visibility import observer

__all__ = ["information_state", "move_as_seen", "observation", "observe", "settle", "view_json"]

EMPTY = "0" * 32  # the record of a player who has observed nothing yet


def move_as_seen(game: Any, move: Action | None, pending: dict | None, player: str) -> str:
    """A move as `player` saw it made (at the decision `pending`): whole if it is theirs, else
    with the arguments that come from secret state written `?`."""
    if move is None or pending is None:
        return "start"
    by = pending["player"]
    if by == player or not move.args:  # theirs, or nothing in it to hide
        return f"{by}: {move}"
    if pending.get("simultaneous"):  # a secret commitment: that it was made, nothing more
        return f"{by}: {move.name}" + ("(?)" if move.args else "")
    secrets = observer(game.prog.model, player).secrets
    if pending["kind"] == "choose":
        secret = [secrets.choice_is_secret(pending["var"])] * len(move.args)
    else:
        action = game.prog.model.actions.get(move.name)
        names = [p.name for p in action.params] if action is not None else []
        secret = [secrets.param_is_secret(move.name, n) for n in names]
    shown = ["?" if hide else value_text(a) for a, hide in zip(move.args, secret, strict=False)]
    return f"{by}: {move.name}(" + ", ".join(shown) + ")"


def settle(game: Any) -> None:
    """Note the observation of the last move, if it is not noted yet. A game notes it only
    when it is needed: by `information_state`, by a save, or when the game is copied (every
    move starts with a copy: interpreter/engine/explicit.py), so the position is still the one
    right after that move. The position a search only looks at (a finished game) never pays."""
    waiting = game._unobserved
    if waiting is not None:
        game._unobserved = None
        observe(game, *waiting)


def observe(game: Any, move: Action | None, pending: dict | None) -> None:
    """A move (or the start) is done: add what each player saw to their record. A player's
    view is the part all see alike (written once) and their own part: the two together are
    the view, so the record tells apart exactly the histories the views do."""
    if game.seen is None:
        return
    texts = _texts(game)
    shared = texts[0].shared(game)
    # the move as each player saw it: the same text for all when nothing in it can be hidden
    alike = "start" if move is None or pending is None else f"{pending['player']}: {move}" if not move.args else None
    out = []
    for p, text, before in zip(game.players, texts, game.seen, strict=True):
        seen = f"{before}\n{alike or move_as_seen(game, move, pending, p)}\n{shared}\n{text.own(game)}"
        out.append(hashlib.sha256(seen.encode("utf-8")).hexdigest()[:32])
    game.seen = tuple(out)


def _texts(game: Any) -> tuple:
    """Each player's view text writer, in seat order (looked up once per program and players)."""
    kept = game.prog.__dict__.setdefault("_view_texts", {})
    found = kept.get(game.players)
    if found is None:
        model = game.prog.model
        found = kept[game.players] = tuple(view_text(observer(model, p)) for p in game.players)
    return found


def observation(game: Any, player: str) -> str:
    """What `player` observes now: the position as they may see it, and the chance event the
    game waits for, if any."""
    if player not in game.players:
        raise EngineError(f"unknown player '{player}'; players: {', '.join(game.players)}")
    return _now(game, game.players.index(player), player)


def _now(game: Any, i: int, player: str) -> str:
    """`observation` of the player in seat `i`."""
    now = _texts(game)[i].view(game)
    node = game.chance_node
    if node is None:
        return now
    return f"{now}\nchance: {node.kind} {node.what} (in {move_as_seen(game, node.move, node.pending, player)})"


def information_state(game: Any, player: str) -> str:
    """Everything `player` has observed, as one stable string: the digest of their record so
    far, then their observation now."""
    if game.seen is None:
        raise EngineError("information states need a game that keeps its history: "
                          "new_game(history=True) or new_game(chance=\"explicit\")")
    if game._unobserved is not None:
        settle(game)
    if player not in game.players:
        raise EngineError(f"unknown player '{player}'; players: {', '.join(game.players)}")
    i = game.players.index(player)
    return f"{game.seen[i]}\n{_now(game, i, player)}"
