"""Every diagnostic code in docs/errors.md, each asserted with its exact message and where it
points (issue 10 §5: a fixed catalogue). A code added to the docs without a case here fails
`test_every_documented_code_is_in_the_catalogue`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from regelwerk.dsl import parse
from regelwerk.dsl.diagnostics import Diagnostic, RulesError

import regelwerk

DOCS = Path(__file__).resolve().parent.parent / "docs" / "errors.md"
G = "players X, O\n"
A = "action a\n    log \"x\"\n"
F = "flow\n    repeat\n        turn\n            play a\n"

# code -> (rules text, line, column, exact message) for the codes a text alone can cause
TEXTS = {
    'E001': (G + "flow\n    finish draw $\n",
             3, 17, "unexpected character '$'"),
    'E002': (G + "action a(s: int\n",
             2, 9, "'(' is never closed"),
    'E003': (G + "actoin place\n",
             2, 1, "unknown keyword 'actoin'"),
    'E005': (G + "const a = " + "[" * 61 + "1" + "]" * 61 + "\n" + "flow\n    finish draw\n",
             2, 71, 'nesting deeper than 60 levels'),
    'E009': (G + "const a = [" + "1, " * 60_000 + "1]\n" + A + F,
             2, 150_000, 'more than 100,000 tokens (names, numbers, texts and signs) in one file'),
    'E101': (G + "const __x = 1\n" + A + F,
             2, 1, "'__x' is reserved: names may not start with '__'"),
    'E102': (G + "const k = 1\nconst k = 2\n" + A + F,
             3, 1, "duplicate definition of 'k' (constant)"),
    'E103': ("players 1..3 from X, O\n" + A + F,
             1, 1, 'player count 1..3 does not fit 2 names'),
    'E104': (G + "board B = grid 60 x 3\n" + A + F,
             2, 1, 'a grid is 1..52 columns by 1..99 rows'),
    'E105': (A,
             1, 1, "no 'players' declaration"),
    'E201': (G + "state\n    n: Nmber = 0\n" + A + F,
             3, 8, "unknown type 'Nmber'"),
    'E202': (G + "action a\n    require nope\n" + F,
             3, 13, "unknown name 'nope'"),
    'E203': (G + "define d(x: int) = x\naction a\n    require d > 1\n" + F,
             4, 13, "'d' is a definition: call it as d(...)"),
    'E204': (G + "state\n    m: Player -> int = 0\naction a\n    require m[3] > 0\n" + F,
             5, 15, 'map key should be Player, not int'),
    'E205': (G + "state\n    n: int = 0\naction a\n    require n[1] > 0\n" + F,
             5, 13, 'cannot index a value of type int'),
    'E206': (G + "record R(x: int)\nconst r = R(x: 1)\naction a\n    require r.y > 0\n" + F,
             5, 13, "record R has no field 'y'"),
    'E207': (G + "action a\n    require current + 1 > 0\n" + F,
             3, 13, "'+' needs numbers, not Player"),
    'E208': (G + "action a\n    require 3 in 4\n" + F,
             3, 18, "'in' needs a list, set or map on the right, not int"),
    'E209': (G + "action a\n    require current == 3\n" + F,
             3, 13, 'comparing Player with int is always false'),
    'E210': (G + "action a\n    require all p in players\n" + F,
             3, 13, "'all' needs a condition after ':'"),
    'E211': (G + "action a\n    require 3\n" + F,
             3, 13, 'expected a condition (true/false), found int'),
    'E212': (G + "define d(x: int) = x\naction a\n    require d(1, 2) > 0\n" + F,
             4, 13, "'d' takes 1 argument(s), got 2"),
    'E213': (G + "procedure p\n    log \"x\"\naction a\n    require p() > 0\n" + F,
             5, 13, "'p' is a procedure: run it with 'do p(...)'"),
    'E214': (G + "action a\n    require nofunc(1) > 0\n" + F,
             3, 13, "unknown function 'nofunc'"),
    'E215': (G + "state\n    n: int = 0\naction a\n    set n = len(roll(1, 6))\n" + F,
             5, 17, "'roll' draws on chance: use it only as 'let x = roll(...)'"),
    'E216': (G + "state\n    n: int = 0\naction a\n    set n = current\n" + F,
             5, 13, "cannot store a Player in 'n' of type int"),
    'E217': (G + "state\n    n: int = 0\naction a\n    let n = 1\n" + F,
             5, 5, "'let n' would hide the state or constant 'n'"),
    'E218': (G + "action a\n    do nothing_here\n" + F,
             3, 5, "unknown procedure 'nothing_here'"),
    'E219': (G + "flow\n    repeat\n        turn\n            play b\n" + A,
             5, 13, "unknown action 'b'"),
    'E220': (G + "state\n    who: Player\n" + A + F,
             3, 5, "'who' of type Player needs a default value"),
    'E221': (G + "action a\n    goto nowhere\n" + F,
             3, 5, "unknown phase 'nowhere'"),
    'E222': (G + "action a\n    goto inner\nflow\n    phase outer\n        phase inner\n            turn\n                play a\n",
             3, 5, "'goto inner': only phases at the top of the flow can be jumped to"),
    'E223': (G + "action a(n: int)\n    log \"x\"\n" + F,
             2, 10, "parameter 'n: int' has no finite domain"),
    'E224': (G + A + F + "scenario \"s\"\n    option nope = 1\n",
             9, 5, "unknown option 'nope'"),
    'E225': (G + "const r = Nope(x: 1)\n" + A + F,
             2, 11, "unknown record 'Nope'"),
    'E226': (G + "record R(x: int, y: int)\nconst r = R(x: 1)\n" + A + F,
             3, 11, 'R(...) is missing field(s) y'),
    'E227': (G + A + F + "scenario \"s\"\n    script nope returns [1]\n",
             9, 5, "'nope' is not a chance device"),
    'E228': (G + "state\n    xs: list int = []\naction a\n    set xs[0] = 1\n" + F,
             5, 9, "cannot assign into an item of the list 'xs': lists are values"),
    'E229': (G + "display Nope: x\n" + A + F,
             2, 1, "'display Nope': not a board"),
    'E301': (G + "action a\n    set nope = 1\n" + F,
             3, 9, "write to undeclared state 'nope'"),
    'E302': (G + "action a\n    finish draw\n    log \"x\"\n" + F,
             4, 5, 'unreachable statement'),
    'E303': (G + "state\n    n: int = 0\naction a\n    set n = 1\n    require n > 0\n" + F,
             6, 5, "'require' after an effect: preconditions come first"),
    'E304': (G + "action a\n    play a\n" + F,
             3, 5, "'play' offers actions: use it in the flow or a procedure"),
    'E305': (G + "action a\n    break\n" + F,
             3, 5, "'break' outside a loop"),
    'E306': (G + A + "flow\n    repeat\n        turn\n            play a\n    phase never\n        turn\n            play a\n",
             8, 5, "phase 'never' can never be reached"),
    'E307': (G + "state\n    n: int = 0\ndevice coin: int\n    roll\n        set n = 1\n        result 1\n" + A + F,
             6, 9, "a device's roll part may not change the state; do that in 'settle'"),
    'E308': (G + "device coin: int\n    roll\n        log \"x\"\n" + A + F,
             2, 1, "device 'coin': its roll part must end with 'result <outcome>'"),
    'E309': (G + "action a\n    result 1\n" + F,
             3, 5, "'result' belongs in a device's roll part"),
    'E310': (G + "procedure p\n    abandon \"no\"\n" + A + F,
             3, 5, "'abandon' belongs in an action: it takes the action back"),
    'E311': (G + A + "flow\n    repeat\n        turn\n            play optional a else finish draw\n",
             7, 34, "this 'else' never runs: the player may always pass"),
    'E230': (G + "state\n    pile: list int = []\n    n: int = 0\nconserve [1, 2] across pile, n\n" + A + F,
             5, 30, "zone 'n' is int: a zone is a list or set, or a map of them"),
    'E240': (G + "const C = 1 // 0\n" + A + F,
             2, 16, "division by zero: the divisor is always 0"),
    'E244': (G + "const XS = [1, 2]\nconst Y = XS[2]\n" + A + F,
             3, 11, "'XS[2]' cannot be worked out: index 2 is past the end of a list of 2"),
    'E241': (G + "define f(k: int): int = g(k)\ndefine g(k: int) = f(k)\nconst C = f(3)\n" + A + F,
             2, 1, "definition 'f' calls itself (f → g → f) without a declared type"),
    'E242': (G + "state\n    n: int = 0\naction a\n    require possible(a)\n    add 1 to n\n" + F,
             5, 13, "the preconditions of 'a' ask possible(a): that would ask itself without end"),
    'E243': (G + "const C = count x in 5: x > 1\n" + A + F,
             2, 22, "'count' goes over a list, set, map or range, not int"),
    'E245': (G + "state\n    pick: int? = none\n    n: int = 0\naction a\n    add pick to n\n" + F,
             6, 9, "'pick' may be none, but 'add' needs a value"),
    'E246': (G + "state\n    pile: list int = []\n    n: int = len(pile)\n" + A + F,
             4, 14, "the start value of 'n' reads the state variable 'pile', but it is worked out before "
             "the game has any state"),
    'E247': (G + "state\n    hand: Player -> list int = [] hidden except owner\naction a(c in hand[other(current)])\n"
             "    log \"x\"\n" + F,
             4, 15, "the moves of 'a' depends on what 'current' cannot see: 'hand[other(current)]' is hidden "
             "from the player who decides"),
    'E248': (G + "state\n    n: int = 0\naction a\n    add 1 to n\nflow\n    simultaneously for p in players\n"
             "        play a\n",
             5, 5, "writing 'n', which the other players see, inside action 'a', offered inside "
             "'simultaneously for p'"),
    'E249': (G + "enum C = r, g, b\nconst V = {r: 1, g: 2}\naction a(c: C)\n    require V[c] > 0\n" + F,
             5, 15, "'V' has no entry for every value 'c' may have (none for b)"),
    'W001': (G + A + "action b\n    log \"y\"\n" + F,
             4, 1, "action 'b' is never offered by a 'play'"),
}


def found(text: str, code: str) -> Diagnostic:
    try:
        diagnostics = regelwerk.load_text(text, "c.rules").warnings
    except RulesError as err:
        diagnostics = err.diagnostics
    assert code in [d.code for d in diagnostics], [d.format() for d in diagnostics]
    return next(d for d in diagnostics if d.code == code)


@pytest.mark.parametrize("code", sorted(TEXTS))
def test_code_from_a_rules_text(code: str):
    text, line, column, message = TEXTS[code]
    d = found(text, code)
    assert (d.span.file, d.span.line, d.span.column, d.message) == ("c.rules", line, column, message)
    assert d.severity == ("warning" if code.startswith("W") else "error")


def _load(path: Path) -> Diagnostic:
    with pytest.raises(RulesError) as info:
        regelwerk.load(path)
    return info.value.diagnostics[0]


BASE = "players X\nflow\n    finish draw\n"


@pytest.mark.parametrize(("code", "files", "line", "column", "message"), [
    ("E004", {"g.rules": "# " + "x" * 2_000_001 + "\n" + BASE}, 1, 1, "file is larger than 2000000 bytes"),
    ("E007", {}, 1, 1, "cannot read file: No such file or directory"),
    ("E007", {"g.rules": b"players X\n\xff\n"}, 2, 1, "cannot read file: not UTF-8 text: byte 0xff at line 2, column 1"),
    ("E008", {"g.rules": 'include "other.rules"\n' + BASE}, 1, 1, "cannot include 'other.rules': no such file"),
    ("E008", {"g.rules": 'include "../x.rules"\n' + BASE}, 1, 1,
     "cannot include '../x.rules': it is outside the ruleset's folder {root}"),
    ("E401", {"g.rules": 'data d: list int from "d.json"\n' + BASE}, 1, 1,
     "cannot read data file 'd.json': No such file or directory"),
    ("E402", {"g.rules": 'data d: list int from "d.json"\n' + BASE, "d.json": "[1,"}, 1, 1,
     "'d.json':1:4: not JSON: Expecting value"),
    ("E402", {"g.rules": 'board B = graph from "d.json"\n' + BASE, "d.json": "[1]"}, 1, 1,
     "'d.json': a graph file is {\"nodes\": [...], \"edges\": [[a, b], ...]}"),
    ("E402", {"g.rules": 'board B = graph from "d.json"\n' + BASE, "d.json": '{"nodes": ["a"], "edges": [["a", "b"]]}'},
     1, 1, "'d.json': edge names unknown node 'b'"),
    ("E403", {"g.rules": 'board B = grid from "m.txt"\n' + BASE, "m.txt": "..\n...\n"}, 1, 1,
     "'m.txt': a text map needs rows of equal length"),
    ("E404", {"g.rules": 'data d: list int from "d.json"\n' + BASE, "d.json": '[1, "two"]'}, 1, 1,
     "data file d.json[1]: expected a whole number, found 'two'"),
])
def test_code_from_files(tmp_path: Path, code: str, files: dict, line: int, column: int, message: str):
    folder = tmp_path / "game"
    folder.mkdir()
    for name, content in files.items():
        (folder / name).write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    d = _load(folder / "g.rules")
    want = message.replace("{root}", str(folder.resolve()))
    assert (d.code, d.span.line, d.span.column, d.message) == (code, line, column, want)


def test_e006_an_internal_error_of_the_tree_builder_is_located(monkeypatch):
    def broken(self, *args):
        raise ValueError("the builder broke")
    monkeypatch.setattr(parse._Builder, "const_decl", broken)
    with pytest.raises(RulesError) as info:
        parse.parse_text("players X\nconst k = 1\n" + "flow\n    finish draw\n", "c.rules")
    d = info.value.diagnostics[0]
    assert (d.code, d.span.line, d.span.column, d.message) == ("E006", 2, 1, "cannot build syntax tree: the builder broke")


def test_e008_too_many_includes(tmp_path: Path):
    for i in range(70):
        (tmp_path / f"f{i}.rules").write_text(f'include "f{i + 1}.rules"\n', encoding="utf-8")
    (tmp_path / "f70.rules").write_text(BASE, encoding="utf-8")
    d = _load(tmp_path / "f0.rules")
    assert (d.code, d.message) == ("E008", "cannot include 'f64.rules': too many includes")


QUOTED = """players X, O

action a
    "De speler zegt welke heerser hij wil verdrijven."
    source "000_0000000000000000.txt:2"
    log "x"

action b
    "Wij hebben dit bedacht."
    log "y"

action c
    "Een regel."
    source "000_0000000000000000.txt:7"
    log "z"

flow
    repeat
        turn
            play a, b, c
"""


@pytest.mark.parametrize(("code", "line", "column", "message"), [
    ("W002", 4, 5, "quote not verbatim in its cited lines: «De speler zegt welke heerser hij wil verdrijven.»"),
    ("W003", 9, 5, "a quote without a 'source': a reader cannot tell the rulebook's words from ours"),
    ("W004", 14, 12, "source '000_0000000000000000.txt:7': 000_0000000000000000.txt has lines 1-2"),
])
def test_quote_warnings_against_a_seed_folder(tmp_path: Path, monkeypatch, code: str, line: int, column: int,
                                              message: str):
    seeds, game = tmp_path / "seeds", tmp_path / "game"
    seeds.mkdir()
    game.mkdir()
    (seeds / "000_0000000000000000.txt").write_text(
        "Een regel.\nDe speler zegt welke heerser hij gaat verdrijven.\n", encoding="utf-8")
    (game / "g.rules").write_text(QUOTED, encoding="utf-8")
    monkeypatch.setenv("REGELWERK_SEEDS", str(seeds))
    w = next(w for w in regelwerk.load(game / "g.rules").warnings if w.code == code)
    assert (w.span.line, w.span.column, w.message, w.severity) == (line, column, message, "warning")


def test_every_documented_code_is_in_the_catalogue():
    documented = set(re.findall(r"^\| ([EW]\d{3}) \|", DOCS.read_text(encoding="utf-8"), re.M))
    assert len(documented) >= 57
    here = Path(__file__).read_text(encoding="utf-8")
    tested = set(TEXTS) | set(re.findall(r'\("(E\d{3})", \{', here)) | {"E006", "E008"} \
        | set(re.findall(r'\("(W\d{3})", \d+, \d+, "', here))
    assert documented == tested, f"documented but not asserted: {sorted(documented - tested)}; " \
        f"asserted but not documented: {sorted(tested - documented)}"


# E003 for known mistakes: the message names the mistake and `help:` says the fix (issue 22 §6).
S = G + "state\n    x: int = 0\n" + F
HELPS = {
    "elif in an if expression": (
        S + "action a\n    set x = if x > 1 then 2 elif x > 0 then 1 else 0\n", 9, 29,
        "'elif' inside an 'if … then … else' expression",
        "an 'if' expression has no 'elif': write 'else if', as in 'if a then x else if b then y else z'"),
    "elif without its if": (
        S + "action a\n    elif x > 0\n        set x = 1\n", 9, 5, "'elif' without its 'if'",
        "'elif' follows the indented block of an 'if', at the same indentation as the 'if'"),
    "define continued on an indented line": (
        S + "define big(n: int) = n > 3\n    and n < 10\n" + A, 8, 27,
        "unexpected indent: a definition continues on the next line",
        "a definition over several lines needs its expression in parentheses: "
        "'define big(n: int) = (n > 3' and a ')' after its last line"),
    "a line ending in an operator": (
        S + "define big(n: int) =\n    n > 3 and\n    n < 10\n" + A, 9, 14,
        "unexpected end of line: the expression is unfinished",
        "an expression continues on the next line only inside parentheses: open one before it and "
        "close it after its last line"),
    "a line starting with an operator": (
        S + "define big(n: int) =\n    n > 3\n    and n < 10\n" + A, 10, 5,
        "unexpected 'and': a line cannot go on with the expression of the line above",
        "an expression continues on the next line only inside parentheses: open one before it and "
        "close it after its last line"),
    "note inside an if of the flow": (
        G + "state\n    x: int = 0\nflow\n    repeat\n        if x == 0\n            note \"first\"\n"
        "            turn\n                play a\n" + A, 7, 13, "a 'note' line cannot stand here",
        "'note', 'source', 'spec' and quote lines head a rule (action, procedure, when, on, flow, turn, "
        "phase), above its statements; an 'if', 'for', 'repeat' or 'while' block holds statements "
        "only: move the line to the head of the turn, phase or rule around it, or say it with "
        "'log \"...\"' when the block runs"),
    "a quote line after a statement": (
        S + "action a\n    set x = 1\n    \"De speler legt een steen.\"\n", 10, 5, "a quote line cannot stand here",
        "'note', 'source', 'spec' and quote lines head a rule (action, procedure, when, on, flow, turn, "
        "phase), above its statements; an 'if', 'for', 'repeat' or 'while' block holds statements "
        "only: move the line to the head of the turn, phase or rule around it, or say it with "
        "'log \"...\"' when the block runs"),
    "a range compared without parentheses": (
        S + "action a\n    require x in 0..1\n", 9, 19, "a range here needs parentheses",
        "a range and a comparison do not chain: write the range in parentheses, as in 'x in (0..1)'"),
    "an aggregate after and": (
        S + "action a\n    require x == 0 and all p in players: x == 0\n", 9, 28,
        "'all p in …' needs parentheses here",
        "after 'and', 'or', 'not', a comparison or an operator, an aggregate goes in parentheses: "
        "'(all p in …)'; its ':' part runs to the end of the expression"),
    "an aggregate after a comparison": (
        S + "action a\n    require x == count q in players: true\n", 9, 24,
        "'count q in …' needs parentheses here",
        "after 'and', 'or', 'not', a comparison or an operator, an aggregate goes in parentheses: "
        "'(count q in …)'; its ':' part runs to the end of the expression"),
}


@pytest.mark.parametrize("case", sorted(HELPS))
def test_e003_known_mistakes_say_the_fix(case: str):
    text, line, column, message, help_text = HELPS[case]
    d = found(text, "E003")
    assert (d.span.line, d.span.column, d.message, d.help) == (line, column, message, help_text)


def test_e003_the_fixes_the_help_lines_give_are_valid():
    """What each help line says to write checks clean."""
    fixed = S + ("define big(n: int) = (n > 3\n    and n < 10)\n"
                 "action a\n    require x in (0..1)\n    require x == 0 and (all p in players: x == 0)\n"
                 "    require x == (count q in players: true)\n"
                 "    set x = if x > 1 then 2 else if x > 0 then 1 else 0\n")
    assert regelwerk.load_text(fixed, "c.rules").warnings == []


@pytest.mark.parametrize(("text", "line", "column", "word", "help_text"), [
    (S + "action a\n    require x > 0 bogus\n", 9, 19, "bogus",
     "'bogus' cannot follow the expression before it: join them with an operator ('and', 'or', '+', "
     "'==', ...), or end the line"),
    (G + "frobnicate x\n" + F + A, 2, 1, "frobnicate",
     "expected a declaration or statement keyword, such as action, board, conserve, const, data, "
     "define, device, display"),
])
def test_e003_an_unexpected_word_is_told_what_may_come(text: str, line: int, column: int, word: str,
                                                       help_text: str):
    """An unexpected word after an expression is not offered 'colon', 'comma' or 'across' as
    "declaration or statement keywords"; where one may start, only those are listed."""
    d = found(text, "E003")
    assert (d.span.line, d.span.column, d.message, d.help) == (line, column, f"unexpected '{word}'", help_text)
