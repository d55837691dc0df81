"""Shared fixtures: the bundled rulesets, loaded once per session."""

from __future__ import annotations

from pathlib import Path

import pytest

import regelwerk

ROOT = Path(__file__).resolve().parent.parent
CLASSIC = ROOT / "rulesets" / "classic"
BUNDLED = {
    "tictactoe": CLASSIC / "tictactoe.rules",
    "connect4": CLASSIC / "connect4.rules",
    "breakthrough": CLASSIC / "breakthrough.rules",
    "pig": ROOT / "rulesets" / "examples" / "pig.rules",
    "climb": ROOT / "rulesets" / "examples" / "climb.rules",
}


@pytest.fixture(scope="session")
def rulesets() -> dict[str, regelwerk.Ruleset]:
    return {name: regelwerk.load(path) for name, path in BUNDLED.items()}
