"""Where a run-time failure happened: the rule that was running, found on the Python stack.

Generated rule code runs in functions with systematic names (`B_3` a block, `AF_26` an
action's effect, `P_0` a procedure, `TB_1` a trigger body; interpreter/compiler/compile.py) whose
first argument is the game `G`. A helper that fails (`remove` of something not there, a
`draw` from an empty pile, `random` of nothing) or an error that reaches the command line
without a location is placed at the statement that ran it: the code generator marks the first
generated line of every statement with `# @S<n>`, the index of its span in the program's SPANS
table, and the nearest mark above the failing line names the statement; a block marks the start of each
op's section `# @S-` so no op is placed at an earlier op's statement. An action's
preconditions and parameters are marked too (interpreter/compiler/actiongen.py), also where
its listing is copied into a block: the rule is the function the failing line was written in
(`source_function`). A function with no mark above the line (a definition) leaves the place
to the code that called it; with none at all, the declaration of the rule that ran it is the
place. Python's own errors are said in a rule author's words (`plain`).
"""

from __future__ import annotations

import re
import sys
from types import FrameType, TracebackType
from typing import Any

from ...dsl import ast as A
from .errors import EngineError, RuleFailure

_GENERATED = "<regelwerk:"
_NAMES = re.compile(r"(BA|B|TT|TB|HB|PT|P|DR|DV|INV)_(\d+)\Z")
_KINDS = {"action": "action", "procedure": "procedure", "when": "trigger", "on": "hook", "phase": "phase",
          "flow": "flow", "device": "device", "invariant": "invariant"}
_AT = re.compile(r"\S+:\d+:\d+")


def rule_of(frame: FrameType | None) -> tuple[Any, str] | None:
    """The game and the key of the innermost rule running at `frame` or outside it."""
    f = frame
    while f is not None:
        if f.f_code.co_filename.startswith(_GENERATED):
            game = f.f_locals.get("G")
            key = _key(game, source_function(f, f.f_lineno), f.f_locals.get("m")) if game is not None and hasattr(
                game, "prog") else None
            if key is not None:
                return game, key
        f = f.f_back
    return None


def failing_rule(game: Any, tb: TracebackType | None) -> str | None:
    """The key of the rule whose code raised the error of traceback `tb`: the innermost
    generated frame that runs a rule's code (a definition is not a rule: the rule that called
    it), by the function its failing line was written in."""
    for t in reversed(_generated(tb)):
        key = _key(game, source_function(t.tb_frame, t.tb_lineno), t.tb_frame.f_locals.get("m"))
        if key is not None:
            return key
    return None


def source_function(frame: FrameType, lineno: int | None) -> str:
    """The name of the generated function whose text holds line `lineno` of `frame`'s code:
    the frame's own, or the one whose body was copied into it (an action's listing copied into
    the block that offers it keeps its lines: interpreter/compiler/pytree.py), so that code
    is the copied function's rule's."""
    lines = frame.f_globals.get("_SOURCE_LINES")
    if lines and lineno:
        i = min(lineno, len(lines)) - 1
        while i >= 0:
            line = lines[i]
            if line.startswith("def "):
                return line[4:line.index("(")]
            i -= 1
    return frame.f_code.co_name


def _generated(tb: TracebackType | None) -> list[TracebackType]:
    """The traceback's entries in generated code, outermost first."""
    out = []
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.startswith(_GENERATED):
            out.append(tb)
        tb = tb.tb_next
    return out


def _key(game: Any, fname: str, move: Any = None) -> str | None:
    """The rule a generated function runs; a block playing a move in place (its local `m`,
    interpreter/compiler/machine.py) runs that move's action."""
    prog = game.prog
    m = _NAMES.match(fname)
    if m is None:
        for name, ca in prog.actions.items():
            if fname in {getattr(fn, "__name__", None) for fn in (ca.enum, ca.check, ca.explain, ca.effect, ca.any)}:
                return f"action:{name}"
        return None
    kind, i = m[1], int(m[2])
    model = prog.model
    if kind in ("B", "BA"):  # BA_n: block n's moves played by a fused apply (compiler/machine.py)
        if move is not None:
            return f"action:{move[0]}"
        rule = prog.blocks[i].rule if i < len(prog.blocks) else None
        return f"phase:{game.phase}" if rule == "flow" and game.phase is not None else rule
    if kind in ("TT", "TB"):
        return f"when:{i}"
    if kind == "HB":
        return f"on:{i}"
    if kind in ("P", "PT"):  # PT_n: a quiet procedure's tail form (compiler/quiettail.py)
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


_MARK = re.compile(r"# @S(\d+|-)$")  # `# @S-`: no statement from here on (a block's next op)


def statement_span(tb: TracebackType | None) -> A.Span | None:
    """The rule statement a Python error was raised in: the innermost generated frame of the
    traceback with a statement at the line it raised from (a definition has none: the
    statement or precondition that called it)."""
    for t in reversed(_generated(tb)):
        span = _marked(t.tb_frame, t.tb_lineno)
        if span is not _UNMARKED:
            return span
    return None


def calling_statement(frame: FrameType | None) -> A.Span | None:
    """The rule statement running at `frame` or outside it (a helper that fails asks this)."""
    while frame is not None:
        if frame.f_code.co_filename.startswith(_GENERATED):
            span = _marked(frame, frame.f_lineno)
            if span is not _UNMARKED:
                return span
        frame = frame.f_back
    return None


_UNMARKED: Any = object()  # no mark up to the top of the function: ask the code that called it


def _marked(frame: FrameType, lineno: int | None) -> A.Span | None:
    """The nearest statement mark (`# @S<n>`, interpreter/compiler/codegen.py) at or above `lineno`
    within its generated function: the span of that statement; None for a mark of no
    statement (`# @S-`), _UNMARKED where the function has no mark above the line."""
    lines = frame.f_globals.get("_SOURCE_LINES")
    spans = frame.f_globals.get("SPANS")
    if not lines or spans is None or not lineno:
        return None
    i = min(lineno, len(lines)) - 1
    while i >= 0 and not lines[i].startswith("def "):
        m = _MARK.search(lines[i])
        if m is not None:
            if m[1] == "-":
                return None
            k = int(m[1])
            return spans[k] if k < len(spans) else None
        i -= 1
    return _UNMARKED


_PLAIN = {
    IndexError: "no such place in the list (an index past its end, or a draw or pick from too few)",
    KeyError: "no entry {arg} in the map or table",
    ZeroDivisionError: "division by zero",
    RecursionError: "rules nested too deeply: a definition, procedure or trigger that calls itself without end?",
    OverflowError: "a number too large to work with",
    MemoryError: "not enough memory: a value grew too large",
}


def plain(err: BaseException) -> str:
    """A Python error raised inside a rule, in a rule author's words (the Python name after it,
    for the engineers)."""
    for kind, text in _PLAIN.items():
        if isinstance(err, kind):
            arg = err.args[0] if err.args else "?"
            return text.replace("{arg}", repr(arg) if not isinstance(arg, str) else arg) + \
                f" [{type(err).__name__}]"
    return f"{type(err).__name__}: {err}"


def describe(game: Any, key: str) -> str:
    """`action 'lay'`, `trigger 'when deck == []'`: the rule as a reader knows it."""
    kind = key.partition(":")[0]
    name = game.prog.rules.get(key, {}).get("name") or key.partition(":")[2] or key
    return f"{_KINDS.get(kind, kind)} '{name}'"


def failure(message: str, span: A.Span | None = None) -> RuleFailure:
    """A RuleFailure at `span`, or else at the declaration of the rule running the caller."""
    if span is None:
        caller = sys._getframe(1)
        found = rule_of(caller)
        if found is not None:
            game, key = found
            span = calling_statement(caller) or rule_span(game.prog.model, key)
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
    span = None
    for exc in (err.__cause__, err.__context__, err):
        if span is None and exc is not None:
            span = statement_span(exc.__traceback__)
    span = span or rule_span(g.prog.model, key)
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
