"""Batch simulation for designers: many seeded random games, summed up.

`regelwerk simulate` answers "is it balanced, how long is it, does it ever break?" with win
rates per seat, game lengths, score ranges and the first seed that fails, if any.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any

from .agents import RandomAgent, play_game
from .errors import EngineError


@dataclass
class Report:
    games: int = 0
    wins: dict[str, float] = field(default_factory=dict)  # shared wins count as a fraction
    draws: int = 0
    lengths: list[int] = field(default_factory=list)
    scores: dict[str, list[int]] = field(default_factory=dict)
    failures: list[tuple[int, str]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "length": _summary(self.lengths),
            "scores": {p: _summary(v) for p, v in self.scores.items()},
            "failures": [{"seed": s, "error": e} for s, e in self.failures],
        }

    def text(self) -> str:
        lines = [f"{self.games} games, {len(self.failures)} failed, {self.draws} draws"]
        ok = self.games - len(self.failures)
        for p, w in self.wins.items():
            rate = 100 * w / ok if ok else 0.0
            line = f"  {p:<12} wins {w:>7.1f}  ({rate:5.1f}%)"
            if self.scores.get(p):
                s = _summary(self.scores[p])
                line += f"   score mean {s['mean']:.1f}, min {s['min']}, max {s['max']}"
            lines.append(line)
        if self.lengths:
            s = _summary(self.lengths)
            lines.append(f"  decisions per game: mean {s['mean']:.1f}, min {s['min']}, max {s['max']}")
        for seed, err in self.failures[:3]:
            lines.append(f"  seed {seed} failed: {err}")
        return "\n".join(lines)


def _summary(values: list[int]) -> dict[str, Any]:
    if not values:
        return {"mean": 0.0, "min": None, "max": None}
    return {"mean": statistics.fmean(values), "min": min(values), "max": max(values)}


def simulate(ruleset: Any, players: int | None, games: int, seed: int = 0,
             options: dict | None = None, max_steps: int = 100_000) -> Report:
    """Play `games` random games with seeds seed, seed+1, ...; failures are kept, not raised."""
    report = Report()
    for i in range(games):
        s = seed + i
        report.games += 1
        try:
            g = ruleset.new_game(players=players, seed=s, options=options)
            steps = _play(g, s, max_steps)
        except EngineError as err:
            report.failures.append((s, err.message if hasattr(err, "message") else str(err)))
            continue
        for p in g.players:
            report.wins.setdefault(p, 0.0)
        if g.winners:
            for p in g.winners:
                report.wins[p] += 1 / len(g.winners)
        else:
            report.draws += 1
        report.lengths.append(steps)
        for p, v in (g.scores or {}).items():
            report.scores.setdefault(p, []).append(v)
    return report


def _play(game: Any, seed: int, max_steps: int) -> int:
    before = game.step_no
    play_game(game, RandomAgent(seed), max_steps)
    return game.step_no - before
