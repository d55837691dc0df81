"""What the page draws, described from the ruleset's declarations: each board with its
squares or nodes and its layers (from `display`), and a side panel for every other state
variable. The page itself only follows this description.
"""

from __future__ import annotations

from typing import Any

from ..dsl import ast as A
from ..dsl.check import Model, type_str
from ..interpreter.stdlib.grid import square_name
from ..interpreter.values import jsonable
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


def _strip_opt(t: str) -> str:
    return t[4:] if t.startswith("opt:") else t


def _value_kind(t: str) -> str:
    """How a square's value is drawn: a player's piece, a number, a mark, items or a label."""
    v = _strip_opt(t)
    if v == "Player":
        return "player"
    if v == "int":
        return "count"
    if v == "bool":
        return "flag"
    if v.startswith(("list:", "set:")):
        return "items"
    return "value"


def _layer_type(model: Model, name: str) -> tuple[str | None, str]:
    """A layer's type string and where its value lives ('state' or 'const')."""
    if name in model.vars:
        return type_str(model.vars[name].type), "state"
    if name in model.data:
        return type_str(model.data[name].type), "const"
    return model.const_types.get(name), "const"


def describe_layer(model: Model, board: str, name: str) -> dict[str, Any] | None:
    """A layer's shape over `board`: cells (square -> value), pieces (piece -> square),
    marks (a set of squares), or per player (player -> square -> value)."""
    t, source = _layer_type(model, name)
    if t is None:
        return None
    base = {"name": name, "source": source}
    if t.startswith(f"map:{board}->"):
        return {**base, "shape": "cells", "values": _value_kind(t.split("->", 1)[1])}
    if t.startswith("map:Player->map:" + board + "->"):
        return {**base, "shape": "per_player", "values": _value_kind(t.split("->", 2)[2])}
    if t.startswith("map:") and _strip_opt(t.split("->", 1)[1]) == board:
        return {**base, "shape": "pieces", "values": "value"}
    if t in (f"set:{board}", f"list:{board}"):
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
        names = [n for n, d in model.vars.items() if type_str(d.type).startswith(f"map:{board}->")
                 and not _strip_opt(type_str(d.type).split("->", 1)[1]).startswith(("map:", "list:", "set:"))]
    layers = [x for x in (describe_layer(model, board, n) for n in names) if x is not None]
    shown = {x["name"] for x in layers}
    for n, d in model.vars.items():
        if n not in shown and type_str(d.type).startswith(f"map:Player->map:{board}->"):
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
        t = type_str(d.type)
        if t.startswith("map:Player->"):
            panel = "players"
        elif t.startswith(("list:", "set:")):
            panel = "collections"
        elif t.startswith("map:"):
            panel = "maps"
        else:
            panel = "values"
        out.append({"name": n, "panel": panel, "type": _pretty(t), "hidden": d.hidden})
    return out


def _pretty(t: str) -> str:
    """A type as rules write it: `list Card`, `Player -> int`, `Tile?`."""
    if t.startswith("opt:"):
        return _pretty(t[4:]) + "?"
    if t.startswith(("list:", "set:")):
        kind, rest = t.split(":", 1)
        return f"{kind} {_pretty(rest)}"
    if t.startswith("map:"):
        k, v = t[4:].split("->", 1)
        return f"{_pretty(k)} -> {_pretty(v)}"
    return t
