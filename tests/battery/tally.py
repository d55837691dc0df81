"""How each battery input ended, counted for the figures of issue 10's closing note.

`outcome_of_load` and `outcome_of_play` run one input under a time limit and say how it
ended: `ok`, `located` (a located error, as required), or one of the failures `traceback`,
`exit70`, `unlocated`, `hang`, `leak`. The counts are kept for the session (conftest.py prints
them and writes them to $REGELWERK_BATTERY_REPORT).
"""

from __future__ import annotations

import contextlib
import io
import re
import signal
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from regelwerk.dsl.diagnostics import RulesError
from regelwerk.interpreter.engine.errors import EngineError
from regelwerk.interpreter.engine.locate import locate
from regelwerk.interpreter.tools.agents import RandomAgent

import regelwerk
from regelwerk.cli import main

COUNTS: Counter = Counter()
FAILURES = ("traceback", "exit70", "unlocated", "hang", "leak", "unsound")
# Python's errors that a checked ruleset must never meet at run time (issue 22 §2): the checker
# should have refused the rules. The engine's own failures (an index past a list's end, a draw
# from too few, a failed `require`, a budget) are fine.
UNSOUND = ("[TypeError]", "[KeyError]", "[AttributeError]", "[ZeroDivisionError]")
_MAP_MISS = re.compile(r"no entry .* in (a|the) map")
_LOCATION = re.compile(r"\S+:\d+(:\d+)?")


class Hang(Exception):  # noqa: N818 - raised by the alarm, never seen by a user
    pass


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise Hang in the main thread after `seconds`. Python swallows an exception raised
    while it runs a garbage-collection callback, so an alarm can ring without stopping the
    input; such an input that then finishes is counted as `late` (shown in the totals, not a
    failure: it did end), so the tally never hides an alarm."""
    rang = []

    def ring(signum: int, frame: Any) -> None:
        rang.append(True)
        raise Hang()
    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    finished = False
    try:
        yield
        finished = True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        if rang and finished:
            COUNTS[("all", "late")] += 1


def record(kind: str, outcome: str) -> str:
    COUNTS[(kind, outcome)] += 1
    COUNTS[("all", "inputs" if outcome != "skipped" else "skipped")] += 1
    return outcome


def diagnostics_located(err: RulesError, text_lines: dict[str, int] | None = None) -> bool:
    """Every diagnostic points at a line and column that exist in its file (line 1 of an
    empty or unreadable file counts), and the error formats."""
    err.format()
    for d in err.diagnostics:
        if d.span.line < 1 or d.span.column < 1:
            return False
        if text_lines is not None and d.span.file in text_lines and d.span.line > text_lines[d.span.file] + 1:
            return False
    return True


def engine_error_located(err: EngineError, game: Any = None) -> bool:
    err = locate(err, game)
    return (err.span is not None and err.span.line > 0) or bool(_LOCATION.search(err.message)) \
        or err.message.startswith(("save", "not a move", "cannot read move"))


def outcome_of_load(path: Path, seconds: float = 20) -> tuple[str, Any]:
    """Load a ruleset: ('ok', ruleset), ('located', error) or a failure."""
    try:
        with time_limit(seconds):
            r = regelwerk.load(path)
    except Hang:
        return "hang", None
    except RulesError as err:
        lines = {f: t.count("\n") + 1 for f, t in err.sources.items()}
        return ("located" if diagnostics_located(err, lines) else "unlocated"), err
    except Exception as err:  # noqa: BLE001 - the battery classifies everything
        return "traceback", err
    return "ok", r


def outcome_of_play(ruleset: Any, seed: int, decisions: int = 20, seconds: float = 20) -> tuple[str, Any]:
    """A short random game: 'ok', 'located' (a located engine error), or a failure."""
    game = None
    try:
        with time_limit(seconds):
            players = ruleset.model.players.min_count if ruleset.model.players else 1
            game = ruleset.new_game(players=players, seed=seed, record=seed % 2 == 0)
            agent = RandomAgent(seed)
            for _ in range(decisions):
                if game.is_over:
                    break
                moves = game.legal_actions()
                if not moves:
                    break
                game.apply(agent(game))
                game.clone().to_json()
    except Hang:
        return "hang", None
    except EngineError as err:
        if unsound(err):
            return "unsound", err
        return ("located" if engine_error_located(err, game) else "unlocated"), err
    except Exception as err:  # noqa: BLE001
        return "traceback", err
    return "ok", game


def unsound(err: EngineError) -> bool:
    """Whether a run-time failure is one that the checker should have ruled out: a Python
    TypeError, KeyError, AttributeError or ZeroDivisionError, or a key missing from a map."""
    text = str(err)
    return any(tag in text for tag in UNSOUND) or bool(_MAP_MISS.search(text))


def outcome_of_cli(argv: list[str], seconds: float = 30) -> tuple[str, str]:
    """Run the command in-process: exit 70 or a traceback on stderr is a failure; any other
    non-zero exit must come with a located message (or a usage message, exit 2)."""
    outcome, _code, text = run_cli(argv, seconds)
    return outcome, text


def run_cli(argv: list[str], seconds: float = 30) -> tuple[str, int, str]:
    """(outcome, exit code, stderr) of one command run in-process."""
    out, err = io.StringIO(), io.StringIO()
    try:
        with time_limit(seconds), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    except Hang:
        return "hang", -1, ""
    except SystemExit as e:  # argparse
        code = e.code if isinstance(e.code, int) else 2
    except Exception as e:  # noqa: BLE001
        return "traceback", -1, repr(e)
    return _judge(code, err.getvalue()), code, err.getvalue()


def _judge(code: int, text: str) -> str:
    if code == 70:
        return "exit70"
    if "Traceback" in text:
        return "traceback"
    if code not in (0, 2) and not _LOCATION.search(text) and not re.search(r"\S+: error:", text):
        return "unlocated"
    return "ok" if code == 0 else "located"
