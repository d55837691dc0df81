"""Checker and parser diagnostics: every file in tests/corpus/invalid states the errors it must
produce inline (`# error: LINE:COL CODE message`), and produces exactly those."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from regelwerk.dsl.diagnostics import RulesError
from regelwerk.dsl.parse import parse_text

import regelwerk
from regelwerk.api import main_files

CORPUS = Path(__file__).parent / "corpus"
EXPECT = re.compile(r"#\s*error:\s*(\d+):(\d+)\s+(\w+)\s+(.*)$")


def _expected(path: Path) -> list[tuple[int, int, str, str]]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        m = EXPECT.search(line)
        if m:
            out.append((int(m[1]), int(m[2]), m[3], m[4].strip()))
    return out


@pytest.mark.parametrize("path", sorted((CORPUS / "invalid").glob("*.rules")), ids=lambda p: p.name)
def test_invalid_corpus(path):
    want = _expected(path)
    assert want, "an invalid corpus file names its errors"
    with pytest.raises(RulesError) as info:
        regelwerk.load(path)
    got = [(d.span.line, d.span.column, d.code, d.message) for d in info.value.diagnostics]
    assert sorted(got) == sorted(want)


@pytest.mark.parametrize("path", main_files(sorted((CORPUS / "valid").glob("*.rules")) + sorted(
    (Path(__file__).parent.parent / "rulesets").rglob("*.rules"))), ids=lambda p: p.name)
def test_valid_files_check_clean(path):
    """Every bundled ruleset (a file no other file includes) checks clean."""
    regelwerk.load(path)


def test_error_format_has_location_caret_and_help():
    text = "players X, O\nflow\n    repeat\n        turn\n            play plase\naction place\n    log \"x\"\n"
    with pytest.raises(RulesError) as info:
        regelwerk.load_text(text, "game.rules")
    assert info.value.format() == (
        "game.rules:5:13: error: unknown action 'plase' [E219]\n"
        "    5 |             play plase\n"
        "      |             ^^^^^^^^^^\n"
        "help: did you mean 'place'?"
    )


def test_every_problem_is_reported_not_just_the_first():
    text = "players X\nstate\n    a: int = 0\nflow\n    set b = 1\n    set c = 2\n    set a = zz\n"
    with pytest.raises(RulesError) as info:
        regelwerk.load_text(text, "g.rules")
    assert [d.code for d in info.value.diagnostics] == ["E301", "E301", "E202"]


def test_hostile_input_gets_located_errors():
    deep = "players X\nconst a = " + "(" * 200 + "1" + ")" * 200 + "\nflow\n    finish draw\n"
    with pytest.raises(RulesError) as info:
        regelwerk.load_text(deep, "deep.rules")
    assert info.value.diagnostics[0].code == "E005"
    huge = "players X\n" + "# filler\n" * 300_000
    with pytest.raises(RulesError) as info:
        regelwerk.load_text(huge, "huge.rules")
    assert info.value.diagnostics[0].code == "E004"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.sampled_from(list("players X,O\nflow  repeat turn play set [](){}:=+-*\"#0123456789abc\t")), max_size=200))
def test_any_text_parses_or_fails_with_a_located_error(text):
    try:
        parse_text(text, "fuzz.rules")
    except RulesError as err:
        for d in err.diagnostics:
            assert d.span.file == "fuzz.rules"
            assert d.span.line >= 1
        err.format()


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=120))
def test_any_unicode_text_parses_or_fails_cleanly(text):
    try:
        parse_text(text, "fuzz.rules")
    except RulesError:
        pass


@pytest.mark.parametrize("text,message,help_text", [
    ("players X\nactoin place\n", "2:1: error: unknown keyword 'actoin' [E003]", "help: did you mean 'action'?"),
    ("players X\nflow\n    repaet\n", "3:5: error: unknown keyword 'repaet' [E003]", "help: did you mean 'repeat'?"),
    ("players X\naction a\nset x = 1\n", "3:1: error: 'set' should be indented [E003]",
     "help: the body of a block is indented one level deeper than its header"),
    ("players X\naction a\n    require x = 1\n", "3:15: error: unexpected '=' [E003]",
     "help: use '==' to compare; 'set x = v' assigns"),
])
def test_labelled_syntax_errors(text, message, help_text):
    with pytest.raises(RulesError) as info:
        parse_text(text, "f.rules")
    out = info.value.format()
    assert out.startswith("f.rules:" + message)
    assert out.endswith(help_text)


def test_a_bracket_never_closed_is_reported_where_it_opens():
    """Everything after an unclosed bracket is read as its inside, so the parser stumbles at the
    next declaration; the error names the bracket instead (a checkers author met this)."""
    text = ("players A, B\nstate\n    n: int = 0\ndefine big(k: int) = (k > 3 and\n    k < 10\n\n"
            "action go\n    add 1 to n\nflow\n    repeat\n        turn\n            play go\n")
    with pytest.raises(RulesError) as err:
        regelwerk.load_text(text, "b.rules")
    d = err.value.diagnostics[0]
    assert (d.span.line, d.span.column, d.code, d.message) == (4, 22, "E003", "'(' is never closed")
    assert d.help == "add its ')'; without it, everything up to line 7 was read as its inside"
    with pytest.raises(RulesError) as err:
        regelwerk.load_text("players A, B\nflow\n    finish winner (A\n", "b.rules")
    d = err.value.diagnostics[0]
    assert (d.span.line, d.span.column, d.message, d.help) == (3, 19, "'(' is never closed", "add its ')'")
    # a bracket that is closed further on is not blamed for an error before its end
    with pytest.raises(RulesError) as err:
        regelwerk.load_text("players A, B\nflow\n    finish winner (A +\n        )\n", "b.rules")
    assert "never closed" not in err.value.diagnostics[0].message
