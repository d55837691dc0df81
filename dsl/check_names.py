"""Names a ruleset may not give: built-in names, words of the language, `__` names, clashes.

A user name that is also a built-in one (`current`, `players`, `none`, `Player`, ...) checked
clean and then read the built-in at run time (an enum member `current` was the player whose turn
it is, so `m[current]` failed with a KeyError), or could not be written at all (`none` is always
the literal). Every place where a ruleset gives a name is listed in `_names_of`, and each name
given there is looked up in one table (`reserved`), so a new built-in or a new naming place is
one line here. Names starting with `__` belong to the locals the sugar of dsl/sugar.py makes:
refused wherever the text gives or reads one, while the sugar's own nodes are exempt.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from . import ast as A
from . import sugar
from .check_expr import DIRECTIONS, KEYWORD_VALUES

BUILTIN_VALUES = {
    "current": "the player whose turn it is",
    "players": "the players in seat order",
    "player_count": "the number of players",
    "round": "the round number",
    "current_phase": "the phase the flow is in",
    "Player": "the type of the players",
    "Direction": "the type of the grid directions",
    "int": "a type", "bool": "a type", "text": "a type",
}
assert KEYWORD_VALUES <= set(BUILTIN_VALUES)
# words that cannot stand for a value in an expression, or read as an operator there
WORDS = ("none", "true", "false", "if", "then", "else", "elif", "not", "and", "or", "in")
DEVICE_NAMES = ("outcome", "detail")  # bound in a device's require and settle parts
TYPE_PLACES = ("enum", "board", "record")
HELP = "choose another name"


def reserved(name: str, where: str, grid: bool) -> str | None:
    """Why `name` may not be given in a place of kind `where`, or None when it may. A grid
    direction (`N`, `SE`, ...) clashes with a name of a ruleset that has a grid, and with a
    type's name always (`N` alone would be read as the direction by one stage and as the type's
    values by another)."""
    if name.startswith("__"):
        return f"'{name}' is reserved: names may not start with '__'"
    if name in BUILTIN_VALUES:
        why = f"'{name}' is a built-in name ({BUILTIN_VALUES[name]})"
    elif name in WORDS:
        why = f"'{name}' is a word of the language"
    elif name in DIRECTIONS and (grid or where in TYPE_PLACES):
        why = f"'{name}' is a grid direction"
    elif where in ("definition", "device") and _library(name):
        why = f"'{name}' is a function of the standard library"
    elif where == "device local" and name in DEVICE_NAMES:
        why = f"'{name}' names the device's outcome in its require and settle parts"
    else:
        return None
    return f"{why}: it cannot name {'an' if where[0] in 'aeiou' else 'a'} {where}"


def _library(name: str) -> bool:
    from ..interpreter.stdlib.library import LIBRARY

    return name in LIBRARY


def check_names(modules: list[A.Module], graphs: dict[str, tuple[list[str], list]],
                boards: dict[str, A.Node], err: Callable[..., None]) -> None:
    """E101 for every name given where it is reserved, at the place that gives it, and for
    every `__` name the text reads."""
    grid = any(isinstance(d, A.GridDecl) for mod in modules for d in mod.decls)
    for name, where, node in _given(modules):
        why = reserved(name, where, grid)
        if why is not None:
            err("E101", why, node.span, HELP)
    for board, (nodes, _edges) in graphs.items():  # also the nodes a graph file names
        for n in nodes:
            why = reserved(n, "node", grid)
            if why is not None:
                err("E101", why, boards[board].span, HELP)


_DECLS = {A.EnumDecl: "enum", A.GridDecl: "board", A.GraphDecl: "board", A.GraphFileDecl: "board",
          A.RecordDecl: "record", A.DataDecl: "data table", A.VarDecl: "state variable",
          A.ConstDecl: "constant", A.OptionDecl: "option", A.DefineDecl: "definition",
          A.ActionDecl: "action", A.ProcedureDecl: "procedure", A.DeviceDecl: "device",
          A.PhaseStmt: "phase"}


def _given(modules: list[A.Module]) -> Iterator[tuple[str, str, A.Node]]:
    """(name, kind of place, node) for every name the text gives, in every place that gives one,
    and every `__` name it reads; the nodes the sugar made are left out."""
    for mod in modules:
        for d in mod.decls:
            made = _sugar_made(d)
            inside_device = isinstance(d, A.DeviceDecl)
            for node in A.iter_nodes(d):
                if isinstance(node, A.ForChosen):
                    yield sugar.for_chosen_parts(node)[0], "loop variable", node
                elif isinstance(node, A.ChooseOnePer):
                    parts = sugar.choose_one_per_parts(node)
                    yield parts[1], "choice", node
                    yield parts[3], "loop variable", node
                elif id(node) not in made:
                    yield from _names_of(node, inside_device)


def _names_of(node: A.Node, inside_device: bool) -> Iterator[tuple[str, str, A.Node]]:
    kind = _DECLS.get(type(node))
    if kind is not None:
        yield node.name, kind, node
    local = "device local" if inside_device else None
    if isinstance(node, A.PlayersDecl):
        yield from ((n, "player", node) for n in node.names)
    elif isinstance(node, A.EnumDecl):
        yield from ((n, "enum member", node) for n in node.members)
    elif isinstance(node, A.GraphDecl):
        yield from ((n, "node", node) for path in node.paths for n in path)
    elif isinstance(node, A.RecordDecl):
        yield from ((f, "record field", node) for f, _ in node.fields)
    elif isinstance(node, A.Param):
        yield node.name, local or "parameter", node
    elif isinstance(node, (A.ForStmt, A.Aggregate)):
        yield node.var, local or "loop variable", node
    elif isinstance(node, A.SimultaneousStmt):
        yield node.var, "player of a simultaneous part", node
    elif isinstance(node, A.ChooseStmt):
        yield node.name, local or "choice", node
    elif isinstance(node, (A.LetStmt, A.LetExpr)):
        yield node.name, local or "local name", node
    elif isinstance(node, A.FinishStmt) and node.var is not None:
        yield node.var, "ranking variable", node
    elif isinstance(node, A.Name) and node.name.startswith("__"):
        yield node.name, "value", node  # reading the sugar's locals


def _sugar_made(decl: A.Node) -> set[int]:
    """The ids of the nodes the sugar built (its `__` locals), not the parts the text wrote."""
    made: set[int] = set()
    for node in A.iter_nodes(decl):
        if isinstance(node, A.ForChosen):
            _var, items, _opt, by, _prompt, body = sugar.for_chosen_parts(node)
            written = (items, by, body)
        elif isinstance(node, A.ChooseOnePer):
            n, _var, items, _slot, slots, fits, by, _prompt, body = sugar.choose_one_per_parts(node)
            written = (n, items, slots, fits, by, body)
        else:
            continue
        mine = {id(x) for part in written for x in A.iter_nodes(part)}
        made |= {id(x) for x in A.iter_nodes(node) if id(x) not in mine}
    return made
