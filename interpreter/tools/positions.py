"""What makes two positions the same for the rest of a game: the key exact analysis
(interpreter/tools/analysis.py) memoises positions by, before symmetry (symmetry.py)."""

from __future__ import annotations

import json
from typing import Any

from ..engine.values import jsonable


def key_parts(game: Any, history_only: frozenset[str] = frozenset()) -> list:
    """A position's key before it is written out: the state variables but `history_only` (as
    JSON), whose turn, the running blocks and decision, a chance event half-way, and where a
    move that can still be taken back goes back to."""
    node = game.chance_node
    parts = [jsonable(live_state(game, history_only)), game.current, game.phase, game.round,
             [[f[0], f[1], jsonable(f[2]), f[3]] for f in game.frames], jsonable(game.pending),
             jsonable(game.result), list(game.trig_last), jsonable(game.scripted), game.abandoned,
             None if node is None else node.to_json()]
    if game.abandon is not None:  # a move that can still be taken back: where it goes back to
        parts.append(position_key(game.abandon[0], history_only))
    return parts


def live_state(game: Any, history_only: frozenset[str]) -> dict:
    """The state variables that can change what happens next."""
    return game.vars if not history_only else {k: v for k, v in game.vars.items() if k not in history_only}


def position_key(game: Any, history_only: frozenset[str] = frozenset()) -> str:
    """What makes two positions the same for the rest of the game: the state, whose turn, the
    running blocks and decision, and a chance event half-way; not the history, nor the
    variables that only record it (`history_only`, liveness.history_only_vars)."""
    return json.dumps(key_parts(game, history_only), sort_keys=True,
                      separators=(",", ":"), default=str)
