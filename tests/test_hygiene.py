"""Hygiene (issue 24): no user name or text can collide with the engine's generated code.

Every identifier in the generated code of the bundled rulesets (both variants), and Python's
builtins and keywords, is used as a user name in every position the language has: `check`
accepts it or refuses it with a located error, a game with it runs without an internal
error, and the names reach the trace as written. Every such identifier, and texts made to
look like code, is used in every text position (quote, note, log, require and abandon
messages, text values): each reaches the trace or the explanation exactly as written.

The names are tried in batches, one ruleset per batch and position; a batch that `check`
refuses is split until each refused name stands alone, with its located error. Templates use
names that start with `zz` for their own scaffolding, which no generated code uses.
"""

from __future__ import annotations

import builtins
import json
import keyword
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from regelwerk.dsl.diagnostics import RulesError
from regelwerk.interpreter.engine.errors import EngineError
from regelwerk.interpreter.stdlib.library import LIBRARY
from regelwerk.interpreter.tools.trace import trace_lines

import regelwerk

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = ["rulesets/classic/tictactoe.rules", "rulesets/classic/connect4.rules",
           "rulesets/classic/breakthrough.rules", "rulesets/classic/checkers.rules", "rulesets/examples/pig.rules",
           "rulesets/examples/climb.rules", "rulesets/examples/kuhn.rules", "rulesets/examples/leduc.rules",
           "rulesets/examples/goofspiel.rules", "rulesets/khan/khan.rules", "rulesets/shogun/shogun.rules",
           "rulesets/root/root.rules"]
BATCH = 60
LOCATED = re.compile(r"^\S+:\d+:\d+: (error|warning): ", re.M)


def generated_identifiers() -> set[str]:
    """Every name, function, parameter, attribute and keyword argument in the generated code."""
    import ast

    found: set[str] = set()
    for path in BUNDLED:
        ruleset = regelwerk.load(ROOT / path)
        for record in (False, True):
            for node in ast.walk(ruleset.program(record).syntax_tree()):
                if isinstance(node, ast.Name):
                    found.add(node.id)
                elif isinstance(node, (ast.FunctionDef, ast.Lambda)) and hasattr(node, "name"):
                    found.add(node.name)
                elif isinstance(node, ast.arg):
                    found.add(node.arg)
                elif isinstance(node, ast.Attribute):
                    found.add(node.attr)
                elif isinstance(node, ast.keyword) and node.arg:
                    found.add(node.arg)
            found.update(n for n in ruleset.program(record).namespace if n.isidentifier())
    return found


@pytest.fixture(scope="module")
def all_names() -> list[str]:
    pool = generated_identifiers() | set(dir(builtins)) | set(keyword.kwlist) | set(keyword.softkwlist)
    assert {"G", "V", "K", "J", "L", "F", "m", "pc", "out", "legal", "_cur", "_mover", "__builtins__",
            "_kc0", "_sv0", "SPANS", "print", "exec", "True", "None", "lambda"} <= pool
    return sorted(n for n in pool if not n.startswith("zz"))


@pytest.fixture(scope="module")
def names(all_names: list[str]) -> list[str]:
    """Generated names are a prefix and a number (`AE_12`, `_kc0`): of each family, the
    first and the last, and every other name. The whole pool: `-m slow`."""
    families: dict[str, list[str]] = {}
    for n in all_names:
        families.setdefault(re.sub(r"\d+", "#", n), []).append(n)
    return sorted({n for members in families.values() for n in (members[0], members[-1])})


# ---------------------------------------------------------------- one ruleset per position
def _indented(lines: list[str], depth: int = 1) -> str:
    return "\n".join("    " * depth + line for line in lines)


HEAD = 'game "hygiene"\n'


def _member(ns: list[str]) -> str:
    worth = ", ".join(f"{n}: {i + 1}" for i, n in enumerate(ns))
    return f"""{HEAD}players zzA, zzB
enum zzThing = {", ".join(ns)}
const zzWORTH = {{{worth}}}
state
    zzpicked: zzThing? = none
    zztotal: int = 0
action zzpick(t: zzThing)
    require zzWORTH[t] > 0
    set zzpicked = t
    add zzWORTH[t] to zztotal
flow
    repeat 3 times
        turn
            play zzpick
    finish draw
"""


def _player(ns: list[str]) -> str:
    return f"""{HEAD}players {", ".join(ns)}
const zzSEATS = [{", ".join(ns)}]
state
    zzscore: Player -> int = 0
action zzstep
    require current in zzSEATS
    add 1 to zzscore[current]
flow
    turn {ns[0]}
        play zzstep
    repeat 2 times
        turn
            play zzstep
    finish ranking p by zzscore[p]
"""


def _state(ns: list[str]) -> str:
    return f"""{HEAD}players zzA, zzB
state
{_indented([f"{n}: int = {i}" for i, n in enumerate(ns)])}
action zzbump
{_indented([f"require {n} >= 0" for n in ns])}
{_indented([f"add 1 to {n}" for n in ns])}
flow
    repeat 2 times
        turn
            play zzbump
    finish draw
"""


def _action(ns: list[str]) -> str:
    actions = "\n".join(f"action {n}\n    require zztotal >= 0\n    add {i + 1} to zztotal" for i, n in enumerate(ns))
    return f"""{HEAD}players zzA, zzB
state
    zztotal: int = 0
{actions}
flow
    repeat 3 times
        turn
            play {", ".join(ns)}
    finish draw
"""


def _parameter(ns: list[str]) -> str:
    actions = "\n".join(f"action zza{i}({n} in 1..2)\n    require {n} > 0\n    add {n} to zztotal"
                        for i, n in enumerate(ns))
    return f"""{HEAD}players zzA, zzB
state
    zztotal: int = 0
{actions}
flow
    repeat 3 times
        turn
            play {", ".join(f"zza{i}" for i in range(len(ns)))}
    finish draw
"""


def _let(ns: list[str]) -> str:
    chain = [f"let {ns[0]} = 1"] + [f"let {n} = {prev} + 1" for prev, n in zip(ns, ns[1:], strict=False)]
    return f"""{HEAD}players zzA, zzB
state
    zztotal: int = 0
action zzstep
{_indented(chain)}
    require {ns[-1]} > 0
    add {ns[-1]} to zztotal
    let zzagain = zztotal
{_indented([f"let {n} = zzagain + 1" for n in ns])}
    add {ns[0]} to zztotal
flow
    repeat 2 times
        turn
            play zzstep
    finish draw
"""


def _define(ns: list[str]) -> str:
    defines = "\n".join(f"define {n}(zzx: int) = zzx + {i}" for i, n in enumerate(ns))
    return f"""{HEAD}players zzA, zzB
state
    zztotal: int = 0
{defines}
action zzstep
{_indented([f"require {n}(0) >= 0" for n in ns])}
{_indented([f"add {n}(1) to zztotal" for n in ns])}
flow
    repeat 2 times
        turn
            play zzstep
    finish draw
"""


def _define_parameter(ns: list[str]) -> str:
    defines = "\n".join(f"define zzd{i}({n}: int) = {n} + 1" for i, n in enumerate(ns))
    return f"""{HEAD}players zzA, zzB
state
    zztotal: int = 0
{defines}
action zzstep
{_indented([f"add zzd{i}(1) to zztotal" for i in range(len(ns))])}
flow
    turn
        play zzstep
    finish draw
"""


def _constant(ns: list[str]) -> str:
    consts = "\n".join(f"const {n} = {i}" for i, n in enumerate(ns))
    return f"""{HEAD}players zzA, zzB
{consts}
state
    zztotal: int = 0
action zzstep
{_indented([f"require {n} >= 0" for n in ns])}
{_indented([f"add {n} to zztotal" for n in ns])}
flow
    turn
        play zzstep
    finish draw
"""


def _option(ns: list[str]) -> str:
    options = "\n".join(f"option {n}: int = {i}" for i, n in enumerate(ns))
    return f"""{HEAD}players zzA, zzB
{options}
state
    zztotal: int = 0
action zzstep
{_indented([f"require {n} >= 0" for n in ns])}
{_indented([f"add {n} to zztotal" for n in ns])}
flow
    turn
        play zzstep
    finish draw
"""


def _text_key(ns: list[str]) -> str:
    table = ", ".join(f'"{n}": {i}' for i, n in enumerate(ns))
    return f"""{HEAD}players zzA, zzB
const zzT = {{{table}}}
state
    zztotal: int = 0
action zzstep
{_indented([f'add zzT["{n}"] to zztotal' for n in ns])}
flow
    turn
        play zzstep
    finish draw
"""


def _field(ns: list[str]) -> str:
    fields = ", ".join(f"{n}: int" for n in ns)
    value = ", ".join(f"{n}: {i}" for i, n in enumerate(ns))
    return f"""{HEAD}players zzA, zzB
record zzR({fields})
const zzRV = zzR({value})
state
    zzrec: zzR = zzRV
action zzstep
{_indented([f"require zzrec.{n} >= 0" for n in ns])}
{_indented([f"set zzrec.{n} = zzrec.{n} + zzRV.{n} + 1" for n in ns])}
flow
    turn
        play zzstep
    finish draw
"""


def _phase(ns: list[str]) -> str:
    phases = "\n".join(f"    phase {n}\n        turn\n            play zzstep" for n in ns)
    return f"""{HEAD}players zzA, zzB
state
    zztotal: int = 0
action zzstep
    add 1 to zztotal
flow
{phases}
    finish draw
"""


def _device(ns: list[str]) -> str:
    devices = "\n".join(f"device {n}: int\n    roll\n        let zzf = roll(1, 6)\n        result zzf[0]"
                        for n in ns)
    uses = "\n".join(f"action zzuse{i}\n    let zzw = {n}()\n    add zzw to zztotal" for i, n in enumerate(ns))
    return f"""{HEAD}players zzA, zzB
state
    zztotal: int = 0
{devices}
{uses}
flow
    repeat 2 times
        turn
            play {", ".join(f"zzuse{i}" for i in range(len(ns)))}
    finish draw
"""


def _procedure(ns: list[str]) -> str:
    procs = "\n".join(f"procedure {n}\n    add {i + 1} to zztotal" for i, n in enumerate(ns))
    return f"""{HEAD}players zzA, zzB
state
    zztotal: int = 0
{procs}
action zzstep
    add 1 to zztotal
flow
{_indented([f"do {n}" for n in ns])}
    turn
        play zzstep
    finish draw
"""


def _procedure_parameter(ns: list[str]) -> str:
    procs = "\n".join(f"procedure zzp{i}({n}: int)\n    add {n} to zztotal" for i, n in enumerate(ns))
    return f"""{HEAD}players zzA, zzB
state
    zztotal: int = 0
{procs}
action zzstep
    add 1 to zztotal
flow
{_indented([f"do zzp{i}({i})" for i in range(len(ns))])}
    turn
        play zzstep
    finish draw
"""


POSITIONS: dict[str, Callable[[list[str]], str]] = {
    "enum member (and map-literal key)": _member, "player": _player, "state variable": _state,
    "action": _action, "action parameter": _parameter, "let": _let, "define": _define,
    "define parameter": _define_parameter, "constant": _constant, "option": _option,
    "map-literal text key": _text_key, "record field": _field, "phase": _phase, "device": _device,
    "procedure": _procedure, "procedure parameter": _procedure_parameter,
}


def _load(text: str) -> regelwerk.Ruleset | str:
    """The ruleset, or the checker's report (every line of it located)."""
    try:
        return regelwerk.load_text(text, "hygiene.rules")
    except RulesError as err:
        report = err.format()
        errors = [d for d in err.diagnostics if d.severity == "error"]
        assert errors, report
        for d in errors:
            assert LOCATED.match(d.format()), d.format()
            assert d.span.line > 0 and d.span.column > 0, d.format()
        return report


def _play(ruleset: regelwerk.Ruleset, steps: int = 12) -> list[dict]:
    """A traced game with the first legal move each time: its trace records."""
    game = ruleset.new_game(record=True, seed=1)
    for _ in range(steps):
        if game.is_over:
            break
        moves = game.legal_actions()
        assert moves, "a decision without moves"
        game.apply(moves[0])
    return [json.loads(line) for line in trace_lines(game)]


def _strings(value: object) -> set[str]:
    """Every text in a trace record: keys and values, at any depth."""
    out: set[str] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            out.add(v)
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return out


def _accepted(template: Callable[[list[str]], str], batch: list[str], refused: dict[str, str]) -> list[str]:
    """The names of `batch` the checker accepts in the template; refused ones (each with its
    located report) go to `refused`. A refused batch is halved until each refusal stands alone."""
    loaded = _load(template(batch))
    if not isinstance(loaded, str):
        _run_clean(loaded, batch, template)
        return batch
    if len(batch) == 1:
        refused[batch[0]] = loaded
        return []
    half = len(batch) // 2
    return _accepted(template, batch[:half], refused) + _accepted(template, batch[half:], refused)


def _run_clean(ruleset: regelwerk.Ruleset, batch: list[str], template: Callable) -> None:
    try:
        records = _play(ruleset)
    except EngineError as err:  # a rule failure would be the template's fault; an internal error, ours
        raise AssertionError(f"{template.__name__} with {batch}: {err}") from err
    texts = set().union(*map(_strings, records))
    if template in (_state, _action, _phase, _field):  # the name itself is what the trace shows
        shown = [n for n in batch if n in texts or any(n in t for t in texts)]
        assert shown, (template.__name__, batch)


@pytest.mark.parametrize("pool", ["names", pytest.param("all_names", marks=pytest.mark.slow)])
@pytest.mark.parametrize("position", list(POSITIONS))
def test_every_generated_identifier_is_a_safe_user_name(position: str, pool: str,
                                                        request: pytest.FixtureRequest) -> None:
    names = request.getfixturevalue(pool)
    template = POSITIONS[position]
    refused: dict[str, str] = {}
    accepted = []
    for i in range(0, len(names), BATCH):
        accepted += _accepted(template, names[i:i + BATCH], refused)
    # what the language reserves is refused, with its reason; everything else is a name
    assert {"G", "V", "_cur", "out", "pc", "print", "exec", "lambda"} <= set(accepted), sorted(refused)
    reserved = set(keyword.kwlist) | set(dir(builtins)) | {"current", "players", "Player", "round", "pass",
                                                           "choose", "outcome", "detail"} | set(LIBRARY)
    unexpected = {n: r for n, r in refused.items() if not n.startswith("__") and n not in reserved}
    assert not unexpected, unexpected


# ---------------------------------------------------------------- texts
TRICKY = ["_cur", "out.append(", "return", "  return  ", "'", "''", '"', "\\", "\\n", "a\nb", "{}", "{0}", "%s",
          "# @S3", "# @S-", "pc = 3", "__inline__(0)", "G.vars['x']", "L = F[2]", "_kc0[p0]", "ñandú — “quote”",
          "\t", "end."]


def _escaped(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


def _texts(ts: list[str]) -> str:
    says = "\n".join(f"""action zzsay{i}
    {_escaped(t)}
    note {_escaped(t)}
    log {_escaped(t)}
    set zzlabel = {_escaped(t)}""" for i, t in enumerate(ts))
    refusals = "\n".join(f"action zzno{i}\n    require zzlabel == \"zz never\" else {_escaped(t)}\n    add 1 to zzn"
                         for i, t in enumerate(ts))
    abandons = "\n".join(f"action zzab{i}\n    add 1 to zzn\n    abandon {_escaped(t)}" for i, t in enumerate(ts))
    turns = "\n".join(f"    turn\n        play zzsay{i}\n    turn\n        play optional zzab{i}"
                      for i in range(len(ts)))
    return f"""{HEAD}players zzA, zzB
state
    zzlabel: text = ""
    zzn: int = 0
{says}
{refusals}
{abandons}
flow
{turns}
    turn
        play {", ".join(f"zzno{i}" for i in range(len(ts)))}, zzsay0
    finish draw
"""


def test_every_text_reaches_the_trace_as_written(names: list[str]) -> None:
    texts = TRICKY + names
    for start in range(0, len(texts), BATCH):
        batch = texts[start:start + BATCH]
        loaded = _load(_texts(batch))
        assert not isinstance(loaded, str), loaded
        game = loaded.new_game(record=True, seed=1)
        played: set[str] = set()
        for _ in range(10 * len(batch)):  # every say, every abandon, up to the last turn
            moves = game.legal_actions()
            move = next((m for m in moves if m.name.startswith(("zzsay", "zzab"))), moves[0])
            if move.name in played and move.name.startswith("zzsay"):
                break  # the last turn: it offers the refusals too
            played.add(move.name)
            game.apply(move)
        else:
            raise AssertionError("the last turn was never reached")
        for i, text in enumerate(batch):  # a refusal's message, in the explanation
            assert game.explain(f"zzno{i}").reason == text
        records = [json.loads(line) for line in trace_lines(game)]
        said: dict[str, dict] = {}
        for r in records:
            if str(r.get("rule", "")).startswith("zzsay"):
                said.setdefault(r["rule"], r)
        for i, text in enumerate(batch):
            step = said[f"zzsay{i}"]
            assert step["quote"] == text and step["note"] == text, (step, text)
            assert text in _strings(step.get("events", [])), (step, text)  # the log
            assert text in _strings(step.get("changes", [])), (step, text)  # the text value
        abandoned = _strings([r.get("events", []) for r in records
                              if (r.get("decision") or {}).get("kind") == "abandoned"])
        assert set(batch) <= abandoned, set(batch) - abandoned
