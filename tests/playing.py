"""Helpers the tests share for reaching positions by seeded random play, and for comparing
the moves a program lists with and without one of the compiler's transforms."""

from __future__ import annotations

import contextlib
import json
import random
import re
from collections.abc import Callable, Iterator
from types import ModuleType

import pytest

from regelwerk import EngineError, Game, InvariantBroken, RuleFailure, Ruleset


def reach(ruleset: Ruleset, players: int, seed: int, steps: int, record: bool = False) -> Game:
    """The position after up to `steps` random decisions (fewer if the game ends first)."""
    return advanced(ruleset.new_game(players=players, seed=seed, record=record), seed, steps)


def advanced(g: Game, seed: int, steps: int) -> Game:
    """`g` after up to `steps` random decisions drawn from `random.Random(seed)`."""
    rnd = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(rnd.choice(g.legal_actions()))
    return g


def play_checked(g: Game, rnd: random.Random, moves: int, check: Callable[[Game], None]) -> None:
    """Random moves, `check` (a test's oracle) asked at every decision first; then on to the
    next `play`, so the oracle's next check finds a listing."""
    for _ in range(moves):
        if g.is_over:
            return
        check(g)
        g.apply(rnd.choice(g.legal_actions()))
    while not g.is_over and g.pending["kind"] != "play":
        g.apply(rnd.choice(g.legal_actions()))


def played(ruleset: Ruleset, players: int | None, record: bool, seeds: range, limit: int,
           saved: bool = False) -> list:
    """Every decision's moves, and each game's result (and trace, when recorded; and, with
    `saved`, its save at the end), of random games."""
    out: list = []
    for seed in seeds:
        g = ruleset.new_game(players=players, seed=seed, record=record)
        rnd = random.Random(seed)
        n = 0
        while not g.is_over and n < limit:
            moves = g.legal_actions()
            out.append([str(m) for m in moves])
            g.apply(rnd.choice(moves))
            n += 1
        out.append((g.result, json.dumps(g.trace, default=str, sort_keys=True) if record else None))
        if saved:
            out.append(g.to_json())
    return out


def without(load: Callable[[], Ruleset], module: ModuleType | type, name: str, nothing: object = None) -> Ruleset:
    """A ruleset loaded and compiled (untraced and traced) while `module.name`, the function
    that plans a transform, answers `nothing`: the program without that transform."""
    mp = pytest.MonkeyPatch()
    mp.setattr(module, name, lambda *_args: nothing)
    try:
        ruleset = load()
        ruleset.program(False), ruleset.program(True)
    finally:
        mp.undo()
    return ruleset


def listed(g: Game) -> list[str] | str:
    """The legal moves as texts, or the rules' error when listing them fails."""
    try:
        return [str(m) for m in g.legal_actions()]
    except RuleFailure as err:
        return f"error: {err}"


def invariant_breaks(ruleset: Ruleset, seed: int, decisions: int, by_key: bool = True) -> list[tuple[int, list]]:
    """The decisions of a traced random game, played on through every break, at which an
    invariant broke, with the messages; with `by_key` False, every invariant is tested whole
    (none at the keys a step wrote: `Program.invariant_points` emptied)."""
    if not by_key:
        ruleset.program(True).invariant_points.clear()
    g = ruleset.new_game(record=True, seed=seed)
    rnd, out = random.Random(seed), []
    for n in range(decisions):
        try:
            g.apply(rnd.choice(g.legal_actions()))
        except InvariantBroken as err:
            out.append((n, err.broken))
    return out


# (the switch, or "" when on; on; the name; the text)
_COMPILED: dict[tuple, Ruleset] = {}


def compiled_with(flag: str, on: bool, name: str, text: str | None = None, held: Held = ()) -> Ruleset:
    """The rules `text` (None: the bundled ruleset `name`) compiled, untraced and traced, while
    the switch `CodeGen.<flag>` of one transform is `on` (and those of `held` as they say: a
    transform tested where a later one would take its place); once per test session (with
    every switch on, once for all the switches)."""
    from bundled import BUNDLED

    import regelwerk

    key = ("" if on and not held else flag, on, name, text, held)
    if key not in _COMPILED:
        with switches(((flag, on), *held)):
            rules = regelwerk.load(BUNDLED[name]) if text is None else regelwerk.load_text(text, f"{name}.rules")
            rules.program(False), rules.program(True)
        _COMPILED[key] = rules
    return _COMPILED[key]


Held = tuple[tuple[str, bool], ...]  # other switches held on or off while one is compared


@contextlib.contextmanager
def switches(pairs: Held) -> Iterator[None]:
    """`CodeGen`'s switches set as `pairs` say, and back as they were afterwards."""
    from regelwerk.interpreter.compiler.codegen import CodeGen

    before = [(f, getattr(CodeGen, f)) for f, _on in pairs]
    try:
        for f, on in pairs:
            setattr(CodeGen, f, on)
        yield
    finally:
        for f, was in reversed(before):
            setattr(CodeGen, f, was)


_SOURCES: dict[tuple, str] = {}


def source_with(flag: str, on: bool, name: str, text: str | None = None, held: Held = ()) -> str:
    """The untraced program's text of `compiled_with(...)` (`source` compiles it again, so the
    switches are set while it does)."""
    key = ("" if on and not held else flag, on, name, text, held)
    if key not in _SOURCES:
        rules = compiled_with(flag, on, name, text, held)
        with switches(((flag, on), *held)):
            _SOURCES[key] = rules.program(False).source
    return _SOURCES[key]


def listing_with(flag: str, on: bool, name: str, text: str | None, action: str) -> str:
    """The body of `action`'s listing (its AE_n function) in `source_with(...)`."""
    fn = compiled_with(flag, on, name, text).program(False).actions[action].enum.__name__
    return ("\n" + source_with(flag, on, name, text)).split(f"\ndef {fn}(")[1].split("\ndef ")[0]


def same_with_and_without(flag: str, record: bool, texts: dict[str, str], bundled: str = "root",
                          held: Held = ()) -> None:
    """Random games of each of `texts` (four seeds) and of a bundled ruleset (six untraced, two
    traced) list the same moves and end with the same results, traces and saves with the
    transform `CodeGen.<flag>` on and off (the switches of `held` as they say)."""
    for name, text in texts.items():
        assert played(compiled_with(flag, True, name, text, held), None, record, range(4), 250, saved=True) == \
            played(compiled_with(flag, False, name, text, held), None, record, range(4), 250, saved=True)
    seeds = range(2 if record else 6)
    assert played(compiled_with(flag, True, bundled, None, held), None, record, seeds, 250, saved=True) == \
        played(compiled_with(flag, False, bundled, None, held), None, record, seeds, 250, saved=True)


def chosen_and_same(flag: str, kind: str, name: str, text: str, record: bool, bundled: str,
                    held: Held = ()) -> None:
    """The transform `CodeGen.<flag>` makes its choice `kind` in the small ruleset `text` (so the
    comparison exercises it), and `same_with_and_without` holds for it and for `bundled`."""
    on = compiled_with(flag, True, name, text, held)
    assert any(c.kind == kind for c in on.program(record).choices)
    same_with_and_without(flag, record, {name: text}, bundled=bundled, held=held)


def fresh_with(flag: str, on: bool, text: str, filename: str, monkeypatch: pytest.MonkeyPatch) -> Ruleset:
    """The rules `text` compiled, untraced and traced, while `CodeGen.<flag>` is `on` (for this
    test only): a fresh ruleset of its own, where `compiled_with` shares one across tests, for
    tests that set its limits or read its source while the switch still holds."""
    from regelwerk.interpreter.compiler.codegen import CodeGen

    import regelwerk

    monkeypatch.setattr(CodeGen, flag, on)
    rules = regelwerk.load_text(text, filename)
    rules.program(False), rules.program(True)  # compiled while the switch holds
    return rules


def positions_played(rules: Ruleset, seed: int, record: bool, watched: str) -> list[str]:
    """A seeded random game's saves before every move (the frames' slots too), then how it
    ended: a budget running out, or its result, the variable `watched` and, traced, its trace."""
    from regelwerk.interpreter.engine.errors import BudgetExceeded

    g = rules.new_game(seed=seed, record=record)
    rnd = random.Random(seed)
    seen = []
    try:
        while not g.is_over:
            seen.append(json.dumps(g.to_json(), sort_keys=True, default=str))
            g.apply(rnd.choice(g.legal_actions()))
    except BudgetExceeded as err:
        seen.append(str(err))
    seen.append(json.dumps([g.result, g.vars[watched], g.trace if record else None], sort_keys=True, default=str))
    return seen


def games_digest(rules: Ruleset, players: int, seeds: range, record: bool) -> list[str]:
    """Seeded random games (moves drawn from `random.Random(seed)`) as text: each one's result,
    generator state and, traced, its trace — what a transform of the code must leave unchanged."""
    out = []
    for s in seeds:
        g = rules.new_game(players=players, seed=s, record=record)
        rnd = random.Random(s)
        while not g.is_over:
            g.apply(rnd.choice(g.legal_actions()))
        out.append(json.dumps([g.result, g.rng, g.trace if record else None], sort_keys=True, default=str))
    return out


def with_undo_and_clone(g: Game, n: int, every: int) -> Game:
    """After every `every`-th move: two moves taken back (where the history allows), and every
    second time the game replaced by its clone — the paths a digest of a game should survive."""
    if every and n % every == 0 and not g.is_over:
        try:
            g.undo()
            g.undo()
        except EngineError:  # a move taken back (`abandon`) ends the history
            pass
        if n % (2 * every) == 0:
            g = g.clone()
    return g


def played_with_undo_and_clones(g: Game, seed: int, moves: int | None, every: int,
                                breaks: bool = False) -> Game:
    """A seeded random game played on (at most `moves` moves; None: to its end) through
    `with_undo_and_clone`, with `breaks` an invariant reported broken taken as the move's
    answer (else it fails the test); the game at the end (a clone of the one given, perhaps)."""
    from regelwerk import InvariantBroken

    rnd = random.Random(seed)
    n = 0
    while not g.is_over and (moves is None or n < moves):
        n += 1
        try:
            g.apply(rnd.choice(g.legal_actions()))
        except InvariantBroken:
            if not breaks:
                raise
        g = with_undo_and_clone(g, n, every)
    return g


def without_fused(source: str) -> str:
    """A program's text without its fused apply (`BA_n`, compiler/machine.py `fused_apply`),
    which copies a block's section: what a test counts in the blocks, once."""
    return re.sub(r"\ndef BA_\d+\(.*?(?=\ndef |\Z)", "", source, flags=re.S)
