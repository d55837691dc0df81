"""E303: an action's preconditions are its leading `require` and plain `let` lines (the compiler's
split, interpreter/compiler/blocks.py action_preconditions). A `require` after any other
statement, or inside one, is not a precondition and is reported: after an effect, a `choose`,
an `if` (whatever its branches do), and a loop of any kind, a `repeat` without a count too."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from regelwerk.dsl.ast import RequireStmt, iter_nodes
from regelwerk.dsl.diagnostics import RulesError
from regelwerk.dsl.parse import parse_text
from regelwerk.interpreter.compiler.blocks import action_preconditions

import regelwerk

HEAD = "players X, O\nstate\n    n: int = 0\nprocedure bump\n    add 1 to n\naction a\n"
TAIL = "    set n = 1\nflow\n    repeat\n        turn\n            play a\n"
REQ = '    require n < 9 else "too many"\n'
FIRST = HEAD.count("\n") + 1  # the action body's first line

# name -> (the statements before the require, the message, whether the require is inside them)
AFTER = {
    "set": ("    set n = 2\n", "'require' after an effect: preconditions come first"),
    "do": ("    do bump\n", "'require' after an effect: preconditions come first"),
    "log": ('    log "x"\n', "'require' after an effect: preconditions come first"),
    "chance let": ("    let d = roll(1, 6)\n", "'require' after an effect: preconditions come first"),
    "choose": ("    choose k in [1, 2]\n", "'require' after a 'choose': preconditions come first"),
    "choose after a require": ('    require n < 5 else "early"\n    choose k in [1, 2]\n',
                               "'require' after a 'choose': preconditions come first"),
    "if that only finishes": ("    if n > 5\n        finish draw\n",
                              "'require' after an 'if': preconditions come first"),
    "if that only tests": ('    if n > 5\n        let m = n\n',
                           "'require' after an 'if': preconditions come first"),
    "if with an effect": ("    if n > 5\n        set n = 0\n", "'require' after an 'if': preconditions come first"),
    "repeat without a count": ("    repeat\n        add 1 to n\n        if n > 3\n            break\n",
                               "'require' after a 'repeat' loop: preconditions come first"),
    "repeat with a count": ("    repeat 2 times\n        add 1 to n\n",
                            "'require' after a 'repeat' loop: preconditions come first"),
    "for": ("    for k in [1, 2]\n        add k to n\n", "'require' after a 'for' loop: preconditions come first"),
    "while": ("    while n < 3\n        add 1 to n\n", "'require' after a 'while' loop: preconditions come first"),
}


def _e303(text: str) -> list[tuple[int, str, str | None]]:
    try:
        regelwerk.load_text(text, "a.rules")
    except RulesError as err:
        return [(d.span.line, d.message, d.help) for d in err.diagnostics if d.code == "E303"]
    return []


def _compiler_preconditions(text: str) -> list[int]:
    """The lines of the requires the compiler takes as the action's preconditions."""
    action = next(d for d in parse_text(text, "a.rules").decls if getattr(d, "name", None) == "a")
    pre, _ = action_preconditions(action, SimpleNamespace(devices={}))
    return [s.span.line for s in pre if isinstance(s, RequireStmt)]


@pytest.mark.parametrize("case", AFTER)
def test_a_require_after_the_preconditions_is_e303(case):
    before, message = AFTER[case]
    text = HEAD + before + REQ + TAIL
    line = FIRST + before.count("\n")
    ((at, got, help_),) = _e303(text)
    assert (at, got) == (line, message)
    end = FIRST + next(i for i, x in enumerate(before.splitlines()) if "require" not in x)
    assert help_.startswith(f"an action's preconditions are its leading 'require' and 'let' lines, and "
                            f"they end at line {end}: ")
    assert line not in _compiler_preconditions(text)  # the compiler would not test it for legality


@pytest.mark.parametrize("block", ["    if n > 5\n    ", "    for k in [1, 2]\n    ", "    repeat\n    "],
                         ids=["if", "for", "repeat"])
def test_a_require_inside_a_block_is_e303_even_first(block):
    """A `require` nested in the action's first statement is not a precondition either."""
    text = HEAD + block + REQ + ("        break\n" if "repeat" in block else "") + TAIL
    ((at, got, _),) = _e303(text)
    kind = block.split()[0]
    what = {"if": "an 'if'", "for": "a 'for' loop", "repeat": "a 'repeat' loop"}[kind]
    assert (at, got) == (FIRST + 1, f"'require' inside {what}: preconditions come first")


def test_leading_requires_and_lets_are_preconditions():
    before = '    let m = n + 1\n    require m < 5 else "one"\n    let k = m * 2\n'
    text = HEAD + before + REQ + TAIL
    assert _e303(text) == []
    assert _compiler_preconditions(text) == [FIRST + 1, FIRST + 3]


def test_a_procedure_may_require_after_an_effect():
    """A procedure has no preconditions: its `require` is an assertion where it stands."""
    text = HEAD.replace("    add 1 to n\n", "    add 1 to n\n" + REQ) + "    log \"x\"\n" + TAIL
    assert _e303(text) == []


def test_each_statement_reports_once():
    text = HEAD + "    choose k in [1, 2]\n" + REQ + REQ + TAIL
    assert [at for at, _, _ in _e303(text)] == [FIRST + 1, FIRST + 2]


def test_the_checker_and_the_compiler_agree_on_the_bundled_actions(rulesets):
    """Every require of a bundled action (they all check) is one of the compiler's preconditions."""
    for rules in rulesets.values():
        for a in rules.model.actions.values():
            pre, _ = action_preconditions(a, rules.model)
            requires = [s for s in iter_nodes(a) if isinstance(s, RequireStmt)]
            assert all(any(s is p for p in pre) for s in requires), a.name
