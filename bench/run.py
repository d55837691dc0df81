"""`make bench`: random playouts per second, regelwerk vs hand-written Python, same process.

Prints one line per game with both rates and their ratio (regelwerk ÷ hand-written), for
traces off and on, then perft timings and the long seeded-game runs. Not a test: the numbers
go in closing notes and docs, and the target for the classic games is a ratio >= 0.1.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from regelwerk.interpreter.agents import perft  # noqa: E402

import regelwerk  # noqa: E402
from bench import handwritten as hw  # noqa: E402

GAMES = [
    ("tictactoe", "rulesets/classic/tictactoe.rules", hw.TicTacToe()),
    ("connect4", "rulesets/classic/connect4.rules", hw.ConnectFour()),
    ("breakthrough", "rulesets/classic/breakthrough.rules", hw.Breakthrough()),
]


def regelwerk_rate(ruleset: regelwerk.Ruleset, seconds: float, record: bool) -> float:
    rnd = random.Random(0)
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        g = ruleset.new_game(seed=n, record=record)
        while not g.is_over:
            g.apply(rnd.choice(g.legal_actions()))
        n += 1
    return n / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=2.0)
    args = ap.parse_args()
    print(f"{'game':<14}{'hand-written/s':>16}{'regelwerk/s':>14}{'ratio':>8}{'traced/s':>12}{'ratio':>8}")
    for name, path, game in GAMES:
        ruleset = regelwerk.load(ROOT / path)
        base = hw.playouts_per_second(game, args.seconds, seed=0)
        fast = regelwerk_rate(ruleset, args.seconds, record=False)
        traced = regelwerk_rate(ruleset, args.seconds, record=True)
        print(f"{name:<14}{base:>16.0f}{fast:>14.0f}{fast / base:>8.3f}{traced:>12.0f}{traced / base:>8.3f}")
    print()
    for name, path, game, depth in [
        ("connect4", "rulesets/classic/connect4.rules", hw.ConnectFour(), 6),
        ("breakthrough", "rulesets/classic/breakthrough.rules", hw.Breakthrough(), 3),
    ]:
        ruleset = regelwerk.load(ROOT / path)
        t = time.perf_counter()
        n = perft(ruleset.new_game(), depth)
        mine = time.perf_counter() - t
        t = time.perf_counter()
        m = hw.perft(game, game.initial(), depth)
        theirs = time.perf_counter() - t
        assert n == m, (name, n, m)
        print(f"perft {name} depth {depth}: {n} sequences; regelwerk {mine:.2f}s "
              f"(bulk-counts the last level), hand-written {theirs:.2f}s")
    seed_rulesets(args.seconds)


SEED_RULESETS = [
    ("khan", "rulesets/khan/khan.rules", 3),
    ("shogun", "rulesets/shogun/shogun.rules", 4),
    ("root", "rulesets/root/root.rules", 2),
]


def seed_rulesets(seconds: float) -> None:
    """Whole random games of the three seed rulesets (no hand-written baseline exists)."""
    print()
    for name, path, players in SEED_RULESETS:
        ruleset = regelwerk.load(ROOT / path)
        start = time.perf_counter()
        games = decisions = 0
        while time.perf_counter() - start < seconds:
            g = ruleset.new_game(players=players, seed=games)
            rnd = random.Random(games)
            while not g.is_over:
                g.apply(rnd.choice(g.legal_actions()))
                decisions += 1
            games += 1
        dt = time.perf_counter() - start
        print(f"{name} ({players} players): {games / dt:.1f} random games/s, {decisions / dt:.0f} decisions/s")


if __name__ == "__main__":
    main()
