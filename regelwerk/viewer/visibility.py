"""What one player's page may hold: the viewer's side of `--player`.

The decisions are the engine's (interpreter/observe/visibility.py: one module for every output); this
file only applies them to the page's data: the start position, each step, the pending
decision and the legal moves, and it leaves the seed out (with the seed and the rules every
shuffle can be replayed).
"""

from __future__ import annotations

from ..dsl.check import Model
from ..interpreter.engine.game import Game
from ..interpreter.observe.visibility import HIDDEN, observer

__all__ = ["HIDDEN", "Secrets", "for_player"]


def for_player(data: dict, player: str, game: Game) -> dict:
    """The page data as `player` may see it. `game` is the position the page starts from
    (the prepared start of a trace, or a loaded save)."""
    seen = observer(game.ruleset.model if game.ruleset is not None else game.prog.model, player)
    out = dict(data)
    out["viewer"] = player
    out["seed"] = None
    out["start"] = seen.vars(game.vars)
    out["steps"] = [seen.step(step) for step in data.get("steps", [])]
    if data.get("legal") is not None:
        out["legal"] = seen.legal(game)
        pending = seen.pending(game)
        if out["legal"] is None:  # another player's options can show their hidden cards
            out["pending"] = {"player": pending["player"], "kind": pending["kind"]} if pending else None
    return out


class Secrets:
    """Kept for callers of the viewer's earlier filter: one step as a player may see it."""

    def __init__(self, model: Model):
        self.model = model

    def step(self, step: dict, player: str) -> dict:
        return observer(self.model, player).step(step)
