"""The bridge's states find their answers through their parent's once a history is visited
again (regelwerk/openspiel_memo.py `Answers.kids`): CFR walks the same tree once per
iteration, so the third walk of a tree goes parent to child without hashing histories. Every
walk must answer what a game without a memo answers, state for state."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

from regelwerk.openspiel import load_game  # noqa: E402

RULES = Path(__file__).resolve().parent.parent / "rulesets"
GAMES = {"kuhn": RULES / "examples" / "kuhn.rules", "leduc": RULES / "examples" / "leduc.rules",
         "goofspiel": RULES / "examples" / "goofspiel.rules"}


def _load(name: str, memo: int) -> object:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return load_game(GAMES[name], memo=memo)


def _walk(game: object, limit: int = 12_000) -> list[tuple]:
    """Every state's answers, depth first, as OpenSpiel's algorithms ask them (children made
    with `child`; a simultaneous node's joint actions with `apply_actions`)."""
    out: list[tuple] = []
    n = game.num_players()

    def visit(state: object) -> None:
        if len(out) >= limit:
            return
        player = state.current_player()
        row = [state.history_str(), player, state.is_terminal(), tuple(state.returns())]
        if state.is_terminal():
            out.append(tuple(row))
            return
        if state.is_chance_node():
            moves = [[a] for a, _p in state.chance_outcomes()]
            row.append(tuple(state.chance_outcomes()))
        elif state.is_simultaneous_node():
            moves = [[a, b] for a in state.legal_actions(0) for b in state.legal_actions(1)][:6]
        else:
            moves = [[a] for a in state.legal_actions()]
            row += [tuple(state.legal_actions()), state.information_state_string(player)]
        row += [state.observation_string(p) for p in range(n)]
        out.append(tuple(row))
        for move in moves:
            if len(move) == 1:
                visit(state.child(move[0]))
            else:
                child = state.clone()
                child.apply_actions(move)
                visit(child)

    visit(game.new_initial_state())
    return out


@pytest.mark.parametrize("name", sorted(GAMES))
def test_walking_a_tree_again_and_again_answers_as_a_game_without_memo(name):
    plain = _walk(_load(name, 0))
    game = _load(name, 100_000)
    walks = [_walk(game) for _ in range(3)]
    for walk in walks:
        assert walk == plain
    used = [a for a in game.memo.entries.values() if a.kids]
    assert used, "the third walk went parent to child: some history leads to its children directly"
