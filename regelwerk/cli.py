"""The `regelwerk` command: check, fmt, run, play, legal, explain, test, trace show, view, perft.

Every user-facing failure is printed as a located message on stderr with a non-zero exit;
library code never prints or exits, this module does both.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from .api import Ruleset, load, main_files
from .dsl.diagnostics import RulesError
from .dsl.files import BadEncoding, FileRefused, read_text
from .dsl.printer import print_module
from .dsl.quotes import SEEDS_ENV, quotes_unchecked
from .dsl.sources import parse_file
from .interpreter.engine.errors import EngineError, IllegalAction

if TYPE_CHECKING:
    from .interpreter.engine.game import Game

# The engine's modules are imported by the commands that use them, so `check` (the editor's
# and CI's command) starts without them.


class CliError(Exception):
    """A message for the user and an exit code."""

    def __init__(self, message: str, code: int = 1):
        super().__init__(message)
        self.code = code


def _err(text: str) -> None:
    print(text, file=sys.stderr)


def _load(path: str, root: str | None = None) -> Ruleset:
    if not Path(path).exists():
        raise CliError(f"{path}: error: no such file", 2)
    return load(path, root)


def _limited(r: Ruleset, args: argparse.Namespace) -> Ruleset:
    """`--work-budget N` and `--time-limit S`: the runaway limits of this run's games."""
    try:
        r.set_limits(getattr(args, "work_budget", None), getattr(args, "time_limit", None))
    except EngineError as err:
        raise CliError(f"error: {err.message}", 2) from None
    return r


def _add_limits(p: argparse.ArgumentParser) -> None:
    p.add_argument("--work-budget", type=int, metavar="N",
                   help="steps of work a rule may do between two decisions before it is stopped "
                        "(default 50,000,000; checked every 100,000 steps)")
    p.add_argument("--time-limit", type=float, metavar="S",
                   help="seconds a rule may run between two decisions before it is stopped (default 10)")


def _options(pairs: list[str] | None, ruleset: Ruleset) -> dict:
    out: dict[str, Any] = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise CliError(f"--option {pair!r}: write name=value", 2)
        k, v = pair.split("=", 1)
        if k not in ruleset.model.options:
            known = ", ".join(ruleset.model.options) or "none"
            raise CliError(f"--option {k!r}: unknown option (known: {known})", 2)
        low = v.strip().lower()
        out[k] = True if low == "true" else False if low == "false" else int(v) if _WHOLE.fullmatch(v) else v
    return out


_WHOLE = re.compile(r"-?[0-9]{1,30}")
MAX_SAVE_BYTES = 50_000_000


def _load_state(ruleset: Ruleset, path: str) -> Game:
    try:
        data = json.loads(read_text(Path(path), MAX_SAVE_BYTES))
    except BadEncoding as err:
        raise CliError(f"{path}:{err.line}:{err.column}: error: {err}") from None
    except FileRefused as err:
        raise CliError(f"{path}: error: cannot read: {err}", 2) from None
    except json.JSONDecodeError as err:
        raise CliError(f"{path}:{err.lineno}:{err.colno}: error: not JSON: {err.msg}") from None
    except (ValueError, RecursionError) as err:
        why = "nested too deeply" if isinstance(err, RecursionError) else "a number too long"
        raise CliError(f"{path}: error: not a save: {why}") from None
    try:
        return ruleset.load_game(data)
    except EngineError as err:
        raise CliError(f"{path}: error: {err.message}") from None


# ---------------------------------------------------------------------- commands
def _diagnostic_json(d: Any) -> str:
    s = d.span
    return json.dumps({"file": s.file, "line": s.line, "column": s.column, "end_line": s.end_line,
                       "end_column": s.end_column, "severity": d.severity, "code": d.code,
                       "message": d.message, "help": d.help}, ensure_ascii=False, sort_keys=True)


def _seed_dirs(dirs: list[str] | None) -> None:
    """`--seeds DIR`: look for the seed texts there first (quote checks, W002-W004)."""
    if dirs:
        for d in dirs:
            if not Path(d).is_dir():
                raise CliError(f"--seeds {d}: error: no such folder", 2)
        rest = os.environ.get(SEEDS_ENV)
        os.environ[SEEDS_ENV] = os.pathsep.join(dirs + ([rest] if rest else []))


def cmd_check(args: argparse.Namespace) -> int:
    """Check files and folders (every ruleset in a folder: each file no other file includes);
    with --json, one diagnostic per line on stdout (for editors)."""
    _seed_dirs(args.seeds)
    status = 0
    for f in _check_targets(args.files):
        try:
            r = _load(str(f), args.root)
        except RulesError as err:
            if args.json:
                for d in err.diagnostics:
                    print(_diagnostic_json(d))
            else:
                _err(err.format())
            status = 1
            continue
        for w in r.warnings:
            if args.json:
                print(_diagnostic_json(w))
            else:
                _err(w.format(r.sources.get(w.span.file)))
        if not args.quiet and not args.json:
            print(f"{f}: ok ({len(r.model.actions)} actions, {len(r.model.scenarios)} scenarios)")
            if quotes_unchecked(r.modules):
                _err(f"{f}: note: its quotes cite seed texts, but no seeds folder was found, so they "
                     f"were not checked against the rulebook's words: give --seeds DIR or set {SEEDS_ENV}")
    return status


def _check_targets(paths: list[str]) -> list[Path]:
    """Files as given; a folder stands for its rulesets, as `test` reads folders."""
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found = main_files(sorted(path.rglob("*.rules")))
            if not found:
                raise CliError(f"{p}: error: no .rules files in this folder", 2)
            out.extend(found)
        else:
            out.append(path)
    return out


def cmd_fmt(args: argparse.Namespace) -> int:
    from .interpreter.tools.trace import write_atomic
    status = 0
    for f in args.files:
        mod = parse_file(f)
        original = Path(f).read_text(encoding="utf-8")
        text = print_module(mod, original)
        if args.check:
            if text != original:
                _err(f"{f}: would be reformatted")
                status = 1
        elif args.stdout:
            sys.stdout.write(text)
        elif text != original:
            write_atomic(f, text)
            print(f"{f}: reformatted")
    return status


def _agent(kind: str, seed: int) -> Any:
    from .interpreter.tools.agents import RandomAgent, first_legal
    if kind == "random":
        return RandomAgent(seed)
    if kind == "first":
        return first_legal
    raise CliError(f"unknown agent {kind!r} (random, first)", 2)


def cmd_run(args: argparse.Namespace) -> int:
    from .interpreter.engine.locate import locate
    from .interpreter.tools.trace import write_atomic, write_trace
    r = _limited(_load(args.file, args.root), args)
    record = bool(args.trace)
    try:
        game = r.new_game(players=args.players, seed=args.seed, options=_options(args.option, r), record=record)
    except EngineError as err:
        raise locate(err) from None
    agent = _agent(args.agent, args.seed)
    steps = 0
    try:
        while not game.is_over and (args.stop_after is None or steps < args.stop_after):
            game.apply(agent(game))
            steps += 1
            if steps > args.max_steps:
                raise CliError(f"no result after {args.max_steps} decisions", 1)
    except EngineError as err:
        raise locate(err, game) from None
    if args.trace:
        write_trace(game, args.trace)
    if args.save:
        write_atomic(args.save, json.dumps(game.to_json(), ensure_ascii=False, sort_keys=True, indent=1) + "\n")
    if game.is_over:
        scores = game.scores
        if scores:
            print("scores: " + ", ".join(f"{p} {s}" for p, s in scores.items()))
        print("winner: " + (", ".join(game.winners) if game.winners else "none (draw)"))
        from .simulation.report import game_note

        note = game_note(r)
        if note:
            print(f"note (the rule authors', not the rulebook's): {note}")
    else:
        print(f"stopped after {steps} decision{'' if steps == 1 else 's'}; {game.decision_player()} to decide")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """You against random bots; everything printed is what your seat may see
    (interpreter/observe/visibility.py): others' hidden cards, secret arguments and the seed never."""
    from .interpreter.engine.game import parse_action
    from .interpreter.engine.locate import locate
    from .interpreter.observe.visibility import observer
    from .interpreter.tools.agents import RandomAgent
    from .interpreter.tools.board_text import draw_boards
    from .interpreter.tools.trace import render_step
    r = _limited(_load(args.file, args.root), args)
    game = r.new_game(players=args.players, seed=args.seed, options=_options(args.option, r), record=True)
    human = args.seat or game.players[0]
    if human not in game.players:
        raise CliError(f"--seat {human!r}: not a player ({', '.join(game.players)})", 2)
    seen = observer(r.model, human)
    bots = {p: RandomAgent(args.seed + i) for i, p in enumerate(game.players)}
    shown = 0
    try:
        while not game.is_over:
            for step in (game.trace or [])[shown:]:
                print("\n".join(render_step(seen.step(step))))
            shown = len(game.trace or [])
            who = game.decision_player()
            if who != human:
                game.apply(bots[who](game))
                continue
            actions = game.legal_actions()
            board = draw_boards(SimpleNamespace(prog=game.prog, vars=seen.masked_state(game), consts=game.consts))
            if board:
                print("\n" + board)
            print(f"\n{who} to decide:")
            for i, a in enumerate(actions, 1):
                print(f"  {i:>3}. {a}")
            while True:
                try:
                    line = input("choose a number, type an action, u to undo, q to quit: ").strip()
                except EOFError:
                    return 0
                if line in ("q", "quit"):
                    return 0
                if line in ("u", "undo"):
                    seen_since = _seen_since_last_decision(game, human)
                    if seen_since:
                        print(f"  cannot take it back: you have seen what came after it ({seen_since})")
                        continue
                    try:
                        game.undo()
                        while game.decision_player() != human and not game.is_over:
                            game.undo()  # take back the bots' moves too, up to your last decision
                    except EngineError as err:
                        print(f"  {seen.message(err.message, game)}")
                        continue
                    shown = len(game.trace or [])
                    break
                try:
                    a = actions[int(line) - 1] if line.isdigit() and 0 < int(line) <= len(actions) \
                        else parse_action(line)
                    game.apply(a)
                    break
                except IllegalAction as err:
                    print(f"  not possible: {seen.message(str(err), game)}")
    except EngineError as err:  # a rule failed: said as this seat may see it
        raise CliError(f"error: {seen.message(str(locate(err, game)), game)}") from None
    for step in (game.trace or [])[shown:]:
        print("\n".join(render_step(seen.step(step))))
    return 0


def _seen_since_last_decision(game: Any, human: str) -> str | None:
    """What `human` has seen since their last decision that taking it back would let them use:
    a chance outcome, a reveal, or another player's secret simultaneous choice coming to light.
    Only games with hidden state or chance can show such things."""
    trace = game.trace or []
    last = max((i for i, s in enumerate(trace) if (s.get("decision") or {}).get("by") == human), default=None)
    if last is None:
        return None
    mine_secret = (trace[last].get("decision") or {}).get("simultaneous")
    for step in trace[last + 1:]:
        if mine_secret and not (step.get("decision") or {}).get("simultaneous"):
            return "the others' secret choices, shown once all were in"
        if step.get("chance"):
            return "a chance outcome"
        if any(e.get("event") == "reveal" for e in step.get("events", []) if isinstance(e, dict)):
            return "a reveal"
        if (step.get("decision") or {}).get("simultaneous"):
            return "another player's secret choice"
    return None


def cmd_legal(args: argparse.Namespace) -> int:
    """The legal moves, one per line; with --player P only what P may see of them: the one
    who decides sees all, another player the moves whose legality they can tell themselves
    and the names of the actions whose moves are hidden from them."""
    r = _load(args.file, args.root)
    game = _load_state(r, args.state)
    if args.player is None:
        for a in game.legal_actions():
            print(a)
        return 0
    if args.player not in game.players:
        raise CliError(f"--player {args.player!r}: not a player ({', '.join(game.players)})", 2)
    from .interpreter.observe.visibility import observer

    seen = observer(r.model, args.player).moves(game)
    if seen.decider not in (None, args.player):
        print(f"{seen.decider} decides now; as {args.player} sees it:")
    for a in seen.shown:
        print(a)
    if seen.hidden:
        print(f"hidden from {args.player}: {', '.join(seen.hidden)} (which moves are legal there "
              f"depends on what only {seen.decider} sees)")
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    """Why a move is or is not legal, as the deciding player (or --player P) may see it;
    --all shows every value (the save holds them all anyway)."""
    from .interpreter.observe.visibility import observer
    from .interpreter.tools.trace import NOT_IN_RULEBOOK
    r = _load(args.file, args.root)
    game = _load_state(r, args.state)
    try:  # in a `simultaneously`, about the move of the player who asks
        ex = game.explain(args.action, player=args.player if game.window is not None else None)
    except IllegalAction as err:
        raise CliError(f"error: {err.message}", 2) from None
    if not args.all:
        player = args.player or game.decision_player()
        if player is not None:
            if player not in game.players:
                raise CliError(f"--player {player!r}: not a player ({', '.join(game.players)})", 2)
            ex = observer(r.model, player).explanation(ex, game)
    verdict = "legal" if ex.legal else "illegal"
    where = f" ({args.file}:{ex.at})" if ex.at else ""
    print(f"{ex.action} is {verdict}: {ex.reason}{where}")
    rule = game.prog.rules.get(f"action:{ex.action.split('(', 1)[0]}")
    if rule is not None:
        if rule.get("quote"):
            cite = ", ".join(rule["source"])
            print(f"  „{rule['quote']}”" + (f"  ({cite})" if cite else ""))
        if rule.get("note"):
            print(f"  {NOT_IN_RULEBOOK}{rule['note']}")
    for c in ex.checks:
        mark = "✓" if c["value"] else "✗"
        print(f"  {mark} require {c['require']}  ({args.file}:{c['at']})")
        for text, value in c["values"].items():
            if text != c["require"]:
                print(f"        {text} = {json.dumps(value, ensure_ascii=False)}")
    return 0 if ex.legal else 1


def _rules_files(paths: list[str]) -> list[Path]:
    files: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            files.extend(sorted(path.rglob("*.rules")))
        elif path.exists():
            files.append(path)
        else:
            raise CliError(f"{p}: error: no such file or folder", 2)
    return files


def cmd_test(args: argparse.Namespace) -> int:
    from .interpreter.tools.scenario import run_scenarios
    files = main_files(_rules_files(args.paths))
    passed = failed = 0
    for f in files:
        try:
            r = _limited(load(f, args.root), args)
        except RulesError as err:
            _err(err.format())
            failed += 1
            continue
        for res in run_scenarios(r, record=args.traced):
            if res.passed:
                passed += 1
                if args.verbose:
                    print(f"PASS {f}: {res.name}")
            else:
                failed += 1
                print(f"FAIL {f}: {res.name}")
                print(f"  {res.at}: {res.failure}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def cmd_trace_show(args: argparse.Namespace) -> int:
    """Render a trace; with --player only what that player may see (with --rules the
    ruleset tells what is secret, without it everything that might be is masked)."""
    from .interpreter.tools.trace import TraceLineError, filter_for, read_trace, render
    try:
        lines = read_trace(args.file)
    except TraceLineError as err:
        raise CliError(f"{err.where}: error: {err.message}") from None
    except UnicodeDecodeError as err:
        raise CliError(f"{args.file}: error: not UTF-8 text (byte {err.start})") from None
    except OSError as err:
        raise CliError(f"{args.file}: error: cannot read: {err.strerror}", 2) from None
    if args.player:
        head = lines[0]
        if args.player not in head["players"]:
            raise CliError(f"--player {args.player!r}: not a player of this trace ({', '.join(head['players'])})", 2)
        model = None
        if args.rules:
            r = _load(args.rules, args.root)
            if r.hash != head.get("ruleset_hash"):
                raise CliError(f"{args.file}:1: error: written by another ruleset than {args.rules} "
                               "(the hashes differ)")
            model = r.model
        lines = filter_for(lines, args.player, model)
    print(render(lines))
    return 0


def cmd_view(args: argparse.Namespace) -> int:
    """One self-contained HTML page for a trace or a save (imported late: only `view` needs it)."""
    from .interpreter.tools.trace import write_atomic
    from .viewer import ViewerError, page_for

    out = args.out or str(Path(args.file).with_suffix(".html"))
    if Path(out).resolve() == Path(args.file).resolve():
        raise CliError(f"--out {out}: would overwrite the input", 2)
    try:
        page = page_for(args.file, args.rules, args.player)
        write_atomic(out, page)
    except ViewerError as err:
        raise CliError(str(err)) from None
    except OSError as err:
        raise CliError(f"{out}: error: cannot write: {err.strerror}") from None
    print(f"{out}: {len(page.encode('utf-8')) // 1024} KiB" + (f", as seen by {args.player}" if args.player else ""))
    return 0


def _results_path(args: argparse.Namespace) -> str | None:
    """Where games are streamed: --results, else next to --json, else in the --report folder."""
    if args.results:
        return args.results
    if args.json:
        return str(Path(args.json).with_suffix(".games.jsonl"))
    if args.report:
        Path(args.report).mkdir(parents=True, exist_ok=True)
        return str(Path(args.report) / "games.jsonl")
    return None


def cmd_simulate(args: argparse.Namespace) -> int:
    """Many seeded games over processes or a Dask cluster; one report whatever the backend
    (imported late: only `simulate` needs the simulation package)."""
    from .interpreter.tools.trace import write_atomic
    from .simulation import PlaySettings, report_json, report_text, run_simulation
    from .simulation.bundle import BundleError
    from .simulation.dask_backend import DaskUnavailable
    from .simulation.local import WorkersLost
    from .simulation.progress import progress_for
    from .simulation.results import ResultsError

    r = _limited(_load(args.file, args.root), args)
    if args.games < 1:
        raise CliError(f"--games {args.games}: play at least one game", 2)
    options = _options(args.option, r)
    try:  # bad counts fail here, once; a game that fails as it starts fails in each game's record
        players = r.new_game(players=args.players, options=options, start=False).players
    except EngineError as err:
        from .interpreter.engine.locate import locate

        raise locate(err) from None
    agents = _checked_batch(args, players, (args.json, args.results))
    results = _results_path(args)
    if args.resume and results is None:
        raise CliError("--resume needs the results file: --results FILE.jsonl (or the --json or "
                       "--report of the interrupted run)", 2)
    settings = PlaySettings(args.players, args.seed, options, agents, args.max_steps, not args.no_firings,
                            dict(r.limits))
    try:
        run = run_simulation(r, args.games, settings, jobs=args.jobs, dask=args.dask, results=results,
                             resume=args.resume, progress=progress_for(sys.stderr, args.quiet))
    except (ResultsError, DaskUnavailable, BundleError, WorkersLost) as err:
        raise CliError(f"error: {err}", 2) from None
    except OSError as err:
        raise CliError(f"{err.filename or results}: error: {err.strerror}", 2) from None
    print(report_text(run.report))
    if args.json:
        write_atomic(args.json, report_json(run.report))
    if args.report:
        from .simulation.html import write_report_dir

        page = write_report_dir(args.report, run.report, run.records)
        print(f"{page}: written")
    if run.interrupted:
        _err(f"interrupted after {run.report['games']} of {args.games} games"
             + (f"; the rest: the same command with --resume ({results})" if results else ""))
        return 130
    return 1 if run.report["failed"] else 0


def _checked_batch(args: argparse.Namespace, players: tuple[str, ...], outputs: tuple[str | None, ...]) -> dict:
    """The checks `simulate` and `compare` share, before any game is played: the job count,
    --dask with --jobs, the agents (returned, one per player), the folders of the files to
    write, matplotlib for --report. Each refusal is bad input: exit 2."""
    from .interpreter.tools.agents import AgentSpecError, assign_agents

    if args.jobs is not None and args.jobs < 1:
        raise CliError(f"--jobs {args.jobs}: at least one job", 2)
    if args.dask not in (None, "local") and args.jobs is not None:
        raise CliError("--jobs counts processes on this machine; a Dask cluster has its own workers", 2)
    try:
        agents = assign_agents(args.agent or [], players)
    except AgentSpecError as err:
        raise CliError(f"--agent: {err}", 2) from None
    for out in outputs:
        if out and not Path(out).resolve().parent.is_dir():
            raise CliError(f"{out}: error: no folder {Path(out).parent} to write into", 2)
    if args.report:
        from .simulation.plots import PlotsUnavailable, require_matplotlib

        try:
            require_matplotlib()
        except PlotsUnavailable as err:
            raise CliError(f"error: {err}", 2) from None
    return agents


def cmd_compare(args: argparse.Namespace) -> int:
    """Both versions of a ruleset on the same seeds and agents: what the change did
    (regelwerk/compare/). Exit 0 when nothing changed significantly, 1 when something did."""
    from .compare import CompareError, compare, report_json, report_text
    from .interpreter.tools.trace import write_atomic
    from .simulation import PlaySettings
    from .simulation.bundle import BundleError
    from .simulation.dask_backend import DaskUnavailable
    from .simulation.local import WorkersLost
    from .simulation.progress import progress_for

    try:  # rules that do not check are bad input here: exit 2, as for a bad option
        old, new = _load(args.old, args.root), _load(args.new, args.root)
    except RulesError as err:
        raise CliError(err.format(), 2) from None
    if args.games < 2:
        raise CliError(f"--games {args.games}: compare at least two games", 2)
    options = _options(args.option, old)
    try:
        players = old.new_game(players=args.players, options=options, start=False).players
        new.new_game(players=args.players, options=options, start=False)
    except EngineError as err:
        raise CliError(f"error: {err}", 2) from None
    agents = _checked_batch(args, players, (args.json,))
    settings = PlaySettings(args.players, args.seed, options, agents, args.max_steps)
    try:
        result = compare(old, new, args.games, settings, jobs=args.jobs, dask=args.dask,
                         progress=progress_for(sys.stderr, args.quiet))
    except CompareError as err:
        raise CliError(f"error: {err}", 2) from None
    except (DaskUnavailable, BundleError, WorkersLost) as err:
        raise CliError(f"error: {err}", 2) from None
    print(report_text(result.report))
    if args.json:
        write_atomic(args.json, report_json(result.report))
    if args.report:
        from .compare.html import write_compare_dir

        print(f"{write_compare_dir(args.report, result.report, result.old_records, result.new_records)}: written")
    return 1 if result.report["significant"] else 0


def cmd_book(args: argparse.Namespace) -> int:
    """The ruleset as one readable, self-contained page: structure, every rule in the order of
    play with its quote, note, spec ids, text and worked examples (regelwerk/book/)."""
    from .book import build_book
    from .interpreter.tools.trace import write_atomic

    r = _load(args.file, args.root)
    out = Path(args.out) if args.out else Path(Path(args.file).stem + "-book.html")
    if not out.resolve().parent.is_dir():
        raise CliError(f"{out}: error: no folder {out.parent} to write into", 2)
    write_atomic(str(out), build_book(r, out.resolve().parent))
    print(f"{out}: written")
    return 0


def cmd_perft(args: argparse.Namespace) -> int:
    """Count move sequences per depth; with --chance, chance outcomes are plies too (explicit
    chance: every die face and every next card a branch, not one seeded deal)."""
    from .interpreter.tools.agents import count_games, perft
    from .interpreter.tools.analysis import (
        CountInterrupted,
        count_terminal,
        count_with_progress,
        decision_branches,
        perft_tree,
        ply_branches,
    )
    from .tree_progress import tree_progress_for

    r = _load(args.file, args.root)
    game = r.new_game(players=args.players, seed=args.seed, options=_options(args.option, r),
                      chance="explicit" if args.chance else "sampled")
    count = perft_tree if args.chance else perft
    branches = ply_branches if args.chance else decision_branches
    steps = [(str(d), count, d) for d in range(1, args.depth + 1)]
    if args.games:
        steps.append(("games", count_terminal if args.chance else count_games, args.depth))
    for label, fn, d in steps:
        t = time.perf_counter()
        progress = tree_progress_for(sys.stderr, args.quiet, f"perft depth {d}" if label != "games" else "games",
                                     "sequences")
        try:
            n = count_with_progress(game, d, fn, branches, progress)
        except CountInterrupted as stop:
            progress.close()
            about = f", about {round(stop.counted / stop.done):,} in all" if stop.done > 0 else ""
            _err(f"interrupted at {'depth ' + label if label != 'games' else 'the count of games'} after "
                 f"{100 * stop.done:.1f}% of the tree: {stop.counted:,} counted so far{about}")
            return 130
        progress.close()
        extra = f"  ({time.perf_counter() - t:.2f}s)" if args.timing else ""
        print(f"{label} {n}{extra}")
    return 0


def cmd_analyze(args: argparse.Namespace) -> int:
    """Exact win chances and expected scores under uniform random play, chance weighed exactly."""
    from .interpreter.tools.analysis import (
        Interrupted,
        expected_outcome,
        outcome_json,
        outcome_text,
        partial_text,
    )
    from .tree_progress import tree_progress_for

    r = _load(args.file, args.root)
    game = r.new_game(players=args.players, options=_options(args.option, r), chance="explicit")
    if args.max_positions < 1:
        raise CliError(f"--max-positions {args.max_positions}: at least one", 2)
    progress = tree_progress_for(sys.stderr, args.quiet, "analyze")
    try:
        out = expected_outcome(game, args.max_positions, args.time_limit, progress, symmetry=args.symmetry)
    except Interrupted as stop:
        progress.close()  # before the table: the bar's last line is not left under it
        print(partial_text(r.title, stop.partial))
        return 130
    finally:
        progress.close()
    if args.json:
        print(json.dumps(outcome_json(r.title, out), indent=2))
    else:
        print(outcome_text(r.title, out))
    return 0


def cmd_lsp(args: argparse.Namespace) -> int:
    """Serve the language server on stdin/stdout (the `lsp` extra brings pygls)."""
    try:
        from .lsp.server import main as serve
    except ModuleNotFoundError as err:
        if err.name not in ("pygls", "lsprotocol", "attrs", "cattrs"):
            raise
        raise CliError("error: 'regelwerk lsp' needs the lsp extra: pip install 'regelwerk[lsp]'", 2) from None
    serve()
    return 0


def root_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--root", metavar="DIR", help="the folder the ruleset's files must stay in "
                   "(default: the rules file's folder)")


def package_version() -> str:
    """The installed distribution's version (its metadata, so it never disagrees with
    `pip show regelwerk`); a source tree that was never installed says so."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("regelwerk")
    except PackageNotFoundError:
        return "unknown (not installed: pip install -e .)"


class _Version(argparse.Action):
    """`--version`: the version looked up only when asked (the metadata is not read at start)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kw: Any):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="print the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> None:
        print(f"regelwerk {package_version()}")
        parser.exit(0)


def _batch_args(p: argparse.ArgumentParser, what: str) -> None:
    """The options of many seeded games on a backend, shared by `simulate` and `compare`."""
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--jobs", type=int, metavar="J",
                   help="worker processes (default: all cores); with --dask local, its workers")
    p.add_argument("--dask", metavar="ADDRESS|local",
                   help="run on a Dask scheduler, or 'local' for a LocalCluster (the dask extra)")
    p.add_argument("--agent", action="append", metavar="[PLAYER=]SPEC",
                   help="random, first, mcts:ITERATIONS (information-set search: it sees only what the player sees) or mcts-cheat:ITERATIONS (it peeks at hidden state), for everybody or one player (repeatable)")
    p.add_argument("--max-steps", type=int, default=100_000, help="decisions before a game counts as failed")
    p.add_argument("--json", metavar="OUT.json", help=f"also write the {what} as JSON")
    p.add_argument("--report", metavar="DIR", help="write DIR/index.html with plots (the report extra)")


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="regelwerk", description="Board-game rules as text: check, play, explain.")
    ap.add_argument("--version", action=_Version)
    sub = ap.add_subparsers(dest="command", required=True)

    p = sub.add_parser("check", help="check rules files; exit 1 on any error")
    p.add_argument("files", nargs="+")
    p.add_argument("-q", "--quiet", action="store_true")
    p.add_argument("--json", action="store_true", help="one JSON diagnostic per line on stdout, for editors")
    p.add_argument("--seeds", action="append", metavar="DIR",
                   help="a folder of seed texts to check quotes against (also $REGELWERK_SEEDS; "
                        "default: a seeds or shared/seeds folder above the file)")
    root_arg(p)
    p.set_defaults(fn=cmd_check)

    p = sub.add_parser("fmt", help="rewrite rules files in canonical form")
    p.add_argument("files", nargs="+")
    p.add_argument("--check", action="store_true", help="only report files that would change")
    p.add_argument("--stdout", action="store_true", help="print instead of rewriting")
    p.set_defaults(fn=cmd_fmt)

    def game_args(p: argparse.ArgumentParser) -> None:
        root_arg(p)
        p.add_argument("file")
        p.add_argument("--players", type=int, default=None)
        p.add_argument("--seed", type=int, default=0)
        p.add_argument("--option", action="append", metavar="NAME=VALUE")

    p = sub.add_parser("run", help="play one whole game with agents")
    game_args(p)
    p.add_argument("--agent", default="random", help="random (seeded) or first")
    p.add_argument("--trace", metavar="OUT.jsonl")
    p.add_argument("--save", metavar="OUT.json", help="write the final (or stopped) state")
    p.add_argument("--stop-after", type=int, metavar="N", help="stop after N decisions")
    p.add_argument("--max-steps", type=int, default=100_000)
    _add_limits(p)
    p.set_defaults(fn=cmd_run)

    p = sub.add_parser("play", help="play at the terminal against random bots")
    game_args(p)
    p.add_argument("--seat", help="the player you are (default: the first)")
    _add_limits(p)
    p.set_defaults(fn=cmd_play)

    p = sub.add_parser("legal", help="list the legal actions in a saved state")
    root_arg(p)
    p.add_argument("file")
    p.add_argument("--state", required=True)
    p.add_argument("--player", help="only what this player may see (default: every move, as the one "
                   "who decides sees them)")
    p.set_defaults(fn=cmd_legal)

    p = sub.add_parser("explain", help="why an action is or is not legal in a saved state")
    p.add_argument("file")
    p.add_argument("--state", required=True)
    p.add_argument("action")
    root_arg(p)
    p.add_argument("--player", help="explain as this player may see it (default: the one who decides)")
    p.add_argument("--all", action="store_true", help="show every value, hidden ones too")
    p.set_defaults(fn=cmd_explain)

    p = sub.add_parser("test", help="run the scenario blocks of rules files or folders")
    p.add_argument("paths", nargs="+")
    p.add_argument("-v", "--verbose", action="store_true")
    p.add_argument("--traced", action="store_true",
                   help="play each scenario as a traced game (the verdicts are the same)")
    root_arg(p)
    _add_limits(p)
    p.set_defaults(fn=cmd_test)

    p = sub.add_parser("trace", help="work with traces")
    tsub = p.add_subparsers(dest="trace_command", required=True)
    t = tsub.add_parser("show", help="render a trace for people")
    t.add_argument("file")
    t.add_argument("--player", help="only what this player may see")
    t.add_argument("--rules", metavar="FILE.rules", help="the ruleset, to tell what is secret precisely")
    root_arg(t)
    t.set_defaults(fn=cmd_trace_show)

    p = sub.add_parser("view", help="write a trace or a save as one self-contained HTML page")
    p.add_argument("file", metavar="TRACE.jsonl|SAVE.json")
    p.add_argument("--rules", metavar="FILE.rules", help="the ruleset (a trace names it only by title and hash)")
    p.add_argument("--out", metavar="FILE.html", help="default: the input's name with .html")
    p.add_argument("--player", help="only what this player may see")
    p.set_defaults(fn=cmd_view)

    p = sub.add_parser("simulate", help="many seeded games over processes or a cluster: win rates, "
                       "lengths, rule firings, failures")
    game_args(p)
    _batch_args(p, "report")
    p.add_argument("--results", metavar="FILE.jsonl",
                   help="stream every game's record here (default: next to --json, or in --report)")
    p.add_argument("--resume", action="store_true", help="play only the games the results file lacks")
    p.add_argument("--no-firings", action="store_true",
                   help="do not count rule firings (untraced games: faster)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress display")
    _add_limits(p)
    p.set_defaults(fn=cmd_simulate)

    p = sub.add_parser("compare", help="what a rules change does: both versions on the same seeds and "
                       "agents, the games that part and where, every measure with its test")
    root_arg(p)
    p.add_argument("old", metavar="OLD.rules")
    p.add_argument("new", metavar="NEW.rules")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--seed", type=int, default=0, help="game i is played with seed SEED + i")
    p.add_argument("--option", action="append", metavar="NAME=VALUE")
    _batch_args(p, "comparison")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress display")
    p.set_defaults(fn=cmd_compare)

    p = sub.add_parser("book", help="the ruleset as a readable rulebook page: every rule with its "
                       "quote, note, spec ids, text and worked examples")
    root_arg(p)
    p.add_argument("file")
    p.add_argument("--out", metavar="FILE.html", help="where to write the page (default: NAME-book.html here)")
    p.set_defaults(fn=cmd_book)

    p = sub.add_parser("perft", help="count action sequences per depth")
    game_args(p)
    p.add_argument("--depth", type=int, required=True)
    p.add_argument("--games", action="store_true", help="also count complete games within the depth")
    p.add_argument("--timing", action="store_true")
    p.add_argument("--chance", action="store_true",
                   help="explicit chance: count each chance outcome as a ply (every deal, every roll)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress display")
    p.set_defaults(fn=cmd_perft)

    p = sub.add_parser("analyze", help="exact win chances and expected scores under uniform random "
                       "play, every chance outcome weighed (small games)")
    root_arg(p)
    p.add_argument("file")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--option", action="append", metavar="NAME=VALUE")
    p.add_argument("--max-positions", type=int, default=2_000_000, metavar="N",
                   help="give up beyond N distinct positions (default 2,000,000)")
    p.add_argument("--time-limit", type=float, default=None, metavar="SECONDS", help="give up after this long")
    p.add_argument("--json", action="store_true", help="the fractions as JSON")
    p.add_argument("--no-symmetry", dest="symmetry", action="store_false",
                   help="work out every position, not one of each family of rotations and reflections")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress display")
    p.set_defaults(fn=cmd_analyze)

    p = sub.add_parser("lsp", help="the language server for editors, over stdin/stdout")
    p.set_defaults(fn=cmd_lsp)
    from .serve.command import add_parser as add_serve  # games in the browser (docs/serve.md)
    add_serve(sub)
    return ap


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code = args.fn(args)
        if sys.stdout is not None and not sys.stdout.closed:
            sys.stdout.flush()  # a reader that went away shows here, not at exit
        return code
    except RulesError as err:
        _err(err.format())
        return 1
    except CliError as err:
        _err(str(err))
        return err.code
    except EngineError as err:
        _err(f"error: {err}")
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `regelwerk check F | head -1`: the output was not all delivered
        _quiet_stdout()
        return 141
    except Exception as err:  # the last line of defence: a message, never a traceback
        if os.environ.get("REGELWERK_DEBUG"):
            raise
        _err(f"internal error: {type(err).__name__}: {err}\n"
             "(set REGELWERK_DEBUG=1 for the traceback, and please report it)")
        return 70


def _quiet_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so the flush at exit says nothing."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":
    sys.exit(main())
