"""Rules texts generated from the language's grammar (dsl/regelwerk.lark), as Hypothesis
strategies: declarations, statements and expressions in their places, indented as blocks
are, over a small pool of names so that names meet (and clash, and mistype). A share of the
texts get a stray token, so the parser's error paths are walked too."""

from __future__ import annotations

import functools

from hypothesis import strategies as st

NAMES = ["a", "b", "n", "hand", "deck", "cell", "score", "p", "x", "q", "pile", "Card", "Square",
         "Land", "X", "O", "current", "players", "c1", "b2", "agate", "main", "end", "turn", "tally"]
TYPES = ["int", "bool", "text", "Player", "Card", "Square", "list int", "set Card", "Player -> int",
         "Player -> list Card", "Square -> Player?", "Card -> Player?", "list Card", "int?", "Nope"]
FUNCS = ["len", "top", "next_player", "other", "max", "min", "sum", "count_of", "neighbors",
         "lines_through", "possible", "roll", "random", "shuffled", "bernoulli", "nofunc"]
OPS = ["+", "-", "*", "//", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or", "in", "not in"]
AGG = ["all", "any", "count", "sum", "max", "min", "argmax", "first", "list", "set", "map"]

name = st.sampled_from(NAMES)
small = st.integers(-3, 12).map(str)


@functools.cache
def expr(depth: int = 3) -> st.SearchStrategy[str]:
    leaf = st.one_of(small, name, st.sampled_from(["true", "false", "none", '"t"', "[]", "current", "players"]))
    if depth <= 0:
        return leaf
    sub = expr(depth - 1)
    return st.one_of(
        leaf, leaf,
        st.tuples(sub, st.sampled_from(OPS), sub).map(" ".join),
        st.tuples(st.just("not"), sub).map(" ".join),
        st.tuples(st.sampled_from(FUNCS), st.lists(sub, max_size=3)).map(lambda t: f"{t[0]}({', '.join(t[1])})"),
        st.tuples(name, sub).map(lambda t: f"{t[0]}[{t[1]}]"),
        st.lists(sub, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.tuples(st.sampled_from(AGG), name, sub, sub).map(lambda t: f"{t[0]} {t[1]} in {t[2]}: {t[3]}"),
        st.tuples(sub, sub, sub).map(lambda t: f"{t[0]} if {t[1]} else {t[2]}"),
        st.tuples(sub, sub).map(lambda t: f"{t[0]}..{t[1]}"),
        sub.map(lambda e: f"({e})"),
    )


@functools.cache
def stmts(depth: int, indent: int) -> st.SearchStrategy[list[str]]:
    pad = " " * indent
    e = expr(2)
    simple = st.one_of(
        st.tuples(name, e).map(lambda t: f"set {t[0]} = {t[1]}"),
        st.tuples(name, name, e).map(lambda t: f"set {t[0]}[{t[1]}] = {t[2]}"),
        st.tuples(e, name).map(lambda t: f"add {t[0]} to {t[1]}"),
        st.tuples(e, name).map(lambda t: f"remove {t[0]} from {t[1]}"),
        st.tuples(name, e).map(lambda t: f"let {t[0]} = {t[1]}"),
        st.tuples(e, st.booleans()).map(lambda t: f"require {t[0]}" + (' else "no"' if t[1] else "")),
        st.tuples(e, name, name).map(lambda t: f"move {t[0]} from {t[1]} to {t[2]}"),
        st.tuples(e, name, name).map(lambda t: f"draw {t[0]} from {t[1]} to {t[2]}"),
        name.map(lambda n: f"shuffle {n}"),
        name.map(lambda n: f"clear {n}"),
        st.sampled_from(['log "note"', "finish draw", "break", 'abandon "no"', "pass"]),
        e.map(lambda x: f"finish winner {x}"),
        st.tuples(name, e).map(lambda t: f"choose {t[0]} in {t[1]}"),
        st.tuples(e, name).map(lambda t: f"reveal {t[0]} to {t[1]}"),
        name.map(lambda n: f"do {n}"),
        name.map(lambda n: f"goto {n}"),
        st.lists(name, min_size=1, max_size=3).map(lambda ns: "play " + ", ".join(ns)),
    ).map(lambda s: [pad + s])
    if depth <= 0:
        return simple.map(list)
    inner = stmts(depth - 1, indent + 4)
    block = st.one_of(
        st.tuples(e, inner).map(lambda t: [f"{pad}if {t[0]}", *t[1]]),
        st.tuples(name, e, inner).map(lambda t: [f"{pad}for {t[0]} in {t[1]}", *t[1 + 1]]),
        st.tuples(e, inner).map(lambda t: [f"{pad}while {t[0]}", *t[1]]),
        inner.map(lambda b: [f"{pad}repeat", *b]),
        st.tuples(small, inner).map(lambda t: [f"{pad}repeat {t[0]} times", *t[1]]),
        inner.map(lambda b: [f"{pad}turn", *b]),
        st.tuples(name, inner).map(lambda t: [f"{pad}phase {t[0]}", *t[1]]),
    )
    return st.lists(st.one_of(simple, simple, block), min_size=1, max_size=4).map(
        lambda parts: [line for p in parts for line in p])


@functools.cache
def params() -> st.SearchStrategy[str]:
    one = st.one_of(st.tuples(name, st.sampled_from(TYPES)).map(lambda t: f"{t[0]}: {t[1]}"),
                    st.tuples(name, expr(1)).map(lambda t: f"{t[0]} in {t[1]}"))
    return st.lists(one, max_size=2).map(lambda ps: f"({', '.join(ps)})" if ps else "")


@functools.cache
def decl() -> st.SearchStrategy[list[str]]:
    body = stmts(2, 4)
    var = st.tuples(name, st.sampled_from(TYPES), st.one_of(st.just(""), expr(1).map(lambda e: f" = {e}")),
                    st.sampled_from(["", " hidden", " hidden except owner"])).map(
        lambda t: f"    {t[0]}: {t[1]}{t[2]}{t[3]}")
    return st.one_of(
        st.lists(name, min_size=1, max_size=4).map(lambda ns: [f"enum {ns[0].capitalize()} = " + ", ".join(ns)]),
        st.tuples(st.integers(0, 9), st.integers(0, 9)).map(lambda t: [f"board Square = grid {t[0]} x {t[1]}"]),
        st.just(["board Land = graph", "    a - b - c", "    c - a"]),
        st.lists(var, min_size=1, max_size=4).map(lambda vs: ["state", *vs]),
        st.tuples(name, expr(2)).map(lambda t: [f"const {t[0]} = {t[1]}"]),
        st.tuples(name, params(), expr(2)).map(lambda t: [f"define {t[0]}{t[1]} = {t[2]}"]),
        st.tuples(name, params(), body).map(lambda t: [f"action {t[0]}{t[1]}", '    "A quote."', *t[2]]),
        st.tuples(name, params(), body).map(lambda t: [f"procedure {t[0]}{t[1]}", *t[2]]),
        st.tuples(expr(1), body).map(lambda t: [f"when {t[0]}", *t[1]]),
        body.map(lambda b: ["on turn start", *b]),
        st.tuples(name, st.sampled_from(TYPES), expr(1)).map(lambda t: [f"option {t[0]}: {t[1]} = {t[2]}"]),
        st.tuples(name, name).map(lambda t: [f"display {t[0]}: {t[1]}"]),
        expr(1).map(lambda e: [f"invariant {e}"]),
        st.just(['scenario "s"', "    given", "        set n = 1", "    do a", "    expect n == 1"]),
    )


JUNK = st.sampled_from(["$", "\t", "(", ")", "]", "[[[", '"', "\u2028", "\x00", "é", "#", "  ", ":", "->",
                        "9" * 120, "\\", "if", "==", "=", "..", "\r"])


@st.composite
def rules_text(draw: st.DrawFn) -> str:
    """A whole rules file: players, some declarations, a flow; sometimes a stray token."""
    lines = [draw(st.sampled_from(["players X, O", "players 2..3 from X, O, Z", "players X", ""]))]
    for d in draw(st.lists(decl(), max_size=6)):
        lines.extend(d)
    flow = draw(stmts(2, 4))
    lines += ["flow", *(flow or ["    finish draw"])]
    if draw(st.integers(0, 4)) == 0:  # one line gets a stray token
        i = draw(st.integers(0, len(lines) - 1))
        line = lines[i]
        at = draw(st.integers(0, len(line)))
        lines[i] = line[:at] + draw(JUNK) + line[at:]
    return "\n".join(lines) + draw(st.sampled_from(["\n", "", "\n\n"]))


# ---------------------------------------------------------------------- well-typed games
# A fixed set of declarations, and typed holes filled by expressions of the right type, so
# most texts check clean and run: the engine's run-time paths (failures included) are walked.
HEADER = """players 2..3 from X, O, Z
board Square = grid 3 x 3
enum Card = c_a, c_b, c_c, c_d, c_e, c_f
const VAL = {c_a: 1, c_b: 2, c_c: 3}
state
    n: int = 0
    cell: Square -> Player? = none
    hand: Player -> list Card = [] hidden except owner
    deck: list Card = [] hidden
    pile: list Card = []
    marks: set Square = []
    chosen: Card? = none
    owner: Card -> Player? = none
    count: Card -> int = 0
"""


@functools.cache
def typed(kind: str, depth: int = 2) -> st.SearchStrategy[str]:
    """An expression of one of the kinds int, bool, card, cards, player, square."""
    leaves = {
        "int": st.one_of(st.integers(-2, 9).map(str), st.just("n"), st.just("len(pile)"), st.just("len(deck)"),
                         st.just("len(hand[current])"), st.just("player_count"), st.just("round")),
        "bool": st.sampled_from(["true", "false", "pile == []", "deck != []", "cell[b2] == none",
                                 "hand[current] != []", "b2 in marks"]),
        "card": st.sampled_from(["c_a", "c_b", "c_f", "top(pile)"]),
        "cards": st.sampled_from(["pile", "deck", "hand[current]", "hand[next_player(current)]", "[c_a, c_b]", "[]"]),
        "player": st.sampled_from(["current", "next_player(current)", "X", "O"]),
        "square": st.sampled_from(["a1", "b2", "c3", "square(1, 2)"]),
        # may be none: used where a value is needed only behind a test (dsl/check_narrow.py)
        "card?": st.sampled_from(["chosen", "top(pile)", "top(hand[current])", "none",
                                  "(first x in pile where x != c_a)", "(max x in deck: x)"]),
        "player?": st.sampled_from(["owner[c_a]", "cell[b2]", "none", "owner[top(pile)]"]),
    }
    if depth <= 0:
        return leaves[kind]
    i, b = typed("int", depth - 1), typed("bool", depth - 1)
    more = {
        "int": [st.tuples(i, st.sampled_from(["+", "-", "*", "//", "%"]), i).map(" ".join),
                typed("cards", depth - 1).map(lambda c: f"len({c})"),
                st.tuples(st.sampled_from(["count", "sum"]), typed("cards", depth - 1)).map(
                    lambda t: f"({t[0]} x in {t[1]}: {'x == c_a' if t[0] == 'count' else '1'})")],
        "bool": [st.tuples(i, st.sampled_from(["==", "!=", "<", ">="]), i).map(" ".join),
                 st.tuples(b, st.sampled_from(["and", "or"]), b).map(lambda t: f"({t[0]}) {t[1]} ({t[2]})"),
                 b.map(lambda x: f"not ({x})"),
                 st.tuples(typed("card", depth - 1), typed("cards", depth - 1)).map(lambda t: f"{t[0]} in {t[1]}"),
                 typed("cards", depth - 1).map(lambda c: f"(any x in {c}: x == c_b)")],
        "card": [], "player": [], "square": [], "card?": [], "player?": [],
        "cards": [typed("cards", depth - 1).map(lambda c: f"(list x in {c} where x != c_a: x)")],
    }[kind]
    return st.one_of(leaves[kind], *more) if more else leaves[kind]


@functools.cache
def typed_stmts(depth: int, indent: int, in_action: bool) -> st.SearchStrategy[list[str]]:
    pad = " " * indent
    one = st.one_of(
        typed("int").map(lambda e: f"set n = {e}"),
        st.tuples(typed("square"), typed("player")).map(lambda t: f"set cell[{t[0]}] = {t[1]}"),
        typed("card").map(lambda c: f"add {c} to pile"),
        typed("card").map(lambda c: f"remove {c} from pile"),
        typed("card").map(lambda c: f"move {c} from hand[current] to pile"),
        st.tuples(typed("int", 1), typed("player")).map(lambda t: f"draw {t[0]} from deck to hand[{t[1]}]"),
        typed("square").map(lambda s: f"add {s} to marks"),
        st.just("shuffle deck"),
        st.just("set deck = [c_a, c_b, c_c, c_d, c_e, c_f]"),
        typed("cards").map(lambda c: f"let pick = random({c})"),
        st.just('log "a note"'),
        typed("card").map(lambda c: f"reveal {c} to current"),
        typed("int").map(lambda e: f"let k = {e}"),
        st.sampled_from(["finish draw", "finish winner current"]),
        # optional values: stored, tested, used as keys, passed on; unsound uses must be refused
        typed("card?").map(lambda c: f"set chosen = {c}"),
        st.tuples(typed("card?"), typed("player?")).map(lambda t: f"set owner[c_b] = {t[1]}"),
        st.tuples(typed("card?"), typed("player")).map(lambda t: f"set owner[{t[0]}] = {t[1]}"),
        typed("card?").map(lambda c: f"add 1 to count[{c}]"),
        typed("card?").map(lambda c: f"add {c} to pile"),
        typed("card?").map(lambda c: f"do keep({c})"),
        st.tuples(typed("card?"), typed("int")).map(lambda t: f"do bump({t[0]}, {t[1]})"),
        typed("player?").map(lambda p: f"set n = len(hand[{p}])"),
        typed("player?").map(lambda p: f"set n = score_of({p})"),
        st.tuples(typed("int"), typed("int")).map(lambda t: f"set n = {t[0]} // ({t[1]})"),
        typed("card").map(lambda c: f"add VAL[{c}] to n"),  # a table without every key
        typed("card").map(lambda c: f"set n = if {c} in VAL then VAL[{c}] else 0"),
    ).map(lambda s: [pad + s])
    choose = typed("cards").map(lambda c: [f"{pad}choose pick in {c} \"which?\"", f"{pad}add pick to pile"])
    if depth <= 0:
        return st.lists(one, min_size=1, max_size=2).map(lambda ps: [x for p in ps for x in p])
    inner = typed_stmts(depth - 1, indent + 4, in_action)
    uses = st.sampled_from(["add 1 to count[{v}]", "move {v} from pile to deck", "set owner[{v}] = current",
                            "do keep({v})", "set chosen = {v}"])
    narrowed = st.tuples(typed("card?"), st.sampled_from(["if let v = {c}", "if {c} != none", "if {c} in pile",
                                                           "if not ({c} == none)"]), uses, inner).map(
        lambda t: [pad + t[1].format(c=t[0]), pad + "    " + t[2].format(v="v" if "let" in t[1] else t[0]), *t[3]])
    block = st.one_of(
        narrowed,
        st.tuples(typed("bool"), inner).map(lambda t: [f"{pad}if {t[0]}", *t[1]]),
        st.tuples(typed("cards"), inner).map(lambda t: [f"{pad}for y in {t[0]}", *t[1]]),
        st.tuples(st.integers(0, 3), inner).map(lambda t: [f"{pad}repeat {t[0]} times", *t[1]]),
    )
    return st.lists(st.one_of(one, one, block, choose), min_size=1, max_size=4).map(
        lambda ps: [x for p in ps for x in p])


@st.composite
def typed_rules_text(draw: st.DrawFn) -> str:
    """A game over the fixed declarations: two actions with typed requires and effects, a
    procedure, maybe a trigger, and a flow of turns; it usually checks clean and runs."""
    lines = HEADER.splitlines()
    for name, param in (("first", "(s: Square)"), ("second", "(c in hand[current])")):
        lines.append(f"action {name}{param}")
        lines.append('    "Do something."')
        for r in draw(st.lists(typed("bool"), max_size=2)):
            lines.append(f"    require {r} else \"not now\"")
        if draw(st.booleans()):
            lines.append(f"    require {draw(typed('card?'))} != none")
        lines.extend(draw(typed_stmts(2, 4, True)))
    lines.append("procedure keep(c: Card)")
    lines.append("    add c to pile")
    lines.append("procedure bump(c: Card?, k: int)")
    lines.append("    if c != none")
    lines.append("        add k to count[c]")
    lines.append("define score_of(p: Player) = len(hand[p]) + count_of(p)")
    lines.append("define count_of(p: Player) = count x in deck: owner[x] == p")
    goal = draw(st.sampled_from(["3"] * 9 + ["true", '"ten"', "n"]))
    lines.append(f"option goal: int = {goal}")
    lines.append("procedure setup")
    lines.append("    set deck = [c_a, c_b, c_c, c_d, c_e, c_f]")
    lines.append("    shuffle deck")
    lines.extend(draw(typed_stmts(1, 4, False)))
    if draw(st.booleans()):
        lines.append(f"when {draw(typed('bool'))}")
        lines.extend(draw(typed_stmts(1, 4, False)))
    lines += ["flow", "    do setup", f"    repeat {draw(st.integers(1, 6))} times", "        turn",
              "            play " + draw(st.sampled_from(["first, second", "up to 2 of first, second",
                                                          "optional second"])), "    finish draw"]
    return "\n".join(lines) + "\n"
