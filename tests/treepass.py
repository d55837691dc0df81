"""What the tests of a pass over one generated function share: the names and constants the
code generator hands a pass (`fresh`, `const`), and running a function's code with them."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any


class Made:
    """A pass's `fresh` and `const`, as CodeGen gives them: names `_<prefix><n>` counted from
    100, each constant put into `constants` (a copy of the tables the test starts from)."""

    def __init__(self, tables: dict[str, Any]):
        self.constants = dict(tables)
        self._counter = iter(range(100, 1000))

    def fresh(self, prefix: str = "t") -> str:
        return f"_{prefix}{next(self._counter)}"

    def const(self, value: Any, prefix: str = "C") -> str:
        name = self.fresh(prefix)
        self.constants[name] = value
        return name


def passed(code: str, tables: dict[str, Any], run_pass: Callable[[ast.FunctionDef, Made], bool]
           ) -> tuple[str, dict[str, Any], bool]:
    """`code` (one function) after `run_pass(fn, made)`, the constants then, and its answer."""
    made = Made(tables)
    tree = ast.parse(code)
    done = run_pass(tree.body[0], made)  # type: ignore[arg-type]
    return ast.unparse(tree), made.constants, done


def run(code: str, constants: dict[str, Any], *args: object, **names: Any) -> object:
    """`f(*args)` of `code`, with `constants` (and `names`) its globals."""
    ns = {**constants, **names}
    exec(compile(code, "<test>", "exec"), ns)  # noqa: S102 - the test's own code
    return ns["f"](*args)
