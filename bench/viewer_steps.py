"""How fast the viewer's page steps through a long game, in headless Chromium.

    .venv/bin/python bench/viewer_steps.py [--out FOLDER]

Plays a Root game (seed 5, ~570 steps) and a five-player Shogun game (~1,150 steps), writes
their pages, and times inside the page: loading (parsing the data and building the
snapshots), one step forward and one back (with style and layout forced, so the time
includes laying out the new board), jumps to random steps, and a key press from the
browser's side to the next painted frame. The issue's bar is 50 ms a step.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "viewer")]

from regelwerk.interpreter.tools.agents import RandomAgent  # noqa: E402
from regelwerk.interpreter.tools.trace import write_trace  # noqa: E402
from viewer_browser import Opened, chromium  # noqa: E402

import regelwerk  # noqa: E402
from regelwerk.viewer import page_for  # noqa: E402

GAMES = [("root", "rulesets/root/root.rules", 2, 5), ("shogun", "rulesets/shogun/shogun.rules", 5, 1)]

TIME_STEPS = """(targets) => {
  const out = [];
  for (const t of targets) {
    const t0 = performance.now();
    regelwerkViewer.go(t);
    document.body.getBoundingClientRect();  // force style and layout
    out.push(performance.now() - t0);
  }
  return out;
}"""

TIME_FRAMES = """async (count) => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  const out = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true }));
    await frame();
    out.push(performance.now() - t0);
  }
  return out;
}"""


def play(rules: str, players: int, seed: int, folder: Path, name: str) -> tuple[Path, Path]:
    game = regelwerk.load(ROOT / rules).new_game(players=players, seed=seed, record=True)
    agent = RandomAgent(seed)
    while not game.is_over:
        game.apply(agent(game))
    trace = folder / f"{name}.jsonl"
    write_trace(game, trace)
    page = folder / f"{name}.html"
    page.write_text(page_for(str(trace), str(ROOT / rules)), encoding="utf-8")
    return trace, page


def summary(ms: list[float]) -> str:
    ms = sorted(ms)
    p95 = ms[int(0.95 * (len(ms) - 1))]
    return f"mean {statistics.mean(ms):6.2f}  median {statistics.median(ms):6.2f}  p95 {p95:6.2f}  max {ms[-1]:6.2f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, help="keep the traces and pages in this folder")
    args = ap.parse_args()
    folder = args.out or Path(tempfile.mkdtemp(prefix="viewer-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    with chromium() as browser:
        for name, rules, players, seed in GAMES:
            trace, page = play(rules, players, seed, folder, name)
            t0 = time.perf_counter()
            opened = Opened(browser, page, width=1280, height=900)
            load_ms = (time.perf_counter() - t0) * 1000
            n = opened.js("regelwerkViewer.steps()")
            fwd = opened.js(TIME_STEPS, list(range(1, n + 1)))
            back = opened.js(TIME_STEPS, list(range(n - 1, -1, -1)))
            rnd = random.Random(7)
            jumps = opened.js(TIME_STEPS, [rnd.randrange(n + 1) for _ in range(300)])
            opened.js("(t) => regelwerkViewer.go(t)", 0)
            frames = opened.js(TIME_FRAMES, min(300, n))
            assert opened.errors == [], opened.errors
            opened.close()
            print(f"{name}: {n} steps; trace {trace.stat().st_size / 1024:.0f} KiB, "
                  f"page {page.stat().st_size / 1024:.0f} KiB; open to ready {load_ms:.0f} ms")
            print(f"  step forward (ms)   {summary(fwd)}")
            print(f"  step back (ms)      {summary(back)}")
            print(f"  random jump (ms)    {summary(jumps)}")
            print(f"  key to frame (ms)   {summary(frames)}")
            worst = max(statistics.mean(fwd), statistics.mean(back), statistics.mean(jumps))
            print(f"  {'within' if worst < 50 else 'OVER'} the 50 ms a step")
    return 0


if __name__ == "__main__":
    sys.exit(main())
