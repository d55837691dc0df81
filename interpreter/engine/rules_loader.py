"""How the engine loads the rules file a save names (`Game.from_json(data)` without a
ruleset): the API registers its `load` here when the package is imported (regelwerk/__init__.py),
so the engine never imports the API that imports it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

load_rules: Callable[[str], Any] | None = None  # path -> Ruleset; set by regelwerk/__init__.py
