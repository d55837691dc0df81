"""From a trace or a save to the page's data: read, check against the ruleset, reconstruct,
filter for one player, then compact (each rule's texts once, empty fields left out)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..interpreter.engine.errors import EngineError
from ..interpreter.engine.values import jsonable
from .boards import describe_boards, describe_panels, layer_constants, player_colours
from .inputs import (
    ViewerError,
    check_identity,
    kind_of,
    load_rules,
    read_json_file,
    read_trace_file,
)
from .page import render
from .reconstruct import resolve_changes, start_game, state_of
from .visibility import for_player

VIEW_FORMAT = "regelwerk-view"
VIEW_VERSION = 1


def page_for(path: str, rules: str | None = None, player: str | None = None) -> str:
    """The HTML page for a trace or a save (told apart by their first line)."""
    data = trace_data(path, rules, player) if kind_of(path) == "trace" else save_data(path, rules, player)
    return render(data)


def trace_data(path: str, rules: str | None = None, player: str | None = None) -> dict[str, Any]:
    trace = read_trace_file(path)
    ruleset = load_rules(rules, trace.header, path)
    check_identity(ruleset, trace.header, path)
    game = start_game(ruleset, trace)
    start = state_of(game)
    resolve_changes(start, trace)
    data = _common(ruleset, game, trace.header, "trace")
    data.update(start=start, steps=trace.steps, result=trace.result, legal=None, pending=None)
    return _finish(data, game, player, path)


def save_data(path: str, rules: str | None = None, player: str | None = None) -> dict[str, Any]:
    try:
        saved = json.loads(read_json_file(path))
    except json.JSONDecodeError as err:
        raise ViewerError(f"{path}:{err.lineno}:{err.colno}: error: not JSON: {err.msg}") from None
    if not isinstance(saved, dict):
        raise ViewerError(f"{path}:1: error: not a regelwerk save (not a JSON object)")
    ruleset = load_rules(rules, saved if isinstance(saved, dict) else {}, path)
    check_identity(ruleset, saved, path)
    try:
        game = ruleset.load_game(saved)
        legal = [str(a) for a in game.legal_actions()]
    except EngineError as err:
        raise ViewerError(f"{path}: error: {err}") from None
    data = _common(ruleset, game, saved, "position")
    pending = game.pending or None
    data.update(start=state_of(game), steps=[], result=game.result, legal=legal,
                pending=jsonable({k: pending.get(k) for k in ("kind", "player", "prompt")}) if pending else None,
                current=game.current, phase=game.phase)
    return _finish(data, game, player, path)


def _common(ruleset: Any, game: Any, head: dict, mode: str) -> dict[str, Any]:
    model = ruleset.model
    boards = describe_boards(model)
    players = list(game.players)
    return {
        "format": VIEW_FORMAT, "version": VIEW_VERSION, "mode": mode,
        "title": ruleset.title, "ruleset_hash": ruleset.hash,
        "game_note": model.game.prov.note if model.game is not None and model.game.prov else None,
        "players": players, "colours": player_colours(players),
        "seed": head.get("seed"), "options": head.get("options") or {}, "viewer": None,
        "boards": boards, "consts": layer_constants(boards, game.consts),
        "panels": describe_panels(model, boards),
    }


def _finish(data: dict[str, Any], game: Any, player: str | None, path: str) -> dict[str, Any]:
    if player is not None:
        if player not in data["players"]:
            raise ViewerError(f"{path}: error: --player {player!r} is not a player of this game "
                              f"({', '.join(data['players'])})")
        data = for_player(data, player, game)
    return compact(data, Path(path).name)


def compact(data: dict[str, Any], source_name: str) -> dict[str, Any]:
    """Each rule's name, quote, note, source, spec and location once, in a table the steps
    point into; empty lists and maps are left out of steps."""
    rules: list[dict] = []
    index: dict[tuple, int] = {}
    steps = []
    for st in data["steps"]:
        key = (st.get("rule"), st.get("kind"), st.get("at"))
        if key not in index:
            index[key] = len(rules)
            rules.append({"rule": st.get("rule"), "kind": st.get("kind"), "at": st.get("at"),
                          "quote": st.get("quote"), "note": st.get("note"),
                          "source": st.get("source") or [], "spec": st.get("spec") or []})
        out = {"step": st["step"], "rule": index[key]}
        for k in ("phase", "player", "decision"):
            if st.get(k) is not None:
                out[k] = st[k]
        if st.get("automatic"):
            out["automatic"] = True
        for k in ("bindings", "checks", "chance", "events"):
            if st.get(k):
                out[k] = st[k]
        if st["changes"]:
            out["changes"] = [_change(c) for c in st["changes"]]
        steps.append(out)
    return {**data, "steps": steps, "rules": rules, "file": source_name}


def _change(c: dict) -> dict:
    out = {"keys": c["keys"], "path": c["path"], "old": c["old"], "new": c["new"]}
    if c.get("hidden"):
        out["hidden"] = True
    if "owner" in c:
        out["owner"] = c["owner"]
    return out
