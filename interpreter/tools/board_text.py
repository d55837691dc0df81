"""Draw grid boards as text for the terminal (`regelwerk play`): generic, from the state.

Every state map from a grid's squares to a value is drawn as a grid of one-character
symbols, north at the top, with a legend; that covers the classic games and any ruleset
that keeps its pieces in such maps.
"""

from __future__ import annotations

from typing import Any

from ...dsl.types import Elem, MapOf


def _symbols(values: list[Any], used: set[str] | None = None, upper: bool = False) -> dict[Any, str]:
    """A distinct one-character symbol per value: its first free letter (capitals for pieces
    drawn over a background), then digits and marks."""
    out: dict[Any, str] = {}
    used = set() if used is None else used
    for v in values:
        if v is None or v is False or v == 0 or v in out:
            continue
        text = str(v)
        letters = text.upper() + text.lower() if upper else text.lower() + text.upper()
        pick = next((ch for ch in letters + "123456789*+@&%$" if ch not in used and ch.strip()), "?")
        out[v] = pick
        used.add(pick)
    return out


def _layer_value(game: Any, name: str, squares: set) -> dict:
    """The layer as square -> value; a map from pieces to squares is turned around."""
    m = game.vars[name] if name in game.vars else game.consts[name]
    if isinstance(m, (frozenset, list)):  # a set of squares: mark each with the layer's name
        return {sq: name for sq in m}
    if m and not (set(m) & squares) and any(v in squares for v in m.values()):
        return {sq: piece for piece, sq in m.items() if sq in squares}
    return m


def draw_display(game: Any, board: str, layers: tuple[str, ...]) -> str:
    """One picture of a grid with several maps over its squares: the last layer that has a
    value on a square shows it (pieces over terrain)."""
    grid = game.prog.grids[board]
    squares = set(grid.squares)
    maps = [_layer_value(game, name, squares) for name in layers]
    used: set[str] = {"."}
    per_layer = [_symbols([m.get(sq) for sq in grid.squares], used, upper=i > 0) for i, m in enumerate(maps)]
    lines = [f"{board} ({', '.join(layers)}):"]
    for y in range(grid.height - 1, -1, -1):
        row = []
        for x in range(grid.width):
            sq = grid.square_at(x, y)
            sym = "."
            for m, symbols in zip(maps, per_layer, strict=True):
                v = m.get(sq) if sq is not None else None
                if v in symbols:
                    sym = symbols[v]
            row.append(sym)
        lines.append(f"{y + 1:>3} " + " ".join(row))
    lines.append("    " + " ".join(chr(ord("a") + x) if x < 26 else "?" for x in range(grid.width)))
    for name, symbols in zip(layers, per_layer, strict=True):
        if symbols:
            lines.append(f"    {name}: " + ", ".join(f"{sym} = {v}" for v, sym in symbols.items()))
    return "\n".join(lines)


def draw_graph(game: Any, board: str, layers: tuple[str, ...]) -> str:
    """A graph board as a table: one line per node that any layer says something about."""
    nodes = game.prog.graphs[board].nodes
    squares = set(nodes)
    maps = [(name, _layer_value(game, name, squares)) for name in layers]
    lines = [f"{board} ({', '.join(layers)}):"]
    for n in nodes:
        parts = []
        for name, m in maps:
            v = m.get(n)
            if v is None or v is False or v == 0 or v == [] or v == {} or v == frozenset():
                continue
            parts.append(name if v == name else f"{name} {_text(v)}")
        if parts:
            lines.append(f"  {n}: " + ", ".join(parts))
    return "\n".join(lines)


def _text(v: Any) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} {x}" for k, x in v.items() if x) + "}"
    if isinstance(v, (list, frozenset)):
        return "[" + ", ".join(map(str, v)) + "]"
    return str(v)


def draw_boards(game: Any) -> str:
    """The ruleset's `display` pictures, or else one picture per (grid, state map) pair;
    empty when the ruleset has no grid."""
    prog = game.prog
    if prog.model.displays:
        return "\n\n".join(
            draw_display(game, d.board, d.layers) if d.board in prog.grids else draw_graph(game, d.board, d.layers)
            for d in prog.model.displays
        )
    chunks = []
    for board, grid in prog.grids.items():
        for name, t in prog.var_types.items():
            if not (isinstance(t, MapOf) and t.key == Elem(board)) or t.val.base.is_collection:
                continue
            cells = game.vars[name]
            symbols = _symbols([cells[s] for s in grid.squares])
            lines = [f"{name}:"]
            for y in range(grid.height - 1, -1, -1):
                row = []
                for x in range(grid.width):
                    sq = grid.square_at(x, y)
                    v = cells.get(sq) if sq is not None else None
                    row.append(symbols.get(v, "."))
                lines.append(f"{y + 1:>3} " + " ".join(row))
            lines.append("    " + " ".join(chr(ord("a") + x) if x < 26 else "?" for x in range(grid.width)))
            if symbols:
                lines.append("    " + ", ".join(f"{sym} = {v}" for v, sym in symbols.items()))
            chunks.append("\n".join(lines))
    return "\n\n".join(chunks)
