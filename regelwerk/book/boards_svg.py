"""A small picture of a position's boards for the book, as the viewer lays them out: a grid's
squares in rows and columns, a graph's nodes where the viewer puts them with their edges, and
on them the values of the board's layers (the viewer's `describe_boards`): a player's piece
as a disc in the player's colour, another value as a short label. Plain SVG, no script."""

from __future__ import annotations

from html import escape
from typing import Any

from ..interpreter.engine.values import jsonable
from ..viewer.boards import describe_boards, player_colours

CELL = 22  # a grid square, in pixels
GRAPH_W, GRAPH_H, NODE_R = 300, 210, 11


def _layer_values(game: Any, layer: dict) -> dict[str, Any]:
    source = game.vars if layer.get("source") == "state" else game.consts
    value = jsonable(source.get(layer["name"]))
    return value if isinstance(value, dict) else {}


def _label(value: Any) -> str:
    if value is None or value is False or value == 0 or value == [] or value == {}:
        return ""
    if value is True:
        return "•"
    if isinstance(value, list):
        return str(len(value))
    return str(value)[:3]


# a named value (a terrain, a kind of tile) as a pale fill, the same colour for the same name
_PALE = ["#e8f0d8", "#f3e3c3", "#dbe7f3", "#efd9d9", "#e3dcef", "#d9efe9", "#f0f0d0", "#e6e6e6", "#f5dcef", "#dcefd9"]


def _pale(name: str) -> str:
    return _PALE[sum(map(ord, name)) % len(_PALE)]


def _marks(game: Any, board: dict, colours: dict[str, str]) -> dict[str, tuple[str | None, str, str | None]]:
    """Square -> (a player's colour or None, a label, a pale fill or None), from the board's
    layers, later layers on top: a player as a disc, a name as a fill, a number as a label."""
    out: dict[str, tuple[str | None, str, str | None]] = {}
    for layer in board.get("layers", []):
        for square, value in _layer_values(game, layer).items():
            colour, label, fill = out.get(square, (None, "", None))
            if isinstance(value, str) and value in colours:
                colour = colours[value]
            elif isinstance(value, str):
                fill = _pale(value)
            else:
                label = _label(value) or label
            out[square] = (colour, label, fill)
    return out


def _grid(board: dict, marks: dict[str, tuple[str | None, str, str | None]]) -> str:
    w, h = board["width"] * CELL, board["height"] * CELL
    parts = [f"<svg class=board viewBox='0 0 {w + 2} {h + 2}' width='{w + 2}' height='{h + 2}'>"]
    for name, x, y in board["squares"]:
        px, py = 1 + x * CELL, 1 + y * CELL
        colour, label, fill = marks.get(name, (None, "", None))
        style = f" style='fill:{fill}'" if fill else ""
        parts.append(f"<rect x='{px}' y='{py}' width='{CELL}' height='{CELL}' class=sq{style}>"
                     f"<title>{escape(name)}</title></rect>")
        if colour:
            parts.append(f"<circle cx='{px + CELL / 2}' cy='{py + CELL / 2}' r='{CELL / 2 - 3}' fill='{colour}'/>")
        if label:
            parts.append(f"<text x='{px + CELL / 2}' y='{py + CELL / 2 + 4}'>{escape(label)}</text>")
    parts.append("</svg>")
    return "".join(parts)


def _graph(board: dict, marks: dict[str, tuple[str | None, str, str | None]]) -> str:
    pos = {n: (16 + x * (GRAPH_W - 32), 16 + y * (GRAPH_H - 32)) for n, x, y in board["nodes"]}
    parts = [f"<svg class=board viewBox='0 0 {GRAPH_W} {GRAPH_H}' width='{GRAPH_W}' height='{GRAPH_H}'>"]
    for a, b in board["edges"]:
        (x1, y1), (x2, y2) = pos[a], pos[b]
        parts.append(f"<line x1='{x1:.0f}' y1='{y1:.0f}' x2='{x2:.0f}' y2='{y2:.0f}' class=edge/>")
    for name, (x, y) in pos.items():
        colour, label, pale = marks.get(name, (None, "", None))
        fill = colour or pale or "#fff"
        parts.append(f"<circle cx='{x:.0f}' cy='{y:.0f}' r='{NODE_R}' fill='{fill}' class=node>"
                     f"<title>{escape(name)}</title></circle>")
        if label:
            parts.append(f"<text x='{x:.0f}' y='{y + 4:.0f}'>{escape(label)}</text>")
    parts.append("</svg>")
    return "".join(parts)


def boards_svg(game: Any) -> str:
    """The position's boards as inline SVG (empty when the ruleset has no board)."""
    colours = player_colours(list(game.players))
    out = []
    for board in describe_boards(game.prog.model):
        marks = _marks(game, board, colours)
        if board.get("kind") == "grid":
            out.append(_grid(board, marks))
        elif board.get("kind") == "graph":
            out.append(_graph(board, marks))
    return "".join(out)
