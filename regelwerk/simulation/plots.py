"""The report's pictures (matplotlib, the `report` extra): win rates per seat and per player
with their 95% intervals, score distributions per player, the game-length histogram and how
often each rule fired.

Drawn with matplotlib's object API (`Figure`), never pyplot: no global backend, no window,
safe in a worker or a test.
"""

from __future__ import annotations

import io
from typing import Any

PALETTE = ["#3b6ea5", "#c8553d", "#4f9d69", "#e0a100", "#7d5ba6", "#3a9ab0", "#b5485d", "#6b6b6b"]
METADATA = {"Software": None}  # the same games give the same bytes


class PlotsUnavailable(Exception):
    """matplotlib is not installed."""


def _figure(width: float, height: float) -> Any:
    try:
        from matplotlib.figure import Figure
    except ModuleNotFoundError as err:
        raise PlotsUnavailable("--report needs matplotlib: pip install 'regelwerk[report]'") from err
    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def require_matplotlib() -> None:
    _figure(1, 1)


def _whole_counts(ax: Any) -> None:
    from matplotlib.ticker import MaxNLocator

    ax.yaxis.set_major_locator(MaxNLocator(integer=True))


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata=METADATA)
    return buf.getvalue()


def _player_colours(players: list[str]) -> dict[str, str]:
    """Each player in the colour the browser view gives them (a player named Red is red)."""
    from ..viewer.boards import player_colours

    return player_colours(players)


def _rate_panel(ax: Any, labels: list[str], rates: list[dict], fair: float, title: str,
                colours: list[str] | None = None) -> None:
    ys = [100 * (r["rate"] or 0) for r in rates]
    lo = [y - 100 * (r["low"] or 0) for y, r in zip(ys, rates, strict=True)]
    hi = [100 * (r["high"] or 0) - y for y, r in zip(ys, rates, strict=True)]
    xs = range(len(labels))
    ax.bar(xs, ys, color=colours or [PALETTE[i % len(PALETTE)] for i in xs], alpha=0.85)
    ax.errorbar(xs, ys, yerr=[lo, hi], fmt="none", ecolor="black", capsize=6, linewidth=1.2)
    ax.axhline(100 * fair, color="grey", linestyle="--", linewidth=1, label=f"fair share {100 * fair:.1f}%")
    ax.set_xticks(list(xs), labels)
    ax.set_ylabel("wins (%) with 95% interval")
    ax.set_ylim(0, max(100 * fair * 1.5, max((100 * (r["high"] or 0) for r in rates), default=0) * 1.1, 10))
    ax.set_title(title)
    ax.legend(loc="upper right", frameon=False)


def win_rates(rep: dict[str, Any]) -> bytes:
    fig = _figure(9, 4)
    left, right = fig.subplots(1, 2, sharey=True)
    # rates are over every finished game: a fair seat wins 1/players of those with a winner
    fair = rep["first_player"]["fair"] * (1 - (rep["draw_rate"]["rate"] or 0))
    seats = rep["seats"]
    _rate_panel(left, [f"seat {s['seat']}" for s in seats], seats, fair, "win rate per seat")
    players = list(rep["win_rate"])
    colour = _player_colours(players)
    _rate_panel(right, players, [rep["win_rate"][p] for p in players], fair, "win rate per player",
                [colour[p] for p in players])
    fig.suptitle(f"{rep['ruleset']}: {rep['finished']} finished games")
    return _png(fig)


def scores(records: list[dict], players: list[str]) -> bytes | None:
    """One histogram per player on a shared axis; None when the game keeps no scores."""
    values = {p: [r["scores"][p] for r in records if r.get("scores") and p in r["scores"]] for p in players}
    if not any(values.values()):
        return None
    lo = min(min(v) for v in values.values() if v)
    hi = max(max(v) for v in values.values() if v)
    width = max(1, (hi - lo + 1) // 40 + 1) if all(isinstance(x, int) for v in values.values() for x in v) else None
    bins = list(range(lo, hi + 2, width)) if width else 30
    fig = _figure(8, 1.3 + 1.2 * len(players))
    axes = fig.subplots(len(players), 1, sharex=True, squeeze=False)[:, 0]
    colour = _player_colours(players)
    for ax, p in zip(axes, players, strict=True):
        ax.hist(values[p], bins=bins, color=colour[p], alpha=0.85)
        if values[p]:
            mean = sum(values[p]) / len(values[p])
            ax.axvline(mean, color="black", linewidth=1)
            ax.set_title(f"{p}: mean {mean:.1f}", loc="left", fontsize=10)
        ax.set_ylabel("games")
        _whole_counts(ax)
    axes[-1].set_xlabel("final score")
    fig.suptitle("score distribution per player")
    return _png(fig)


def lengths(records: list[dict]) -> bytes:
    values = [r["length"] for r in records]
    fig = _figure(8, 3.5)
    ax = fig.subplots()
    if values:
        lo, hi = min(values), max(values)
        step = max(1, (hi - lo + 1) // 50 + 1)
        ax.hist(values, bins=list(range(lo, hi + step + 1, step)), color=PALETTE[0], alpha=0.85)
        mean = sum(values) / len(values)
        ax.axvline(mean, color="black", linewidth=1, label=f"mean {mean:.1f}")
        ax.legend(frameon=False)
    ax.set_xlabel("decisions per game")
    ax.set_ylabel("games")
    _whole_counts(ax)
    ax.set_title("game length")
    return _png(fig)


def firings(rep: dict[str, Any]) -> bytes | None:
    """The share of games each rule fired in; rules that never fired stand out in red."""
    fir = rep.get("firings")
    if not fir or not fir["games"]:
        return None
    rows = [(k, v) for k, v in fir["rules"].items() if k != "flow"]
    rows.sort(key=lambda kv: (kv[1]["games"], kv[1]["steps"], kv[0]))
    fig = _figure(9, 1.2 + 0.24 * len(rows))
    ax = fig.subplots()
    ys = range(len(rows))
    shares = [100 * v["games"] / fir["games"] for _k, v in rows]
    colours = ["#c0392b" if v["games"] == 0 else PALETTE[0] for _k, v in rows]
    ax.barh(list(ys), shares, color=colours)
    for y, (_k, v), share in zip(ys, rows, shares, strict=True):
        if v["games"] == 0:
            text = "never"
        elif v["steps"] == 0:
            text = "ran, no step of its own"
        else:
            text = f"{v['steps'] / fir['games']:.1f} steps/game"
        ax.text(min(share, 100) + 1, y, text, va="center", fontsize=7)
    ax.set_yticks(list(ys), [v["label"] for _k, v in rows], fontsize=7)
    ax.set_xlim(0, 125)
    ax.set_xlabel(f"games it fired in (% of {fir['games']})")
    ax.set_title("rule firings")
    return _png(fig)
