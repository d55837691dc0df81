"""The page in a real browser (headless Chromium): it loads cleanly, shows the rule behind a
step, changes the board where the trace says, rebuilds the same states as the engine, and
hides what a player may not see."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from viewer_games import Played

import regelwerk
from regelwerk.viewer import page_for


@pytest.mark.parametrize("name", ["khan", "shogun", "root"])
def test_page_loads_and_walks_the_whole_game_without_errors(played: dict[str, Played], opened, name: str):
    p = played[name]
    page = opened(p.page)
    n = page.js("regelwerkViewer.steps()")
    assert n == len(p.lines) - 2
    for target in (1, n // 3, n, n // 2, 0):
        page.js("(t) => regelwerkViewer.go(t)", target)
        assert page.js("regelwerkViewer.position()") == target
    assert page.page.locator("figure.board svg").count() >= 1
    page.js("(t) => regelwerkViewer.go(t)", n)
    if "result" in p.lines[-1]:
        assert "Game over" in page.page.inner_text("#result")


def test_first_decision_shows_its_rule_and_quote(played: dict[str, Played], opened):
    p = played["khan"]
    first = next(s for s in p.lines[1:] if s.get("decision"))
    page = opened(p.page)
    assert page.page.inner_text("#step-heading") == "Start"
    page.page.click("#find-next")  # "any player": the next decision
    assert page.js("regelwerkViewer.position()") == first["step"] + 1
    assert page.page.inner_text("#rule-name") == first["rule"]
    assert first["quote"] and first["quote"] in page.page.inner_text("#quote")
    assert first["decision"]["action"] in page.page.inner_text("#step-heading")
    assert page.page.inner_text("#spec-ids") == ", ".join(first["spec"])
    for check in first["checks"]:
        assert check["require"] in page.page.inner_text("#checks")


def test_stepping_forward_changes_the_board_where_the_trace_says(played: dict[str, Played], opened):
    p = played["khan"]
    step = next(s for s in p.lines[1:] if any(c["path"].startswith("yurt[") for c in s.get("changes", [])))
    change = next(c for c in step["changes"] if c["path"].startswith("yurt["))
    square = change["path"][5:-1]
    page = opened(p.page, step=step["step"] - 1)  # the address names trace steps: just before it
    cell = page.page.locator(f'g.sq[data-square="{square}"]')
    assert cell.locator(f'[data-player="{change["new"]}"]').count() == 0
    assert page.page.locator("[data-changed]").count() == 0 or \
        page.page.locator(f'[data-changed="{square}"]').count() == 0
    page.page.keyboard.press("ArrowRight")
    assert page.js("regelwerkViewer.position()") == step["step"] + 1
    for _ in range(60):  # the address is written within half a second, by trace step number
        if page.js("location.hash") == f"#step={step['step']}":
            break
        page.page.wait_for_timeout(50)
    assert page.js("location.hash") == f"#step={step['step']}"  # as Go to step reads it
    assert cell.locator(f'[data-player="{change["new"]}"]').count() == 1
    assert page.page.locator(f'[data-changed="{square}"]').count() == 1
    assert f"changed: yurt: {change['old'] or 'none'} → {change['new']}" in cell.locator("title").text_content()
    assert change["path"] in page.page.inner_text("#changes")
    page.page.keyboard.press("ArrowLeft")
    assert cell.locator(f'[data-player="{change["new"]}"]').count() == 0


@pytest.mark.parametrize("name", ["khan", "root"])
def test_the_page_rebuilds_the_engines_states(played: dict[str, Played], opened, name: str):
    """The page's own reconstruction (snapshots + changes, forwards and backwards) against the
    state the engine had, at every position that ended at a decision."""
    p = played[name]
    page = opened(p.page)
    for n in sorted(p.truth)[::3]:
        assert page.js("(n) => regelwerkViewer.stateAt(n)", n) == p.truth[n], f"position {n}"
    # walking backwards step by step reaches the same states
    last = max(p.truth)
    page.js("(t) => regelwerkViewer.go(t)", last)
    for n in sorted((k for k in p.truth if k > last - 40), reverse=True):
        page.js("(t) => regelwerkViewer.go(t)", n)
        assert page.js("(n) => regelwerkViewer.stateAt(n)", n) == p.truth[n]


def test_a_players_page_hides_the_other_hand(played: dict[str, Played], opened):
    p = played["canary"]
    page = opened(p.page_for("Ann"), step=len(p.lines) - 2)
    row = page.page.locator('#panel-players tr[data-var="hand"]')
    bob = row.locator('td[data-player="Bob"]').inner_text()
    ann = row.locator('td[data-player="Ann"]').inner_text()
    assert "hidden" in bob and row.locator('td[data-player="Bob"] .chip').count() == 0
    final = p.truth[max(p.truth)]
    assert sorted(ann.split()) == sorted(final["hand"]["Ann"])
    assert "as seen by Ann" in page.page.inner_text("#meta")
    # the whole page, as rendered at every step, never shows Bob's secret cards
    everything = []
    for n in range(page.js("regelwerkViewer.steps()") + 1):
        page.js("(t) => regelwerkViewer.go(t)", n)
        everything.append(page.page.inner_text("body"))
    full = opened(p.page, step=len(p.lines) - 2)
    bob_cards = set(final["hand"]["Bob"]) - set(final["pile"])
    text = "\n".join(everything)
    secret = bob_cards - set(final["hand"]["Ann"]) - _revealed(p, "Ann")
    assert secret and not [c for c in secret if c in text]
    assert all(c in full.page.inner_text('#panel-players tr[data-var="hand"]') for c in final["hand"]["Bob"])


def _revealed(p: Played, to: str) -> set[str]:
    out = set()
    for s in p.lines[1:]:
        for e in s.get("events", []):
            if e.get("event") == "reveal" and e.get("to") == to:
                out.add(e["value"])
        for c in s.get("changes", []):
            if c["path"] == "pile":
                out |= set(c["old"]) | set(c["new"])
    return out


def test_timeline_controls_jump_and_find(played: dict[str, Played], opened):
    p = played["shogun"]
    page = opened(p.page)
    page.page.fill("#jump", "120")
    page.page.press("#jump", "Enter")
    at = page.js("regelwerkViewer.position()")
    assert p.lines[at]["step"] <= 120 and (at == len(p.lines) - 2 or p.lines[at + 1]["step"] > 120)
    # the next decision by one player
    page.page.select_option("#find-kind", "decision:Red")
    page.page.click("#find-next")
    pos = page.js("regelwerkViewer.position()")
    step = p.lines[pos]
    assert step["decision"]["by"] == "Red" and pos > at
    assert all(not (s.get("decision") and s["decision"]["by"] == "Red") for s in p.lines[at + 1:pos])
    # the next step of a rule, then of a spec id
    rule = next(s["rule"] for s in p.lines[pos + 1:-1] if s["rule"] != step["rule"])
    page.page.select_option("#find-kind", "rule:" + rule)
    page.page.click("#find-next")
    assert p.lines[page.js("regelwerkViewer.position()")]["rule"] == rule
    spec_step = next(s for s in p.lines[page.js("regelwerkViewer.position()") + 1:-1] if s["spec"])
    page.page.select_option("#find-kind", "spec:" + spec_step["spec"][0])
    page.page.click("#find-next")
    got = p.lines[page.js("regelwerkViewer.position()")]
    assert spec_step["spec"][0] in got["spec"] and got["step"] <= spec_step["step"]
    # keys: arrows, n / p, Home / End
    page.page.click("h1")
    before = page.js("regelwerkViewer.position()")
    page.page.keyboard.press("ArrowRight")
    page.page.keyboard.press("ArrowRight")
    page.page.keyboard.press("ArrowLeft")
    assert page.js("regelwerkViewer.position()") == before + 1
    page.page.keyboard.press("End")
    assert page.js("regelwerkViewer.position()") == len(p.lines) - 2
    page.page.keyboard.press("Home")
    assert page.js("regelwerkViewer.position()") == 0


def test_narrow_window_has_no_sideways_scrolling(played: dict[str, Played], opened):
    page = opened(played["root"].page, width=400, height=800, step=50)
    assert page.js("document.documentElement.scrollWidth") <= 401
    box = page.page.locator("figure.board svg").bounding_box()
    assert box and box["width"] > 300
    page.page.evaluate("document.documentElement.style.fontSize = '200%'")  # text scales
    assert page.js("parseFloat(getComputedStyle(document.querySelector('h1')).fontSize)") >= 40


def test_save_page_shows_the_position_and_its_legal_moves(tmp_path: Path, opened):
    rules = regelwerk.load("rulesets/shogun/shogun.rules")
    game = rules.new_game(players=3, seed=5)
    for _ in range(12):
        game.apply(game.legal_actions()[-1])
    save = tmp_path / "s.json"
    save.write_text(json.dumps(game.to_json()), encoding="utf-8")
    out = tmp_path / "s.html"
    out.write_text(page_for(str(save)), encoding="utf-8")
    page = opened(out)
    assert page.page.locator("#timeline").is_hidden()
    legal = page.page.locator("#legal li").all_inner_texts()
    assert legal == [str(a) for a in game.legal_actions()]
    owned = [q for q, who in game.vars["owner"].items() if who is not None]
    node = page.page.locator(f'g.sq[data-square="{owned[0]}"] circle').first
    assert node.get_attribute("fill").lower() == page.js("(p) => JSON.parse(document.getElementById('regelwerk-data').textContent).colours[p]", game.vars["owner"][owned[0]]).lower()


def test_an_authored_note_is_shown_apart_from_the_rulebook(played: dict[str, Played], opened, tmp_path: Path):
    """Traces will carry `note` (authored text, not in the rulebook) beside `quote`."""
    p = played["khan"]
    lines = p.trace.read_text(encoding="utf-8").splitlines()
    first = next(i for i, x in enumerate(lines) if '"decision":{' in x)
    step = json.loads(lines[first])
    step["note"] = "Authored: the designers' reading of this sentence."
    lines[first] = json.dumps(step)
    trace = tmp_path / "noted.jsonl"
    trace.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "noted.html"
    out.write_text(page_for(str(trace), str(p.rules)), encoding="utf-8")
    page = opened(out, step=step["step"])
    assert page.page.inner_text("#note").endswith(step["note"])
    assert step["note"] not in page.page.inner_text("#quote")
    assert page.js("getComputedStyle(document.querySelector('#note')).fontFamily") != \
        page.js("getComputedStyle(document.querySelector('#quote')).fontFamily")
