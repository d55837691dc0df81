"""`make bench`: regelwerk against plain hand-written Python, side by side in one process.

For each classic game, rounds of random playouts alternate between the hand-written game
(bench/plain.py: mutable objects, moves applied in place), regelwerk untraced (the loop
`g.apply(rnd.choice(g.legal_actions()))`), the same games as `Game.playout(rnd)` (the random
playout inside the engine, as MCTS rollouts play it) and regelwerk traced; each line gives the median of the per-round ratios (regelwerk ÷ hand-written), so a
busy machine slows both sides alike. The traced cost is timed on the same games (`traced_cost`:
batches played untraced, then traced with the same seeds and choices), not as a ratio of the
two rates, whose games differ. Then perft with the same method on both sides, the seed
rulesets' random games and decisions per second (the same first games in rounds, each round
untraced, then traced, with the same moves: the median and the rounds' range; after one
warm-up game each, so compiling the program and starting its template are not counted), and
how long
`regelwerk check` of each seed ruleset takes in a fresh process, and the OpenSpiel bridge
against OpenSpiel's own Python and C++ games. CPU time of this process is measured
(time.process_time), not wall time. Not a test: the figures go in closing notes and docs. The
goals (issue 27): untraced at least 1x the hand-written games, traced at most 1.5x untraced,
checkers at least 1x, the bridge no slower than OpenSpiel's Python games and Leduc CFR within
5x of the C++ game. The last column, for tic-tac-toe and connect four, is the ceiling
(bench/ceiling.py): an ideal class per game that keeps the engine's contracts, as a ratio to
the hand-written game too; regelwerk cannot pass it without changing those contracts.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from regelwerk.interpreter.tools.agents import perft  # noqa: E402

import regelwerk  # noqa: E402
from bench import ceiling, plain  # noqa: E402

CLASSIC = ["tictactoe", "connect4", "breakthrough", "checkers"]
PERFT = [("connect4", 6), ("breakthrough", 3), ("checkers", 6)]
SEED_RULESETS = [("khan", "rulesets/khan/khan.rules", 3), ("shogun", "rulesets/shogun/shogun.rules", 4),
                 ("root", "rulesets/root/root.rules", 2)]


def rate(play, seconds: float) -> float:
    """Playouts per CPU second of `play()`, run for about `seconds`."""
    n = 0
    start = time.process_time()
    while True:
        play()
        n += 1
        spent = time.process_time() - start
        if spent >= seconds:
            return n / spent


def _hand_written(name: str):
    cls, rng = plain.GAMES[name], random.Random(1234)
    return lambda: plain.playout(cls, rng)


def _ceiling(name: str):
    """bench/ceiling.py's ideal class of the game, played as `regelwerk_player` plays."""
    cls, rnd = ceiling.GAMES[name], random.Random(0)

    def play() -> None:
        g = cls()
        while not g.is_over:
            g.apply(rnd.choice(g.legal_actions()))

    return play


def regelwerk_player(ruleset: regelwerk.Ruleset, record: bool):
    rnd = random.Random(0)
    seed = [0]

    def play() -> None:
        g = ruleset.new_game(seed=seed[0], record=record)
        seed[0] += 1
        while not g.is_over:
            g.apply(rnd.choice(g.legal_actions()))

    return play


def regelwerk_playouts(ruleset: regelwerk.Ruleset):
    """The same random games as `regelwerk_player(ruleset, False)`, each one `Game.playout`."""
    rnd = random.Random(0)
    seed = [0]

    def play() -> None:
        ruleset.new_game(seed=seed[0]).playout(rnd)
        seed[0] += 1

    return play


def classic(seconds: float, rounds: int) -> list[dict]:
    print(f"{'game':<14}{'hand-written/s':>15}{'regelwerk/s':>13}{'ratio':>7}{'playout/s':>11}{'ratio':>7}"
          f"{'traced/s':>11}{'ratio':>7}{'traced cost':>13}{'ceiling':>9}")
    out = []
    for name in CLASSIC:
        ruleset = regelwerk.load(ROOT / f"rulesets/classic/{name}.rules")
        players = {"hand-written": _hand_written(name),
                   "untraced": regelwerk_player(ruleset, False), "playout": regelwerk_playouts(ruleset),
                   "traced": regelwerk_player(ruleset, True)}
        if name in ceiling.GAMES:  # the fastest the engine's contracts allow (bench/ceiling.py)
            players["ceiling"] = _ceiling(name)
        rates: dict[str, list[float]] = {k: [] for k in players}
        for _ in range(rounds):
            for k, play in players.items():
                play()  # warm up this round's side
                rates[k].append(rate(play, seconds))
        hw, un, po, tr = (rates[k] for k in ("hand-written", "untraced", "playout", "traced"))
        row = {"game": name, "hand_written": statistics.median(hw), "untraced": statistics.median(un),
               "playout": statistics.median(po), "traced": statistics.median(tr),
               "ratio": statistics.median(u / h for u, h in zip(un, hw, strict=True)),
               "playout_ratio": statistics.median(p / h for p, h in zip(po, hw, strict=True)),
               "traced_ratio": statistics.median(t / h for t, h in zip(tr, hw, strict=True)),
               "traced_cost": statistics.median(traced_cost(ruleset, seconds) for _ in range(rounds)),
               "traced_cost_of_rates": statistics.median(u / t for u, t in zip(un, tr, strict=True))}
        if "ceiling" in rates:
            row["ceiling_ratio"] = statistics.median(c / h for c, h in zip(rates["ceiling"], hw, strict=True))
        out.append(row)
        print(f"{name:<14}{row['hand_written']:>15,.0f}{row['untraced']:>13,.0f}{row['ratio']:>7.2f}"
              f"{row['playout']:>11,.0f}{row['playout_ratio']:>7.2f}{row['traced']:>11,.0f}{row['traced_ratio']:>7.2f}{row['traced_cost']:>12.2f}x"
              + (f"{row['ceiling_ratio']:>9.2f}" if "ceiling_ratio" in row else ""))
    return out


def traced_cost(ruleset: regelwerk.Ruleset, seconds: float, batch: int = 20) -> float:
    """Traced over untraced CPU time of the same random games: a batch played untraced, then
    the same batch traced (the same seeds and choices), until both took about `seconds`. The
    ratio of two rates measured one after the other moved with the machine's drift (tic-tac-
    toe's 1.51-1.59 between runs); the same games, timed side by side, do not. Only the games
    are timed, as in `regelwerk_player`: no generator is made per game."""
    spent = {False: 0.0, True: 0.0}
    for record in (False, True):  # compiles each program and plays one game first
        _timed_batch(ruleset, 10_000, 1, record)
    first = 0
    while spent[False] + spent[True] < seconds:
        for record in (False, True):
            spent[record] += _timed_batch(ruleset, first, batch, record)
        first += batch
    return spent[True] / spent[False]


def _timed_batch(ruleset: regelwerk.Ruleset, first: int, n: int, record: bool) -> float:
    """CPU seconds of `n` random games from seed `first`, choices drawn from one generator."""
    rnd = random.Random(first)
    start = time.process_time()
    for seed in range(first, first + n):
        g = ruleset.new_game(seed=seed, record=record)
        while not g.is_over:
            g.apply(rnd.choice(g.legal_actions()))
    return time.process_time() - start


def perfts(rounds: int = 3) -> list[dict]:
    """Perft on both sides, in `rounds` alternating rounds (the median ratio and the rounds'
    range). Each side's start position is made before its timing: regelwerk's first game of a
    freshly loaded ruleset compiles its program (checkers: about 0.07 s, as long as the perft 6
    itself), which is not move generation, and timing it made checkers' perft 0.28x where
    the search alone was 0.48x (docs/architecture.md §17)."""
    print()
    out = []
    for name, depth in PERFT:
        ruleset = regelwerk.load(ROOT / f"rulesets/classic/{name}.rules")
        t = time.process_time()
        start = ruleset.new_game()  # compiles the program and makes its start template
        made = time.process_time() - t
        mine, theirs = [], []
        for _ in range(rounds):
            game, hand = start.clone(), plain.GAMES[name]()
            t = time.process_time()
            n = perft(game, depth)
            mine.append(time.process_time() - t)
            t = time.process_time()
            m = plain.perft(hand, depth)
            theirs.append(time.process_time() - t)
            if n != m:
                raise SystemExit(f"perft {name} {depth}: regelwerk {n}, hand-written {m}")
        ratios = [b / a for a, b in zip(mine, theirs, strict=True)]
        row = {"game": name, "depth": depth, "sequences": n, "regelwerk_s": statistics.median(mine),
               "hand_written_s": statistics.median(theirs), "ratio": statistics.median(ratios),
               "ratio_range": [min(ratios), max(ratios)], "first_game_s": made}
        out.append(row)
        print(f"perft {name} depth {depth}: {n:,} sequences; regelwerk {row['regelwerk_s']:.3f}s, hand-written "
              f"{row['hand_written_s']:.3f}s (ratio {row['ratio']:.2f}, rounds {min(ratios):.2f}-{max(ratios):.2f}; "
              f"both clone and apply, counting the last level; compiling and the first game {made:.2f}s, not counted)")
    return out


def seed_rulesets(seconds: float, rounds: int = 5) -> list[dict]:
    """The same first games of each seed ruleset (seeds 0, 1, ...: as many as fit in
    `seconds / rounds` untraced) played in `rounds` rounds, untraced then traced (the same moves:
    the same seed and choices), so both sides time the same games and the machine's drift hits
    both; the figures are the rounds' median and range. One long run gave rates a quarter apart
    between two runs on a quiet machine (Khan 62.0 and 80.4 games/s); fixed games in rounds show
    the spread within one run, and compare across runs game for game."""
    print()
    out = []
    for name, path, players in SEED_RULESETS:
        ruleset = regelwerk.load(ROOT / path)
        for record in (False, True):  # compiles each program and plays one game first
            play_one(ruleset, players, 10_000, record)
        games, spent = 0, 0.0
        while spent < seconds / rounds or games < 2:  # how many games a round plays
            start = time.process_time()
            play_one(ruleset, players, games, False)
            spent += time.process_time() - start
            games += 1
        rates: dict[bool, list[float]] = {False: [], True: []}
        decision_rates, costs = [], []
        for _ in range(rounds):
            took = {}
            for record in (False, True):
                start = time.process_time()
                decisions = sum(play_one(ruleset, players, seed, record) for seed in range(games))
                took[record] = time.process_time() - start
                rates[record].append(games / took[record])
            decision_rates.append(decisions / took[False])
            costs.append(took[True] / took[False])
        row = {"ruleset": name, "players": players, "games": games, "rounds": rounds,
               "untraced_games_s": statistics.median(rates[False]),
               "untraced_games_s_range": [min(rates[False]), max(rates[False])],
               "untraced_decisions_s": statistics.median(decision_rates),
               "traced_games_s": statistics.median(rates[True]),
               "traced_cost": statistics.median(costs)}
        out.append(row)
        low, high = row["untraced_games_s_range"]
        print(f"{name} ({players} players, the same {games} games in {rounds} rounds): "
              f"{row['untraced_games_s']:.1f} random games/s (rounds {low:.1f}-{high:.1f}), "
              f"{row['untraced_decisions_s']:,.0f} decisions/s; traced {row['traced_games_s']:.1f} games/s "
              f"(cost {row['traced_cost']:.2f}x)")
    return out


def play_one(ruleset: regelwerk.Ruleset, players: int, seed: int, record: bool) -> int:
    """One random game; its number of decisions."""
    g = ruleset.new_game(players=players, seed=seed, record=record)
    rnd = random.Random(seed)
    n = 0
    while not g.is_over:
        g.apply(rnd.choice(g.legal_actions()))
        n += 1
    return n


def check_times() -> list[dict]:
    print()
    out = []
    exe = Path(sys.executable).with_name("regelwerk")
    for name, path, _players in SEED_RULESETS:
        best = float("inf")
        for _ in range(3):  # a fresh process each time, as a user runs it
            t = time.perf_counter()
            subprocess.run([str(exe), "check", "-q", str(ROOT / path)], check=True, capture_output=True)
            best = min(best, time.perf_counter() - t)
        out.append({"ruleset": name, "check_s": best})
        print(f"regelwerk check {path}: {best:.2f}s (fresh process, best of 3)")
    return out


def _timed(make, run, prepare=None) -> float:
    """CPU seconds of `run(game)`, best of three, each on a game made afresh outside the timing
    (the bridge keeps answers by history, so a second run on the same game object would measure
    its memo, not the work); `prepare(game)`, if given, runs first, untimed, and returns the
    run to time instead."""
    best = float("inf")
    for _ in range(3):
        game = make()
        todo = (lambda game=game: run(game)) if prepare is None else prepare(game)
        start = time.process_time()
        todo()
        best = min(best, time.process_time() - start)
    return best


def openspiel_bridge() -> list[dict]:
    """The OpenSpiel bridge against OpenSpiel's own Python and C++ games in this process: CFR
    iterations and an exploitability call on Kuhn poker, every tic-tac-toe state to depth 5, and
    CFR's set-up with one iteration on Leduc hold'em, one iteration after that, and set-up with
    ten iterations (no Python game of OpenSpiel's: against C++ only), each on regelwerk's bundled ruleset of the same game and
    on a game loaded afresh for every timing. Skipped without the openspiel extra."""
    try:
        import open_spiel.python.games  # noqa: F401 - registers python_kuhn_poker, python_tic_tac_toe
        import pyspiel
        from open_spiel.python.algorithms import cfr, exploitability

        from regelwerk.openspiel import load_game
    except ImportError:
        print("\nOpenSpiel bridge: skipped (pip install 'regelwerk[openspiel]')")
        return []
    import warnings

    print()
    print(f"{'OpenSpiel bridge':<34}{'regelwerk':>11}{'Python game':>13}{'C++ game':>10}{'vs Python':>11}{'vs C++':>8}")

    def fresh(load: Any, *args: Any) -> Any:
        def make() -> Any:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return load(*args)
        return make

    kuhn = {"regelwerk": fresh(load_game, ROOT / "rulesets/examples/kuhn.rules"),
            "python": fresh(pyspiel.load_game, "python_kuhn_poker"), "cpp": fresh(pyspiel.load_game, "kuhn_poker")}
    ttt = {"regelwerk": fresh(load_game, ROOT / "rulesets/classic/tictactoe.rules"),
           "python": fresh(pyspiel.load_game, "python_tic_tac_toe"), "cpp": fresh(pyspiel.load_game, "tic_tac_toe")}
    leduc = {"regelwerk": fresh(load_game, ROOT / "rulesets/examples/leduc.rules"),
             "cpp": fresh(pyspiel.load_game, "leduc_poker")}

    def cfr_run(game: Any, iterations: int = 30) -> Any:
        solver = cfr.CFRSolver(game)
        for _ in range(iterations):
            solver.evaluate_and_update_policy()
        return solver

    def states(game: Any, depth: int = 5) -> int:
        def walk(state: Any, d: int) -> int:
            if d == 0 or state.is_terminal():
                return 1
            return 1 + sum(walk(state.child(a), d - 1) for a in state.legal_actions())
        return walk(game.new_initial_state(), depth)

    def after_one(game: Any) -> Any:  # one iteration done, untimed: the next one is timed
        return cfr_run(game, 1).evaluate_and_update_policy

    policies = {k: cfr_run(make()).average_policy() for k, make in kuhn.items()}
    rows = [("Kuhn CFR, 30 iterations", {k: _timed(m, cfr_run) for k, m in kuhn.items()}),
            ("Kuhn exploitability", {k: _timed(m, lambda g, k=k: exploitability.exploitability(g, policies[k]))
                                     for k, m in kuhn.items()}),
            ("tic-tac-toe states to depth 5", {k: _timed(m, states) for k, m in ttt.items()}),
            ("Leduc CFR: set-up, 1 iteration", {k: _timed(m, lambda g: cfr_run(g, 1)) for k, m in leduc.items()}),
            ("Leduc CFR: one more iteration", {k: _timed(m, None, after_one) for k, m in leduc.items()}),
            ("Leduc CFR: set-up, 10 iterations", {k: _timed(m, lambda g: cfr_run(g, 10)) for k, m in leduc.items()})]
    out = []
    for label, t in rows:
        python = t.get("python")
        row = {"measure": label, "regelwerk_s": t["regelwerk"], "python_s": python, "cpp_s": t["cpp"],
               "vs_python": None if python is None else t["regelwerk"] / python, "vs_cpp": t["regelwerk"] / t["cpp"]}
        out.append(row)
        shown = ("-", "-") if python is None else (f"{python:.3f}s", f"{row['vs_python']:.1f}x")
        print(f"{label:<34}{t['regelwerk']:>10.3f}s{shown[0]:>13}{t['cpp']:>9.3f}s"
              f"{shown[1]:>11}{row['vs_cpp']:>7.1f}x")
    print("(time taken, best of 3; the ratios are regelwerk's time over the other's: lower is better)")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="per measurement (default 1)")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds per classic game")
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args()
    report = {"classic": classic(args.seconds, args.rounds), "perft": perfts(),
              "seed_rulesets": seed_rulesets(2 * args.seconds), "check": check_times(),
              "openspiel": openspiel_bridge()}
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
