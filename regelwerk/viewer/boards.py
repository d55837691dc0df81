"""What the page draws, described from the ruleset's declarations: each board with its
squares or nodes and its layers (from `display`), and a side panel for every other state
variable. The page itself only follows this description.
"""

from __future__ import annotations

from typing import Any

from ..dsl import ast as A
from ..dsl.check import Model
from ..dsl.types import BOOL, INT, PLAYER, Elem, ListOf, MapOf, SetOf, Type
from ..interpreter.engine.values import jsonable
from ..interpreter.stdlib.grid import square_name
from .layout import graph_positions, layout

# Okabe-Ito: told apart with every common kind of colour blindness. A player named after a
# colour gets the nearest of these; the others are given the rest in seat order.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#F0E442", "#000000"]
_NAMED = {"blue": "#0072B2", "orange": "#E69F00", "green": "#009E73", "purple": "#CC79A7",
          "pink": "#CC79A7", "red": "#D55E00", "yellow": "#F0E442", "black": "#000000",
          "white": "#FFFFFF", "sky": "#56B4E9", "cyan": "#56B4E9"}


def player_colours(players: list[str]) -> dict[str, str]:
    out = {p: _NAMED[p.lower()] for p in players if p.lower() in _NAMED}
    spare = [c for c in PALETTE if c not in out.values()]
    for p in players:
        if p not in out:
            out[p] = spare.pop(0) if spare else PALETTE[len(out) % len(PALETTE)]
    return out


def _value_kind(t: Type) -> str:
    """How a square's value is drawn: a player's piece, a number, a mark, items or a label."""
    v = t.base
    if v == PLAYER:
        return "player"
    if v == INT:
        return "count"
    if v == BOOL:
        return "flag"
    if isinstance(v, (ListOf, SetOf)):
        return "items"
    return "value"


def _layer_type(model: Model, name: str) -> tuple[Type | None, str]:
    """A layer's type and where its value lives ('state' or 'const')."""
    if name in model.vars:
        return model.var_types[name], "state"
    if name in model.data:
        return model.data_types[name], "const"
    return model.const_types.get(name), "const"


def _map_over(t: Type, key: str) -> MapOf | None:
    t = t.base
    return t if isinstance(t, MapOf) and t.key == Elem(key) else None


def describe_layer(model: Model, board: str, name: str) -> dict[str, Any] | None:
    """A layer's shape over `board`: cells (square -> value), pieces (piece -> square),
    marks (a set of squares), or per player (player -> square -> value)."""
    t, source = _layer_type(model, name)
    if t is None:
        return None
    base = {"name": name, "source": source}
    square = Elem(board)
    cells = _map_over(t, board)
    if cells is not None:
        return {**base, "shape": "cells", "values": _value_kind(cells.val)}
    per_player = _map_over(t, "Player")
    if per_player is not None and _map_over(per_player.val, board) is not None:
        return {**base, "shape": "per_player", "values": _value_kind(per_player.val.base.val)}
    if isinstance(t.base, MapOf) and t.base.val.base == square:
        return {**base, "shape": "pieces", "values": "value"}
    if t.base in (SetOf(square), ListOf(square)):
        return {**base, "shape": "marks", "values": "flag"}
    return None


def _layers_of(model: Model, board: str) -> list[dict[str, Any]]:
    """The `display` layers of `board`; without a display, every state map over its squares.
    State maps from players to the board's squares (Root's warriors) are always added, since
    a `display` line cannot name them."""
    declared = [d for d in model.displays if d.board == board]
    if declared:
        names = [n for d in declared for n in d.layers]
    else:
        names = [n for n, t in model.var_types.items()
                 if (m := _map_over(t, board)) is not None and not m.val.base.is_collection]
    layers = [x for x in (describe_layer(model, board, n) for n in names) if x is not None]
    shown = {x["name"] for x in layers}
    for n, t in model.var_types.items():
        per_player = _map_over(t, "Player")
        if n not in shown and per_player is not None and _map_over(per_player.val, board) is not None:
            extra = describe_layer(model, board, n)
            if extra is not None:
                layers.append({**extra, "extra": True})
    return layers


def describe_boards(model: Model) -> list[dict[str, Any]]:
    """Every board that has something to draw, in declaration order."""
    out = []
    for name, decl in model.boards.items():
        layers = _layers_of(model, name)
        if not layers:
            continue
        if isinstance(decl, A.GridDecl):
            squares = [[square_name(x, y), x, decl.height - 1 - y]
                       for y in range(decl.height) for x in range(decl.width)]
            out.append({"name": name, "kind": "grid", "width": decl.width, "height": decl.height,
                        "squares": squares, "layers": layers})
        else:
            nodes, edges = model.graphs[name]
            pos = layout(nodes, edges, graph_positions(model, name))
            out.append({"name": name, "kind": "graph", "nodes": [[n, *pos[n]] for n in nodes],
                        "edges": [list(e) for e in edges], "layers": layers})
    return out


def layer_constants(boards: list[dict], consts: dict[str, Any]) -> dict[str, Any]:
    """The constant layers' values (terrain), which never change and so are not in the state."""
    return {x["name"]: jsonable(consts[x["name"]]) for b in boards for x in b["layers"]
            if x["source"] == "const" and x["name"] in consts}


def describe_panels(model: Model, boards: list[dict]) -> list[dict[str, Any]]:
    """Every state variable not drawn on a board, with the panel it belongs in: per player
    (hands, scores, tracks), a single value, a collection (a deck, a pile) or another map."""
    on_board = {x["name"] for b in boards for x in b["layers"] if x["source"] == "state"}
    out = []
    for n, d in model.vars.items():
        if n in on_board:
            continue
        t = model.var_types[n].base
        if _map_over(t, "Player") is not None:
            panel = "players"
        elif isinstance(t, (ListOf, SetOf)):
            panel = "collections"
        elif isinstance(t, MapOf):
            panel = "maps"
        else:
            panel = "values"
        out.append({"name": n, "panel": panel, "type": str(model.var_types[n]), "hidden": d.hidden})
    return out


