"""Games per second of `regelwerk simulate` on Khan: one job against two, and what counting
rule firings costs (traced games against untraced ones). Not a test: the numbers go in
closing notes and docs/simulation.md.

    .venv/bin/python bench/simulate_jobs.py                 # 3 players, 120 games a run
    .venv/bin/python bench/simulate_jobs.py --games 300 --dask local

Each configuration is run `--repeat` times and reported as its best and worst rate: on a
shared machine the best is the least disturbed. Every run's report must be the same (but for
`timing`) whatever the jobs or backend; the script checks that too.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import regelwerk  # noqa: E402
from regelwerk.simulation import PlaySettings, report_json, run_simulation, without_timing  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", default=str(ROOT / "rulesets" / "khan" / "khan.rules"))
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=120)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--dask", metavar="ADDRESS|local", help="also run on this Dask cluster (2 workers if local)")
    args = ap.parse_args()
    ruleset = regelwerk.load(args.rules)
    configs = [("1 job", {"jobs": 1}), ("2 jobs", {"jobs": 2})]
    if args.dask:
        configs.append((f"dask {args.dask}", {"jobs": 2, "dask": args.dask}))
    print(f"{ruleset.title}, {args.players} players, {args.games} games a run, worst–best of {args.repeat}")
    print("games/s: wall clock; cpu ms/game: processor time per game in whichever process played it;"
          " start s: until the first game came back")
    runs: dict[tuple[str, bool], list[dict]] = {}
    reference: dict[bool, str] = {}
    for _ in range(args.repeat):  # interleaved, so that a busy spell hits every configuration
        for firings in (False, True):
            settings = PlaySettings(players=args.players, seed=0, firings=firings)
            for name, where in configs:
                rep = run_simulation(ruleset, args.games, settings, **where).report
                runs.setdefault((name, firings), []).append(rep["timing"])
                text = report_json(without_timing(rep))
                assert reference.setdefault(firings, text) == text, "the same games gave another report"
    print(f"{'':<14}{'counting firings':>34}{'untraced':>34}")
    best = {key: max(t["games_per_second"] for t in ts) for key, ts in runs.items()}
    for name, _where in configs:
        cells = []
        for firings in (True, False):
            ts = runs[name, firings]
            rates = [t["games_per_second"] for t in ts]
            cpu = min(t["game_cpu_seconds"]["mean"] for t in ts) * 1000
            start = min(t["first_record"] for t in ts)
            cells.append(f"{min(rates):5.1f}–{max(rates):5.1f}/s {cpu:5.0f} ms {start:4.1f} s")
        print(f"{name:<14}{cells[0]:>34}{cells[1]:>34}")
    for name, _where in configs[1:]:
        for firings in (True, False):
            ratio = best[name, firings] / best["1 job", firings]
            print(f"{name} / 1 job ({'counting firings' if firings else 'untraced'}): {ratio:.2f}")
    print(f"counting firings costs (1 job): {best['1 job', False] / best['1 job', True]:.2f}x")


if __name__ == "__main__":
    main()
