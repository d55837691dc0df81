"""Bytecodes a seeded random game executes, by function and by line of the generated program.

Issue 27's steady measure (docs/architecture.md §17): `sys.settrace` with `f_trace_opcodes`
counts every bytecode the games run, the same on a loaded machine as on a quiet one, where
timings of one change move by a quarter between runs. It weighs a call like any other
bytecode, so a change that trades loops for calls is measured again by instructions
(bench/instructions.py) and by time. Lines of generated code are read from the program's
own text (`_SOURCE_LINES`, what error locations use), so they are the lines that ran.

    python bench/bytecodes.py rulesets/root/root.rules --players 2 --games 10
    python bench/bytecodes.py rulesets/classic/tictactoe.rules --games 300 --traced --lines 30

Games are seeded 1..N (seed 0 is played first, uncounted: the program is compiled and its
start template made); their moves are drawn from one `random.Random(0)`, through the `apply`
loop, or with `--playout` through `Game.playout`, as MCTS rollouts play it.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import regelwerk  # noqa: E402

GENERATED = "<regelwerk:"  # the file name of a program's code (interpreter/compiler/compile.py)


@dataclass
class Counts:
    """Bytecodes of `games` games: in all, by function (name, file) and by generated line
    (function, line number, text)."""

    games: int
    total: int = 0
    by_function: Counter = field(default_factory=Counter)
    by_line: Counter = field(default_factory=Counter)

    def per_game(self, n: int) -> float:
        return n / self.games


def play(ruleset: regelwerk.Ruleset, players: int | None, seed: int, record: bool, playout: bool,
         rnd: random.Random) -> None:
    """One seeded random game, its moves drawn from `rnd` (one generator for all the games:
    seeding a generator per game would be counted too, a tenth of a tic-tac-toe game)."""
    g = ruleset.new_game(players=players, seed=seed, record=record)
    if playout:
        g.playout(rnd)
        return
    while not g.is_over:
        g.apply(rnd.choice(g.legal_actions()))


def count(ruleset: regelwerk.Ruleset, players: int | None, games: int, record: bool = False,
          playout: bool = False) -> Counts:
    """The bytecodes of games 1..`games` (game 0 played first, not counted)."""
    rnd = random.Random(0)
    play(ruleset, players, 0, record, playout, rnd)
    counts = Counts(games)
    functions, lines = counts.by_function, counts.by_line

    def tracer(frame: FrameType, event: str, _arg: Any) -> Any:
        frame.f_trace_opcodes = True
        if event == "opcode":
            code = frame.f_code
            functions[(code.co_name, Path(code.co_filename).name)] += 1
            if code.co_filename.startswith(GENERATED):
                lines[(code.co_name, frame.f_lineno)] += 1
        return tracer

    sys.settrace(tracer)
    try:
        for seed in range(1, games + 1):
            play(ruleset, players, seed, record, playout, rnd)
    finally:
        sys.settrace(None)
    counts.total = sum(functions.values())
    return counts


def line_texts(ruleset: regelwerk.Ruleset, record: bool) -> list[str]:
    """The generated program's lines, as its code was compiled (line n at index n - 1)."""
    fn = ruleset.program(record).block_fns[0]
    return fn.__globals__.get("_SOURCE_LINES") or []


def written_in(texts: list[str], lineno: int) -> str | None:
    """The generated function whose text holds line `lineno`: a listing copied into the
    block that offers it keeps its own lines (interpreter/engine/locate.py)."""
    for i in range(min(lineno, len(texts)) - 1, -1, -1):
        if texts[i].startswith("def "):
            return texts[i][4:texts[i].index("(")]
    return None


def report(counts: Counts, texts: list[str], top: int, lines: int) -> str:
    """The counts per game: in all, the `top` functions, the `lines` busiest generated lines."""
    out = [f"{counts.per_game(counts.total):,.0f} bytecodes a game ({counts.games} games)"]
    for (name, file), n in counts.by_function.most_common(top):
        out.append(f"{counts.per_game(n):12,.0f} {100 * n / counts.total:5.1f}%  {name} ({file})")
    if lines:
        out.append("")
        out.append("busiest lines of the generated program (bytecodes a game, function, line):")
        for (name, lineno), n in counts.by_line.most_common(lines):
            known = lineno is not None and 0 < lineno <= len(texts)
            text = texts[lineno - 1].strip() if known else ""
            written = written_in(texts, lineno) if known else None
            where = name if written in (None, name) else f"{name} ({written}'s line)"
            out.append(f"{counts.per_game(n):12,.0f}  {where}:{lineno}  {text[:110]}")
    return "\n".join(out)


def game_arguments(ap: argparse.ArgumentParser, games: int) -> None:
    """The arguments that say which games are played (here and in bench/instructions.py)."""
    ap.add_argument("rules", help="a .rules file")
    ap.add_argument("--players", type=int, default=None, help="number of players (default: the fewest)")
    ap.add_argument("--games", type=int, default=games, help="games counted (seeds 1..N)")
    ap.add_argument("--traced", action="store_true", help="traced games (record=True)")
    ap.add_argument("--playout", action="store_true", help="Game.playout instead of the apply loop")
    ap.add_argument("--off", action="append", default=[], metavar="SWITCH",
                    help="compile with CodeGen.SWITCH off (a transform's switch, e.g. NONE_FIRST; repeatable)")


def switched_off(names: list[str]) -> str | None:
    """Turn the named `CodeGen` switches off for the programs compiled from now on, so one tree
    measures a transform with and without it; the message for a name that is no switch."""
    from regelwerk.interpreter.compiler.codegen import CodeGen

    for name in names:
        if not (name.isupper() and isinstance(getattr(CodeGen, name, None), bool)):
            return f"no CodeGen switch named {name!r}"
        setattr(CodeGen, name, False)
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    game_arguments(ap, 20)
    ap.add_argument("--top", type=int, default=25, help="functions shown")
    ap.add_argument("--lines", type=int, default=0, help="busiest generated lines shown")
    args = ap.parse_args(argv)
    if (problem := switched_off(args.off)) is not None:
        print(problem, file=sys.stderr)
        return 2
    try:
        ruleset = regelwerk.load(args.rules)
    except regelwerk.RulesError as err:
        print(err, file=sys.stderr)
        return 1
    counts = count(ruleset, args.players, args.games, args.traced, args.playout)
    print(report(counts, line_texts(ruleset, args.traced), args.top, args.lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
