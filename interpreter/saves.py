"""Saves: a game as versioned, self-checking JSON, and back (design §5: save/load anywhere).

Every field is checked on the way in and a bad one is named by its JSON path; the ruleset's
invariants are checked too, so a save of an impossible position is refused, not played.
"""

from __future__ import annotations

from typing import Any

from .errors import SaveError
from .values import decode, jsonable

SAVE_FORMAT = "regelwerk-save"
SAVE_VERSION = 1


def identity(game: Any) -> dict:
    """Which game this is: the ruleset (title and hash), seed, players and options. Saves and
    trace headers both start with it."""
    return {
        "ruleset": game.ruleset.title,
        "ruleset_hash": game.ruleset.hash,
        "seed": game.seed,
        "players": list(game.players),
        "options": jsonable(game.options),
    }


def game_to_json(self: Any) -> dict:
    """A versioned, self-checking snapshot; `Game.from_json` continues it identically."""
    return {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        **identity(self),
        "ruleset_file": self.ruleset.path,
        "vars": {k: jsonable(v) for k, v in self.vars.items()},
        "current": self.current,
        "phase": self.phase,
        "round": self.round,
        "rng": str(self.rng),
        "frames": [[f[0], f[1], jsonable(f[2]), f[3]] for f in self.frames],
        "pending": jsonable(self.pending),
        "result": self.result,
        "step_no": self.step_no,
        "trig_last": list(self.trig_last),
        "scripted": jsonable(self.scripted),
        "abandoned": dict(self.abandoned),
        # in the middle of a move that can still be taken back: the game as it was before it
        "abandon_point": game_to_json(self._abandon_point) if self._abandon_point is not None else None,
        "abandon_move": [self._abandon_rule, self._abandon_action] if self._abandon_point is not None else None,
    }


def game_from_json(data: Any, ruleset: Any = None, record: bool = False) -> Any:
    """Rebuild a game saved by `to_json`; every field is checked, with a located message.
    Without `ruleset`, the rules are loaded from the file the save names."""
    if not isinstance(data, dict):
        raise SaveError("save: not a JSON object")
    if ruleset is None:
        ruleset = _ruleset_of(data)

    if data.get("format") != SAVE_FORMAT:
        raise SaveError("save.format: not a regelwerk save")
    version = data.get("version")
    if not isinstance(version, int) or version > SAVE_VERSION:
        raise SaveError(f"save.version: {version!r} is newer than this regelwerk understands "
                        f"({SAVE_VERSION})")
    if data.get("ruleset_hash") != ruleset.hash:
        raise SaveError(f"save.ruleset_hash: saved from a different ruleset "
                        f"({data.get('ruleset')!r}, hash {str(data.get('ruleset_hash'))[:12]})")
    try:
        players = tuple(data["players"])
        g = ruleset.new_game(players=len(players), seed=int(data["seed"]), options=data.get("options") or {},
                             record=record, start=False)
        if g.players != players:
            raise SaveError("save.players: do not match the ruleset's player names")
        domains = g.domains()
        vars_j = data["vars"]
        if not isinstance(vars_j, dict):
            raise SaveError("save.vars: not a map")
        for name, t in g.prog.var_types.items():
            if name not in vars_j:
                raise SaveError(f"save.vars.{name}: missing")
            g.vars[name] = decode(t, vars_j[name], f"save.vars.{name}", domains, g.prog.model.record_fields)
        extra = set(vars_j) - set(g.prog.var_types)
        if extra:
            raise SaveError(f"save.vars.{sorted(extra)[0]}: not declared in the ruleset")
        if data["current"] not in players:
            raise SaveError(f"save.current: {data['current']!r} is not a player")
        g.current = data["current"]
        g.phase = data["phase"]
        g.round = int(data["round"])
        g.rng = int(data["rng"])
        frames = data["frames"]
        nblocks = len(g.prog.blocks)
        g.frames = []
        for i, f in enumerate(frames):
            bid, pc, L, key = f
            if not (isinstance(bid, int) and 0 <= bid < nblocks and isinstance(pc, int)
                    and 0 <= pc < len(g.prog.blocks[bid]) and isinstance(L, dict)):
                raise SaveError(f"save.frames[{i}]: does not fit the compiled ruleset")
            g.frames.append([bid, pc, L, str(key)])
        g.pending = data["pending"]
        g.result = data["result"]
        g.step_no = int(data["step_no"])
        g.trig_last = [bool(x) for x in data["trig_last"]]
        g.scripted = dict(data.get("scripted") or {})
        g.abandoned = {str(k): str(v) for k, v in (data.get("abandoned") or {}).items()}
        if data.get("abandon_point") is not None:
            g._abandon_point = game_from_json(data["abandon_point"], ruleset, record)
            g._abandon_rule, g._abandon_action = (str(x) for x in data["abandon_move"])
        if len(g.trig_last) != len(g.prog.triggers):
            raise SaveError("save.trig_last: does not fit the ruleset's triggers")
    except SaveError:
        raise
    except (KeyError, TypeError, ValueError) as err:
        raise SaveError(f"save: missing or malformed field ({err})") from None
    broken = g.broken_invariants()
    if broken:
        raise SaveError("save: the state breaks the rules: " + "; ".join(broken))
    return g


def _ruleset_of(data: dict) -> Any:
    """Load the ruleset a save names (imported late: the API module imports this one)."""
    from ..api import load
    from ..dsl.diagnostics import RulesError

    path = data.get("ruleset_file")
    if not isinstance(path, str):
        raise SaveError("save.ruleset_file: the save names no rules file; pass the ruleset")
    try:
        return load(path)
    except RulesError as err:
        raise SaveError(f"save.ruleset_file: cannot load {path!r}: {err.diagnostics[0].message}") from None
    except OSError as err:
        raise SaveError(f"save.ruleset_file: cannot read {path!r}: {err.strerror}") from None
