"""Agents choose among legal actions: seeded random, first-legal, scripted, UCT search, any
callable.

An agent is anything callable as `agent(game) -> Action`; the human agent lives in the CLI
because it talks to a terminal. `make_agent` builds one from a spec text (`random`, `first`,
`mcts:200`), the form simulations pass between processes.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Iterable
from typing import Any

from ..engine import explicit as _explicit
from ..engine.errors import EngineError
from ..engine.game import Action, Game, parse_action
from ..observe.determinize import determinize

Agent = Callable[[Game], Any]


class RandomAgent:
    """Uniform over the legal actions, from its own seeded generator (not the game's)."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def __call__(self, game: Game) -> Action:
        legal = game.legal_actions()
        if not legal:
            raise EngineError("a random agent decides for players; the game waits for chance "
                              "or for nobody" if not game.is_over else "the game is over")
        return self.rng.choice(legal)


def first_legal(game: Game) -> Action:
    return game.legal_actions()[0]


class ScriptedAgent:
    """Plays a fixed list of actions (strings or Actions), in order."""

    def __init__(self, actions: Iterable[Any]):
        self.actions = [parse_action(a) if isinstance(a, str) else a for a in actions]
        self.i = 0

    def __call__(self, game: Game) -> Action:
        if self.i >= len(self.actions):
            raise EngineError(f"the script has only {len(self.actions)} actions")
        a = self.actions[self.i]
        self.i += 1
        return a


sample_outcome = _explicit.sample  # one outcome of a chance node, by its probabilities


def play_game(game: Game, agents: dict[str, Agent] | Agent, max_steps: int = 100_000) -> Game:
    """Let agents play until the game is over (or the step budget runs out). In a game with
    explicit chance, chance nodes are decided by their probabilities, from a generator seeded
    with the game's seed (agents decide for players only)."""
    steps = 0
    chance: random.Random | None = None
    while not game.is_over:
        if steps >= max_steps:
            raise EngineError(f"no result after {max_steps} decisions")
        if game.is_chance_node:
            chance = chance or random.Random(game.seed)
            game.apply(sample_outcome(game, chance))
            continue
        who = game.decision_player()
        agent = agents[who] if isinstance(agents, dict) else agents
        game.apply(agent(game))
        steps += 1
    return game


def perft(game: Game, depth: int) -> int:
    """Number of action sequences of exactly `depth` decisions (terminal earlier: 0)."""
    if game.is_chance_node:
        raise EngineError("perft counts the decisions of one seeded game; through chance nodes "
                          "count with regelwerk.interpreter.tools.analysis.perft_tree (perft --chance)")
    if depth == 0:
        return 1
    actions = game.legal_actions()
    if depth == 1:
        return len(actions)
    total = 0
    for a in actions:
        child = game.clone()
        child.apply(a)
        total += perft(child, depth - 1)
    return total


def count_games(game: Game, depth: int) -> int:
    """Number of complete games (sequences ending in a terminal position) within `depth`."""
    if game.is_chance_node:
        raise EngineError("count_games counts the games of one seeded game; through chance nodes "
                          "count with regelwerk.interpreter.tools.analysis.count_terminal")
    if game.is_over:
        return 1
    if depth == 0:
        return 0
    total = 0
    for a in game.legal_actions():
        child = game.clone()
        child.apply(a)
        total += count_games(child, depth - 1)
    return total


# ---------------------------------------------------------------------- search
def outcome_rewards(game: Game) -> dict[str, float]:
    """Each player's reward for a finished game: 1 for a sole winner, 0.5 for a shared win or
    a draw, 0 for a loss."""
    winners = game.winners
    if not winners:
        return dict.fromkeys(game.players, 0.5)
    share = 1.0 if len(winners) == 1 else 0.5
    return {p: (share if p in winners else 0.0) for p in game.players}


class _Node:
    """One node of the open-loop search tree: statistics of the move that led here."""

    __slots__ = ("children", "totals", "visits")

    def __init__(self) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.totals: dict[str, float] = {}


class MCTSAgent:
    """UCT over the generic API (`legal_actions`, `apply`, `clone`), seeded; for a ruleset with
    hidden state, information-set MCTS: it searches from what the deciding player knows.

    Each iteration works on a copy of the position whose chance generator is re-seeded from the
    agent's own generator, so the search never sees the real game's future dice or shuffles.
    When the ruleset hides state, the copy is a determinisation (interpreter/observe/determinize.py):
    the cards the player has not seen dealt anew into the places they cannot see, so the move
    picked with a given seed depends on the player's information alone. Because chance and
    the dealt cards can make the same moves lead to different positions, the tree is
    open-loop: a node's children are keyed by move and only the moves legal in this
    iteration's position are considered. Every node keeps each player's reward sum, and the
    player who decides at a node picks by their own mean (max^n for more than two players).
    `peek=True` (agent spec `mcts-cheat:N`) searches the true position, hidden cards and all.
    """

    def __init__(self, iterations: int, seed: int = 0, exploration: float = math.sqrt(2),
                 rollout_limit: int = 10_000, peek: bool = False):
        if iterations < 1:
            raise ValueError("MCTS needs at least one iteration")
        self.iterations = iterations
        self.rng = random.Random(seed)
        self.c = exploration
        self.rollout_limit = rollout_limit
        self.peek = peek

    def __call__(self, game: Game) -> Action:
        actions = game.legal_actions()
        if len(actions) == 1:
            return actions[0]
        root_state = _untraced(game)
        player = None if self.peek or not game.prog.hidden else game.decision_player()
        root = _Node()
        for _ in range(self.iterations):
            self._iterate(root, root_state, player)
        best = max(actions, key=lambda a: (root.children[a].visits if a in root.children else -1))
        return best

    def _iterate(self, root: _Node, root_state: Game, player: str | None) -> None:
        rng = self.rng
        if player is not None:  # what `player` cannot see, made up anew
            state = determinize(root_state, player, rng)
        else:
            state = root_state.clone()
            state.rng = rng.getrandbits(64)  # a fresh chance future for every iteration
        path = [root]
        try:
            self._descend(state, root, path)
            state.playout(rng, self.rollout_limit)  # the random playout
        except EngineError:
            # a rule failed in an imagined future: that line counts as a draw for all. The
            # search goes on; the real game reports the failure if it ever gets there.
            pass
        rewards = outcome_rewards(state) if state.is_over else dict.fromkeys(state.players, 0.5)
        for n in path:
            n.visits += 1
            totals = n.totals
            for p, r in rewards.items():
                totals[p] = totals.get(p, 0.0) + r

    def _descend(self, state: Game, node: _Node, path: list[_Node]) -> None:
        """Selection by UCT down to a node with an untried move, and that move's expansion."""
        rng = self.rng
        while not state.is_over:
            legal = state.legal_actions()
            untried = [a for a in legal if a not in node.children]
            if untried:
                move = untried[rng.randrange(len(untried))]
                child = node.children[move] = _Node()
                path.append(child)
                state.apply(move)
                return
            move = self._select(node, legal, state.decision_player())
            node = node.children[move]
            path.append(node)
            state.apply(move)

    def _select(self, node: _Node, legal: list[Action], who: str | None) -> Action:
        log_n = math.log(max(node.visits, 1))
        best, best_value = legal[0], -math.inf
        for a in legal:
            child = node.children[a]
            value = child.totals.get(who, 0.0) / child.visits + self.c * math.sqrt(log_n / child.visits)
            if value > best_value:
                best, best_value = a, value
        return best


def _untraced(game: Game) -> Game:
    """A copy to search on: a clone, or for a traced game an untraced copy of its state (a
    search on traced clones would pay for recording every simulated step)."""
    if not game.record:
        return game.clone()
    return game.ruleset.load_game(game.to_json(), record=False)


# ---------------------------------------------------------------------- specs
AGENT_KINDS = ("random", "first", "mcts:ITERATIONS", "mcts-cheat:ITERATIONS")


class AgentSpecError(ValueError):
    """An agent spec that cannot be read; the message says what is accepted."""


def check_agent_spec(spec: str) -> str:
    """`spec` in its canonical form (`random`, `first`, `mcts:200`), or AgentSpecError."""
    kind, _, arg = spec.strip().partition(":")
    kind = kind.strip().lower()
    if kind in ("random", "first") and not arg:
        return kind
    if kind in ("mcts", "mcts-cheat"):
        arg = arg.strip()
        if not arg.isdigit() or int(arg) < 1:
            raise AgentSpecError(f"agent {spec!r}: write {kind}:ITERATIONS with a whole number >= 1, "
                                 f"for example {kind}:200")
        return f"{kind}:{int(arg)}"
    raise AgentSpecError(f"unknown agent {spec!r} (known: {', '.join(AGENT_KINDS)})")


def make_agent(spec: str, seed: int) -> Agent:
    """The agent a canonical spec names, with its own generator seeded by `seed`."""
    kind, _, arg = check_agent_spec(spec).partition(":")
    if kind == "random":
        return RandomAgent(seed)
    if kind == "first":
        return first_legal
    return MCTSAgent(int(arg), seed, peek=kind == "mcts-cheat")


def derived_seed(*parts: object) -> int:
    """A 64-bit seed from parts such as (base seed, game index, player): the same in every
    process and Python version (no `hash()`, which PYTHONHASHSEED changes)."""
    text = "\x1f".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def assign_agents(specs: Iterable[str], players: Iterable[str]) -> dict[str, str]:
    """Each player's canonical agent spec from `--agent` values: `NAME=SPEC` for one player,
    a bare `SPEC` for everybody not named (at most one); players left over play random."""
    from ...dsl.diagnostics import did_you_mean

    names = list(players)
    default = "random"
    named: dict[str, str] = {}
    bare = 0
    for item in specs:
        who, eq, spec = item.partition("=")
        if not eq:
            bare += 1
            if bare > 1:
                raise AgentSpecError(f"agent {item!r}: only one agent without a player name "
                                     "(the others are NAME=SPEC)")
            default = check_agent_spec(item)
            continue
        who = who.strip()
        if who not in names:
            hint = did_you_mean(who, names)
            raise AgentSpecError(f"agent {item!r}: {who!r} is not a player here "
                                 f"({', '.join(names)})" + (f"; {hint}" if hint else ""))
        if who in named:
            raise AgentSpecError(f"agent {item!r}: {who} already has an agent ({named[who]})")
        named[who] = check_agent_spec(spec)
    return {p: named.get(p, default) for p in names}
