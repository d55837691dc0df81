"""What a game is, as data, and its save format: the one schema of the fields that change
while a game is played, with their codecs (design §5: save/load anywhere).

Clone, undo, roll-back (`abandon`) and save/load all walk `DYNAMIC`, so a new field is
declared once here and every one of them handles it. Each field says how to copy its value
for an independent game (`copy`), how to write it to JSON (`dump`) and how to read it back,
checked, with a message naming the JSON path (`load`). The state store's one convention makes
copies cheap: dicts (maps, records) are the only mutable containers; lists and sets are values
that every change replaces. So a copy copies dicts and shares the rest.

A save is versioned, self-checking JSON. The frames and the pending decision are checked
against the compiled program, the pending decision is worked out again from the rules, and the
ruleset's invariants are checked against the state, so a save of an impossible position is
refused, not played. Version 3 adds the chance mode, the history and a chance node
(interpreter/engine/explicit.py); version-2 saves load with none; version 4 an open
`simultaneously`. Version 2 names a block's slots by the pc of the op that makes them (`#4`);
version 1 named them by a counter of the old compiler (`_p9`). A version-1 save is upgraded on
load (`upgrade_v1`).
"""

from __future__ import annotations

import itertools
import operator
import re
from collections import namedtuple
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..stdlib.rng import seed_state
from .canonical import interned
from .errors import Abandoned, EngineError, IllegalAction, SaveError
from .explicit import ChanceNode, advance
from .moves import parse_action
from .values import decode, decode_options, jsonable

if TYPE_CHECKING:
    from ..compiler import ir


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    copy: Callable[[Any, Any], Any]  # (value, program) -> an independent value
    dump: Callable[[Any], Any]
    load: Callable[[Any, Any, str], Any]  # (JSON value, the game being rebuilt, JSON path)
    start: Callable[[Any], Any]  # (the new game: program, players, seed, modes set) -> its value
    since: int = 1  # the save version that added the field: older saves get `None`


def _same(v: Any, prog: Any = None) -> Any:
    return v


def _copy_vars(v: dict, prog: Any) -> dict:
    return prog.copy_vars(v)  # only the variables whose values hold dicts are copied


def copy_frames(frames: list, prog: Any = None) -> list:
    """The frame lists and their locals change in place: each is copied."""
    if len(frames) == 1:  # the usual case (the flow's frame alone): no loop (clone is hot in searches)
        f = frames[0]
        return [[f[0], f[1], f[2].copy(), f[3]]]
    return [[bid, pc, local.copy(), rule] for bid, pc, local, rule in frames]


EMPTY_SEEN = "0" * 32  # the record of a player who has observed nothing yet (observe/infostate.py)


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
    if not isinstance(j, list):  # empty only when the flow ran to its end (restore_state checks)
        raise _fail(path, "expected a non-empty list of frames")
    return [check_frame(f, g, f"{path}[{i}]") for i, f in enumerate(j)]


def _load_pending(j: Any, g: Any, path: str) -> dict | None:
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
    if not isinstance(j, dict) or not isinstance(j.get("rule"), str) or not isinstance(j.get("action"), str):
        raise _fail(path, "expected {point: save, rule: text, action: text}")
    point = g._load_nested(j.get("point"), f"{path}.point")
    return (point, j["rule"], j["action"])


def _load_seen(j: Any, g: Any, path: str) -> tuple[str, ...] | None:
    if j is None and not g.tracking:
        return None
    if not isinstance(j, list) or len(j) != len(g.players) or any(
            not isinstance(x, str) or len(x) != 32 or any(c not in "0123456789abcdef" for c in x) for x in j):
        raise _fail(path, f"expected {len(g.players)} observation digests (32 hex digits), one per player")
    return tuple(j)


def _load_past(j: Any, g: Any, path: str) -> Any:
    if j is not None and not g.tracking:
        raise _fail(path, "a history in a save of a game that keeps none")
    return load_past(j, g, path)


def _load_chance_node(j: Any, g: Any, path: str) -> Any:
    return node_from_json(j, g, path)


def _dump_past(v: Any) -> Any:
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
    return check_window(j, g, path)


_NONE = lambda g: None  # noqa: E731 - most fields start empty

DYNAMIC: tuple[Field, ...] = (
    Field("vars", _copy_vars, lambda v: {k: jsonable(x) for k, x in v.items()}, _load_vars,
          lambda g: {}),  # Game.prepare gives each variable its declared start value
    Field("current", _same, _same, _load_player, lambda g: g.players[0]),
    Field("phase", _same, _same, _load_phase, _NONE),
    Field("round", _same, _same, _load_count, lambda g: 0),
    Field("rng", _same, str, _load_rng, lambda g: seed_state(g.seed)),
    Field("frames", copy_frames, lambda fs: [[f[0], f[1], jsonable(f[2]), f[3]] for f in fs], _load_frames,
          lambda g: []),
    Field("pending", _same, jsonable, _load_pending, _NONE),  # replaced, never changed in place
    Field("result", _same, _same, _load_result, _NONE),
    Field("step_no", _same, _same, _load_count, lambda g: 0),
    Field("trig_last", _same, list, _load_trig_last,  # replaced, never changed in place
          lambda g: [False] * len(g.prog.triggers)),
    Field("scripted", _same, jsonable, _load_scripted, lambda g: {}),  # likewise
    Field("abandoned", _same, dict, _load_abandoned, lambda g: {}),  # moves taken back at this decision
    Field("abandon", _same, _dump_abandon, _load_abandon, _NONE),  # (game before the move, rule, move)
    # kept by games with a history or explicit chance (interpreter/engine/explicit.py), immutable:
    Field("past", _same, _dump_past, _load_past, _NONE, since=3),  # moves and outcomes, newest first
    Field("seen", _same, lambda v: None if v is None else list(v), _load_seen,  # per player
          lambda g: (EMPTY_SEEN,) * len(g.players) if g.tracking else None, since=3),
    # what `reveal` showed to whom (a tuple, replaced): part of the views from then on
    Field("revealed", _same, lambda r: [list(x) for x in r], lambda j, g, path: _load_revealed(j, g, path),
          lambda g: (), since=4),
    # an open `simultaneously`: each part's frames and pending decision (replaced, never changed
    # in place)
    Field("window", _same, lambda w: _dump_window(w), lambda j, g, path: _load_window(j, g, path), _NONE,
          since=4),
    # last: loading it replays the move on the game the fields above rebuilt
    Field("chance_node", _same, lambda v: None if v is None else v.to_json(), _load_chance_node, _NONE,
          since=3),
)
NAMES = tuple(f.name for f in DYNAMIC)
COPIED = tuple(f for f in DYNAMIC if f.copy is not _same)  # the fields a clone must copy


# The game's state as one value: the dynamic fields, in DYNAMIC's order. A game keeps them as
# its own attributes (generated code reads `G.vars`, `G.current` on the hot path); they are
# read, put back and copied together only through the functions below.
State = namedtuple("State", NAMES)
State.__doc__ = "A game's dynamic state, one field per entry of DYNAMIC (interpreter/engine/saves.py)."
_read_state = operator.attrgetter(*NAMES)


def start_state(game: Any) -> State:
    """The state a new game starts from (its program, players, seed and modes already set)."""
    return State._make(f.start(game) for f in DYNAMIC)


def state_of(game: Any) -> State:
    """The game's state as it is now: the values themselves, shared, not copied."""
    return State._make(_read_state(game))


def state_fields(game: Any) -> tuple:
    """The game's state as a plain tuple in `State`'s order, shared, not copied: what
    `state_of` reads, without making the named tuple (a traced game keeps one for undo at
    its first decision, so every traced playout pays for it); `State._make` makes it one."""
    return _read_state(game)


def put_state(game: Any, state: State) -> None:
    """Make `state` the game's state; `is_over` (a plain field every playout loop reads)
    follows its result."""
    game.__dict__.update(zip(NAMES, state, strict=True))
    game.is_over = state.result is not None
    game._carried = {}  # values carried across decisions were worked out from another state
    game._wlog = []
    if game._invg is not None:  # traced: so were a grouped invariant's kept sums (compiler/invtests.py)
        game._invg = None


def copied(state: State, prog: Any) -> State:
    """An independent copy: the fields that change in place are copied, the others shared."""
    return state._replace(**{f.name: f.copy(getattr(state, f.name), prog) for f in COPIED})


SAVE_FORMAT = "regelwerk-save"
SAVE_VERSION = 4  # 3: chance mode, history and chance node; 4: an open `simultaneously`


def identity(game: Any) -> dict:
    """Which game this is: the ruleset (title and hash), seed, players and options. Saves and
    trace headers both start with it."""
    ident = game.prog.identity
    return {
        "ruleset": ident.title,
        "ruleset_hash": ident.hash,
        "seed": game.seed,
        "players": list(game.players),
        "options": jsonable(game.options),
    }


def game_to_json(game: Any) -> dict:
    """A versioned, self-checking snapshot; `Game.from_json` continues it identically."""
    game._settle_observation()  # the last move's observation belongs in the save
    out = {"format": SAVE_FORMAT, "version": SAVE_VERSION, **identity(game),
           "ruleset_file": game.prog.identity.path, "chance": game.chance_mode, "history": game.tracking}
    for f in DYNAMIC:
        out[f.name] = f.dump(getattr(game, f.name))
    return out



def check_format(data: Any, path: str = "save") -> int:
    """The version of a regelwerk save, or a located SaveError: checked before anything is
    compiled or loaded for it."""
    if not isinstance(data, dict):
        raise _fail(path, "not a JSON object")
    if data.get("format") != SAVE_FORMAT:
        raise _fail(f"{path}.format", "not a regelwerk save")
    version = data.get("version")
    if type(version) is not int or version < 1:
        raise _fail(f"{path}.version", f"{version!r} is not a save version (a whole number from 1)")
    if version > SAVE_VERSION:
        raise _fail(f"{path}.version", f"{version} is newer than this regelwerk understands ({SAVE_VERSION})")
    return version


@dataclass(frozen=True)
class SaveHeader:
    """What a save says about the game before its state: enough to build the game object."""

    version: int
    players: tuple[str, ...]
    seed: int
    options: dict
    chance: str
    history: bool


def read_header(data: Any, prog: Any, path: str = "save") -> tuple[dict, SaveHeader]:
    """The save (upgraded to the current layout) and its header, checked against the
    program it is loaded on: the same rules (hash) and that program's player names."""
    version = check_format(data, path)
    if data.get("ruleset_hash") != prog.identity.hash:
        raise _fail(f"{path}.ruleset_hash", f"saved from a different ruleset ({data.get('ruleset')!r}, "
                    f"hash {str(data.get('ruleset_hash'))[:12]})")
    if version == 1:
        data = upgrade_v1(data, prog, path)
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise _fail(f"{path}.players", "expected a list of player names")
    decl = prog.model.players
    if not decl.min_count <= len(players) <= decl.max_count or list(decl.names[:len(players)]) != players:
        raise _fail(f"{path}.players", "do not match the ruleset's player names")
    seed = data.get("seed")
    if type(seed) is not int:
        raise _fail(f"{path}.seed", f"expected a whole number, found {seed!r}")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise _fail(f"{path}.options", "expected a map of option values")
    try:
        options = decode_options(prog.model, options)
    except EngineError as err:
        raise _fail(f"{path}.options", err.message) from None
    chance = data.get("chance", "sampled")
    if chance not in ("sampled", "explicit"):
        raise _fail(f"{path}.chance", f"expected 'sampled' or 'explicit', found {chance!r}")
    history = data.get("history", False)
    if type(history) is not bool:
        raise _fail(f"{path}.history", f"expected true or false, found {history!r}")
    return data, SaveHeader(version, tuple(players), seed, options, chance, history)


def restore_state(g: Any, data: dict, version: int, path: str = "save") -> Any:
    """Fill a game built from a save's header (not started) with the saved state: every
    field read and checked, the pending decision recomputed from the rules, the invariants
    checked."""
    for f in DYNAMIC:
        if f.name not in data:
            if version >= f.since:
                raise _fail(f"{path}.{f.name}", "missing")
            setattr(g, f.name, f.load(None, g, f"{path}.{f.name}"))  # a field older saves lack
            continue
        setattr(g, f.name, f.load(data[f.name], g, f"{path}.{f.name}"))  # a later field reads earlier ones
    if not g.frames and g.result is None:  # a game whose flow ran to its end has no frame left
        raise _fail(f"{path}.frames", "expected a non-empty list of frames")
    put_state(g, interned(state_of(g)))  # a save's texts made canonical (canonical.py)
    _check_decision(g, path)
    _check_pending_follows(g, path)
    if g.chance_node is not None and g.chance_node.move is None:
        return g  # waits for chance before the start is done: the set-up has yet to run
    broken = g.broken_invariants()
    if broken:
        raise _fail(path, "the state breaks the rules: " + "; ".join(broken))
    return g


def check_frame(f: Any, g: Any, path: str) -> list:
    """A frame `[block id, pc, locals, rule]` that fits the compiled program, with every slot
    that is live at its pc present and of the right shape."""
    blocks = g.prog.blocks
    if not (isinstance(f, list) and len(f) == 4):
        raise _fail(path, "expected [block, pc, locals, rule]")
    bid, pc, local, rule = f
    if type(bid) is not int or not 0 <= bid < len(blocks):
        raise _fail(f"{path}[0]", f"no block {bid!r} in the compiled ruleset")
    blk = blocks[bid]
    if type(pc) is not int or not 0 <= pc < len(blk.ops):
        raise _fail(f"{path}[1]", f"no op {pc!r} in block {bid}")
    if not isinstance(local, dict):
        raise _fail(f"{path}[2]", "expected a map of local names")
    if rule != blk.rule:
        raise _fail(f"{path}[3]", f"block {bid} belongs to {blk.rule!r}, not {rule!r}")
    for s in blk.slots:
        if s.kept and s.live_start <= pc < s.live_end:
            _check_slot(s, local, g, f"{path}[2].{s.name}")
    for name in (*blk.params, *(getattr(blk.ops[pc], "names", None) or ())):
        if name not in local:  # a parameter, or a `let` made before this point and read after it
            raise _fail(f"{path}[2].{name}", "missing: the rule reads it after this point")
    out = dict(local)
    domains, records = g.domains(), g.prog.model.record_fields
    for name, value in local.items():  # read back by the type the checker gave the name
        t = blk.local_types.get(name)
        if t is not None and not name.startswith("#"):
            out[name] = decode(t, value, f"{path}[2].{name}", domains, records)
    return [bid, pc, out, rule]


def _check_slot(s: ir.Slot, local: dict, g: Any, path: str) -> None:
    if s.name not in local:
        raise _fail(path, "missing: the frame is inside the loop, turn or phase that keeps it")
    v = local[s.name]
    if s.letter == "p":
        ok = isinstance(v, str) and v in g.players
    elif s.letter == "h":
        ok = v is None or (isinstance(v, str) and v in g.prog.model.phases)
    elif s.letter == "n":
        ok = type(v) is int and v >= 0
    else:
        ok = (isinstance(v, list) and len(v) == 2 and isinstance(v[0], list) and type(v[1]) is int
              and 0 <= v[1] <= len(v[0]))
    if not ok:
        raise _fail(path, f"{v!r} does not fit this slot")


def check_window(j: Any, g: Any, path: str) -> dict | None:
    """An open `simultaneously`: each part's frames fit the program, the main frame waits at
    the `simultaneously`, and each pending part's decision fits its top frame."""
    if j is None:
        return None
    if not isinstance(j, dict) or not isinstance(j.get("players"), list) or not isinstance(j.get("parts"), dict) \
            or not isinstance(j.get("pending"), dict):
        raise _fail(path, "expected {players: [...], parts: {player: frames}, pending: {player: decision}}")
    players = j["players"]
    if not players or any(p not in g.players for p in players) or len(set(players)) != len(players) \
            or set(j["parts"]) != set(players) or not set(j["pending"]) <= set(players):
        raise _fail(path, "players, parts and pending must name the same players of the game")
    parts, pending = {}, {}
    for p in players:
        frames = j["parts"][p]
        if not isinstance(frames, list):
            raise _fail(f"{path}.parts.{p}", "expected a list of frames")
        parts[p] = [check_frame(f, g, f"{path}.parts.{p}[{i}]") for i, f in enumerate(frames)]
        if p in j["pending"]:
            if not parts[p]:
                raise _fail(f"{path}.pending.{p}", "a part that is done waits for no decision")
            pending[p] = check_pending(j["pending"][p], g, f"{path}.pending.{p}")
            if pending[p] is None or pending[p]["kind"] == "simultaneous" or pending[p]["player"] != p:
                raise _fail(f"{path}.pending.{p}", f"expected a decision of {p}'s own")
            _check_top(parts[p], pending[p], g, f"{path}.parts.{p}")
        elif parts[p]:
            raise _fail(f"{path}.parts.{p}", "a part that waits for nothing must be done (no frames)")
    if not pending:
        raise _fail(f"{path}.pending", "an open simultaneous decision waits for somebody")
    return {"players": tuple(players), "parts": parts, "pending": pending}


def check_pending(j: Any, g: Any, path: str) -> dict | None:
    if j is None:
        return None
    if isinstance(j, dict) and j.get("kind") == "simultaneous":
        if not isinstance(j.get("players"), list) or not j["players"] or any(p not in g.players for p in j["players"]):
            raise _fail(path, "expected {kind: simultaneous, players: [players still to choose]}")
        return {"kind": "simultaneous", "players": list(j["players"])}
    if not isinstance(j, dict) or j.get("kind") not in ("play", "choose"):
        raise _fail(path, "expected {kind: play|choose|simultaneous, player: ...}")
    if j.get("player") not in g.players:
        raise _fail(f"{path}.player", f"{j.get('player')!r} is not a player")
    if j["kind"] == "choose":
        if not isinstance(j.get("var"), str) or not isinstance(j.get("options"), list) or not j["options"]:
            raise _fail(path, "a choice needs var (a name) and options (a non-empty list)")
        if j.get("prompt") is not None and not isinstance(j["prompt"], str):
            raise _fail(f"{path}.prompt", "expected a text or null")
        out = {"kind": "choose", "player": j["player"], "var": j["var"], "options": list(j["options"]),
               "prompt": j.get("prompt")}
    else:
        out = {"kind": "play", "player": j["player"]}
    if j.get("simultaneous") is True:  # a part's decision in an open `simultaneously`
        out["simultaneous"] = True
    return out


def _check_decision(g: Any, path: str) -> None:
    """The pending decision, the result and the top frame must tell the same story."""
    if g.result is not None:
        if g.pending is not None or g.chance_node is not None:
            raise _fail(f"{path}.pending", "a finished game waits for no decision")
        return
    if g.chance_node is not None:  # waits for chance: the node's own replay checked it
        if g.pending is not None:
            raise _fail(f"{path}.pending", "a game that waits for chance waits for no decision")
        return
    if g.pending is None:
        raise _fail(f"{path}.pending", "a game in progress waits for a decision")
    from ..compiler import ir

    if g.pending["kind"] == "simultaneous" or g.window is not None:
        w = g.window
        if w is None or g.pending["kind"] != "simultaneous" \
                or g.pending["players"] != [p for p in w["players"] if p in w["pending"]]:
            raise _fail(f"{path}.pending", "a simultaneous decision and the open window must agree")
        f = g.frames[-1]
        if f[1] < 1 or not isinstance(g.prog.blocks[f[0]].ops[f[1] - 1], ir.Window):
            raise _fail(f"{path}.frames", "the top frame does not wait at a 'simultaneously'")
        return
    _check_top(g.frames, g.pending, g, f"{path}.frames")


def _check_pending_follows(g: Any, path: str) -> None:
    """The pending decision is worked out again from the rules, never taken on trust: the top
    frame runs its decision op again on a copy (a `play` lists its moves, a `choose` its options,
    a part of a `simultaneously` its own), and what it asks must be what the save says."""
    if g.result is not None or g.chance_node is not None or g.pending is None:
        return
    if g.window is not None:
        for p, saved in g.window["pending"].items():
            trial = g.clone()
            trial.window = {**trial.window, "pending": {k: v for k, v in trial.window["pending"].items() if k != p}}
            try:
                trial._advance_part(p, None)
            except EngineError as err:
                raise _fail(f"{path}.window.pending.{p}", f"the rules cannot work it out: {err.message}") from None
            _same_decision(trial.window["pending"].get(p), saved, f"{path}.window.pending.{p}")
        return
    trial = g.clone()
    trial.pending = None
    try:
        trial._run()
    except EngineError as err:
        raise _fail(f"{path}.pending", f"the rules cannot work it out: {err.message}") from None
    _same_decision(trial.pending, g.pending, f"{path}.pending")
    if trial.frames != g.frames:
        raise _fail(f"{path}.frames", "the rules do not stop for a decision here")
    if g.pending["kind"] == "play" and not trial.legal_actions():
        raise _fail(f"{path}.pending", "nobody can move here: the rules would go on")


def _same_decision(got: dict | None, saved: dict, path: str) -> None:
    keys = ("kind", "player", "var", "options", "prompt")
    if got is None or any(jsonable(got.get(k)) != jsonable(saved.get(k)) for k in keys):
        want = None if got is None else {k: got.get(k) for k in keys if k in got}
        raise _fail(path, f"does not follow from the rules: they ask {jsonable(want)}")


def _check_top(frames: list, pending: dict, g: Any, path: str) -> None:
    """The pending decision fits the op the top frame stands at."""
    from ..compiler import ir

    op = g.prog.blocks[frames[-1][0]].ops[frames[-1][1]]
    want = ir.Play if pending["kind"] == "play" else ir.Choose
    if not isinstance(op, want):
        raise _fail(path, f"the top frame is not at a '{pending['kind']}' decision")
    if isinstance(op, ir.Choose) and op.var != pending["var"]:
        raise _fail(f"{path.rsplit('.', 1)[0]}.pending.var", f"the choice here is of {op.var!r}")


# ---------------------------------------------------------------------- version 1
_V1_SLOT = re.compile(r"_(p|h|it|n)(\d+)\Z")


def upgrade_v1(data: dict, prog: Any, path: str = "save") -> dict:
    """A version-1 save as version 2: slots renamed, the move that can be taken back nested."""
    d = dict(data)
    d["version"] = 2
    frames = d.get("frames")
    if isinstance(frames, list):
        d["frames"] = [_upgrade_frame(f, prog, f"{path}.frames[{i}]") for i, f in enumerate(frames)]
    point, move = d.pop("abandon_point", None), d.pop("abandon_move", None)
    if point is not None:
        if not (isinstance(move, list) and len(move) == 2):
            raise _fail(f"{path}.abandon_move", "expected [rule, move]")
        d["abandon"] = {"point": upgrade_v1(point, prog, f"{path}.abandon_point") if isinstance(point, dict)
                        else point, "rule": move[0], "action": move[1]}
    else:
        d["abandon"] = None
    return d


def _upgrade_frame(f: Any, prog: Any, path: str) -> Any:
    """Version 1 named slots `_p9`, `_it12`: a counter in the order their ops were made. The
    counters of the slots a frame holds are matched, in order and by kind, to the block's
    slots; only the slots live at the frame's pc matter (the others are set again before they
    are read), and each of them must come out the same in every possible match."""
    if not (isinstance(f, list) and len(f) == 4 and isinstance(f[2], dict) and type(f[0]) is int
            and 0 <= f[0] < len(prog.blocks) and type(f[1]) is int):
        return f  # check_frame reports it
    bid, pc, local, rule = f
    slots = sorted(prog.blocks[bid].slots, key=lambda s: s.pc)
    held = sorted((int(m[2]), m[1], k) for k in local if (m := _V1_SLOT.match(k)))
    live = [i for i, s in enumerate(slots) if s.kept and s.live_start <= pc < s.live_end]
    found: dict[int, set[str]] = {i: set() for i in live}
    for chosen in itertools.combinations(range(len(slots)), len(held)):
        if all(slots[j].letter == h[1] for j, h in zip(chosen, held, strict=True)) and set(live) <= set(chosen):
            for j, h in zip(chosen, held, strict=True):
                if j in found:
                    found[j].add(h[2])
    out = {k: v for k, v in local.items() if not _V1_SLOT.match(k)}
    for i, keys in found.items():
        if len(keys) != 1:
            raise _fail(f"{path}[2]", "this version-1 save cannot be upgraded: its turn, phase and loop "
                        "slots do not match the ruleset's blocks")
        out[slots[i].name] = local[keys.pop()]
    return [bid, pc, out, rule]


def ruleset_of(data: dict, path: str = "save") -> Any:
    """Load the ruleset a save names, with the loader the API registered (rules_loader.py)."""
    from ...dsl.diagnostics import RulesError
    from .rules_loader import load_rules

    file = data.get("ruleset_file")
    if not isinstance(file, str):
        raise _fail(f"{path}.ruleset_file", "the save names no rules file; pass the ruleset")
    if not file.endswith(".rules"):  # a save is data from anywhere: it may not name any file
        raise _fail(f"{path}.ruleset_file", f"{file[:80]!r} is not a .rules file; pass the ruleset")
    if load_rules is None:
        raise _fail(f"{path}.ruleset_file", "no rules loader: import regelwerk, or pass the ruleset")
    try:
        return load_rules(file)
    except RulesError as err:  # where, not what: the file may not be rules text at all
        d = err.diagnostics[0]
        raise _fail(f"{path}.ruleset_file", f"cannot load {file!r}: it does not check "
                    f"({d.code} at {d.span.line}:{d.span.column})") from None
    except OSError as err:
        raise _fail(f"{path}.ruleset_file", f"cannot read {file!r}: {err.strerror}") from None


# ---------------------------------------------------------------------- chance nodes and the history
def node_from_json(j: Any, game: Any, path: str) -> ChanceNode | None:
    """A saved chance node, worked out again by replaying its move: a save names only the
    move, the decision and the outcomes chosen, never a chance event that could disagree."""

    if j is None:
        return None
    if not game.explicit:
        raise SaveError(f"{path}: a chance node in a game without explicit chance")
    if not isinstance(j, dict) or not isinstance(j.get("fed"), list) \
            or any(type(i) is not int or i < 0 for i in j["fed"]):
        raise SaveError(f"{path}: expected {{move, phase, pending, fed: [outcome numbers]}}")
    try:
        move = None if j.get("move") is None else parse_action(str(j["move"]))
    except IllegalAction as err:
        raise SaveError(f"{path}.move: {err.message}") from None
    phase = j.get("phase")
    if phase is not None and phase not in game.prog.phase_labels:
        raise SaveError(f"{path}.phase: {phase!r} is not a top-level phase")
    pending = check_pending(j.get("pending"), game, f"{path}.pending")
    if (move is None) != (pending is None):
        raise SaveError(f"{path}: a move needs the decision it answers, the start none")
    probe = game.clone()
    probe.pending, probe.chance_node = None, None
    try:
        advance(probe, move, phase, pending, tuple(j["fed"]))
    except (IllegalAction, EngineError) as err:
        raise SaveError(f"{path}: the move cannot be replayed: {err}") from None
    except Abandoned:
        raise SaveError(f"{path}: the move was taken back") from None
    if probe.chance_node is None:
        raise SaveError(f"{path}: the move needs no further outcome: not a chance node")
    return probe.chance_node


def dump_past(past: Any) -> list | None:
    if past is None:
        return None
    out = []
    cell = past
    while cell is not None:
        cell, entry = cell
        out.append(list(entry))
    out.reverse()
    return out


def load_past(j: Any, game: Any, path: str) -> Any:

    if j is None:
        return None
    if not isinstance(j, list):
        raise SaveError(f"{path}: expected a list of moves and chance outcomes")
    cell = None
    for n, e in enumerate(j):
        ok = isinstance(e, list) and len(e) == 3 and (
            (e[0] == "move" and e[1] in game.players and isinstance(e[2], str))
            or (e[0] == "chance" and type(e[1]) is int and e[1] >= 0 and isinstance(e[2], str)))
        if not ok:
            raise SaveError(f"{path}[{n}]: expected [\"move\", player, text] or [\"chance\", number, text]")
        cell = (cell, tuple(e))
    return cell
