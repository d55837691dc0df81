"""The stdlib package exports, and every module also loads as a plain file."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
import regelwerk.interpreter.stdlib as stdlib

MODULES = ["aggregate", "components", "deck", "graph", "grid", "polyomino", "rng"]
STDLIB_DIR = Path(stdlib.__file__).parent


def test_package_reexports_modules_and_classes() -> None:
    for name in MODULES:
        assert getattr(stdlib, name).__name__ == f"regelwerk.interpreter.stdlib.{name}"
    assert stdlib.Grid is stdlib.grid.Grid
    assert stdlib.Graph is stdlib.graph.Graph
    assert callable(stdlib.components.components)


@pytest.mark.parametrize("name", MODULES)
def test_module_loads_as_a_plain_file(name: str) -> None:
    spec = importlib.util.spec_from_file_location(f"plain_{name}", STDLIB_DIR / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.__doc__


@pytest.mark.parametrize("name", MODULES)
def test_every_public_function_has_a_docstring(name: str) -> None:
    module = getattr(stdlib, name)
    for attr, value in vars(module).items():
        if callable(value) and getattr(value, "__module__", None) == module.__name__:
            assert value.__doc__, f"{name}.{attr} has no docstring"
            for member in vars(value).values() if isinstance(value, type) else ():
                if callable(member):
                    assert member.__doc__, f"{name}.{attr}.{member.__name__} has no docstring"
