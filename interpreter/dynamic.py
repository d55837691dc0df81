"""What a game is, as data: one declaration of the fields that change while it is played.

Clone, undo, roll-back (`abandon`) and save/load all walk `DYNAMIC`, so a new field is
declared once here and every one of them handles it. Each field says how to copy its value
for an independent game (`copy`), how to write it to JSON (`dump`) and how to read it back,
checked, with a message naming the JSON path (`load`).

The state store's one convention makes copies cheap: dicts (maps, records) are the only
mutable containers; lists and sets are values that every change replaces. So a copy copies
dicts and shares the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import SaveError
from .values import decode, jsonable


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    copy: Callable[[Any, Any], Any]  # (value, program) -> an independent value
    dump: Callable[[Any], Any]
    load: Callable[[Any, Any, str], Any]  # (JSON value, the game being rebuilt, JSON path)
    since: int = 1  # the save version that added the field: older saves get `None`


def _same(v: Any, prog: Any = None) -> Any:
    return v


def _copy_vars(v: dict, prog: Any) -> dict:
    return prog.copy_vars(v)  # only the variables whose values hold dicts are copied


def copy_frames(frames: list, prog: Any = None) -> list:
    out = []
    for bid, pc, local, rule in frames:  # the frame lists and their locals change in place
        out.append([bid, pc, local.copy(), rule])
    return out


# ---------------------------------------------------------------------- loading, checked
def _fail(path: str, msg: str) -> SaveError:
    return SaveError(f"{path}: {msg}")


def _load_vars(j: Any, g: Any, path: str) -> dict:
    if not isinstance(j, dict):
        raise _fail(path, "not a map")
    types = g.prog.var_types
    extra = sorted(set(j) - set(types))
    if extra:
        raise _fail(f"{path}.{extra[0]}", "not declared in the ruleset")
    out = {}
    domains = g.domains()
    records = g.prog.model.record_fields
    for name, t in types.items():
        if name not in j:
            raise _fail(f"{path}.{name}", "missing")
        out[name] = decode(t, j[name], f"{path}.{name}", domains, records)
    return out


def _load_player(j: Any, g: Any, path: str) -> str:
    if j not in g.players:
        raise _fail(path, f"{j!r} is not a player")
    return j


def _load_phase(j: Any, g: Any, path: str) -> str | None:
    if j is not None and (not isinstance(j, str) or j not in g.prog.model.phases):
        raise _fail(path, f"{j!r} is not a phase of the ruleset")
    return j


def _load_count(j: Any, g: Any, path: str) -> int:
    if type(j) is not int or j < 0:
        raise _fail(path, f"expected a whole number >= 0, found {j!r}")
    return j


def _load_rng(j: Any, g: Any, path: str) -> int:
    if not isinstance(j, str) or not (j.isascii() and j.isdigit()) or len(j) > 20 or int(j) >= 2**64:
        raise _fail(path, f"expected the generator state as a decimal text below 2^64, found {j!r}")
    return int(j)


def _load_frames(j: Any, g: Any, path: str) -> list:
    from .saves import check_frame

    if not isinstance(j, list) or not j:
        raise _fail(path, "expected a non-empty list of frames")
    return [check_frame(f, g, f"{path}[{i}]") for i, f in enumerate(j)]


def _load_pending(j: Any, g: Any, path: str) -> dict | None:
    from .saves import check_pending

    return check_pending(j, g, path)


def _load_result(j: Any, g: Any, path: str) -> dict | None:
    if j is None:
        return None
    if not isinstance(j, dict) or j.get("kind") not in ("winner", "draw", "ranking") \
            or not isinstance(j.get("winners"), list) or any(w not in g.players for w in j["winners"]):
        raise _fail(path, "expected {kind: winner|draw|ranking, winners: [players], ...}")
    return j


def _load_trig_last(j: Any, g: Any, path: str) -> list[bool]:
    if not isinstance(j, list) or len(j) != len(g.prog.triggers) or any(type(x) is not bool for x in j):
        raise _fail(path, f"expected {len(g.prog.triggers)} true/false values, one per trigger")
    return j


def _load_scripted(j: Any, g: Any, path: str) -> dict:
    if not isinstance(j, dict) or any(not isinstance(v, list) for v in j.values()):
        raise _fail(path, "expected a map from chance source to a list of outcomes")
    known = set(g.prog.model.devices) | {"roll", "random", "shuffled", "bernoulli"}
    bad = sorted(set(j) - known)
    if bad:
        raise _fail(f"{path}.{bad[0]}", "not a chance device of the ruleset")
    return dict(j)


def _load_abandoned(j: Any, g: Any, path: str) -> dict[str, str]:
    if not isinstance(j, dict) or any(not isinstance(v, str) for v in j.values()):
        raise _fail(path, "expected a map from move to reason")
    return dict(j)


def _dump_abandon(a: tuple | None) -> dict | None:
    if a is None:
        return None
    point, rule, action = a
    return {"point": point.to_json(), "rule": rule, "action": action}


def _load_abandon(j: Any, g: Any, path: str) -> tuple | None:
    if j is None:
        return None
    from .saves import game_from_json

    if not isinstance(j, dict) or not isinstance(j.get("rule"), str) or not isinstance(j.get("action"), str):
        raise _fail(path, "expected {point: save, rule: text, action: text}")
    point = game_from_json(j.get("point"), g.ruleset, g.record, path=f"{path}.point")
    return (point, j["rule"], j["action"])


def _load_seen(j: Any, g: Any, path: str) -> tuple[str, ...] | None:
    if j is None and not g.tracking:
        return None
    if not isinstance(j, list) or len(j) != len(g.players) or any(
            not isinstance(x, str) or len(x) != 32 or any(c not in "0123456789abcdef" for c in x) for x in j):
        raise _fail(path, f"expected {len(g.players)} observation digests (32 hex digits), one per player")
    return tuple(j)


def _load_past(j: Any, g: Any, path: str) -> Any:
    from .explicit import load_past

    if j is not None and not g.tracking:
        raise _fail(path, "a history in a save of a game that keeps none")
    return load_past(j, g, path)


def _load_chance_node(j: Any, g: Any, path: str) -> Any:
    from .explicit import node_from_json

    return node_from_json(j, g, path)


def _dump_past(v: Any) -> Any:
    from .explicit import dump_past

    return dump_past(v)


def _load_revealed(j: Any, g: Any, path: str) -> tuple:
    if j is None:
        return ()
    if not isinstance(j, list) or any(
            not (isinstance(x, list) and len(x) == 4 and isinstance(x[0], str) and (x[2] is None or x[2] in g.players)
                 and type(x[3]) is int and x[3] >= 0) for x in j):
        raise _fail(path, "expected a list of [what, value, player or null, step]")
    return tuple(tuple(x) for x in j)


def _dump_window(w: dict | None) -> dict | None:
    if w is None:
        return None
    return {"players": list(w["players"]),
            "parts": {p: [[f[0], f[1], jsonable(f[2]), f[3]] for f in fs] for p, fs in w["parts"].items()},
            "pending": {p: jsonable(x) for p, x in w["pending"].items()}}


def _load_window(j: Any, g: Any, path: str) -> dict | None:
    from .saves import check_window

    return check_window(j, g, path)


DYNAMIC: tuple[Field, ...] = (
    Field("vars", _copy_vars, lambda v: {k: jsonable(x) for k, x in v.items()}, _load_vars),
    Field("current", _same, _same, _load_player),
    Field("phase", _same, _same, _load_phase),
    Field("round", _same, _same, _load_count),
    Field("rng", _same, str, _load_rng),
    Field("frames", copy_frames, lambda fs: [[f[0], f[1], jsonable(f[2]), f[3]] for f in fs], _load_frames),
    Field("pending", _same, jsonable, _load_pending),  # replaced, never changed in place
    Field("result", _same, _same, _load_result),
    Field("step_no", _same, _same, _load_count),
    Field("trig_last", _same, list, _load_trig_last),  # replaced, never changed in place
    Field("scripted", _same, jsonable, _load_scripted),  # likewise
    Field("abandoned", _same, dict, _load_abandoned),  # moves taken back at this decision
    Field("abandon", _same, _dump_abandon, _load_abandon),  # (game before the move, rule, move)
    # kept by games with a history or explicit chance (interpreter/explicit.py), immutable:
    Field("past", _same, _dump_past, _load_past, since=3),  # moves and outcomes, newest first
    Field("seen", _same, lambda v: None if v is None else list(v), _load_seen, since=3),  # per player
    # what `reveal` showed to whom (a tuple, replaced): part of the views from then on
    Field("revealed", _same, lambda r: [list(x) for x in r], lambda j, g, path: _load_revealed(j, g, path), since=4),
    # an open `simultaneously`: each part's frames and pending decision (replaced, never changed
    # in place)
    Field("window", _same, lambda w: _dump_window(w), lambda j, g, path: _load_window(j, g, path), since=4),
    # last: loading it replays the move on the game the fields above rebuilt
    Field("chance_node", _same, lambda v: None if v is None else v.to_json(), _load_chance_node, since=3),
)
NAMES = tuple(f.name for f in DYNAMIC)
COPIED = tuple(f for f in DYNAMIC if f.copy is not _same)  # the fields a clone must copy
