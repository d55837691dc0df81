"""Where each player's points came from, by rule.

Why: a win rate says who wins, not how; a designer asks which rules the points came from (the
Marquise's buildings or her crafting, the Duchy's ministers or its battles). This plays the
games `regelwerk simulate` plays (game i with seed SEED + i; each player's agent from the same
spec and seed), traced, and sums every change of the scoring variable (a map by player, such as
`vp[Duchy]`) by the rule whose step made it. Generic: nothing here knows a ruleset.

    .venv/bin/python tools/score_sources.py rulesets/root/root.rules --players 2 --games 100 \\
        [--seed 0] [--agent Marquise=mcts:10] [--var vp] [--json OUT.json]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

from regelwerk.interpreter.tools.agents import assign_agents, derived_seed, make_agent
from regelwerk.interpreter.tools.simulate import game_seed

import regelwerk


def score_changes(trace: list[dict], var: str) -> dict[str, dict[str, int]]:
    """{player: {rule: points}} from the `changes` of a game's trace steps."""
    path = re.compile(rf"^{re.escape(var)}\[(\w+)\]$")
    out: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for step in trace:
        for ch in step.get("changes") or ():
            m = path.match(str(ch.get("path", "")))
            if m and isinstance(ch.get("new"), int) and isinstance(ch.get("old"), int):
                out[m.group(1)][str(step.get("rule"))] += ch["new"] - ch["old"]
    return out


def run(rules: Path, players: int | None, games: int, seed: int, agents: list[str], var: str) -> dict:
    """Play `games` games and add up their score sources, wins and lengths per player."""
    ruleset = regelwerk.load(rules)
    specs: dict[str, str] = {}
    totals: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    wins: dict[str, float] = defaultdict(float)
    lengths: list[int] = []
    start = time.perf_counter()
    for i in range(games):
        s = game_seed(seed, i)
        game = ruleset.new_game(players=players, seed=s, record=True)
        specs = specs or assign_agents(agents, game.players)
        play = {p: make_agent(specs[p], derived_seed(seed, i, p)) for p in game.players}
        first = game.step_no
        while not game.is_over:
            game.apply(play[game.decision_player()](game))
        lengths.append(game.step_no - first)
        for w in game.winners:
            wins[w] += 1 / len(game.winners)
        for p, by_rule in score_changes(game.trace, var).items():
            for rule, n in by_rule.items():
                totals[p][rule] += n
    return {"games": games, "seed": seed, "agents": specs, "var": var,
            "wins": dict(wins), "mean_length": sum(lengths) / max(1, len(lengths)),
            "mean_points_by_rule": {p: {r: n / games for r, n in sorted(by.items(), key=lambda x: -x[1])}
                                    for p, by in totals.items()},
            "timing": {"seconds": time.perf_counter() - start}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rules", type=Path)
    ap.add_argument("--players", type=int)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--agent", action="append", default=[])
    ap.add_argument("--var", default="vp", help="the scoring state variable, a map by player")
    ap.add_argument("--json", type=Path)
    a = ap.parse_args(argv)
    try:
        report = run(a.rules, a.players, a.games, a.seed, a.agent, a.var)
    except (regelwerk.RulesError, ValueError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    for p, by in report["mean_points_by_rule"].items():
        total = sum(by.values())
        print(f"{p}: {report['wins'].get(p, 0):g} wins of {a.games}, {total:.1f} points a game")
        for rule, n in by.items():
            print(f"  {n:6.2f}  {rule}")
    print(f"mean length {report['mean_length']:.0f} decisions; {report['timing']['seconds']:.0f} s")
    if a.json:
        tmp = a.json.with_suffix(a.json.suffix + ".tmp")
        tmp.write_text(json.dumps(report, indent=1, sort_keys=True), encoding="utf-8")
        tmp.replace(a.json)  # atomically
    return 0


if __name__ == "__main__":
    sys.exit(main())
