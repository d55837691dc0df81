"""Game records → the balance report (a JSON-able dict) and its text for the terminal.

The report is a function of the records taken in game order, never of the order in which
they arrived, so it is the same whatever the number of jobs or the backend. Everything that
describes one particular run (wall time, rates, backend, workers, games taken from a resume
file) is kept under the one key `timing`: remove it and two runs compare byte for byte.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from ..interpreter.tools.simulate import PlaySettings
from .stats import mean_interval, r6, rate_text, summary, wilson

REPORT_FORMAT = "regelwerk-simulation"
REPORT_VERSION = 1


def build_report(ruleset: Any, settings: PlaySettings, planned: int, records: dict[int, dict],
                 timing: dict[str, Any] | None = None) -> dict[str, Any]:
    """Sum up the records of games 0..planned-1 that are there (all of them when complete)."""
    recs = [records[i] for i in sorted(records) if i < planned]
    players = list(ruleset.player_names[:settings.players or ruleset.model.players.min_count])
    ok = [r for r in recs if "failure" not in r]
    failed = [r for r in recs if "failure" in r]
    n = len(ok)
    wins: dict[str, float] = dict.fromkeys(players, 0.0)
    shared: dict[str, int] = dict.fromkeys(players, 0)
    draws = shared_games = 0
    for r in ok:
        if r["winners"]:
            for p in r["winners"]:
                wins[p] += 1 / len(r["winners"])
                if len(r["winners"]) > 1:  # `finish ranking` with a tie at the top: not a draw
                    shared[p] += 1
            shared_games += len(r["winners"]) > 1
        else:
            draws += 1
    out: dict[str, Any] = {
        "format": REPORT_FORMAT,
        "version": REPORT_VERSION,
        "ruleset": ruleset.title,
        "ruleset_hash": ruleset.hash,
        "note": game_note(ruleset),
        "settings": settings_json(settings, players),
        "planned": planned,
        "complete": len(recs) == planned,
        "games": len(recs),
        "finished": n,
        "failed": len(failed),
        "failures": [{"game": r["game"], "seed": r["seed"],
                      **{k: v for k, v in r["failure"].items() if k not in ("moves", "moves_dropped")}}
                     for r in failed],  # the moves to replay one are in the results file
        "draws": draws,
        "draw_rate": wilson(draws, n),
        "outright_wins": n - draws - shared_games,
        "shared_wins": shared_games,
        "shared_win_rate": wilson(shared_games, n),
        "wins": {p: r6(w) for p, w in wins.items()},
        "shared": shared,
        "win_rate": {p: wilson(w, n) for p, w in wins.items()},
        "seats": _seats(ok, players),
        "first_player": _first_player(ok, players),
        "scores": _scores(ok, players),
        "length": summary([r["length"] for r in ok]),
        "firings": _firings(ruleset, ok) if settings.firings else None,
    }
    if timing is not None:
        out["timing"] = timing
    return out


def game_note(ruleset: Any) -> str | None:
    """The authors' note on the game as a whole (`game "..."` then `note "..."`): what a reader
    of its results must know, e.g. that a substrate opponent can never win."""
    game = getattr(ruleset.model, "game", None)
    return game.prov.note if game is not None and game.prov is not None else None


def settings_json(settings: PlaySettings, players: list[str]) -> dict[str, Any]:
    return {
        "players": players,
        "seed": settings.seed,
        "options": settings.options,
        "agents": {p: settings.agents.get(p, "random") for p in players},
        "max_steps": settings.max_steps,
        "count_firings": settings.firings,
    }


def _seats(ok: list[dict], players: list[str]) -> list[dict[str, Any]]:
    """Wins by seat: the order in which players first decided (who begins may be chance)."""
    out = []
    for s in range(len(players)):
        wins = 0.0
        who: Counter = Counter()
        for r in ok:
            p = r["order"][s]
            who[p] += 1
            if p in r["winners"]:
                wins += 1 / len(r["winners"])
        out.append({"seat": s + 1, "wins": r6(wins), **wilson(wins, len(ok)),
                    "players": {p: who[p] for p in players if who[p]}})
    return out


def _first_player(ok: list[dict], players: list[str]) -> dict[str, Any]:
    """The first seat's share of the decided games (a shared win counts 1/k) against the fair
    share 1/players; advantage > 0 with an interval above 0 means moving first helps. Draws
    are left out, not counted as losses: a game that is often drawn would otherwise look
    unfair to the first player (and to every seat) by the draw rate."""
    fair = 1 / len(players)
    per_game = []
    for r in ok:
        if not r["winners"]:
            continue
        first = r["order"][0]
        per_game.append((1 / len(r["winners"]) if first in r["winners"] else 0.0) - fair)
    adv = mean_interval(per_game)
    return {"fair": r6(fair), "advantage": adv["mean"], "low": adv["low"], "high": adv["high"],
            "decided": len(per_game), "draws": len(ok) - len(per_game)}


def _scores(ok: list[dict], players: list[str]) -> dict[str, Any]:
    if not any(r.get("scores") for r in ok):
        return {}
    return {p: summary([r["scores"][p] for r in ok if r.get("scores") and p in r["scores"]])
            for p in players}


def _firings(ruleset: Any, ok: list[dict]) -> dict[str, Any]:
    """How often each rule and spec id fired: the games it fired in, its trace steps and its
    decisions over all games. The flow always runs (its steps are named after its phases), so
    it counts in every game."""
    rules = ruleset.program(True).rules
    steps: Counter = Counter()
    decisions: Counter = Counter()
    games: Counter = Counter()
    spec_steps: Counter = Counter()
    spec_games: Counter = Counter()
    for r in ok:
        fired = dict(r.get("fired") or {})
        fired.setdefault("flow", [0, 0])
        specs_now: set[str] = set()
        for key, (k, d) in fired.items():
            steps[key] += k
            decisions[key] += d
            games[key] += 1
            for sid in rules.get(key, {}).get("spec", ()):
                spec_steps[sid] += k
                specs_now.add(sid)
        for sid in specs_now:
            spec_games[sid] += 1
    table = {}
    for key in sorted(set(rules) | set(steps)):
        info = rules.get(key, {})
        kind = key.split(":", 1)[0]
        name = info.get("name", key.split(":", 1)[-1])
        table[key] = {"name": name, "kind": kind, "at": info.get("at"),
                      "label": name if kind in ("when", "on", "flow") else f"{kind} {name}",
                      "spec": list(info.get("spec", ())), "steps": steps[key], "decisions": decisions[key],
                      "games": games[key]}
    all_specs = sorted({sid for info in rules.values() for sid in info.get("spec", ())})
    return {
        "games": len(ok),
        "rules": table,
        "never_fired": [k for k in table if table[k]["games"] == 0 and k != "flow"] if ok else [],
        "specs": {sid: {"steps": spec_steps[sid], "games": spec_games[sid]} for sid in all_specs},
        "specs_never_fired": [sid for sid in all_specs if spec_games[sid] == 0] if ok else [],
    }


def without_timing(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k != "timing"}


def report_json(report: dict[str, Any]) -> str:
    return json.dumps(report, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------------- text
def _pct(x: float | None) -> str:
    return "  n/a" if x is None else f"{100 * x:5.1f}%"


def _interval(d: dict[str, Any]) -> str:
    if d.get("low") is None:
        return ""
    return f"[{100 * d['low']:4.1f}, {100 * d['high']:4.1f}]"


def report_text(rep: dict[str, Any], rule_lines: int = 8) -> str:
    """The report for the terminal: rates with their 95% intervals, then what needs a look."""
    n = rep["finished"]
    head = f"{rep['games']} games, {rep['failed']} failed, {rep['draws']} draws"
    if rep.get("shared_wins"):
        head += f", {rep['shared_wins']} shared win{'' if rep['shared_wins'] == 1 else 's'}"
    if not rep["complete"]:
        head += f" (interrupted: {rep['games']} of {rep['planned']} played)"
    lines = [head]
    if rep.get("note"):
        lines.append(f"  note (the rule authors', not the rulebook's): {rep['note']}")
    if not n:
        return "\n".join(lines + _failure_lines(rep) + _timing_lines(rep))
    agents = rep["settings"]["agents"]
    mixed = len(set(agents.values())) > 1 or set(agents.values()) != {"random"}
    sharing = bool(rep.get("shared_wins"))
    lines.append(f"  {'player':<14}{'wins':>8}  {'rate':>6}  95% interval" + ("  shared" if sharing else "")
                 + ("   agent" if mixed else ""))
    for p, w in rep["wins"].items():
        wr = rep["win_rate"][p]
        line = f"  {p:<14}{w:>8.1f}  {_pct(wr['rate'])}  {_interval(wr):<12}"
        if sharing:
            line += f"  {rep['shared'][p]:>6}"
        if mixed:
            line += f"   {agents[p]}"
        lines.append(line.rstrip())
    if sharing:
        lines.append(f"  ({rep['shared_wins']} of {n} games ended in a tie for first place: a shared win, "
                     "not a draw; a win shared by k players counts 1/k)")
    if n:
        for s in rep["seats"]:
            lines.append(f"  {'seat ' + str(s['seat']):<14}{s['wins']:>8.1f}  {_pct(s['rate'])}  {_interval(s)}")
        lines.append(first_player_text(rep["first_player"]))
        ln = rep["length"]
        lines.append(f"  decisions per game: mean {ln['mean']:.1f}, median {ln['median']:g}, "
                     f"min {ln['min']}, max {ln['max']}")
    for p, s in rep["scores"].items():
        if s["n"]:
            lines.append(f"  score {p:<12} mean {s['mean']:.1f}, sd {s['stdev']:.1f}, "
                         f"min {s['min']}, median {s['median']:g}, max {s['max']}")
    fir = rep.get("firings")
    if fir and fir["games"]:
        total = len([k for k in fir["rules"] if k != "flow"])
        dead = fir["never_fired"]
        lines.append(f"  rules fired: {total - len(dead)} of {total}"
                     + (f"; never in {fir['games']} games:" if dead else ""))
        for key in dead[:rule_lines]:
            rule = fir["rules"][key]
            lines.append(f"    {rule['label']}" + (f"  ({rule['at']})" if rule["at"] else ""))
        if len(dead) > rule_lines:
            lines.append(f"    … and {len(dead) - rule_lines} more (see the JSON report)")
        if fir["specs_never_fired"]:
            ids = fir["specs_never_fired"]
            lines.append(f"  spec ids never fired: {', '.join(ids[:12])}" + (" …" if len(ids) > 12 else ""))
    return "\n".join(lines + _failure_lines(rep) + _timing_lines(rep))


def first_player_text(fp: dict[str, Any]) -> str:
    """The fairness line: the first seat's share of the decided games against 1/players, and
    how many drawn games were left out."""
    drawn = fp.get("draws", 0)
    if fp["advantage"] is None:
        return f"  first player: no game had a winner ({drawn} draws): nothing to compare"
    text = (f"  first player: {100 * fp['advantage']:+.1f} points against a fair {100 * fp['fair']:.1f}% "
            f"[{100 * fp['low']:+.1f}, {100 * fp['high']:+.1f}]")
    if drawn:
        total = drawn + fp["decided"]
        text += (f" of the {fp['decided']} games with a winner; {drawn} draws "
                 f"({100 * drawn / total:.1f}%) left out")
    return text


def _failure_lines(rep: dict[str, Any]) -> list[str]:
    lines = []
    for f in rep["failures"][:3]:
        at = f" at {f['at']}" if f.get("at") else ""
        lines.append(f"  game {f['game']} (seed {f['seed']}) failed{at}: {f['error']}")
    if rep["failed"] > 3:
        lines.append(f"  … and {rep['failed'] - 3} more failures (see the JSON report)")
    return lines


def _timing_lines(rep: dict[str, Any]) -> list[str]:
    t = rep.get("timing")
    if not t or t.get("seconds") is None:
        return []
    return [f"  {t['played']} games in {t['seconds']:.1f} s ({rate_text(t['games_per_second'] or 0)} games/s, "
            f"{t['backend']}, {t['workers']} worker{'s' if t['workers'] != 1 else ''})"
            + (f"; {t['resumed']} from the results file" if t.get("resumed") else "")]
