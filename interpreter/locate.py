"""Where a run-time failure happened: the rule that was running, found on the Python stack.

Generated rule code runs in functions with systematic names (`B_3` a block, `AF_26` an
action's effect, `P_0` a procedure, `TB_1` a trigger body; interpreter/compile.py) whose
first argument is the game `G`. A helper that fails (`remove` of something not there, a
`draw` from an empty pile, `random` of nothing) or an error that reaches the command line
without a location is placed at the declaration of the rule that ran it. That is the rule,
not yet the statement: statement spans would have to be passed by the code generator.
"""

from __future__ import annotations

import re
import sys
from types import FrameType, TracebackType
from typing import Any

from ..dsl import ast as A
from .errors import EngineError, RuleFailure

_GENERATED = "<regelwerk:"
_NAMES = re.compile(r"(B|TT|TB|HB|P|DR|DV|INV)_(\d+)\Z")
_KINDS = {"action": "action", "procedure": "procedure", "when": "trigger", "on": "hook", "phase": "phase",
          "flow": "flow", "device": "device", "invariant": "invariant"}
_AT = re.compile(r"\S+:\d+:\d+")


def rule_of(frame: FrameType | None) -> tuple[Any, str] | None:
    """The game and the key of the innermost rule running at `frame` or outside it."""
    f = frame
    while f is not None:
        if f.f_code.co_filename.startswith(_GENERATED):
            game = f.f_locals.get("G")
            key = _key(game, f.f_code.co_name) if game is not None and hasattr(game, "prog") else None
            if key is not None:
                return game, key
        f = f.f_back
    return None


def _key(game: Any, fname: str) -> str | None:
    prog = game.prog
    m = _NAMES.match(fname)
    if m is None:
        for name, ca in prog.actions.items():
            if fname in {getattr(fn, "__name__", None) for fn in (ca.enum, ca.check, ca.explain, ca.effect, ca.any)}:
                return f"action:{name}"
        return None
    kind, i = m[1], int(m[2])
    model = prog.model
    if kind == "B":
        rule = prog.blocks[i].rule if i < len(prog.blocks) else None
        return f"phase:{game.phase}" if rule == "flow" and game.phase is not None else rule
    if kind in ("TT", "TB"):
        return f"when:{i}"
    if kind == "HB":
        return f"on:{i}"
    if kind == "P":
        names = list(model.procedures)
        return f"procedure:{names[i]}" if i < len(names) else None
    if kind in ("DR", "DV"):
        names = list(model.devices)
        return f"device:{names[i]}" if i < len(names) else None
    return f"invariant:{i}"


def rule_span(model: Any, key: str) -> A.Span | None:
    """The declaration of the rule `key` names."""
    kind, _, name = key.partition(":")
    try:
        if kind == "action":
            return model.actions[name].span
        if kind == "procedure":
            return model.procedures[name].span
        if kind == "when":
            return model.triggers[int(name)].span
        if kind == "on":
            return model.hooks[int(name)].span
        if kind == "phase":
            return model.phases[name].span
        if kind == "flow":
            return model.flow.span
        if kind == "device":
            return model.devices[name].span
        if kind == "invariant":
            return model.invariants[int(name)].span
    except (KeyError, IndexError, ValueError, AttributeError):
        return None
    return None


def describe(game: Any, key: str) -> str:
    """`action 'lay'`, `trigger 'when deck == []'`: the rule as a reader knows it."""
    kind = key.partition(":")[0]
    name = game.prog.rules.get(key, {}).get("name") or key.partition(":")[2] or key
    return f"{_KINDS.get(kind, kind)} '{name}'"


def failure(message: str, span: A.Span | None = None) -> RuleFailure:
    """A RuleFailure at `span`, or else at the declaration of the rule running the caller."""
    if span is None:
        found = rule_of(sys._getframe(1))
        if found is not None:
            game, key = found
            span = rule_span(game.prog.model, key)
            message = f"{message} (in {describe(game, key)})"
            return RuleFailure(message, span, key)
    return RuleFailure(message, span)


def locate(err: EngineError, game: Any = None) -> EngineError:
    """`err` with a location: its own, else the rule running where it was raised (from its
    traceback), else the rule of the game's top frame. Errors already located come back."""
    if (err.span is not None and err.span.line) or _AT.search(err.message):
        return err
    found = None
    for exc in (err.__cause__, err.__context__, err):  # the Python error a rule raised, first
        if found is None and exc is not None:
            found = rule_of(_innermost(exc.__traceback__))
    owner = found[0] if found is not None else game
    fired = getattr(owner, "_fired", None)
    if err.message.startswith("trigger chain") and fired:  # the trigger that fired last
        found = (owner, f"when:{fired[-1]}")
    if found is None and game is not None and getattr(game, "frames", None):
        frame = game.frames[-1]
        key = frame[3]
        if key == "flow" and game.phase is not None:
            key = f"phase:{game.phase}"
        found = (game, key)
    if found is None:
        return err
    g, key = found
    span = rule_span(g.prog.model, key)
    if span is None:
        return err
    located = type(err)(f"{err.message} (in {describe(g, key)})", span, key)
    located.__cause__ = err
    return located


def _innermost(tb: TracebackType | None) -> FrameType | None:
    frame = None
    while tb is not None:
        frame = tb.tb_frame
        tb = tb.tb_next
    return frame
