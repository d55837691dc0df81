"""regelwerk games as OpenSpiel games, so that every OpenSpiel algorithm runs on any ruleset.

    from regelwerk.openspiel import load_game
    game = load_game("rulesets/examples/kuhn.rules")          # a pyspiel.Game
    state = game.new_initial_state()

The game is a Python game registered with pyspiel under the short name `python_regelwerk`, with
the ruleset's path and settings as game parameters, so `pyspiel.load_game(
"python_regelwerk(path=/abs/kuhn.rules)")`, `serialize_game_and_state` and pickling work too.
docs/analysis.md describes the bridge: the game type decided from the checked model, the
action index built from the action signatures, chance outcomes, returns, and the numbers
measured on Kuhn poker. Needs the `openspiel` extra (`pip install 'regelwerk[openspiel]'`).
"""

from __future__ import annotations

import copyreg
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel

from . import load
from .api import Ruleset
from .dsl import ast as A
from .dsl.ast import iter_nodes
from .dsl.check_expr import CHANCE_NAMES
from .dsl.printer import expr_text
from .dsl.types import BOOL, Elem, Opt, Type
from .interpreter.compiler import ir
from .interpreter.engine.explicit import can_play_in_place, play
from .interpreter.engine.game import Game
from .interpreter.engine.moves import Action, parse_action
from .interpreter.engine.values import value_text
from .openspiel_memo import Answers, Box, Memo

__all__ = ["SHORT_NAME", "ActionIndex", "RegelwerkGame", "RegelwerkState", "load_game"]

SHORT_NAME = "python_regelwerk"

# Every game parameter with its default. pyspiel types each parameter by its default here.
PARAMETERS: dict[str, Any] = {
    "path": "",  # the main .rules file (absolute: game strings are loaded from any folder)
    "players": 0,  # 0: the ruleset's minimum
    "options": "",  # "name:value;name:value", values as rules write them
    "chance": "explicit",  # "explicit": chance nodes; "sampled": chance drawn inside moves
    "seed": 0,  # sampled chance: the n-th new initial state plays with seed + n
    "returns": "auto",  # "auto": scores if the ruleset scores, else the outcome; or "outcome", "scores"
    "explore": 100_000,  # game-tree nodes walked to establish exact facts (0: do not walk)
    "explore_seconds": 3.0,  # ... and for at most this long
    "utility": "auto",  # "auto": as established; or declared: "zero_sum", "constant_sum", "general_sum"
    "max_game_length": 0,  # 0: as established, else DEFAULT_MAX_GAME_LENGTH
    "max_actions": 0,  # positional index only: 0 as established, else DEFAULT_MAX_ACTIONS
    "max_chance_outcomes": 0,  # 0: as established, else DEFAULT_MAX_CHANCE_OUTCOMES
    "min_utility": -1000.0,  # score returns that could not be established: their bounds
    "max_utility": 1000.0,
    "memo": 100_000,  # histories whose answers are kept (0: none); only where the history decides the position
}
OUTCOME_EXPLORE = 1_000  # outcome returns have exact bounds: walk only a small tree, for the other facts
DEFAULT_MAX_GAME_LENGTH = 100_000  # the same bound as `regelwerk simulate --max-steps`
DEFAULT_MAX_ACTIONS = 10_000  # the seed rulesets offer at most a few hundred moves at once
DEFAULT_MAX_CHANCE_OUTCOMES = 1_000
MAX_INDEXED_ACTIONS = 1_000_000  # a larger mixed-radix index falls back to positions
_FORBIDDEN = set(",()=")  # characters a pyspiel game string cannot carry in a value

# OpenSpiel's pseudo-players, looked up once: `pyspiel.PlayerId.CHANCE` is two attribute
# look-ups on an enum class, and the state's answers compare against these at every node
_TERMINAL, _CHANCE, _SIMULTANEOUS = pyspiel.PlayerId.TERMINAL, pyspiel.PlayerId.CHANCE, pyspiel.PlayerId.SIMULTANEOUS
_Mode = pyspiel.GameType.ChanceMode
_Utility = pyspiel.GameType.Utility
_Info = pyspiel.GameType.Information


# ---------------------------------------------------------------------- the action index
@dataclass(frozen=True)
class _Slot:
    """One action's range of indices: its offset and each parameter's values (mixed radix,
    first parameter most significant)."""

    name: str
    offset: int
    domains: tuple[tuple, ...]
    lookup: tuple[dict, ...]
    size: int


def _key(v: Any) -> tuple:
    """A dictionary key that keeps `true` apart from `1`."""
    return (type(v).__name__, v)


KNOWN_MOVES = 4096  # move objects whose index ActionIndex keeps (see ActionIndex._known)


class ActionIndex:
    """A stable integer for every move of a ruleset, built from the action signatures.

    Each action gets a range (declaration order) holding every combination of its parameters'
    values (a mixed-radix number over their finite domains: boards, enums, players, `bool`,
    ranges and literal lists of constants), then `pass` gets one index if some `play` may be
    passed, then `choose(v)` one per value of every `choose`'s finite domain. When some
    parameter or choice ranges over something that is not a finite type (a hand of cards as
    a list, `placements(...)`), the whole ruleset uses a positional index instead: a move's
    index is its position in `legal_actions()`, which is stable for a given position, up to a
    fixed bound. `positional` then says why."""

    def __init__(self, game: Game):
        prog = game.prog
        model = prog.model
        self.positional: str | None = None
        self.slots: list[_Slot] = []
        self.pass_index: int | None = None
        self.choose_offset = 0
        self.choose_values: tuple = ()
        self._choose_lookup: dict = {}
        # index by id of the move objects seen lately: listings hand out the same move objects
        # again and again (their tables of moves), and every move made for the bridge is looked up
        self._known: dict[int, tuple[Action, int]] = {}
        offset = 0
        for name, decl in model.actions.items():
            domains = []
            for p in decl.params:
                values = _param_values(game, p)
                if values is None:
                    shown = f"{p.name}: {expr_text(p.type)}" if p.type is not None else \
                        f"{p.name} in {expr_text(p.domain)}"
                    self.positional = f"action {name}({shown}): the domain is not a finite type"
                    break
                domains.append(values)
            if self.positional:
                break
            size = 1
            for d in domains:
                size *= max(len(d), 1)
            lookup = tuple({_key(v): i for i, v in enumerate(d)} for d in domains)
            self.slots.append(_Slot(name, offset, tuple(domains), lookup, size))
            offset += size
        ops = [op for block in prog.blocks for op in block.ops]
        if not self.positional:
            if any(isinstance(op, ir.Play) and op.optional for op in ops):
                self.pass_index = offset
                offset += 1
            values: list = []
            seen: set = set()
            for op in ops:
                if not isinstance(op, ir.Choose):
                    continue
                found = _domain_values(game, op.domain)
                if found is None:
                    self.positional = f"choose {op.var} in {expr_text(op.domain)}: the domain is not a finite type"
                    break
                for v in found:
                    if _key(v) not in seen:
                        seen.add(_key(v))
                        values.append(v)
            self.choose_offset = offset
            self.choose_values = tuple(values)
            self._choose_lookup = {_key(v): i for i, v in enumerate(values)}
            offset += len(values)
        if not self.positional and offset > MAX_INDEXED_ACTIONS:
            self.positional = f"the parameters' domains give {offset:,} indices (more than {MAX_INDEXED_ACTIONS:,})"
        self.size = offset  # positional: replaced by the game's bound
        self._by_name = {s.name: s for s in self.slots}

    def index(self, move: Action) -> int:
        """The index of `move` (not for the positional index: that needs the legal list)."""
        known = self._known.get(id(move))
        if known is not None and known[0] is move:
            return known[1]
        i = self._index(move)
        if len(self._known) >= KNOWN_MOVES:
            self._known.clear()
        self._known[id(move)] = (move, i)
        return i

    def _index(self, move: Action) -> int:
        if self.positional:
            raise ValueError(f"this ruleset's moves are indexed by position ({self.positional})")
        if move.name == "pass" and not move.args and self.pass_index is not None:
            return self.pass_index
        if move.name == "choose" and len(move.args) == 1:
            i = self._choose_lookup.get(_key(move.args[0]))
            if i is None:
                raise ValueError(f"{move}: its value is outside every choice's domain")
            return self.choose_offset + i
        slot = self._by_name.get(move.name)
        if slot is None or len(move.args) != len(slot.domains):
            raise ValueError(f"{move}: not a move of this ruleset's action index")
        i = 0
        for arg, d, lookup in zip(move.args, slot.domains, slot.lookup, strict=True):
            j = lookup.get(_key(arg)) if not isinstance(arg, (list, dict, set)) else None
            if j is None:
                raise ValueError(f"{move}: {value_text(arg)} is outside the parameter's domain")
            i = i * len(d) + j
        return slot.offset + i

    def move(self, index: int) -> Action | None:
        """The move an index stands for, whether or not it is legal now (None: no move)."""
        if self.positional or not 0 <= index < self.size:
            return None
        if self.pass_index is not None and index == self.pass_index:
            return Action("pass")
        if index >= self.choose_offset and self.choose_values:
            return Action("choose", (self.choose_values[index - self.choose_offset],))
        for slot in self.slots:
            if slot.offset <= index < slot.offset + slot.size:
                rest = index - slot.offset
                args = []
                for d in reversed(slot.domains):
                    args.append(d[rest % len(d)])
                    rest //= len(d)
                return Action(slot.name, tuple(reversed(args)))
        return None

    def describe(self) -> list[str]:
        """The layout as lines of text (for docs and debugging)."""
        if self.positional:
            return [f"positional: {self.positional}"]
        out = []
        for s in self.slots:
            radices = " x ".join(str(len(d)) for d in s.domains) or "1"
            out.append(f"{s.offset}..{s.offset + s.size - 1}: {s.name} ({radices})")
        if self.pass_index is not None:
            out.append(f"{self.pass_index}: pass")
        if self.choose_values:
            out.append(f"{self.choose_offset}..{self.choose_offset + len(self.choose_values) - 1}: "
                       f"choose ({len(self.choose_values)} values)")
        return out


def _type_values(t: Type, domains: dict[str, tuple]) -> tuple | None:
    """The values of a finite type (an optional one adds `none`), or None."""
    inner = t.inner if isinstance(t, Opt) else t
    if isinstance(inner, Elem):
        values = domains.get(inner.name)
    elif inner == BOOL:
        values = (False, True)
    else:
        return None
    if values is None:
        return None
    return (*values, None) if isinstance(t, Opt) else tuple(values)


def _param_values(game: Game, p: A.Param) -> tuple | None:
    if p.type is not None:
        return _type_values(game.prog.model.type_of_decl(p.type), game.domains())
    return _domain_values(game, p.domain)


def _domain_values(game: Game, node: A.Node) -> tuple | None:
    """The values a parameter or choice written `x in node` can take, when that is a fixed
    finite set: the items' finite type, a range with constant bounds, or a literal list."""
    model = game.prog.model
    found = _type_values(model.type_of(node).item, game.domains())
    if found is not None:
        return found
    if isinstance(node, A.Range) and _constant(model, node.low) and _constant(model, node.high):
        low, high = game.prog.expr(node.low)(game), game.prog.expr(node.high)(game)
        if type(low) is int and type(high) is int:
            return tuple(range(low, high + 1))
    if isinstance(node, (A.ListLit, A.SetLit)) and all(
            isinstance(x, (A.IntLit, A.StrLit, A.BoolLit, A.NoneLit)) for x in node.items):
        values: list = []
        for x in node.items:
            v = None if isinstance(x, A.NoneLit) else x.value
            if _key(v) not in {_key(y) for y in values}:
                values.append(v)
        return tuple(values)
    return None


def _constant(model: Any, node: A.Node) -> bool:
    """Whether an expression reads only literals, constants and options (so its value is the
    same in every position of a game)."""
    for n in iter_nodes(node):
        if isinstance(n, A.Name):
            if n.name not in model.consts and n.name not in model.options:
                return False
        elif not isinstance(n, (A.IntLit, A.Neg, A.BinOp)):
            return False
        elif isinstance(n, A.BinOp) and n.op not in ("+", "-", "*"):
            return False
    return True


# ---------------------------------------------------------------------- facts about a ruleset
def uses_chance(ruleset: Ruleset) -> bool:
    """Whether any rule draws on chance: roll, random, shuffled, bernoulli, `shuffle`, or a
    chance device (scenarios' scripts do not count)."""
    if ruleset.model.devices:
        return True
    for module in ruleset.modules:
        for decl in module.decls:
            if isinstance(decl, A.ScenarioDecl):
                continue
            for n in iter_nodes(decl):
                if isinstance(n, A.ShuffleStmt) or (isinstance(n, A.Call) and n.func in CHANCE_NAMES):
                    return True
    return False


def has_simultaneous_decisions(ruleset: Ruleset) -> bool:
    """Whether the rules hold a `simultaneously`: the game is then an OpenSpiel game with
    simultaneous nodes (`apply_actions`), which `pyspiel.convert_to_turn_based` accepts."""
    m = ruleset.model
    roots = [*m.procedures.values(), *m.triggers] + ([m.flow] if m.flow is not None else [])
    return any(isinstance(n, A.SimultaneousStmt) for r in roots for n in iter_nodes(r))


def has_hidden_state(ruleset: Ruleset) -> bool:
    """Whether any state variable is `hidden` or `hidden except owner`."""
    return any(v.hidden for v in ruleset.model.vars.values())


@dataclass
class _Facts:
    """What a complete walk of the game tree established (None: the walk did not finish)."""

    nodes: int
    terminals: int
    min_return: float
    max_return: float
    sums: set
    max_length: int
    max_chance: int
    max_legal: int


def _explore(start: Game, budget: int, returns: Any, seconds: float = float("inf")) -> _Facts | None:
    """Walk the whole game tree (chance outcomes included) from `start`, if it has at most
    `budget` nodes and the walk takes at most `seconds`."""
    import time

    until = time.monotonic() + seconds
    stack = [(start, 0)]
    nodes = terminals = max_length = max_chance = max_legal = 0
    low, high, sums = float("inf"), float("-inf"), set()
    while stack:
        g, depth = stack.pop()
        nodes += 1
        if nodes > budget or (nodes % 1024 == 0 and time.monotonic() > until):
            return None
        if g.is_over:
            r = returns(g)
            terminals += 1
            low, high = min(low, *r), max(high, *r)
            sums.add(round(sum(r), 9))
            max_length = max(max_length, depth)
        elif _is_chance(g):
            outcomes = g.chance_outcomes()
            max_chance = max(max_chance, len(outcomes))
            for value, _p in outcomes:
                child = g.clone()
                child.apply(value)
                stack.append((child, depth))
        else:
            legal = g.legal_actions()
            max_legal = max(max_legal, len(legal))
            for move in legal:
                child = g.clone()
                child.apply(move)
                stack.append((child, depth + 1))
    return _Facts(nodes, terminals, low, high, sums, max_length, max_chance, max_legal)


def _is_chance(g: Game) -> bool:
    return g.is_chance_node


# ---------------------------------------------------------------------- rules and options
_RULESETS: dict[str, tuple[int, Ruleset]] = {}
_FACTS: dict[str, tuple[ActionIndex, _Facts | None]] = {}


def _ruleset(path: str) -> Ruleset:
    """The ruleset at `path`, loaded once per process (again when the file changed)."""
    if not path:
        raise ValueError(f"{SHORT_NAME} needs a path: {SHORT_NAME}(path=/abs/path/game.rules)")
    stamp = os.stat(path).st_mtime_ns
    cached = _RULESETS.get(path)
    if cached is None or cached[0] != stamp:
        cached = _RULESETS[path] = (stamp, load(path))
    return cached[1]


def encode_options(options: dict[str, Any] | None) -> str:
    """Options as one game-parameter text: `name:value;name:value` (values as rules write them)."""
    parts = []
    for name, value in sorted((options or {}).items()):
        text = f"{name}:{value_text(value)}"
        bad = sorted(_FORBIDDEN & set(text) | ({";"} & set(value_text(value))))
        if bad:
            raise ValueError(f"option {name}={value_text(value)}: a game parameter cannot hold "
                             f"{' '.join(repr(c) for c in bad)}")
        parts.append(text)
    return ";".join(parts)


def decode_options(text: str) -> dict[str, Any]:
    """The options of `encode_options`, read back with the rules' own move reader (no eval)."""
    out: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        name, sep, value = part.partition(":")
        if not sep or not name.strip():
            raise ValueError(f"options: {part!r} is not name:value")
        out[name.strip()] = parse_action(f"option({value.strip()})").args[0]
    return out


# ---------------------------------------------------------------------- the game
class RegelwerkGame(pyspiel.Game):
    """One ruleset with fixed players, options and chance mode, as a pyspiel game."""

    def __init__(self, params: dict | None = None):
        params = {**PARAMETERS, **(params or {})}
        path = str(params["path"])
        rules = _ruleset(path)
        chance, returns = params["chance"], params["returns"]
        if chance not in ("explicit", "sampled"):
            raise ValueError(f"chance={chance!r}: explicit or sampled")
        if returns not in ("auto", "outcome", "scores"):
            raise ValueError(f"returns={returns!r}: auto, outcome or scores")
        if params["utility"] not in _DECLARED:
            raise ValueError(f"utility={params['utility']!r}: auto, {', '.join(k for k in _DECLARED if k != 'auto')}")
        if returns == "auto":
            returns = "scores" if rules.model.scoring is not None else "outcome"
        elif returns == "scores" and rules.model.scoring is None:
            raise ValueError(f"returns=scores: {rules.title} declares no scoring")
        if rules.model.umpire is not None and has_hidden_state(rules):
            raise ValueError(
                f"{rules.title} declares umpire \"{rules.model.umpire.reason}\": a player's legal moves there "
                "depend on what that player cannot see, so they differ between positions of one information "
                "state, and OpenSpiel's algorithms (CFR, best responses) need the same legal moves throughout "
                "one; a ruleset without `umpire` has that checked (E247)")
        decl = rules.model.players
        n = params["players"] or decl.min_count
        options = rules.options(decode_options(params["options"]))
        stochastic = uses_chance(rules)
        explicit = stochastic and chance == "explicit"
        hidden = has_hidden_state(rules)
        start = _new_game(rules, n, 0, options, explicit, hidden)
        key = f"{rules.hash}|{n}|{params['options']}|{explicit}|{returns}|{params['explore']}|{params['explore_seconds']}"
        cached = _FACTS.get(key)
        if cached is None:
            index = ActionIndex(start)
            facts = None
            budget = params["explore"] if returns == "scores" else min(params["explore"], OUTCOME_EXPLORE)
            if budget > 0 and (explicit or not stochastic):
                seconds = float(params["explore_seconds"])
                facts = _explore(start.clone(), budget, _returns_fn(returns, start.players), seconds)
                unwalked = (f"its game tree has more than {budget:,} nodes or takes more than {seconds:g} s "
                            f"to walk (explore={budget}, explore_seconds={seconds:g})")
            else:
                unwalked = ("chance is sampled, so the tree is not walked" if budget > 0
                            else "explore=0: the tree is not walked")
            cached = _FACTS[key] = (index, facts, unwalked)
        index, facts, unwalked = cached
        utility, low, high, total = _utility(returns, n, facts, params, rules.title, unwalked)
        if index.positional:
            size = params["max_actions"] or (facts.max_legal if facts else DEFAULT_MAX_ACTIONS)
        else:
            size = index.size
        if explicit:
            outcomes = params["max_chance_outcomes"] or (facts.max_chance if facts else DEFAULT_MAX_CHANCE_OUTCOMES)
        else:
            outcomes = 0
        length = params["max_game_length"] or (facts.max_length if facts else DEFAULT_MAX_GAME_LENGTH)
        simultaneous = has_simultaneous_decisions(rules)
        # at a simultaneous node, a player with no decision of their own has one move: none
        noop = size if simultaneous else None
        if noop is not None:
            size += 1
        game_type = pyspiel.GameType(
            short_name=SHORT_NAME,
            long_name=f"regelwerk: {rules.title}",
            dynamics=(pyspiel.GameType.Dynamics.SIMULTANEOUS if simultaneous
                      else pyspiel.GameType.Dynamics.SEQUENTIAL),
            chance_mode=(_Mode.EXPLICIT_STOCHASTIC if explicit else
                         _Mode.SAMPLED_STOCHASTIC if stochastic else _Mode.DETERMINISTIC),
            information=_Info.IMPERFECT_INFORMATION if hidden else _Info.PERFECT_INFORMATION,
            utility=utility,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=decl.max_count,
            min_num_players=decl.min_count,
            provides_information_state_string=True,
            provides_information_state_tensor=False,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification=PARAMETERS,
            default_loadable=False,
        )
        info = pyspiel.GameInfo(num_distinct_actions=max(size, 1), max_chance_outcomes=outcomes,
                                num_players=n, min_utility=low, max_utility=high, utility_sum=total,
                                max_game_length=max(length, 1))
        super().__init__(game_type, info, params)
        self.rules = rules
        self.path = path
        self.options = options
        self.explicit = explicit
        self.hidden = hidden
        self.returns_rule = returns
        self.action_index = index
        self.facts = facts
        self.noop = noop
        self.positional_bound = (size - (noop is not None)) if index.positional else None
        self.seat = {p: i for i, p in enumerate(start.players)}
        self.player_names = start.players
        self.returns_of = _returns_fn(returns, start.players)
        self._template = start
        self._seed = int(params["seed"])
        self._made = 0
        self.one_start = explicit or not stochastic  # every new initial state is the same position
        capacity = int(params["memo"])
        if capacity < 0:
            raise ValueError(f"memo={capacity}: the number of histories to keep, 0 for none")
        # sampled chance: the seed decides as much as the history, so histories are not keys
        self.memo = Memo(capacity) if capacity and self.one_start else None
        self._info_observer: RegelwerkObserver | None = None

    def replay(self, g: Game, action: int, in_place: bool = False) -> None:
        """Play one OpenSpiel action on `g`: a chance outcome's index, or a move's. `in_place`:
        `g` is a copy the caller may spoil, so the move need not be played on a copy of its
        own (interpreter/engine/explicit.py `advance`; Spoiled if it stops for chance part-way)."""
        if _is_chance(g):
            outcomes = g.chance_outcomes()
            if not 0 <= action < len(outcomes):
                raise ValueError(f"chance outcome {action} out of range (0..{len(outcomes) - 1})")
            if in_place and can_play_in_place(g):
                play(g, outcomes[action][0], in_place=True)
            else:
                g.apply(outcomes[action][0])
        else:
            move = _move(self, g, action)
            if in_place and can_play_in_place(g):
                play(g, move, offered=True, in_place=True)  # _move's move is one g listed
            else:
                g.apply(move)

    def new_initial_state(self, state: Any = None) -> RegelwerkState:
        """A state at the start of the game (its regelwerk game is made when first used)."""
        if state is not None:
            raise ValueError("a regelwerk state starts from the rules, not from a description")
        return RegelwerkState(self)

    def start_box(self) -> Box:
        """The box of a new initial state: sharing the start position (explicit chance or none:
        OpenSpiel's algorithms make many new initial states, most of which are only asked what
        the memo knows), or holding a start with the next seed (sampled chance)."""
        if self.one_start:
            return Box.sharing(self._template, self.memo, self.replay)
        return Box(self.start_game(), self.memo, self.replay)

    def start_game(self) -> Game:
        """The regelwerk game of a new initial state: the start position (explicit chance or
        none), or a start with the next seed (sampled chance)."""
        if self.one_start:
            return self._template.clone()
        seed = self._seed + self._made
        self._made += 1
        return _new_game(self.rules, len(self.player_names), seed, self.options, False, self.hidden)

    def info_observer(self) -> RegelwerkObserver:
        """The observer of information states that OpenSpiel's `information_state_string` asks
        (`make_py_observer` with perfect recall), made once."""
        found = self._info_observer
        if found is None:
            found = self._info_observer = RegelwerkObserver(self, True)
        return found

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> RegelwerkObserver:
        """OpenSpiel's observer API: information states (perfect recall) or observations."""
        if isinstance(iig_obs_type, dict):  # pyspiel passes only the params for the default observer
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and (not iig_obs_type.public_info or
                                         iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise ValueError("only a player's own view is supported (public info, single-player private info)")
        return RegelwerkObserver(self, recall)


def _new_game(rules: Ruleset, n: int, seed: int, options: dict, explicit: bool, hidden: bool) -> Game:
    """A game that keeps its history when OpenSpiel needs information states the history
    alone does not give: whenever something is hidden (perfect information uses the history)."""
    return rules.new_game(players=n, seed=seed, options=options,
                          chance="explicit" if explicit else "sampled", history=hidden)


def _returns_fn(rule: str, players: tuple[str, ...]) -> Any:
    """The returns of a finished game, one per seat: the scores, or the outcome (winners +1,
    the others -1; nobody winning, or everybody winning, is a draw: 0 each)."""
    if rule == "scores":
        def scores(g: Game) -> list[float]:
            s = g.scores or {}
            return [float(s.get(p, 0)) for p in players]

        return scores

    def outcome(g: Game) -> list[float]:
        won = set(g.winners)
        if len(players) == 1:
            return [1.0 if won else 0.0]
        if not won or len(won) == len(players):
            return [0.0] * len(players)
        return [1.0 if p in won else -1.0 for p in players]

    return outcome


_DECLARED = {"auto": None, "zero_sum": _Utility.ZERO_SUM, "constant_sum": _Utility.CONSTANT_SUM,
             "general_sum": _Utility.GENERAL_SUM}


class UtilityWarning(UserWarning):
    """The returns of a ruleset's games could not be bounded: OpenSpiel gets a general-sum
    game within assumed bounds, which algorithms for zero-sum games refuse."""


def _utility(returns: str, n: int, facts: _Facts | None, params: dict, title: str = "",
             unwalked: str = "") -> tuple:
    """The utility kind, bounds and sum: exact for the outcome, and for scores when the walk
    of the whole tree established them; a declared `utility` with `min_utility`/`max_utility`
    otherwise (checked against the walk when there was one); else general-sum within those
    bounds, with a UtilityWarning that says what to pass."""
    declared = _DECLARED[params["utility"]]
    if returns == "outcome":
        if n == 2:
            return _Utility.ZERO_SUM, -1.0, 1.0, 0.0
        return _Utility.GENERAL_SUM, (0.0 if n == 1 else -1.0), 1.0, None
    if facts is not None and facts.terminals:
        low, high = facts.min_return, facts.max_return
        if low == high:
            low, high = low - 1.0, high + 1.0  # OpenSpiel wants a range
        if len(facts.sums) == 1:
            total = next(iter(facts.sums))
            found = _Utility.ZERO_SUM if total == 0 else _Utility.CONSTANT_SUM
            if declared not in (None, found, _Utility.GENERAL_SUM):
                raise ValueError(f"utility={params['utility']}: the scores of every finished game of "
                                 f"{title} add up to {total:g}, so the game is {found.name.lower()}")
            return (declared or found), low, high, (None if declared == _Utility.GENERAL_SUM else float(total))
        if declared not in (None, _Utility.GENERAL_SUM):
            raise ValueError(f"utility={params['utility']}: the scores of the finished games of {title} "
                             f"add up to different totals ({', '.join(f'{x:g}' for x in sorted(facts.sums)[:3])}, ...)")
        return _Utility.GENERAL_SUM, low, high, None
    low, high = float(params["min_utility"]), float(params["max_utility"])
    if not low < high:
        raise ValueError(f"min_utility={low} must be below max_utility={high}")
    if declared is not None:
        total = 0.0 if declared == _Utility.ZERO_SUM else None
        if declared == _Utility.CONSTANT_SUM:
            raise ValueError("utility=constant_sum needs the total, which only a walk of the whole tree "
                             "establishes: raise explore, or declare zero_sum or general_sum")
        return declared, low, high, total
    why = unwalked if facts is None else "no game ended in the walk"
    import warnings

    warnings.warn(UtilityWarning(
        f"returns=scores: the scores of {title} could not be bounded ({why}), so OpenSpiel gets a "
        f"general-sum game within min_utility={low:g}..max_utility={high:g}, and algorithms for "
        "zero-sum games (exploitability, CFR's best response) refuse it. Pass a larger explore= "
        "and explore_seconds= to walk the whole tree, or the lowest and highest score a player can end with as "
        "min_utility= and max_utility=, with utility=\"zero_sum\" if the scores of every finished "
        "game add up to 0; or returns=\"outcome\"."), stacklevel=4)
    return _Utility.GENERAL_SUM, low, high, None


def _pickled_box(box: Box) -> tuple:
    """A state's box pickles as its game's versioned save (OpenSpiel pickles Python states)."""
    g = box.game()
    return (_unbox, (g.ruleset.path, g.to_json()))


copyreg.pickle(Box, _pickled_box)


def _unbox(path: str, data: dict) -> Box:
    """A state read back from a pickle: its game, without the memo of the process that wrote
    it (so never with moves deferred, and nothing to replay)."""
    return Box(Game.from_json(data, _ruleset(path)), None, None)


class RegelwerkState(pyspiel.State):
    """A position of a regelwerk game, as OpenSpiel sees it. Its game is shared with the
    state it was cloned from until one of them moves, and its answers are kept by history
    when the game has a memo (regelwerk/openspiel_memo.py)."""

    # made on first use, so Clone's fresh state costs nothing (a class default, so that no
    # __init__ of this class runs for each of the many states OpenSpiel makes)
    _box: Box | None = None

    def _boxed(self) -> Box:
        box = self._box
        if box is None:
            box = self._box = self.get_game().start_box()
        return box

    @property
    def g(self) -> Game:
        """The regelwerk game behind this state, to read (it may be shared with other states)."""
        return self._boxed().game()

    # OpenSpiel's state API
    def current_player(self) -> int:
        box = self._box
        if box is not None and box.found is not None and box.found.player is not None:
            return box.found.player  # asked most often of all: the shortest way first
        box = box or self._boxed()
        answers = box.answers()
        if answers is not None and answers.player is not None:
            return answers.player
        g = box.game()
        if answers is not None:
            self._learn(answers, g)
            return answers.player
        return self._current_player(g)

    def _learn(self, answers: Answers, g: Game) -> None:
        """Keep the answers that cost next to nothing once the game is made (whose turn, and
        whether and how it ended), so that a later walk need not make the game for them."""
        if answers.player is None:
            answers.player = self._current_player(g)
        if answers.terminal is None:
            answers.terminal = g.is_over
            if g.is_over:
                answers.returns = self.get_game().returns_of(g)

    # Python-side answers to what OpenSpiel's Python algorithms ask at every node. The C++ way
    # round (a virtual call back into this class, the list converted to a vector and back)
    # costs about ten times the memo's look-up; each falls back to it when the memo does not
    # know yet, so the answers are OpenSpiel's own (tests/test_openspiel_memo.py compares them).
    def legal_actions(self, player: int | None = None) -> list[int]:
        box = self._box
        if box is not None:
            found = box.found
            if found is not None and found.player is not None:
                if found.player >= 0:
                    kept = found.by_player  # found.get(Answers.LEGAL, ...), inline: asked at every node
                    legal = None if kept is None else kept.get(4 * (found.player if player is None else player))
                    if legal is not None:
                        return list(legal)  # a copy, as OpenSpiel hands out
                elif player is None and found.player == _CHANCE and found.chance is not None:
                    return [outcome for outcome, _p in found.chance]
                elif player is None and found.terminal:
                    return []
        return self._legal_asked(player)

    def _legal_asked(self, player: int | None) -> list[int]:
        """OpenSpiel's `PyState::LegalActions(player)`, in Python: what it would call back for."""
        now = self.current_player()
        if player is None:
            player = now
        if now == _TERMINAL:
            return []
        if now == _CHANCE:
            return [outcome for outcome, _p in self.chance_outcomes()]
        if player == now or (player >= 0 and now == _SIMULTANEOUS):
            return list(self._legal_actions(player))  # a copy: the memo keeps its own
        if player < 0:
            return pyspiel.State.legal_actions(self, player)  # OpenSpiel's error
        return []

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        """OpenSpiel's `State::LegalActionsMask`, with the legal actions asked in Python (the
        C++ way round calls back into this class four times; TabularPolicy asks every state)."""
        if player is None:
            player = self.current_player()
        game = self.get_game()
        length = game.max_chance_outcomes() if player == _CHANCE else game.num_distinct_actions()
        mask = [0] * length
        for action in self.legal_actions(player):
            if action < length:  # a player's mask at a chance node: OpenSpiel lists the outcomes there too
                mask[action] = 1
        return mask

    def is_chance_node(self) -> bool:
        box = self._box
        if box is not None and box.found is not None and box.found.player is not None:
            return box.found.player == _CHANCE  # asked at every node: current_player's shortest way, inline
        return self.current_player() == _CHANCE

    def is_simultaneous_node(self) -> bool:
        box = self._box
        if box is not None and box.found is not None and box.found.player is not None:
            return box.found.player == _SIMULTANEOUS
        return self.current_player() == _SIMULTANEOUS

    def information_state_string(self, player: int | None = None) -> str:
        box = self._box
        if box is not None:
            found = box.found
            if found is not None and found.player is not None and found.player >= 0:
                kept = found.by_player  # found.get(Answers.INFO, ...), inline
                known = None if kept is None else kept.get(4 * (found.player if player is None else player) + 1)
                if known is not None:
                    return known
        game = self.get_game()
        if player is None:
            player = self.current_player()
        if 0 <= player < len(game.player_names):  # OpenSpiel's own way asks its observer: so do we, directly
            return game.info_observer().string_from(self, player)
        return pyspiel.State.information_state_string(self, player)  # OpenSpiel's error

    def _current_player(self, g: Game) -> int:
        if g.is_over:
            return _TERMINAL
        if _is_chance(g):
            return _CHANCE
        if g.pending is not None and g.pending["kind"] == "simultaneous":
            return _SIMULTANEOUS
        who = g.decision_player()
        if who is None:
            raise RuntimeError("the game waits neither for a player nor for chance")
        return self.get_game().seat[who]

    def _legal_actions(self, player: int) -> list[int]:
        box = self._box or self._boxed()
        answers = box.answers()
        if answers is not None:
            found = answers.get(Answers.LEGAL, player)
            if found is None:
                found = answers.put(Answers.LEGAL, player, self._legal(box.game(), player))
            return found
        return self._legal(box.game(), player)

    def _legal(self, g: Game, player: int) -> list[int]:
        game = self.get_game()
        now = self.current_player()
        if now == _SIMULTANEOUS:
            name = game.player_names[player]
            if name not in g.pending["players"]:  # done with its part, or not in it: one move, none
                return [game.noop]
            return self._indices(g.legal_actions(player=name))
        if g.is_over or player != now:
            return []
        return self._indices(g.legal_actions())

    def _indices(self, legal: list[Action]) -> list[int]:
        game = self.get_game()
        if game.action_index.positional:
            if len(legal) > game.positional_bound:
                raise RuntimeError(f"{len(legal)} legal moves, more than the positional index holds "
                                   f"({game.positional_bound}): load with max_actions=N")
            return list(range(len(legal)))
        return sorted(game.action_index.index(m) for m in legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        box = self._box or self._boxed()
        answers = box.answers()
        if answers is not None and answers.chance is not None:
            return list(answers.chance)  # a copy: callers may change what they get
        g = box.game()
        found = [(i, float(p)) for i, (_v, p) in enumerate(g.chance_outcomes())] if _is_chance(g) else []
        if answers is not None:
            answers.chance = found
            return list(found)
        return found

    def _apply_action(self, action: int) -> None:
        box = self._box or self._boxed()
        found = box.found
        if found is not None and found.kids is not None:
            kid = found.kids.get(action)
            if kid is not None:  # a state went there before: legal, and its answers are at hand
                self._box = box.moved(action, kid)
                return
        box = self._box = box.mine()
        if box.memo is not None and self._known_legal(box, action):
            box.defer(action)  # the game is made when a question needs it
            return
        self.get_game().replay(box.own(), action)
        box.played(action)

    def _known_legal(self, box: Box, action: int) -> bool:
        """Whether the memo already says `action` is legal here (then it need not be played now)."""
        answers = box.answers()
        if answers is None:
            return False
        player = answers.player
        if player == _CHANCE:
            return answers.chance is not None and 0 <= action < len(answers.chance)
        legal = answers.get(Answers.LEGAL, player) if player is not None and player >= 0 else None
        return legal is not None and action in legal

    def _apply_actions(self, actions: list[int]) -> None:
        """A simultaneous node: every player still to choose commits their action, in seat
        order (each part runs against the same position, so the order changes nothing)."""
        box = self._box = self._boxed().mine()
        g = box.own()
        game = self.get_game()
        for name in list(g.pending["players"]):
            seat = game.seat[name]
            g.apply(_move(game, g, actions[seat], name), player=name)
        box.played(tuple(actions))

    def _action_to_string(self, player: int, action: int) -> str:
        g = self.g
        if player == _CHANCE:
            outcomes = g.chance_outcomes() if _is_chance(g) else []
            if 0 <= action < len(outcomes):
                event = g.chance_event() or {}
                return f"{event.get('kind', 'chance')} {event.get('what', '')}: {value_text(outcomes[action][0])}"
            return f"chance outcome {action}"
        index = self.get_game().action_index
        if action == self.get_game().noop and self.current_player() == _SIMULTANEOUS:
            return "no move"
        if index.positional:
            if self.current_player() == _SIMULTANEOUS:
                legal = g.legal_actions(player=self.get_game().player_names[player])
            else:
                legal = g.legal_actions() if player == self.current_player() else []
            return str(legal[action]) if 0 <= action < len(legal) else f"move #{action}"
        move = index.move(action)
        return str(move) if move is not None else f"move #{action}"

    def is_terminal(self) -> bool:
        box = self._box
        if box is not None and box.found is not None and box.found.terminal is not None:
            return box.found.terminal
        box = box or self._boxed()
        answers = box.answers()
        if answers is not None:
            if answers.terminal is None:
                self._learn(answers, box.game())
            return answers.terminal
        return box.game().is_over

    def returns(self) -> list[float]:
        box = self._box or self._boxed()
        answers = box.answers()
        if answers is not None and answers.returns is not None:
            return list(answers.returns)
        g = box.game()
        game = self.get_game()
        if answers is not None:
            self._learn(answers, g)
            return list(answers.returns) if g.is_over else [0.0] * len(game.player_names)
        return game.returns_of(g) if g.is_over else [0.0] * len(game.player_names)

    def __str__(self) -> str:
        return state_text(self.g)

    def regelwerk_game(self) -> Game:
        """The regelwerk game behind this state, its own copy (read it; changing it breaks the
        state's history)."""
        box = self._box = self._boxed().mine()
        return box.own()


def _move(game: RegelwerkGame, g: Game, action: int, player: str | None = None) -> Action:
    """The move an action index stands for in `g` (for `player` at a simultaneous node)."""
    legal = g._legal
    if legal is None or player is not None or g.pending is None or g.abandoned or g.window is not None:
        legal = g.legal_actions(player=player) if player is not None else g.legal_actions()
    # else the moves the block listed, read here, not changed (legal_actions() hands out a copy)
    index = game.action_index
    if index.positional:
        if not 0 <= action < len(legal):
            raise ValueError(f"action {action} is not legal: {len(legal)} legal moves")
        return legal[action]
    for m in legal:
        if index.index(m) == action:
            return m
    shown = index.move(action)
    raise ValueError(f"action {action} ({shown if shown is not None else 'no move'}) is not legal now")


def state_text(g: Game) -> str:
    """The whole position as text: who decides (or what chance event waits), the result, and
    every state variable. Two states print the same exactly when they are the same position
    (the generator's state and the history are left out)."""
    if g.is_over:
        head = f"over: winners {', '.join(g.winners) or 'none'}"
    elif _is_chance(g):
        event = g.chance_event() or {}
        head = f"chance: {event.get('kind', '')} {event.get('what', '')}".rstrip()
    else:
        pending = g.pending or {}
        head = f"decision: {g.decision_player()} ({pending.get('kind', '?')})"
        if pending.get("kind") == "choose":
            head += f" {pending.get('var')} in {value_text(list(pending.get('options', ())))}"
    lines = [head, f"phase: {g.phase or '-'}, round {g.round}, current {g.current}"]
    lines += [f"{name} = {value_text(value)}" for name, value in g.vars.items()]
    return "\n".join(lines)


class RegelwerkObserver:
    """OpenSpiel's Python observer: `string_from` and, when the engine provides it, a tensor.

    Both come from what the player may see (interpreter/observe/visibility.py via the engine's
    `information_state`, `observation` and `observation_tensor`); an information state has
    perfect recall, an observation is the current view only."""

    def __init__(self, game: RegelwerkGame, perfect_recall: bool):
        self.perfect_recall = perfect_recall
        self.dict: dict[str, np.ndarray] = {}
        self.tensor: np.ndarray | None = None
        template = game._template
        if not perfect_recall:
            shape = tuple(template.observation_shape())
            self.tensor = np.zeros(int(np.prod(shape)) if shape else 0, np.float32)
            self.dict["observation"] = self.tensor.reshape(shape)

    def set_from(self, state: RegelwerkState, player: int) -> None:
        if self.tensor is None:
            return
        box = state._boxed()
        answers = box.answers()
        values = answers.get(Answers.TENSOR, player) if answers is not None else None
        if values is None:
            values = np.asarray(box.game().observation_tensor(state.get_game().player_names[player]),
                                dtype=np.float32)
            if answers is not None:
                answers.put(Answers.TENSOR, player, values)
        self.tensor[:] = values

    def string_from(self, state: RegelwerkState, player: int) -> str:
        if self.perfect_recall and not state.get_game().hidden:
            return state.history_str()  # perfect information: the history says it all
        box = state._box or state._boxed()
        answers = box.answers()
        kind = Answers.INFO if self.perfect_recall else Answers.OBSERVATION
        if answers is not None:
            found = answers.get(kind, player)
            if found is not None:
                return found
        g = box.game()
        name = state.get_game().player_names[player]
        found = g.information_state(name) if self.perfect_recall else g.observation(name)
        if answers is not None:
            answers.put(kind, player, found)
        return found


pyspiel.register_game(
    pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="regelwerk ruleset",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=_Mode.EXPLICIT_STOCHASTIC,
        information=_Info.IMPERFECT_INFORMATION,
        utility=_Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=100,
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=PARAMETERS,
        default_loadable=False,
    ),
    RegelwerkGame,
)


def load_game(path: str | Path, players: int | None = None, options: dict[str, Any] | None = None,
              chance: str = "explicit", **params: Any) -> pyspiel.Game:
    """A ruleset as a pyspiel game: `players` (default the ruleset's minimum), its `options`,
    chance as explicit chance nodes or sampled inside moves; more game parameters (`seed`,
    `returns`, `explore`, `max_game_length`, ...) as keywords (docs/analysis.md lists them)."""
    unknown = sorted(set(params) - set(PARAMETERS))
    if unknown:
        raise TypeError(f"unknown game parameter {unknown[0]!r}; known: {', '.join(PARAMETERS)}")
    for name, value in params.items():  # pyspiel types a parameter by its default: 13 is 13.0 there
        if isinstance(PARAMETERS[name], float) and isinstance(value, int) and not isinstance(value, bool):
            params[name] = float(value)
    full = {"path": str(Path(path).resolve()), "players": players or 0,
            "options": encode_options(options), "chance": chance, **params}
    if _FORBIDDEN & set(full["path"]):
        raise ValueError(f"{full['path']}: a game parameter cannot hold , ( ) or =: move the file")
    return pyspiel.load_game(SHORT_NAME, full)
