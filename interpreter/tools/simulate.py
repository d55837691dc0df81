"""One simulated game, summed up as a plain record: who won, scores, length, the seat order,
which rules fired, or the located error that stopped it.

A record depends only on the ruleset, the settings and the game's index, never on the process
that played it: the game's seed is `base + index`, and every agent gets its own generator
seeded from (base seed, index, player). That is what lets `regelwerk simulate` spread games
over processes or a cluster and still write the same report (regelwerk/simulation/).
"""

from __future__ import annotations

import os
import time
import traceback
from dataclasses import dataclass, field
from typing import Any

from ..engine.errors import EngineError
from ..engine.locate import locate
from .agents import derived_seed, make_agent

__all__ = ["PlaySettings", "Firings", "play_record", "game_seed"]

MAX_MOVES_KEPT = 10_000  # moves a failure record keeps for replaying it (a runaway game has more)


@dataclass(frozen=True)
class PlaySettings:
    """What every game of a run shares. Plain data, so it travels to worker processes."""

    players: int | None = None  # player count; None: the ruleset's minimum
    seed: int = 0  # game i is played with seed + i
    options: dict = field(default_factory=dict)
    agents: dict = field(default_factory=dict)  # player -> canonical agent spec; missing: random
    max_steps: int = 100_000  # decisions per game before it counts as a failure
    firings: bool = True  # count rule firings (plays traced games)
    limits: dict = field(default_factory=dict)  # Ruleset.set_limits: work_budget, time_limit
    keep_moves: bool = False  # each record lists its moves (`compare` replays them traced)


def game_seed(base: int, index: int) -> int:
    return base + index


class Firings:
    """Which rules a traced game applied, by rule key (`action:place`, `procedure:refill`,
    `when:2`, `on:0`, `phase:main`, `device:tower`).

    Three sources, because a trace keeps only steps with something to show: the rule keys a
    game opens while it runs (every rule application opens one, see `watch`), the trace steps
    (named by rule name and declaration place, since two hooks may share a name but never a
    place) and the rules running when a decision is taken (a procedure that only hosts a
    `play`). A fired rule counts its trace steps, and its decisions (steps a player decided).
    """

    def __init__(self, rules: dict[str, dict]):
        self.by_at = {(k.split(":", 1)[0], info.get("at")): k for k, info in rules.items()}

    @staticmethod
    def watch(game: Any, into: set[str]) -> None:
        """Note the key of every rule the game applies from now on.

        A stopgap until the engine counts rule entries itself (docs/simulation.md says which
        hook): a traced game opens a step for every rule it applies, through `_open(key, ...)`,
        whether or not the step is kept, or makes an empty step that rule's (`_renew(step,
        key)`, true when it did). Without those methods only the other sources count."""
        open_step = getattr(game, "_open", None)
        if open_step is None:
            return
        renew = game._renew

        def opening(key: str, *args: Any, **kwargs: Any) -> Any:
            into.add(key)
            return open_step(key, *args, **kwargs)

        def renewing(st: list, key: str) -> bool:
            done = renew(st, key)
            if done:
                into.add(key)
            return done

        game._open = opening
        game._renew = renewing
        game._watched = True  # generated code calls push_rule and pop_rule, which call these

    def count(self, steps: list[dict], seen: set[str]) -> dict[str, list[int]]:
        """{rule key: [trace steps, decisions]} for every rule that fired."""
        out: dict[str, list[int]] = {}
        for st in steps:
            kind = st.get("kind")
            if kind is None:
                continue  # the result line
            key = self.by_at.get((kind, st.get("at"))) or f"{kind}:{st.get('rule')}"
            n = out.setdefault(key, [0, 0])
            n[0] += 1
            if st.get("decision"):
                n[1] += 1
            for ch in st.get("chance", ()):
                if ch.get("kind") == "device":
                    out.setdefault(f"device:{ch['what']}", [0, 0])[0] += 1
        for key in seen:
            out.setdefault(key, [0, 0])
        return dict(sorted(out.items()))


def _running_rules(game: Any, into: set[str]) -> None:
    """The rules whose blocks are running at this decision (frames hold their rule keys)."""
    for frame in getattr(game, "frames", ()):
        key = frame[3] if len(frame) > 3 else None
        if key == "flow":
            key = f"phase:{game.phase}" if game.phase is not None else "flow"
        if isinstance(key, str):
            into.add(key)


def play_record(ruleset: Any, index: int, settings: PlaySettings,
                firings: Firings | None = None) -> dict[str, Any]:
    """Play game `index` to its end and sum it up; an error is part of the record, not raised."""
    seed = game_seed(settings.seed, index)
    rec: dict[str, Any] = {"game": index, "seed": seed}
    start = time.perf_counter()
    cpu = time.process_time()
    game = None
    seen: set[str] = set()
    order: list[str] = []
    moves: list[Any] = []
    if settings.limits and ruleset.limits != settings.limits:
        ruleset.set_limits(**settings.limits)
    try:
        if settings.firings:  # started here, so that the rules of the start are seen too
            game = ruleset.new_game(players=settings.players, seed=seed, options=settings.options or None,
                                    record=True, start=False)
            Firings.watch(game, seen)
            game.start()
        else:
            game = ruleset.new_game(players=settings.players, seed=seed, options=settings.options or None)
        agents = {p: make_agent(settings.agents.get(p, "random"), derived_seed(settings.seed, index, p))
                  for p in game.players}
        first_step = game.step_no
        while not game.is_over:
            if game.step_no - first_step >= settings.max_steps:
                raise EngineError(f"no result after {settings.max_steps} decisions")
            who = game.decision_player()
            if who not in order:
                order.append(who)
            if settings.firings:
                _running_rules(game, seen)
            move = agents[who](game)
            moves.append(move)
            game.apply(move)
        rec["length"] = game.step_no - first_step
        rec["winners"] = list(game.winners)
        rec["scores"] = game.result.get("scores")  # as JSON, as the engine keeps them
        rec["order"] = order + [p for p in game.players if p not in order]
        if settings.keep_moves:
            rec["moves"] = [str(m) for m in moves]
        if settings.firings:
            rec["fired"] = (firings or Firings(ruleset.program(True).rules)).count(game.trace, seen)
    except Exception as err:  # noqa: BLE001 - a failing game is a finding, not a crash
        rec["failure"] = _failure(err, game, ruleset, moves)
    rec["seconds"] = time.perf_counter() - start
    rec["cpu_seconds"] = time.process_time() - cpu
    return rec


def _failure(err: Exception, game: Any, ruleset: Any, moves: list[Any]) -> dict[str, Any]:
    """The error with where it happened: the span of an engine error, else the declaration of
    the action being played (relative to the rules' folder, as traces write it), else the
    innermost Python frame (an engine bug, reported rather than raised); and the moves that
    led there, to replay it. No absolute paths: a worker's copy of the rules lives in a
    temporary folder, and the record must not depend on where it was played."""
    base = ruleset.model.base_dir
    out: dict[str, Any] = {"type": type(err).__name__}
    if isinstance(err, EngineError):
        err = locate(err, game)  # as `regelwerk run` places it: a runaway trigger chain, a budget
        out["error"] = _strip_folder(err.message, base)
        span = err.span
        if span is not None and getattr(span, "line", None):
            out["at"] = f"{_relative(span.file, base)}:{span.line}:{span.column}"
    else:
        out["error"] = f"{type(err).__name__}: {err}"
        tb = traceback.extract_tb(err.__traceback__)
        if tb:
            last = tb[-1]
            out["at"] = f"{os.path.basename(last.filename)}:{last.lineno} (in {last.name})"
    if moves and "at" not in out and game is not None and str(err).startswith(f"action '{moves[-1]}'"):
        info = ruleset.program(game.record).rules.get(f"action:{getattr(moves[-1], 'name', '')}")
        if info and info.get("at"):  # the move's own effect failed: the action is the place
            out["at"] = info["at"]
    if game is not None:
        out["step"] = game.step_no
        out["player"] = game.decision_player()
    out["moves"] = [str(m) for m in moves[:MAX_MOVES_KEPT]]
    if len(moves) > MAX_MOVES_KEPT:
        out["moves_dropped"] = len(moves) - MAX_MOVES_KEPT
    return out


def _strip_folder(text: str, base: str) -> str:
    """`text` with the rules' folder taken out of the file names it mentions."""
    if base in ("", "."):
        return text
    return text.replace(os.path.join(base, ""), "")


def _relative(file: str, base: str) -> str:
    if base and os.path.isabs(file) == os.path.isabs(base):
        return os.path.relpath(file, base)
    return file
