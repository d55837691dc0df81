"""Issue 22 ("Trust III"), the checker's part: reserved names refused in every place a ruleset
gives a name, bounded input sizes, and the docs' rules blocks checked. Each test failed before
its fix (the help lines of syntax errors are in tests/test_errors_catalogue.py)."""

from __future__ import annotations

import dataclasses
import json
import re
import time
import tracemalloc
from pathlib import Path

import pytest
from regelwerk.dsl import ast as A
from regelwerk.dsl.check_names import BUILTIN_VALUES, WORDS
from regelwerk.dsl.diagnostics import RulesError

import regelwerk

# ---------------------------------------------------------------------- reserved names (§7)
HEAD = "players A, B\n"
T = "state\n    t: int = 0\n"
FLOW = "flow\n    repeat\n        turn\n            play a\n"
END = "action a\n    finish draw\n" + FLOW
HERE = "  # <- given here"

# kind of place -> a ruleset that gives the name `{n}` there once, on the line marked HERE
PLACES = {
    "player": "players {n}, B" + HERE + "\n" + END,
    "enum": HEAD + "enum {n} = r, s" + HERE + "\n" + END,
    "enum member": HEAD + "enum Col = r, {n}" + HERE + "\n" + END,
    "grid board": HEAD + "board {n} = grid 2 x 2" + HERE + "\n" + END,
    "graph board": HEAD + "board {n} = graph" + HERE + "\n    u - v\n" + END,
    "graph node": HEAD + "board G = graph" + HERE + "\n    u - {n}\n" + END,
    "graph file node": HEAD + "board G = graph from \"g.json\"" + HERE + "\n" + END,
    "record": HEAD + "record {n}(k: int)" + HERE + "\n" + END,
    "record field": HEAD + "record R({n}: int)" + HERE + "\n" + END,
    "data table": HEAD + "data {n}: list int from \"d.json\"" + HERE + "\n" + END,
    "state variable": HEAD + "state\n    {n}: int = 0" + HERE + "\n" + END,
    "constant": HEAD + "const {n} = 3" + HERE + "\n" + END,
    "option": HEAD + "option {n}: int = 3" + HERE + "\n" + END,
    "definition": HEAD + "define {n}(k: int) = k + 1" + HERE + "\n" + END,
    "definition parameter": HEAD + "define f({n}: int) = 1" + HERE + "\n" + END,
    "action": HEAD + "action {n}" + HERE + "\n    finish draw\n" + END,
    "action parameter": HEAD + "action b({n} in [1, 2])" + HERE + "\n    finish draw\n" + END,
    "procedure": HEAD + "procedure {n}" + HERE + "\n    log \"x\"\n" + END,
    "procedure parameter": HEAD + "procedure p({n}: int)" + HERE + "\n    log \"x\"\n" + END,
    "device": HEAD + "device {n}: int" + HERE + "\n    roll\n        result 1\n" + END,
    "device parameter": HEAD + "device d({n}: int): int" + HERE + "\n    roll\n        result 1\n" + END,
    "device local": HEAD + "device d: int\n    roll\n        let {n} = 1" + HERE + "\n        result 1\n" + END,
    "phase": HEAD + "action a\n    finish draw\nflow\n    phase {n}" + HERE + "\n        turn\n            play a\n",
    "for variable": HEAD + "action a\n    for {n} in [1, 2]" + HERE + "\n        log \"x\"\n    finish draw\n" + FLOW,
    "for chosen variable": HEAD + "action a\n    for {n} in [1, 2] chosen" + HERE
    + "\n        log \"x\"\n    finish draw\n" + FLOW,
    "choice": HEAD + "action a\n    choose {n} in [1, 2]" + HERE + "\n    finish draw\n" + FLOW,
    "choose one per choice": HEAD + "action a\n    choose 1 of {n} in [1, 2] one per c in [1, 2] where c > 0"
    + HERE + "\n        log \"x\"\n    finish draw\n" + FLOW,
    "choose one per slot": HEAD + "action a\n    choose 1 of k in [1, 2] one per {n} in [1, 2] where k > 0"
    + HERE + "\n        log \"x\"\n    finish draw\n" + FLOW,
    "let": HEAD + "action a\n    let {n} = 2" + HERE + "\n    finish draw\n" + FLOW,
    "definition let": HEAD + "define f(k: int) =\n    let {n} = k + 1" + HERE + "\n    k * 2\n" + END,
    "if let": HEAD + "state\n    o: int? = 1\naction a\n    if let {n} = o" + HERE
    + "\n        log \"x\"\n    finish draw\n" + FLOW,
    "aggregate variable": HEAD + T + "action a\n    set t = count {n} in [1, 2]: t > 1" + HERE
    + "\n    finish draw\n" + FLOW,
    "count one per variable": HEAD + T + "action a\n    set t = count {n} in [1, 2] one per c in [1, 2] "
    "where c > 0" + HERE + "\n    finish draw\n" + FLOW,
    "count one per slot": HEAD + T + "action a\n    set t = count k in [1, 2] one per {n} in [1, 2] "
    "where k > 0" + HERE + "\n    finish draw\n" + FLOW,
    "ranking variable": HEAD + "action a\n    finish ranking {n} by 1" + HERE + "\n" + FLOW,
    "simultaneous player": HEAD + "state\n    s: Player -> int = 0 hidden except owner\naction a\n"
    "    set s[current] = 1\nflow\n    simultaneously for {n} in players" + HERE
    + "\n        play a\n",
    "scenario let": HEAD + END + "scenario \"s\"\n    given\n        let {n} = 1" + HERE + "\n",
}
RESERVED = sorted(BUILTIN_VALUES) + list(WORDS) + ["__x", "__class__"]


def load(tmp_path: Path, text: str, node: str = "zz") -> regelwerk.Ruleset:
    (tmp_path / "d.json").write_text("[1, 2]", encoding="utf-8")
    (tmp_path / "g.json").write_text(json.dumps({"nodes": ["u", node], "edges": [["u", node]]}),
                                     encoding="utf-8")
    (tmp_path / "g.rules").write_text(text, encoding="utf-8")
    return regelwerk.load(tmp_path / "g.rules")


def refused(tmp_path: Path, place: str, name: str) -> list:
    text = PLACES[place].replace("{n}", name)
    with pytest.raises(RulesError) as info:
        load(tmp_path, text, name)
    line = next(i for i, row in enumerate(text.split("\n"), 1) if row.endswith(HERE))
    return [d for d in info.value.diagnostics if d.span.line == line
            and (d.code == "E101" or d.code == "E003" and name in WORDS)]  # or the parser refuses it


@pytest.mark.parametrize("place", sorted(PLACES))
def test_every_place_takes_an_ordinary_name(tmp_path: Path, place: str):
    """The templates are sound: with an ordinary name each checks clean and plays."""
    rules = load(tmp_path, PLACES[place].replace("{n}", "zz"))
    game = rules.new_game(players=2, seed=1)
    for _ in range(5):
        if game.is_over:
            break
        game.apply(game.legal_actions()[0])


@pytest.mark.parametrize("name", RESERVED)
@pytest.mark.parametrize("place", sorted(PLACES))
def test_a_reserved_name_is_refused_in_every_place(tmp_path: Path, place: str, name: str):
    """Before, 774 of these 840 checked clean (built-in names and words in every place, `__`
    names everywhere but the global declarations), and programs that used such names failed at
    run time with a KeyError or TypeError (`enum Col = r, current` with `m[current]`, `enum
    round = r, s` with `for v in round`). Now E101 at the line that gives the name, saying what
    the name is (or, for a word such as `none` where the parser reads the word, E003 there)."""
    found = refused(tmp_path, place, name)
    assert found, f"{place} {name!r} not refused"
    message = found[0].message
    if found[0].code == "E003":
        return
    if name.startswith("__"):
        assert message == f"'{name}' is reserved: names may not start with '__'"
    else:
        assert message.startswith(f"'{name}' is a ") and ": it cannot name " in message, message


CRASHED = """\
players A, B
enum Col = r, {n}
state
    c: Col = {n}
    m: Col -> int = 0
action a
    add 1 to m[{n}]
    finish draw
""" + FLOW


@pytest.mark.parametrize("name", ["current", "players", "player_count", "round", "current_phase",
                                  "Player", "Direction", "bool"])
def test_an_enum_member_named_like_a_built_in_no_longer_fails_at_run_time(name: str):
    """`m[current]` read the player whose turn it is, not the member: "no entry A in the map"."""
    with pytest.raises(RulesError) as info:
        regelwerk.load_text(CRASHED.replace("{n}", name), "c.rules")
    d = next(d for d in info.value.diagnostics if d.code == "E101")
    assert (d.span.line, d.span.column) == (2, 1)
    assert d.help == "choose another name"


GRID = "board Sq = grid 3 x 3\n"


@pytest.mark.parametrize("place", sorted(PLACES))
def test_a_direction_name_is_refused_in_every_place_of_a_ruleset_with_a_grid(tmp_path: Path, place: str):
    """With a grid, `N` names north: a member, a local or a node called `N` hid it."""
    text = PLACES[place].replace("{n}", "NE").replace(HEAD, HEAD + GRID, 1)
    if "players NE" in text:
        text = text.replace("\naction a", "\n" + GRID + "action a", 1)
    with pytest.raises(RulesError) as info:
        load(tmp_path, text, "NE")
    line = next(i for i, row in enumerate(text.split("\n"), 1) if row.endswith(HERE))
    found = [d.message for d in info.value.diagnostics if d.code == "E101" and d.span.line == line]
    assert found and found[0].startswith("'NE' is a grid direction: it cannot name "), found


@pytest.mark.parametrize("place", ["enum", "grid board", "record"])
def test_a_direction_name_never_names_a_type(tmp_path: Path, place: str):
    """`enum N = a, b`: the checker read `N` as the direction north and the compiler as the
    enum's values."""
    assert refused(tmp_path, place, "N")


def test_a_direction_name_is_an_ordinary_name_without_a_grid():
    """Without a grid there are no directions to hide (tests/test_trust3.py names a card `E`)."""
    text = HEAD + "enum Wind = N, E, S, W\nstate\n    w: Wind = N\naction a\n    set w = E\n    finish draw\n" + FLOW
    assert regelwerk.load_text(text, "w.rules").warnings == []


@pytest.mark.parametrize("name", ["len", "roll", "possible", "each_once", "matching_size", "neighbours"])
@pytest.mark.parametrize("place", ["definition", "device"])
def test_a_function_of_the_library_is_not_redefined(tmp_path: Path, place: str, name: str):
    """A definition called `each_once` took over the check every `conserve` makes."""
    found = refused(tmp_path, place, name)
    assert found and found[0].message == (f"'{name}' is a function of the standard library: "
                                          f"it cannot name a {place}")


@pytest.mark.parametrize("name", ["outcome", "detail"])
def test_a_device_does_not_hide_its_outcome(tmp_path: Path, name: str):
    found = refused(tmp_path, "device parameter", name)
    assert found[0].message == (f"'{name}' names the device's outcome in its require and settle "
                                f"parts: it cannot name a device local")


def test_the_text_cannot_read_the_sugars_own_locals():
    """`for m in ITEMS chosen` keeps the items left in `__left_m`; the body read (and could
    rely on) it."""
    text = HEAD + T + ("action a\n    for m in [1, 2] chosen\n        set t = len(__left_m)\n"
                       "    finish draw\n") + FLOW
    with pytest.raises(RulesError) as info:
        regelwerk.load_text(text, "s.rules")
    assert [(d.span.line, d.span.column, d.code, d.message) for d in info.value.diagnostics] == [
        (6, 21, "E101", "'__left_m' is reserved: names may not start with '__'")]


def test_the_sugar_still_checks_clean():
    text = HEAD + T + ("action a\n    for m in [1, 2] chosen optional\n        add m to t\n"
                       "    choose 1 of k in [1, 2] one per c in [1, 2] where k == c\n        add k to t\n"
                       "    if let v = (if t > 0 then t else none)\n        add v to t\n"
                       "    set t = count k in [1, 2] one per c in [1, 2] where k == c\n"
                       "    finish draw\n") + FLOW
    assert regelwerk.load_text(text, "s.rules").warnings == []


# The fields of the syntax tree that hold a name: each is either a place that gives a name
# (dsl/check_names.py looks at it) or one that reads a name given elsewhere.
GIVES = {("PlayersDecl", "names"), ("EnumDecl", "name"), ("EnumDecl", "members"), ("GridDecl", "name"),
         ("GraphDecl", "name"), ("GraphDecl", "paths"), ("GraphFileDecl", "name"), ("RecordDecl", "name"),
         ("RecordDecl", "fields"), ("DataDecl", "name"), ("VarDecl", "name"), ("ConstDecl", "name"),
         ("OptionDecl", "name"), ("DefineDecl", "name"), ("ActionDecl", "name"), ("ProcedureDecl", "name"),
         ("DeviceDecl", "name"), ("PhaseStmt", "name"), ("Param", "name"), ("ForStmt", "var"),
         ("Aggregate", "var"), ("ChooseStmt", "name"), ("LetStmt", "name"), ("LetExpr", "name"), ("FinishStmt", "var"),
         ("SimultaneousStmt", "var")}
READS = {("NamedType", "name"), ("Name", "name"), ("Field", "name"), ("Call", "func"), ("RecordLit", "record"),
         ("RecordLit", "fields"), ("Target", "root"), ("DoStmt", "name"), ("PlayStmt", "actions"),
         ("GotoStmt", "phase"), ("DisplayDecl", "board"), ("DisplayDecl", "layers"), ("ActionCall", "name"),
         ("HookDecl", "event"), ("CountOnePer", "func")}
WORDS_NOT_NAMES = {("Aggregate", "kind"), ("FinishStmt", "kind"), ("ScenarioStep", "kind"),
                   ("ScenarioDecl", "name")}  # a keyword, or a quoted title


def test_every_field_of_the_tree_that_holds_a_name_is_classified():
    """A new declaration or binding form must be added to dsl/check_names.py (and to PLACES)."""
    named = set()
    for cls in vars(A).values():
        if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == A.__name__:
            for f in dataclasses.fields(cls):
                if f.name in ("name", "names", "var", "members", "fields", "paths", "func", "record",
                              "root", "actions", "phase", "board", "layers", "kind", "event"):
                    named.add((cls.__name__, f.name))
    assert named - GIVES - READS - WORDS_NOT_NAMES == set()


# ---------------------------------------------------------------------- input sizes (§7)
def measured(work) -> tuple[object, float, int]:
    """(result or the exception raised, seconds, peak MB that Python allocated)."""
    tracemalloc.start()
    began = time.perf_counter()
    try:
        result = work()
    except Exception as err:  # noqa: BLE001 - what the work raised is the result looked at
        result = err
    seconds = time.perf_counter() - began
    peak = tracemalloc.get_traced_memory()[1] // 2**20
    tracemalloc.stop()
    return result, seconds, peak


GAME = "action a\n    finish draw\nflow\n    repeat\n        turn\n            play a\n"


def test_a_600000_item_list_is_refused_at_once_and_located():
    """Before: 25 s and 770 MB (the parser's 1.8 million tokens), then 'ok'. Now E009 at the
    first token past 100,000, before the parser runs: 0.2 s and 45 MB for the whole command."""
    text = "players X, O\nconst XS = [" + ", ".join(["1"] * 600_000) + "]\n" + GAME
    err, seconds, peak = measured(lambda: regelwerk.load_text(text, "big.rules"))
    assert isinstance(err, RulesError)
    d = err.diagnostics[0]
    assert (d.code, d.span.line, d.span.column) == ("E009", 2, 150_001)
    assert seconds < 5 and peak < 60, (seconds, peak)


@pytest.mark.parametrize("filler", ["text", "comments", "blank lines"])
def test_a_long_text_comment_or_gap_is_read_in_little_memory(filler: str):
    """Before: a 1.9 MB `log` text cost 539 MB to check (the lexer's regular expression kept a
    backtracking point per character), 240,000 comment lines 195 MB, 1.9 million blank lines
    820 MB; the traced program of the log text 284 MB more (a since removed regex scan of
    the generated code). Now a few times the text's size."""
    body = {"text": "    log \"" + "x" * 1_900_000 + "\"\n",
            "comments": "    # c\n" * 240_000,
            "blank lines": "\n" * 1_900_000}[filler]
    text = "players X, O\naction a\n" + body + "    finish draw\n" + GAME[GAME.index("flow"):]

    def check_and_play() -> regelwerk.Game:
        game = regelwerk.load_text(text, "long.rules").new_game(players=2, seed=1, record=True)
        game.apply(game.legal_actions()[0])
        return game

    game, seconds, peak = measured(check_and_play)
    assert isinstance(game, regelwerk.Game) and game.is_over, game
    assert peak < 60, peak


def test_the_language_servers_tokens_of_a_long_text_are_small():
    from regelwerk.lsp.tokens import Tokens

    text = "    log \"" + "x" * 1_900_000 + "\"\n"
    tokens, _seconds, peak = measured(lambda: Tokens(text).line(1))
    assert [t.kind for t in tokens] == ["name", "string"] and peak < 30, peak


def test_the_names_of_an_expression_text_with_a_long_text_are_found_in_little_memory():
    """interpreter/observe/secrets.py reads the names of an older trace's expression texts the same way."""
    from regelwerk.interpreter.observe.secrets import text_names

    names, _seconds, peak = measured(lambda: text_names('"' + "x" * 1_900_000 + '" == word'))
    assert names == {"word"} and peak < 30, peak


# ---------------------------------------------------------------------- the docs' rules blocks (§6)
DOCS = Path(__file__).resolve().parent.parent / "docs"
DECLARATION = re.compile(r"^(game|players|enum|board|record|state|const|data|option|define|action|procedure|"
                         r"when|on|flow|scoring|include|device|display|invariant|conserve|scenario)\b")


def fenced_blocks() -> list[tuple[str, str, str]]:
    """(where, info string, text) of every fenced block of docs/*.md and the README."""
    out = []
    for doc in sorted(DOCS.glob("*.md")) + [DOCS.parent / "README.md"]:
        lines = doc.read_text(encoding="utf-8").split("\n")
        i = 0
        while i < len(lines):
            if lines[i].startswith("```"):
                end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
                out.append((f"{doc.name}:{i + 1}", lines[i][3:].strip(), "\n".join(lines[i + 1:end]) + "\n"))
                i = end
            i += 1
    return out


def test_every_rules_block_in_the_docs_is_checked_or_marked_a_fragment_that_parses(capsys):
    """A ```rules block checks clean and its scenarios pass (tests/test_docs.py runs them); a
    ```rules fragment parses, each line `...` standing for the statements left out. Before,
    rules were also written in ```text blocks, which nothing read: the §16a sketch did not
    parse. Now a block whose first line is a declaration must be one of the two."""
    blocks = fenced_blocks()
    unmarked = [where for where, info, text in blocks
                if info in ("", "text") and DECLARATION.match(text.lstrip())]
    assert unmarked == [], "mark these ```rules or ```rules fragment"
    assert {info for _w, info, _t in blocks if info.startswith("rules")} == {"rules", "rules fragment"}
    whole = [(w, t) for w, info, t in blocks if info == "rules"]
    fragments = [(w, t) for w, info, t in blocks if info == "rules fragment"]
    for where, text in whole:
        regelwerk.load_text(text, f"{where}.rules")
    from regelwerk.dsl.parse import parse_text

    for where, text in fragments:
        parse_text(re.sub(r"^(\s*)(\.\.\.|…)\s*$", r'\1log "…"', text, flags=re.M), f"{where}.rules")
    with capsys.disabled():
        print(f"\ndocs: {len(whole)} rules blocks checked, {len(fragments)} fragments parsed")
    assert len(whole) >= 25 and len(fragments) >= 14


def test_the_time_limit_is_the_same_in_the_code_the_docs_and_play_help(capsys):
    """language.md §17 said 60 s; the engine stops a rule after 10 (interpreter/engine/game.py), as
    errors.md, api.md, architecture.md and `regelwerk play --help` say."""
    from regelwerk.interpreter.engine.limits import TIME_LIMIT

    from regelwerk.cli import main

    with pytest.raises(SystemExit):
        main(["play", "--help"])
    said = {
        "play --help": re.search(r"--time-limit S\s+seconds a rule may run\s.*?\(default (\d+)\)",
                                 capsys.readouterr().out, re.S),
        "language.md": re.search(r"and (\d+)\s+seconds \(`game.work_budget`, `game.time_limit`",
                                 (DOCS / "language.md").read_text(encoding="utf-8")),
        "errors.md": re.search(r"`time_limit` seconds \(default (\d+);", (DOCS / "errors.md").read_text(encoding="utf-8")),
        "api.md": re.search(r"`time_limit` \(`float`, default (\d+)\.0\)", (DOCS / "api.md").read_text(encoding="utf-8")),
        "architecture.md": re.search(r"`game.time_limit` \((\d+) s\)",
                                     (DOCS / "architecture.md").read_text(encoding="utf-8")),
    }
    assert {k: m and float(m.group(1)) for k, m in said.items()} == {k: TIME_LIMIT for k in said}


def test_the_readme_and_the_tutorial_agree_that_make_demo_and_make_test_do_the_set_up():
    """The tutorial said `make test` does the set-up, the README `make demo`; the Makefile's
    targets both do it."""
    makefile = (DOCS.parent / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^demo: \$\(STAMP\)", makefile, re.M) and re.search(r"^test: \$\(STAMP\)", makefile, re.M)
    for doc in (DOCS / "tutorial.md", DOCS.parent / "README.md"):
        setup = next(text for _w, info, text in fenced_blocks() if info == "sh" and _w.startswith(doc.name)
                     and "make " in text)
        assert re.search(r"^make demo\b", setup, re.M) and re.search(r"^make test\b", setup, re.M), doc.name
        prose = doc.read_text(encoding="utf-8")
        assert "does the whole set-up first" in prose, doc.name


def test_a_line_of_dots_is_not_taken_for_a_range_without_parentheses():
    """The range hint (tests/test_errors_catalogue.py) is for `x in 0..1`, not for an elision."""
    with pytest.raises(RulesError) as info:
        regelwerk.load_text(HEAD + "action a\n    ...\n" + FLOW, "dots.rules")
    d = info.value.diagnostics[0]
    assert (d.code, d.span.line, d.message) == ("E003", 3, "unexpected '..'")
