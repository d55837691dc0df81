"""The seat's page draws boards exactly as the viewer does: the same description of boards
and layers from the ruleset's `display` (regelwerk/viewer/boards.py), and the same drawing
code, the viewer's shared board drawing (regelwerk/viewer/page/boards.js) served as is rather
than copied, so the two can never drift apart."""

from __future__ import annotations

from functools import cache
from typing import Any

from ..api import Ruleset
from ..viewer.boards import describe_boards, describe_panels, layer_constants, player_colours
from ..viewer.page import boards_script


def board_data(rules: Ruleset, game: Any) -> dict[str, Any]:
    """What the page needs to draw this game's boards: all from the rules, none of it secret."""
    boards = describe_boards(rules.model)
    players = list(game.players)
    return {"boards": boards, "consts": layer_constants(boards, game.consts), "players": players,
            "colours": player_colours(players), "panels": describe_panels(rules.model, boards)}


@cache
def board_script() -> str:
    """The viewer's board drawing (boards.js) behind a `DATA` the seat's page fills in
    (serve.js sets DATA.boards, DATA.consts, DATA.colours, DATA.players)."""
    return ('"use strict";\n// The viewer\'s board drawing (regelwerk/viewer/page/boards.js), served as is.\n'
            'var DATA = {boards: [], consts: {}, colours: {}, players: [], panels: []};\n' + boards_script())
