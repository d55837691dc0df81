"""A worked example's positions for its pictures: the board layers before its first move and
where the scenario leaves them, in the viewer's terms (regelwerk/viewer/boards.py), for the
viewer's own drawing code (regelwerk/viewer/page/boards.js) to draw on the page."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..dsl import ast as A
from ..interpreter.engine.values import jsonable
from ..interpreter.tools.scenario import scenario_position


def before_and_after(ruleset: Any, sc: A.ScenarioDecl) -> tuple[Any, Any]:
    """The game before the scenario's first `do` line (None when it plays no move) and as the
    scenario leaves it (after its last line, or the line that failed; None when it never set
    up a game). A picture is a courtesy: a position that cannot be had is None."""
    try:
        after = scenario_position(ruleset, sc)
    except Exception:  # noqa: BLE001 - the example is shown without its picture
        after = None
    first = next((k for k, st in enumerate(sc.steps) if st.kind == "do"), None)
    if first is None or after is None:
        return None, after
    # the lines before the move, then an empty `given`: the scenario's run builds and starts
    # its game as the move would find it (players, seed, options, `start in phase`)
    start = A.ScenarioStep(sc.steps[first].span, "given")
    try:
        before = scenario_position(ruleset, replace(sc, steps=(*sc.steps[:first], start)))
    except Exception:  # noqa: BLE001
        before = None
    return before, after


def layer_state(game: Any, boards: list[dict]) -> dict[str, Any]:
    """The values of the boards' state layers in `game`, as the viewer's page reads them."""
    names = {x["name"] for b in boards for x in b["layers"] if x["source"] == "state"}
    return {n: jsonable(game.vars[n]) for n in sorted(names) if n in game.vars}
