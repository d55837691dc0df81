"""Machine instructions a seeded random game costs, by callgrind: N games minus none.

Issue 27's steadiest measure (docs/architecture.md §17): a game's instructions do not move
with the machine's load, where its time moves by a quarter between runs. Each count runs a
fresh process under `valgrind --tool=callgrind` twice, playing no game and then N games
(seeds 1..N, after an uncounted game 0 that compiles the program and makes its template), so
start-up, parsing and compiling cancel out. `PYTHONHASHSEED=0`: set and dict orders, and so
the counts, depend on the hash seed. A private parse cache is warmed first, so neither run
parses. Compare two trees with each one's own Python (its `.venv`), the same arguments.

    python bench/instructions.py rulesets/shogun/shogun.rules --players 4 --games 5
    python bench/instructions.py rulesets/classic/tictactoe.rules --games 400 --traced
    python bench/instructions.py rulesets/classic/breakthrough.rules --off NONE_FIRST
    python bench/instructions.py rulesets/khan/khan.rules --players 3 --games 3 --traced --no-gc

`--no-gc` turns the cyclic collector off in the counted process: a full collection walks every
tracked object (Khan's move tables), and whether one falls inside the N games moves with the
allocations a change makes, so two traced counts of Khan read 127.1 M and 135.5 M for the same
games; with the collector off, 125.9 M and 124.8 M. Use it to compare two trees or switches.

`--games-only` counts in one process instead: callgrind zeroes its counts where the games
start (`os.getppid()`, `--zero-before`) and dumps them where they end (`os.getpgrp()`,
`--dump-before`), so nothing but the games is counted. The two-process difference carries
each process's start-up, some 4,400 M instructions whose count moves by a few million between
runs: 10 checkers games (about 38 M) read 3.45-4.27 M a game for one tree that way; counted
alone, the same games repeat within 0.1%.

Needs valgrind (Debian: `apt install valgrind`); a run takes about a minute for the seed games.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bytecodes import game_arguments, play, switched_off  # noqa: E402

_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")
_SUMMARY = re.compile(r"^summary:\s*(\d+)", re.MULTILINE)


def collected(stderr: str) -> int:
    """The instruction count callgrind reports at exit (its `Collected :` line)."""
    m = _COLLECTED.search(stderr)
    if m is None:
        raise ValueError("callgrind reported no instruction count")
    return int(m.group(1))


def dumped(text: str) -> int:
    """The instruction count of a callgrind dump (its `summary:` line)."""
    m = _SUMMARY.search(text)
    if m is None:
        raise ValueError("callgrind's dump has no summary")
    return int(m.group(1))


def _child_args(rules: str, players: int | None, games: int, traced: bool, playout: bool,
                off: tuple[str, ...] = (), no_gc: bool = False, marked: bool = False) -> list[str]:
    return [sys.executable, str(Path(__file__).resolve()), "--child", rules, "--games", str(games),
            *(["--players", str(players)] if players else []), *(["--traced"] if traced else []),
            *(["--playout"] if playout else []), *(a for name in off for a in ("--off", name)),
            *(["--no-gc"] if no_gc else []), *(["--games-only"] if marked else [])]


def games_only(rules: str, players: int | None, games: int, traced: bool = False,
               playout: bool = False, off: tuple[str, ...] = (), no_gc: bool = False) -> float:
    """Instructions a game, the games alone: one process under callgrind, its counts zeroed where
    the games start and dumped where they end (the child's marks, `_child`)."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, PYTHONHASHSEED="0", REGELWERK_CACHE=cache)
        subprocess.run(_child_args(rules, players, 0, traced, playout, off, no_gc), env=env, check=True)
        out = Path(cache) / "callgrind.out"
        done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                               "--zero-before=os_getppid", "--dump-before=os_getpgrp",
                               *_child_args(rules, players, games, traced, playout, off, no_gc, True)],
                              env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "valgrind failed")
        dump = out.with_name(out.name + ".1")
        if not dump.exists():
            raise RuntimeError("callgrind made no dump at the games' end (os_getpgrp not seen)")
        return dumped(dump.read_text()) / games


def instructions(rules: str, players: int | None, games: int, traced: bool = False,
                 playout: bool = False, off: tuple[str, ...] = (), no_gc: bool = False) -> float:
    """Instructions a game: (N games - no game) / N, each under callgrind in a fresh process."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, PYTHONHASHSEED="0", REGELWERK_CACHE=cache)
        subprocess.run(_child_args(rules, players, 0, traced, playout, off, no_gc), env=env, check=True)  # warms the cache
        runs = []
        for n in (0, games):
            done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                                   *_child_args(rules, players, n, traced, playout, off, no_gc)],
                                  env=env, capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "valgrind failed")
            runs.append(collected(done.stderr))
    return (runs[1] - runs[0]) / games


def _child(rules: str, players: int | None, games: int, traced: bool, playout: bool, no_gc: bool = False,
           marked: bool = False) -> None:
    """What the counted process does: game 0, then games 1..N, nothing else (`marked`: between
    the two calls callgrind zeroes and dumps at, `games_only`)."""
    import regelwerk

    if no_gc:
        gc.disable()

    ruleset = regelwerk.load(rules)
    rnd = random.Random(0)
    play(ruleset, players, 0, traced, playout, rnd)
    if marked:
        os.getppid()  # callgrind --zero-before
    for seed in range(1, games + 1):
        play(ruleset, players, seed, traced, playout, rnd)
    if marked:
        os.getpgrp()  # callgrind --dump-before


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    game_arguments(ap, 10)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--no-gc", action="store_true",
                    help="the cyclic collector off in the counted process (steadier traced counts)")
    ap.add_argument("--games-only", action="store_true",
                    help="one process, callgrind counting between the games' start and end (steadier)")
    args = ap.parse_args(argv)
    if (problem := switched_off(args.off)) is not None:
        print(problem, file=sys.stderr)
        return 2
    if args.child:
        _child(args.rules, args.players, args.games, args.traced, args.playout, args.no_gc, args.games_only)
        return 0
    if args.games < 1:
        print("--games must be at least 1", file=sys.stderr)
        return 2
    if shutil.which("valgrind") is None:
        print("bench/instructions.py needs valgrind (Debian: apt install valgrind)", file=sys.stderr)
        return 1
    try:
        count = games_only if args.games_only else instructions
        per_game = count(args.rules, args.players, args.games, args.traced, args.playout, tuple(args.off), args.no_gc)
    except (subprocess.CalledProcessError, RuntimeError, ValueError) as err:
        print(f"bench/instructions.py: {err}", file=sys.stderr)
        return 1
    mode = ("traced" if args.traced else "untraced") + (", playout" if args.playout else "") \
        + "".join(f", {name} off" for name in args.off) + (", collector off" if args.no_gc else "") \
        + (", games only" if args.games_only else "")
    print(f"{per_game:,.0f} instructions a game ({args.games} games, {mode})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
