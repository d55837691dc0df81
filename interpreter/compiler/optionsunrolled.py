"""`options unrolled` (§5): a `choose` among `list x in E where W` of a small enum `E`, whose
moves the program lists with the options (`choice moves listed`), tests `W` once for each of
`E`'s values in place, each value a literal there, instead of a comprehension that calls `W`'s
definition once a value.

Root's Marquise asks `choose a in list x in CatAction where may_take(x, recruited)` some 50
times a game: seven calls of `may_take` (D_n) each, every one binding its state maps again and
comparing its parameter with the enum's names down a chain of conditionals to find the one
branch that applies. With the value a literal the conditionals fold (fold.py), so each value's
test is its own branch alone (`cat_actions > 0 and possible(cat_build)`), written by
`CodeGen.test` as statements in a one-round `while True:` left by `break` where it fails; where
it holds, the value (the enum's own object, as the comprehension took it) and its move are
appended. The values are tested in the enum's order, each test's parts in their order, as the
comprehension ran them: the same options, the same errors. Only where every value's test is
left only by its failures (no `return`, handler or function of its own, its own loops'
jumps inside them: `hoistedtest.straight`);
otherwise the comprehension as before.
"""

from __future__ import annotations

from ...dsl import ast as A
from .codegen import CodeGen
from .hoistedtest import FAIL, looped, straight

MAX_UNROLLED = 8  # values of the enum tested one by one; a longer one keeps its loop


def options_unrolled(g: CodeGen, domain: A.Node, sc: dict, table: str | None, out: list[str], ind: str) -> bool:
    """Write `opts` and `legal` for a `choose` over `domain` (its options' moves in `table`)
    with the filter tested once per value, in place; False (nothing written) where that does
    not apply."""
    if not g.OPTIONS_UNROLLED or table is None or not isinstance(domain, A.Aggregate) or domain.kind != "list" \
            or domain.where is None or not (domain.body is None or isinstance(domain.body, A.Name)
                                            and domain.body.name == domain.var) \
            or not isinstance(domain.domain, A.Name) or domain.domain.name in sc:
        return False
    values = g.elements.get(domain.domain.name)
    if not values or len(values) > MAX_UNROLLED or not all(isinstance(v, str) and v.isidentifier() for v in values):
        return False
    memo, choices = g.enum_memo, len(g.choices)
    tables = dict(memo) if memo is not None else None
    items = g.element_list(domain.domain.name)  # the values as the comprehension walked them
    lines = [f"{ind}opts = []", f"{ind}legal = []"]
    sc = {**sc, **_bound_once(g, domain.where, domain.var, sc, lines, ind)}
    for i, v in enumerate(values):
        tested: list[str] = []
        wsc = {**sc, domain.var: (repr(v), None)}
        taken = len(g.choices)
        g.test(domain.where, wsc, tested, ind + "    ", FAIL)
        if looped(tested):  # a loop in place costs more than the call, whose own code is tighter
            del g.choices[taken:]
            tested = [f"{ind}    if not {g.ex(domain.where, wsc)}:", f"{ind}        {FAIL}"]
        if not straight(tested):
            if memo is not None and tables is not None:
                memo.clear()
                memo.update(tables)
            del g.choices[choices:]
            return False
        lines += [f"{ind}while True:", *tested, f"{ind}    opts.append({items}[{i}])",
                  f"{ind}    legal.append({table}[{items}[{i}]])", f"{ind}    break"]
    out.extend(lines)
    g.chose("options unrolled", f"{domain.var} in {domain.domain.name}")
    return True



def _bound_once(g: CodeGen, where: A.Node, var: str, sc: dict, lines: list[str], ind: str) -> dict:
    """The arguments of `where`, a call of a definition, that are names of the block's frame
    (`L['recruited']`), each read once into a local ahead of the values: the comprehension's
    call read it once a value, and a frame's name reads alike each time (the test would bind it
    anew for every value, read or not)."""
    if not isinstance(where, A.Call) or where.func not in g.m.defines:
        return {}
    bound: dict = {}
    for arg in where.args:
        if isinstance(arg, A.Name) and arg.name != var and arg.name in sc and arg.name not in bound \
                and sc[arg.name][0].startswith("L[") and sc[arg.name][0].endswith("]"):
            local = g.fresh("v")
            lines.append(f"{ind}{local} = {sc[arg.name][0]}")
            bound[arg.name] = (local, sc[arg.name][1])
    return bound
