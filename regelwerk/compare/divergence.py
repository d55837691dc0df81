"""Where two versions of a ruleset part on one seed: each side's game replayed traced from its
own moves, step by step, and the first step that differs, with both sides of it.

Steps are compared by what happened (rule, player, phase, bindings, changes, chance, events,
decision), not by where the rule is written: an edit that moves a rule down the file or
rewords its note changes nothing a player sees.
"""

from __future__ import annotations

from typing import Any

SAME_WHEN = ("rule", "kind", "player", "phase", "bindings", "changes", "chance", "events", "decision")
SHOWN = ("step", "rule", "player", "bindings", "changes", "decision", "at")


def replay(ruleset: Any, players: int | None, seed: int, options: dict, moves: list[str]) -> list[dict]:
    """The trace of the game played with these moves (as far as they go)."""
    game = ruleset.new_game(players=players, seed=seed, options=options or None, record=True)
    for move in moves:
        if game.is_over:
            break
        game.apply(move)
    return game.trace or []


def points_by_rule(trace: list[dict], var: str) -> dict[str, dict[str, float]]:
    """{rule: {player: points}}: what each rule's steps added to the scoring variable `var` (a
    map by player), from the changes in the trace."""
    out: dict[str, dict[str, float]] = {}
    head = f"{var}["
    for step in trace:
        for c in step.get("changes") or ():
            path = c.get("path", "")
            if path.startswith(head) and path.endswith("]") and "][" not in path:
                old, new = c.get("old") or 0, c.get("new") or 0
                if isinstance(old, (int, float)) and isinstance(new, (int, float)) and new != old:
                    per = out.setdefault(step.get("rule") or "?", {})
                    player = path[len(head):-1]
                    per[player] = per.get(player, 0) + new - old
    return out


def _what(step: dict) -> dict:
    return {k: step.get(k) for k in SAME_WHEN}


def first_divergence(old_trace: list[dict], new_trace: list[dict]) -> dict[str, Any] | None:
    """The first step where the traces differ (or one ends), both sides of it; None if none."""
    for i in range(max(len(old_trace), len(new_trace))):
        a = old_trace[i] if i < len(old_trace) else None
        b = new_trace[i] if i < len(new_trace) else None
        if a is None or b is None or _what(a) != _what(b):
            return {"step": i,
                    "old": None if a is None else {k: a.get(k) for k in SHOWN},
                    "new": None if b is None else {k: b.get(k) for k in SHOWN},
                    "differ": _differing_paths(a, b)}
    return None


def _differing_paths(a: dict | None, b: dict | None) -> list[str]:
    """The state paths the two steps change differently (or only one of them changes)."""
    def changes(step: dict | None) -> dict[str, Any]:
        return {c["path"]: c.get("new") for c in (step or {}).get("changes") or []}
    ca, cb = changes(a), changes(b)
    return [p for p in dict.fromkeys([*ca, *cb]) if ca.get(p, ...) != cb.get(p, ...)]
