"""The measures of a comparison, from the game records of both versions paired by seed: each
player's and each seat's win rate, the draw rate, each player's score, the game length, and how
often each rule and each spec id fired; every one with both values, the difference, its
interval and p-value (stats.py), and whether it is significant after the correction for the
number of measures."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .stats import ALPHA, bootstrap_interval, holm, mcnemar, paired_rate_interval, wilcoxon


def _rate(name: str, old: list[bool], new: list[bool]) -> dict[str, Any]:
    n = len(old)
    o, w = sum(old) / n, sum(new) / n
    return {"measure": name, "kind": "rate", "old": o, "new": w, "difference": w - o,
            "interval": paired_rate_interval(old, new), "p_value": mcnemar(old, new)}


def _number(name: str, old: list[float], new: list[float], seed: int) -> dict[str, Any]:
    n = len(old)
    diffs = [b - a for a, b in zip(old, new, strict=True)]
    o, w = sum(old) / n, sum(new) / n
    return {"measure": name, "kind": "mean", "old": o, "new": w, "difference": w - o,
            "interval": bootstrap_interval(diffs, seed), "p_value": wilcoxon(diffs)}


def _wins(rec: dict, who: Callable[[dict], str | None]) -> bool:
    p = who(rec)
    return p is not None and p in rec["winners"]


def measures(old: list[dict], new: list[dict], players: list[str], spec_of: dict[str, list[str]],
             seed: int = 0) -> list[dict[str, Any]]:
    """Every measure of the pairs (old[i], new[i]), games that finished on both sides."""
    pairs = [(a, b) for a, b in zip(old, new, strict=True) if "failure" not in a and "failure" not in b]
    if not pairs:
        return []
    a_recs, b_recs = [a for a, _ in pairs], [b for _, b in pairs]
    out = []
    for p in players:
        out.append(_rate(f"win rate {p}", [_wins(r, lambda _r, p=p: p) for r in a_recs],
                         [_wins(r, lambda _r, p=p: p) for r in b_recs]))
    for seat in range(len(players)):
        def at(r: dict, seat: int = seat) -> str | None:
            return r["order"][seat] if seat < len(r.get("order") or []) else None
        out.append(_rate(f"win rate seat {seat + 1}", [_wins(r, at) for r in a_recs],
                         [_wins(r, at) for r in b_recs]))
    out.append(_rate("draw rate", [not r["winners"] for r in a_recs], [not r["winners"] for r in b_recs]))
    if all(r.get("scores") for r in a_recs + b_recs):
        for p in players:
            out.append(_number(f"score {p}", [r["scores"].get(p, 0) for r in a_recs],
                               [r["scores"].get(p, 0) for r in b_recs], seed))
    out.append(_number("game length", [r["length"] for r in a_recs], [r["length"] for r in b_recs], seed))
    for rule, p in sorted({(rule, p) for r in a_recs + b_recs for rule, per in (r.get("points_by_rule") or {}).items()
                           for p in per}):
        out.append(_number(f"points from {rule} {p}", [(r.get("points_by_rule") or {}).get(rule, {}).get(p, 0)
                                                       for r in a_recs],
                           [(r.get("points_by_rule") or {}).get(rule, {}).get(p, 0) for r in b_recs], seed))
    fired = _firings(a_recs, b_recs, lambda rule: [rule])
    fired += _firings(a_recs, b_recs, lambda rule: [f"spec {s}" for s in spec_of.get(rule, ())])
    for name, olds, news in fired:
        out.append(_number(f"fired {name}", olds, news, seed))
    adjusted = holm([m["p_value"] for m in out])
    for m, q in zip(out, adjusted, strict=True):
        m["p_adjusted"] = q
        m["significant"] = q < ALPHA
    return out


def _firings(a_recs: list[dict], b_recs: list[dict], names: Callable[[str], list[str]]
             ) -> list[tuple[str, list[float], list[float]]]:
    """Per rule (or spec id), its firings in each game of each side; names fired on neither
    side in any game are left out."""
    def counts(recs: list[dict]) -> list[dict[str, int]]:
        per_game = []
        for r in recs:
            c: dict[str, int] = {}
            for rule, k in (r.get("fired") or {}).items():
                n = k[0] if isinstance(k, list) else int(k)  # [trace steps, decisions]
                for name in names(rule):
                    c[name] = c.get(name, 0) + n
            per_game.append(c)
        return per_game
    a, b = counts(a_recs), counts(b_recs)
    keys = sorted({k for c in a + b for k in c})
    return [(k, [c.get(k, 0) for c in a], [c.get(k, 0) for c in b]) for k in keys]


def never_fired(old: list[dict], new: list[dict]) -> dict[str, list[str]]:
    """Rules that fired in some game of one side and in none of the other."""
    def fired(recs: list[dict]) -> set[str]:
        return {rule for r in recs for rule, k in (r.get("fired") or {}).items()
                if (k[0] if isinstance(k, list) else k)}
    a, b = fired(old), fired(new)
    return {"now_never": sorted(a - b), "now_fire": sorted(b - a)}
