"""A comparison as text for the terminal and as JSON (sorted keys; every figure but those
under `timing` the same on every run)."""

from __future__ import annotations

import json
from typing import Any

from .stats import ALPHA


def _num(x: float, kind: str) -> str:
    return f"{100 * x:.1f}%" if kind == "rate" else f"{x:.2f}"


def _diff(x: float, kind: str) -> str:
    return f"{100 * x:+.1f} pt" if kind == "rate" else f"{x:+.2f}"


def _p(p: float) -> str:
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def _step(side: dict | None, first: list[str] | tuple = ()) -> str:
    """One side of a parting step; the changes in `first` (those that differ) shown first."""
    if side is None:
        return "(the game has ended)"
    bits = [f"{side.get('rule')}"]
    if side.get("bindings"):
        bits.append("(" + ", ".join(f"{k}={v}" for k, v in side["bindings"].items()) + ")")
    if side.get("player"):
        bits.append(f"by {side['player']}")
    changes = sorted(side.get("changes") or [], key=lambda c: c["path"] not in first)
    if changes:
        shown = "; ".join(f"{c['path']}: {c.get('old')} -> {c.get('new')}" for c in changes[:4])
        bits.append(f"[{shown}{'; …' if len(changes) > 4 else ''}]")
    return " ".join(bits)


def report_text(rep: dict[str, Any], shown: int = 5) -> str:
    """What `regelwerk compare` prints."""
    old, new = rep["old"], rep["new"]
    lines = [f"compare: {old['ruleset']} ({old['ruleset_hash'][:10]}) -> {new['ruleset']} ({new['ruleset_hash'][:10]})",
             f"{rep['games']} games, seeds {rep['settings']['seed']}..{rep['settings']['seed'] + rep['games'] - 1}, "
             f"agents {', '.join(f'{p}={a}' for p, a in rep['settings']['agents'].items())}", ""]
    if rep["failed"]["old"] or rep["failed"]["new"]:
        lines.append(f"failed games: {rep['failed']['old']} old, {rep['failed']['new']} new")
    if rep["scenarios"]:
        lines.append("scenarios whose verdict changed:")
        lines += [f"  {s['scenario']}: {s['old'] or 'absent'} -> {s['new'] or 'absent'}" for s in rep["scenarios"]]
    else:
        lines.append("scenarios: no verdict changed")
    lines.append(f"identical games (move for move, same result): {rep['identical_games']} of {rep['games']}")
    parted = [d for d in rep["first_divergence"] if d.get("step") is not None]
    for d in parted[:shown]:
        lines.append(f"  game {d['game']} (seed {d['seed']}) parts at step {d['step']}:")
        lines.append(f"    old: {_step(d['old'], d.get('differ', ()))}")
        lines.append(f"    new: {_step(d['new'], d.get('differ', ()))}")
    if len(parted) > shown:
        lines.append(f"  … and {len(parted) - shown} more games (the JSON report lists them all)")
    lines += ["", f"{'measure':<36}{'old':>10}{'new':>10}{'difference':>13}{'95% interval':>24}{'p (Holm)':>10}"]
    for m in rep["differences"]:
        if m["measure"].startswith("fired ") and not m["significant"]:
            continue
        lo, hi = m["interval"]
        interval = f"{_diff(lo, m['kind'])} .. {_diff(hi, m['kind'])}"
        mark = "  *" if m["significant"] else ""
        lines.append(f"{m['measure'][:35]:<36}{_num(m['old'], m['kind']):>10}{_num(m['new'], m['kind']):>10}"
                     f"{_diff(m['difference'], m['kind']):>13}{interval:>24}{_p(m['p_adjusted']):>10}{mark}")
    quiet = sum(1 for m in rep["differences"] if m["measure"].startswith("fired ") and not m["significant"])
    if quiet:
        lines.append(f"({quiet} rule and spec firing counts without a significant change are in the JSON report)")
    f = rep["firings"]
    if f["now_never"]:
        lines.append("rules that fired before and now never do: " + ", ".join(f["now_never"]))
    if f["now_fire"]:
        lines.append("rules that never fired before and now do: " + ", ".join(f["now_fire"]))
    lines.append("")
    sig = rep["significant"]
    lines.append(f"significant (Holm-corrected p < {ALPHA}): " + (", ".join(sig) if sig else "nothing"))
    return "\n".join(lines)


def report_json(rep: dict[str, Any]) -> str:
    return json.dumps(rep, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
