"""`quiet tail` (traced programs): a quiet procedure called as the last thing an action's effect
does keeps the move's step open while it writes nothing.

A quiet procedure (compile.quiet_body) ends its caller's step where it is called and, when it
wrote nothing, leaves the caller an automatic step of the caller's rule for what follows
(recording.quiet_push_code, quiet_pop_code). Where the call is the effect's last statement that
could write, note or fail (what follows only tests state variables and may finish the game),
nothing follows in that automatic step, which the move's close then drops: the move's step
closed at the call or at the effect's end is the same step. So there the effect calls `PT_n`,
which runs the body with the move's step left open and, only when the body wrote something (or
failed), makes the steps `P_n` would have made (`TraceRecorder._quiet_steps`). Checkers crowns
at the end of every move, mostly nobody: its step ended and an empty one made and dropped around
each call were about a sixth of what tracing adds to a checkers game's bytecodes.
"""

from __future__ import annotations

import ast
import re

_CALL = re.compile(r"^(\s*)if P_(\d+)\(G[,)]")
_TEST = re.compile(r"^(?:if|elif) (.+):$")
# `finish` with values that are names or literals: nothing in it can fail or note
_FINISH = re.compile(r"^G\.finish\('\w+', \[[\w' ,]*\], \d+\)$")
_STATE_READ = re.compile(r"V\['\w+'\]")
# a test of state variables (always present) and names by equality only: it cannot fail
_PLAIN_TEST = re.compile(r"^[\w\s'=!()]*$")
_CALLED = re.compile(r"[\w)]\s*\(")  # a call: a name or a call's value, then `(`
_WORDS = re.compile(r"\b(?:and|or|not|is)\b")  # operators, not names (before a paren)
_IN = re.compile(r"\bin\b")  # `x in s` fails where x cannot be hashed
_MARK = re.compile(r"\s*# @S[\d-]*$")  # a line's statement mark (interpreter/engine/locate.py)
_ENCLOSING = ("for ", "while ", "try:", "with ", "except", "finally:")


def tail_procedure(pid: int, key: str, params: list[str], body: list[str]) -> list[str] | None:
    """The lines of `PT_pid`, quiet procedure `pid`'s tail form, from its traced body's lines
    (indented for a `try`, its last `return False` left off); None where the body returns or
    copies another function's body (it must run to its end, once), or writes at its top level:
    one that always writes would always take the slow way (`_quiet_steps`; Root's
    `place_building`), so the form is for bodies whose writes all lie under a test (checkers'
    `crown`), which mostly write nothing."""
    if not body or any(line.strip().startswith("return") or "__inline__" in line for line in body):
        return None
    top = len(body[0]) - len(body[0].lstrip())
    if any(len(line) - len(line.lstrip()) == top and "J.extend(" in line for line in body):
        return None
    args = "".join(f", {p}" for p in params)
    return ["    if G._watched:  # the rule entries are watched: the usual steps",
            f"        return P_{pid}(G{args})",
            "    jm = len(G.journal)",
            "    try:",
            *body,
            "    except:  # the steps P_n leaves when it fails (any error: the namespace names few)",
            f"        G._quiet_steps({key}, jm)",
            "        raise",
            "    if len(G.journal) != jm:  # it wrote: its own step, the caller's ended before it",
            f"        G._quiet_steps({key}, jm)",
            "    return False"]


def tail_call(lines: list[str], tails: set[int]) -> int | None:
    """Make the effect's last call of a quiet procedure with a tail form (`tails`) a call of
    that form when it is in tail position: in no loop, and followed only by lines that test
    state variables, finish the game or return. The call's line, or None."""
    for i in range(len(lines) - 1, -1, -1):
        m = _CALL.match(lines[i])
        if m is None:
            continue
        if int(m.group(2)) not in tails or not _in_tail(lines, i, len(m.group(1))):
            return None
        lines[i] = lines[i].replace("if P_", "if PT_", 1)
        return i
    return None


def tail_parts(line: str) -> tuple[str, int, list[str]]:
    """The indentation, procedure number and arguments' code of a tail call's line `if
    PT_n(G, ...):` (`quiet tail inlined`)."""
    line = _MARK.sub("", line)
    call = ast.parse(line.strip().removeprefix("if ").removesuffix(":"), mode="eval").body
    assert isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
    return line[:len(line) - len(line.lstrip())], int(call.func.id[3:]), [ast.unparse(a) for a in call.args[1:]]


def _in_tail(lines: list[str], i: int, ind: int) -> bool:
    """Whether the call at line `i` (indented `ind`) is in no loop and what follows is silent."""
    if lines[i + 1:i + 2] != [" " * (ind + 4) + "return True"]:
        return False
    if not all(_silent(line) for line in lines[i + 2:]):
        return False
    for line in reversed(lines[:i]):  # the lines that enclose it
        depth = len(line) - len(line.lstrip())
        if depth < ind:
            if line.lstrip().startswith(_ENCLOSING):
                return False
            ind = depth
    return True


def _silent(line: str) -> bool:
    """Whether a line of an effect after the call writes, notes, calls and fails nothing."""
    s = _MARK.sub("", line).strip()
    if s in ("return True", "return False", "else:", "pass") or _FINISH.match(s):
        return True
    m = _TEST.match(s)
    test = "" if m is None else _WORDS.sub("=", _STATE_READ.sub("_", m.group(1)))
    return m is not None and bool(_PLAIN_TEST.match(test)) and not _CALLED.search(test) and not _IN.search(test)
