"""`compare --report DIR`: index.html with the comparison's tables and its plots beside it as
PNG files, in the style of `simulate --report` (plain HTML, no script; files written to a
temporary name and moved into place)."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from ..simulation.html import CSS, _table, write_bytes_atomic
from ..simulation.plots import PALETTE, _figure, _png
from .report import _diff, _num, _step, report_json

OLD, NEW = PALETTE[0], PALETTE[1]


def _measure_bars(rep: dict[str, Any], kind: str, title: str) -> bytes | None:
    """Old against new for each measure of a kind (rates in %, means as they are), with the
    95% interval of the difference drawn on the new bar."""
    ms = [m for m in rep["differences"] if m["kind"] == kind and not m["measure"].startswith("fired ")]
    if not ms:
        return None
    scale = 100 if kind == "rate" else 1
    fig = _figure(max(5.0, 1.1 * len(ms) + 2), 3.4)
    ax = fig.add_subplot()
    xs = range(len(ms))
    ax.bar([x - 0.2 for x in xs], [scale * m["old"] for m in ms], width=0.4, color=OLD, label="old")
    ys = [scale * m["new"] for m in ms]
    lo = [max(0.0, scale * (m["difference"] - m["interval"][0])) for m in ms]
    hi = [max(0.0, scale * (m["interval"][1] - m["difference"])) for m in ms]
    ax.bar([x + 0.2 for x in xs], ys, width=0.4, color=NEW, label="new")
    ax.errorbar([x + 0.2 for x in xs], ys, yerr=[lo, hi], fmt="none", ecolor="black", capsize=4, linewidth=1)
    for x, m in zip(xs, ms, strict=True):
        if m["significant"]:
            ax.annotate("*", (x + 0.2, ys[x] + hi[x]), ha="center", va="bottom", fontsize=14)
    ax.set_xticks(list(xs), [m["measure"].replace("win rate ", "").replace("score ", "") for m in ms],
                  rotation=20, ha="right")
    ax.set_title(title)
    ax.legend(frameon=False)
    return _png(fig)


def _lengths(old: list[dict], new: list[dict]) -> bytes | None:
    a = [r["length"] for r in old if "failure" not in r]
    b = [r["length"] for r in new if "failure" not in r]
    if not a or not b:
        return None
    fig = _figure(6, 3.2)
    ax = fig.add_subplot()
    bins = min(30, max(5, len(set(a + b))))
    ax.hist([a, b], bins=bins, color=[OLD, NEW], label=["old", "new"], alpha=0.85)
    ax.set_xlabel("decisions per game")
    ax.set_ylabel("games")
    ax.legend(frameon=False)
    return _png(fig)


def _firings(rep: dict[str, Any], most: int = 16) -> bytes | None:
    """The rules whose mean firings per game changed most (significant ones first)."""
    ms = [m for m in rep["differences"] if m["measure"].startswith("fired ") and not
          m["measure"].startswith("fired spec ") and m["difference"] != 0]
    ms.sort(key=lambda m: (not m["significant"], -abs(m["difference"])))
    ms = ms[:most]
    if not ms:
        return None
    fig = _figure(7, 0.35 * len(ms) + 1.2)
    ax = fig.add_subplot()
    ys = range(len(ms))
    ax.barh(list(ys), [m["difference"] for m in ms], color=[NEW if m["significant"] else "#999" for m in ms])
    ax.set_yticks(list(ys), [m["measure"][6:] + (" *" if m["significant"] else "") for m in ms])
    ax.invert_yaxis()
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel("change in firings per game (new - old)")
    return _png(fig)


def write_compare_dir(folder: str | Path, rep: dict[str, Any], old: list[dict], new: list[dict]) -> Path:
    """Write index.html, the PNG plots and compare.json into `folder`; the page's path."""
    d = Path(folder)
    d.mkdir(parents=True, exist_ok=True)
    images: list[tuple[str, str]] = []

    def put(name: str, data: bytes | None, caption: str) -> None:
        if data is not None:
            write_bytes_atomic(d / name, data)
            images.append((name, caption))

    put("rates.png", _measure_bars(rep, "rate", "win and draw rates, old and new (%)"),
        "Win rates per player and per seat and the draw rate; the bar on the right is the new version, "
        "with the 95% interval of the difference; * significant")
    put("means.png", _measure_bars(rep, "mean", "mean score and game length"),
        "Mean final score per player and mean decisions per game")
    put("lengths.png", _lengths(old, new), "Decisions per game, both versions")
    put("firings.png", _firings(rep), "Rules whose firings per game changed most (significant in colour)")
    write_bytes_atomic(d / "compare.json", report_json(rep).encode("utf-8"))
    page = d / "index.html"
    write_bytes_atomic(page, _page(rep, images).encode("utf-8"))
    return page


def _measure_table(ms: list[dict]) -> str:
    rows, classes = [], []
    for m in ms:
        lo, hi = m["interval"]
        rows.append([m["measure"], _num(m["old"], m["kind"]), _num(m["new"], m["kind"]),
                     _diff(m["difference"], m["kind"]), f"{_diff(lo, m['kind'])} .. {_diff(hi, m['kind'])}",
                     f"{m['p_value']:.3g}", f"{m['p_adjusted']:.3g}", "yes" if m["significant"] else ""])
        classes.append("dead" if m["significant"] else "")
    return _table(["measure", "old", "new", "difference", "95% interval", "p", "p (Holm)", "significant"],
                  rows, classes)


def _page(rep: dict[str, Any], images: list[tuple[str, str]]) -> str:
    old, new, s = rep["old"], rep["new"], rep["settings"]
    agents = ", ".join(f"{p}: {a}" for p, a in s["agents"].items())
    parts = [
        "<!doctype html><html lang=en><meta charset=utf-8>",
        f"<title>{escape(new['ruleset'])} — comparison</title><style>{CSS}</style>",
        f"<h1>What the change did: {escape(old['ruleset'])} → {escape(new['ruleset'])}</h1>",
        f"<p class=sub>{rep['games']} games on each version, seeds {s['seed']}–{s['seed'] + rep['games'] - 1}"
        f" · agents {escape(agents)} · <code>{old['ruleset_hash'][:12]}</code> → "
        f"<code>{new['ruleset_hash'][:12]}</code></p>",
    ]
    sig = rep["significant"]
    parts.append(f"<p><b>Significant</b> (Holm-corrected p &lt; 0.05): {escape(', '.join(sig)) if sig else 'nothing'}.</p>")
    parts.append(f"<p>Identical games (move for move, same result): {rep['identical_games']} of {rep['games']}.</p>")
    parts.append("<h2>Scenarios</h2>")
    if rep["scenarios"]:
        parts.append(_table(["scenario", "old", "new", "failure"],
                            [[x["scenario"], x["old"] or "absent", x["new"] or "absent", x["failure"] or ""]
                             for x in rep["scenarios"]], text_columns=(0, 1, 2, 3)))
    else:
        parts.append("<p>No scenario changed its verdict.</p>")
    parts.append("<h2>Measures</h2>")
    main = [m for m in rep["differences"] if not m["measure"].startswith("fired ")]
    parts.append(_measure_table(main))
    fired = [m for m in rep["differences"] if m["measure"].startswith("fired ")]
    moved = [m for m in fired if m["difference"] != 0 or m["significant"]]
    parts.append("<h2>Rule and spec firings</h2>")
    parts.append(f"<p>{len(fired)} rules and spec ids fired; {len(fired) - len(moved)} fired exactly as "
                 "often on both versions" + (":" if moved else ".") + "</p>")
    if moved:
        parts.append(_measure_table(moved))
    for name, caption in images:
        parts.append(f"<figure><img src='{escape(name)}' alt='{escape(caption)}'>"
                     f"<figcaption>{escape(caption)}</figcaption></figure>")
    f = rep["firings"]
    if f["now_never"] or f["now_fire"]:
        parts.append("<h2>Rules that stopped or started firing</h2>")
        parts.append(f"<p>Now never: {escape(', '.join(f['now_never']) or '–')}. "
                     f"Now fire: {escape(', '.join(f['now_fire']) or '–')}.</p>")
    parted = [x for x in rep["first_divergence"] if x.get("step") is not None]
    if parted:
        parts.append("<h2>Where the games part</h2>")
        parts.append(_table(["game", "seed", "step", "old", "new"],
                            [[x["game"], x["seed"], x["step"], _step(x["old"], x.get("differ", ())),
                              _step(x["new"], x.get("differ", ()))] for x in parted[:20]],
                            text_columns=(3, 4)))
        if len(parted) > 20:
            parts.append(f"<p>… and {len(parted) - 20} more games (compare.json lists them all).</p>")
    parts.append("<h2>Method</h2><p>Both versions play the same seeds with the same agents, so games come "
                 "in pairs. Rates: McNemar's exact test on the pairs that disagree, Wald interval of the "
                 "paired difference. Scores, lengths, firings: Wilcoxon signed-rank test on the per-seed "
                 "differences, seeded bootstrap interval of the mean difference. All measures together "
                 "are corrected with Holm–Bonferroni (docs/compare.md).</p>")
    return "\n".join(parts) + "\n"
