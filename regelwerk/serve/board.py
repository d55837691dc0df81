"""The seat's page draws boards exactly as the viewer does: the same description of boards
and layers from the ruleset's `display` (regelwerk/viewer/boards.py), and the same drawing
code, taken from the viewer's script (its helpers and its board sections) rather than copied,
so the two can never drift apart."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

from ..api import Ruleset
from ..viewer.boards import describe_boards, describe_panels, layer_constants, player_colours

_SECTION = "// ------------------------------------------------------------------ "
_TAKEN = ("small helpers", "which squares changed", "boards")  # the viewer's sections the page needs


def board_data(rules: Ruleset, game: Any) -> dict[str, Any]:
    """What the page needs to draw this game's boards: all from the rules, none of it secret."""
    boards = describe_boards(rules.model)
    players = list(game.players)
    return {"boards": boards, "consts": layer_constants(boards, game.consts), "players": players,
            "colours": player_colours(players), "panels": describe_panels(rules.model, boards)}


@cache
def board_script() -> str:
    """The viewer's drawing code, its sections by their headings, behind a `DATA` the seat's
    page fills in (serve.js sets DATA.boards, DATA.consts, DATA.colours, DATA.players)."""
    js = resources.files("regelwerk.viewer").joinpath("page", "viewer.js").read_text(encoding="utf-8")
    sections = js.split(_SECTION)
    found = {s.split("\n", 1)[0].strip(): s for s in sections[1:]}
    missing = [t for t in _TAKEN if t not in found]
    if missing:
        raise RuntimeError(f"regelwerk/viewer/page/viewer.js has no section {missing[0]!r}")
    body = "".join(_SECTION + found[t] for t in _TAKEN)
    return ('"use strict";\n// The viewer\'s board drawing (regelwerk/viewer/page/viewer.js), served as is.\n'
            'var DATA = {boards: [], consts: {}, colours: {}, players: [], panels: []};\n'
            'const SVG_NS = "http://www.w3.org/2000/svg";\n' + body)
