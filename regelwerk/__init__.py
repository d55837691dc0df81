"""regelwerk: board-game rules as text, checked, played and explained.

    import regelwerk
    rules = regelwerk.load("rulesets/classic/tictactoe.rules")
    game = rules.new_game(players=2, seed=1)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
"""

from typing import Any

from .api import Ruleset, load, load_text
from .dsl.diagnostics import Diagnostic, RulesError
from .interpreter.engine import rules_loader as _rules_loader
from .interpreter.engine.errors import (
    BudgetExceeded,
    EngineError,
    IllegalAction,
    InvariantBroken,
    RuleFailure,
    SaveError,
)

_rules_loader.load_rules = load  # a save names its rules file: the engine loads it with this


def __getattr__(name: str) -> Any:
    """`Game` and `Action` are imported with the engine, on first use (so `check` starts fast)."""
    if name in ("Action", "Game"):
        from .interpreter.engine import game

        return getattr(game, name)
    raise AttributeError(f"module 'regelwerk' has no attribute {name!r}")

__all__ = [
    "Action",
    "BudgetExceeded",
    "Diagnostic",
    "EngineError",
    "Game",
    "IllegalAction",
    "InvariantBroken",
    "RuleFailure",
    "Ruleset",
    "RulesError",
    "SaveError",
    "load",
    "load_text",
]
