"""The bundled rulesets the tests play, with their player counts: a module of its own, not
conftest.py, so that test files import it by a name no other conftest.py shares (tests/viewer
has one too)."""

from __future__ import annotations

from pathlib import Path

import regelwerk

ROOT = Path(__file__).resolve().parent.parent
CLASSIC = ROOT / "rulesets" / "classic"
# every bundled ruleset, with the player counts it is played with (the first is the default)
RULESETS = {
    "tictactoe": (CLASSIC / "tictactoe.rules", (2,)),
    "connect4": (CLASSIC / "connect4.rules", (2,)),
    "breakthrough": (CLASSIC / "breakthrough.rules", (2,)),
    "checkers": (CLASSIC / "checkers.rules", (2,)),
    "pig": (ROOT / "rulesets" / "examples" / "pig.rules", (3, 2, 4)),
    "climb": (ROOT / "rulesets" / "examples" / "climb.rules", (3, 2, 4)),
    "khan": (ROOT / "rulesets" / "khan" / "khan.rules", (3, 2, 4)),
    "shogun": (ROOT / "rulesets" / "shogun" / "shogun.rules", (4, 3, 5)),
    "root": (ROOT / "rulesets" / "root" / "root.rules", (2,)),
    "offers": (ROOT / "tests" / "corpus" / "valid" / "abandon.rules", (2,)),  # abandon
}
BUNDLED = {name: path for name, (path, _n) in RULESETS.items()}
PLAYERS = {name: counts[0] for name, (_path, counts) in RULESETS.items()}
PLAYER_COUNTS = {name: counts for name, (_path, counts) in RULESETS.items()}
# small games whose whole trace is kept as a golden file
GOLDEN_GAMES = ["tictactoe", "connect4", "breakthrough", "pig", "climb"]
# every bundled ruleset with hidden state, by its path under rulesets/, with its player count
HIDDEN = {
    "examples/kuhn.rules": 2, "examples/leduc.rules": 2, "examples/climb.rules": 3,
    "khan/khan.rules": 3, "shogun/shogun.rules": 4, "root/root.rules": 2, "examples/goofspiel.rules": 2,
}
_LOADED: dict[str, regelwerk.Ruleset] = {}


def ruleset(name: str) -> regelwerk.Ruleset:
    """The ruleset at `rulesets/<name>`, loaded once for the test session."""
    if name not in _LOADED:
        _LOADED[name] = regelwerk.load(ROOT / "rulesets" / name)
    return _LOADED[name]
