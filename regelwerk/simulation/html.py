"""`--report DIR`: index.html with the report's tables and the plots beside it as PNG files.

The page is plain HTML with a little CSS and no script: it opens from the folder, prints,
and can be mailed as a zip. Every file is written to a temporary name and moved into place.
"""

from __future__ import annotations

import os
import tempfile
from html import escape
from pathlib import Path
from typing import Any

from . import plots
from .report import report_json
from .stats import rate_text

CSS = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 980px; color: #222; }
h1 { font-size: 1.5em; margin-bottom: .2em; } h2 { font-size: 1.15em; margin-top: 1.8em; }
.sub { color: #666; margin-top: 0; }
table { border-collapse: collapse; margin: .5em 0; } td, th { padding: .2em .8em; text-align: right; }
th { border-bottom: 1px solid #aaa; } td:first-child, th:first-child { text-align: left; }
tr.dead td { color: #c0392b; } .warn { color: #c0392b; } img { max-width: 100%; }
.note { font-style: italic; border-left: 3px dashed #888; padding-left: .5em; }
code { font-size: .92em; }
"""


def write_bytes_atomic(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _ci(d: dict[str, Any]) -> str:
    return "–" if d.get("low") is None else f"{100 * d['low']:.1f} – {100 * d['high']:.1f}%"


def _table(head: list[str], rows: list[list[Any]], classes: list[str] | None = None,
           text_columns: tuple[int, ...] = (0,)) -> str:
    """A table; numbers right-aligned, the `text_columns` left-aligned."""
    def cell(tag: str, i: int, value: Any) -> str:
        style = ' style="text-align:left"' if i in text_columns else ""
        return f"<{tag}{style}>{escape(str(value))}</{tag}>"

    out = ["<table><tr>" + "".join(cell("th", i, h) for i, h in enumerate(head)) + "</tr>"]
    for n, row in enumerate(rows):
        cls = f' class="{classes[n]}"' if classes and classes[n] else ""
        out.append(f"<tr{cls}>" + "".join(cell("td", i, c) for i, c in enumerate(row)) + "</tr>")
    return "\n".join(out) + "</table>"


def write_report_dir(folder: str | Path, rep: dict[str, Any], records: dict[int, dict]) -> Path:
    """Write index.html, the PNG plots and report.json into `folder`; the page's path."""
    d = Path(folder)
    d.mkdir(parents=True, exist_ok=True)
    ok = [records[i] for i in sorted(records) if "failure" not in records[i]]
    players = rep["settings"]["players"]
    images: list[tuple[str, str]] = []

    def put(name: str, data: bytes | None, caption: str) -> None:
        if data is not None:
            write_bytes_atomic(d / name, data)
            images.append((name, caption))

    put("win-rates.png", plots.win_rates(rep), "Win rate per seat and per player, with 95% intervals")
    put("scores.png", plots.scores(ok, players), "Final scores per player")
    put("lengths.png", plots.lengths(ok), "Decisions per game")
    put("firings.png", plots.firings(rep), "Share of games in which each rule fired")
    write_bytes_atomic(d / "report.json", report_json(rep).encode("utf-8"))
    page = d / "index.html"
    write_bytes_atomic(page, _page(rep, images).encode("utf-8"))
    return page


def _page(rep: dict[str, Any], images: list[tuple[str, str]]) -> str:
    s = rep["settings"]
    agents = ", ".join(f"{p}: {a}" for p, a in s["agents"].items())
    parts = [
        "<!doctype html><html lang=en><meta charset=utf-8>",
        f"<title>{escape(rep['ruleset'])} — simulation report</title><style>{CSS}</style>",
        f"<h1>{escape(rep['ruleset'])}: {rep['games']} simulated games</h1>",
        f"<p class=sub>seeds {s['seed']}–{s['seed'] + rep['planned'] - 1} · players {escape(', '.join(s['players']))}"
        f" · agents {escape(agents)} · ruleset <code>{rep['ruleset_hash'][:12]}</code></p>",
    ]
    if rep.get("note"):
        parts.append(f"<p class=note>Note by the rule authors (not the rulebook): {escape(rep['note'])}</p>")
    if not rep["complete"]:
        parts.append(f"<p class=warn>Interrupted: {rep['games']} of {rep['planned']} games played "
                     "(<code>--resume</code> plays the rest).</p>")
    shared = rep.get("shared_wins", 0)
    parts.append(f"<p>{rep['finished']} finished, {rep['failed']} failed, {rep['draws']} draws "
                 f"({_pct(rep['draw_rate']['rate'])})"
                 + (f", {shared} shared wins (a tie for first place; a win shared by k players counts 1/k)"
                    if shared else "") + ".</p>")
    parts.append("<h2>Wins</h2>")
    parts.append(_table(["player", "agent", "wins", "rate", "95% interval"],
                        [[p, s["agents"][p], f"{w:g}", _pct(rep["win_rate"][p]["rate"]), _ci(rep["win_rate"][p])]
                         for p, w in rep["wins"].items()], text_columns=(0, 1)))
    parts.append(_table(["seat", "wins", "rate", "95% interval", "who sat there"],
                        [[x["seat"], f"{x['wins']:g}", _pct(x["rate"]), _ci(x),
                          ", ".join(f"{p} {n}" for p, n in x["players"].items())] for x in rep["seats"]],
                        text_columns=(4,)))
    fp = rep["first_player"]
    if fp["advantage"] is not None:
        drawn = fp.get("draws", 0)
        parts.append(f"<p>First player: {100 * fp['advantage']:+.1f} percentage points against a fair "
                     f"{100 * fp['fair']:.1f}% (95% interval {100 * fp['low']:+.1f} to {100 * fp['high']:+.1f})"
                     + (f" of the {fp['decided']} games with a winner; {drawn} draws left out" if drawn else "")
                     + ".</p>")
    if rep["scores"]:
        parts.append("<h2>Scores</h2>")
        parts.append(_table(["player", "mean", "sd", "min", "q1", "median", "q3", "max"],
                            [[p, f"{v['mean']:.2f}", f"{v['stdev']:.2f}", v["min"], f"{v['q1']:g}",
                              f"{v['median']:g}", f"{v['q3']:g}", v["max"]]
                             for p, v in rep["scores"].items() if v["n"]]))
    ln = rep["length"]
    if ln["n"]:
        parts.append("<h2>Game length</h2>")
        parts.append(f"<p>Decisions per game: mean {ln['mean']:.1f} (sd {ln['stdev']:.1f}), median "
                     f"{ln['median']:g}, from {ln['min']} to {ln['max']}.</p>")
    for name, caption in images:
        parts.append(f"<figure><img src='{escape(name)}' alt='{escape(caption)}'>"
                     f"<figcaption>{escape(caption)}</figcaption></figure>")
    fir = rep.get("firings")
    if fir and fir["games"]:
        parts.append("<h2>Rule firings</h2>")
        dead = fir["never_fired"]
        if dead:
            head = f"<span class=warn>{len(dead)} rule{'s' if len(dead) != 1 else ''} never fired</span>"
        else:
            head = "Every rule fired"
        parts.append(f"<p>{head} in {fir['games']} games. A rule that never fires is unreachable or "
                     "dead — or needs other settings (player count, options, agents). <i>games</i>: "
                     "games it fired in; <i>steps</i>: its trace steps; <i>decisions</i>: the steps a "
                     "player decided.</p>")
        rows, classes = [], []
        for key, v in sorted(fir["rules"].items(), key=lambda kv: (kv[1]["games"], kv[0])):
            rows.append([v["label"], v["at"] or "", ", ".join(v["spec"]), v["games"], v["steps"], v["decisions"]])
            classes.append("dead" if v["games"] == 0 and key != "flow" else "")
        parts.append(_table(["rule", "declared at", "spec ids", "games", "steps", "decisions"], rows, classes,
                            text_columns=(0, 1, 2)))
        if fir["specs_never_fired"]:
            parts.append(f"<p class=warn>Spec ids never fired: {escape(', '.join(fir['specs_never_fired']))}</p>")
    if rep["failures"]:
        parts.append("<h2>Failures</h2>")
        parts.append(_table(["game", "seed", "step", "where", "error"],
                            [[f["game"], f["seed"], f.get("step", ""), f.get("at", ""), f["error"]]
                             for f in rep["failures"][:200]], text_columns=(3, 4)))
    t = rep.get("timing")
    if t:
        parts.append(f"<p class=sub>{t['played']} games played in {t['seconds']:.1f} s "
                     f"({rate_text(t['games_per_second'] or 0)} games/s) · {escape(t['backend'])}, {t['workers']} workers"
                     + (f" · {t['resumed']} from the results file" if t.get("resumed") else "") + "</p>")
    parts.append("<p class=sub>report.json holds every figure; regelwerk simulate wrote this page.</p>")
    return "\n".join(parts) + "\n"
