"""The package's structure (issue 24): no import circles, limits in a leaf.

Every import counts, also one inside a function (imported late to start fast): a module that
imports another that imports it back, directly or through others, is a circle even when Python
happens to resolve it. Imports under `if TYPE_CHECKING:` are for annotations only and do not
count.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the installed package's names for the repository's top-level folders (pyproject.toml)
PACKAGES = {"regelwerk": ROOT / "regelwerk", "regelwerk.dsl": ROOT / "dsl",
            "regelwerk.interpreter": ROOT / "interpreter"}


def modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package, folder in PACKAGES.items():
        for path in sorted(folder.rglob("*.py")):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found.setdefault(".".join([package, *parts]), path)
    return found


def _typing_only(tree: ast.Module) -> set[int]:
    out: set[int] = set()
    for node in tree.body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            out |= {id(n) for n in ast.walk(node)}
    return out


def import_graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports, anywhere in its body."""
    mods = modules()
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for name, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _typing_only(tree)
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.ImportFrom):
                base = ".".join(here[:len(here) - node.level + 1] + ([node.module] if node.module else [])) \
                    if node.level else node.module
                targets = [base] + [f"{base}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            graph[name] |= {t for t in targets if t in mods and t != name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[v] = min(low[v], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_circle_finder_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_module_imports_one_that_imports_it_back():
    assert circles(import_graph()) == []


def test_limits_are_a_leaf():
    """The engine's limits are read by the compiler, the game and generated code alike."""
    graph = import_graph()
    assert graph["regelwerk.interpreter.engine.limits"] == set()
    assert graph["regelwerk.interpreter.engine.rules_loader"] == set()


def test_the_engine_never_imports_the_facade():
    """The engine runs programs: it never reaches back into the API (`regelwerk.api`, the
    `Ruleset`); a save's rules file is loaded through the loader the API registers."""
    graph = import_graph()
    engine = {m: deps for m, deps in graph.items() if m.startswith("regelwerk.interpreter.engine.")}
    assert engine, "the engine's modules were not found"
    reaching = {m: sorted(d for d in deps if d != "regelwerk.dsl" and not d.startswith("regelwerk.interpreter.")
                          and not d.startswith("regelwerk.dsl."))
                for m, deps in engine.items()}
    assert {m: d for m, d in reaching.items() if d} == {}
