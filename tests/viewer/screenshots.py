"""Pictures of the viewer for the docs: a Khan, a Shogun and a Root position; and Khan's book.

    .venv/bin/python tests/viewer/screenshots.py [docs/img] [--book-only]

Each game is played with a seeded random agent; the picture shows the first decision past
the middle of the game that changed something on the board, so the highlight is visible.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(ROOT), str(HERE)]

from regelwerk.interpreter.tools.agents import RandomAgent  # noqa: E402
from regelwerk.interpreter.tools.trace import write_trace  # noqa: E402
from viewer_browser import Opened, chromium  # noqa: E402

import regelwerk  # noqa: E402
from regelwerk.viewer import page_for  # noqa: E402
from regelwerk.viewer.boards import describe_boards  # noqa: E402

SHOTS = [("khan", "rulesets/khan/khan.rules", 3, 1, 0.45),
         ("shogun", "rulesets/shogun/shogun.rules", 4, 1, 0.5),
         ("root", "rulesets/root/root.rules", 2, 1, 0.5)]


def interesting(lines: list[dict], layers: set[str], start: float) -> int:
    """The position after the first decision past `start` of the game that changed the board."""
    steps = [s for s in lines[1:] if "step" in s]
    for i, s in enumerate(steps):
        if i >= start * len(steps) and s.get("decision") and any(
                c["path"].split("[", 1)[0] in layers for c in s.get("changes", [])):
            return i + 1
    return len(steps) // 2


def main(out: Path, book_only: bool = False) -> None:
    out.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="viewer-shots-"))
    with chromium() as browser:
        for name, rules, players, seed, start in [] if book_only else SHOTS:
            ruleset = regelwerk.load(ROOT / rules)
            game = ruleset.new_game(players=players, seed=seed, record=True)
            agent = RandomAgent(seed)
            while not game.is_over:
                game.apply(agent(game))
            trace = folder / f"{name}.jsonl"
            write_trace(game, trace)
            page = folder / f"{name}.html"
            page.write_text(page_for(str(trace), str(ROOT / rules)), encoding="utf-8")
            lines = [json.loads(x) for x in trace.read_text(encoding="utf-8").splitlines()]
            layers = {x["name"] for b in describe_boards(ruleset.model) for x in b["layers"]}
            opened = Opened(browser, page, width=1280, height=860, step=interesting(lines, layers, start))
            opened.page.screenshot(path=str(out / f"viewer-{name}.png"))
            assert opened.errors == [], opened.errors
            opened.close()
            print(out / f"viewer-{name}.png")
        book_shot(browser, out, folder)


def book_shot(browser, out: Path, folder: Path) -> None:
    """Khan's book (`regelwerk book`) at the action conquer: its Dutch sentence, spec ids, calls
    and callers, rules text, and its first worked example with the boards before and after."""
    from regelwerk.book import build_book

    page = folder / "khan-book.html"
    page.write_text(build_book(regelwerk.load(ROOT / "rulesets/khan/khan.rules"), folder), encoding="utf-8")
    tab = browser.new_page(viewport={"width": 1100, "height": 1300})
    errors: list[str] = []
    tab.on("pageerror", lambda e: errors.append(str(e)))
    tab.goto(page.resolve().as_uri() + "#action-conquer")
    top = tab.locator("#action-conquer").bounding_box()["y"] + tab.evaluate("scrollY")
    example = tab.locator("#action-conquer ~ .example").first
    box = example.bounding_box()
    bottom = box["y"] + tab.evaluate("scrollY") + box["height"]
    tab.screenshot(path=str(out / "book-khan.png"), full_page=True,
                   clip={"x": 0, "y": top - 10, "width": 1100, "height": bottom - top + 20})
    assert errors == [], errors
    tab.close()
    print(out / "book-khan.png")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--book-only"]
    main(Path(args[0]) if args else ROOT / "docs" / "img", book_only="--book-only" in sys.argv[1:])
