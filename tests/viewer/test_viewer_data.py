"""The viewer's Python side: change paths, reconstruction against the engine, boards and
layout, the page's self-containment, and what a player's page may hold."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from viewer_games import Played

import regelwerk
from regelwerk.viewer import page_for, trace_data
from regelwerk.viewer.boards import describe_boards, player_colours
from regelwerk.viewer.inputs import read_trace_file
from regelwerk.viewer.layout import layout
from regelwerk.viewer.page import data_json
from regelwerk.viewer.paths import PathError, resolve, split_path
from regelwerk.viewer.reconstruct import resolve_changes, start_game, state_of, states


def page_data(html: str) -> dict:
    m = re.search(r'<script type="application/json" id="regelwerk-data">(.*?)</script>', html, re.S)
    assert m, "no data script"
    return json.loads(m.group(1))


def test_split_path_keeps_bracketed_keys():
    assert split_path("moves") == ["moves"]
    assert split_path("warriors[Duchy][c5]") == ["warriors", "Duchy", "c5"]
    assert split_path("seen[[a1, b2]]") == ["seen", "[a1, b2]"]
    with pytest.raises(PathError):
        split_path("x[a")


def test_resolve_finds_json_keys_and_refuses_what_does_not_fit():
    state = {"army": {"A": [{"strength": 1}]}, "flags": {"True": 1}}
    assert resolve(state, ["army", "A", "0", "strength"]) == ["army", "A", 0, "strength"]
    assert resolve(state, ["flags", "true"]) == ["flags", "True"]
    for bad in (["nope"], ["army", "A", "3"], ["army", "B", "0"], ["army", "A", "x"]):
        with pytest.raises(PathError):
            resolve(state, bad)


@pytest.mark.parametrize("name", ["khan", "shogun", "root", "canary"])
def test_reconstruction_matches_the_replayed_game(played: dict[str, Played], name: str):
    """Start values + the trace's changes give, after every step that ended at a decision,
    exactly the state the engine had there."""
    p = played[name]
    trace = read_trace_file(str(p.trace))
    ruleset = regelwerk.load(p.rules)
    start = state_of(start_game(ruleset, trace))
    resolve_changes(start, trace)
    positions = states(start, trace.steps)
    assert len(positions) == len(trace.steps) + 1
    assert len(p.truth) > 5
    for n, truth in p.truth.items():
        assert positions[n] == truth, f"{name}: the state after {n} steps differs"


def test_grid_and_graph_boards_are_described_from_display():
    khan = describe_boards(regelwerk.load("rulesets/khan/khan.rules").model)
    assert [b["name"] for b in khan] == ["Land"]
    shapes = {x["name"]: (x["shape"], x["values"], x["source"]) for x in khan[0]["layers"]}
    assert shapes == {"terrain": ("cells", "value", "const"), "neutral": ("marks", "flag", "state"),
                      "yurt": ("cells", "player", "state"), "tile_on": ("cells", "value", "state"),
                      "ruler_at": ("pieces", "value", "state")}
    assert len(khan[0]["squares"]) == 144 and ["a12", 0, 0] in khan[0]["squares"]
    root = describe_boards(regelwerk.load("rulesets/root/root.rules").model)[0]
    assert root["kind"] == "graph" and len(root["nodes"]) == 13
    assert {"name": "warriors", "source": "state", "shape": "per_player", "values": "count",
            "extra": True} in root["layers"]
    ttt = describe_boards(regelwerk.load("rulesets/classic/tictactoe.rules").model)[0]
    assert [x["name"] for x in ttt["layers"]] == ["cell"]


def test_layout_is_deterministic_and_spread(tmp_path: Path):
    model = regelwerk.load("rulesets/shogun/shogun.rules").model
    nodes, edges = model.graphs["Province"]
    a, b = layout(nodes, edges), layout(nodes, edges)
    assert a == b
    pts = list(a.values())
    assert all(0 <= x <= 1 and 0 <= y <= 1 for x, y in pts)
    closest = min(((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5 for i, (x1, y1) in enumerate(pts)
                  for (x2, y2) in pts[i + 1:])
    assert closest > 0.05
    # neighbours are drawn nearer than the average pair
    mean_edge = sum(((a[u][0] - a[v][0]) ** 2 + (a[u][1] - a[v][1]) ** 2) ** 0.5 for u, v in edges) / len(edges)
    mean_all = sum(((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5 for i, (x1, y1) in enumerate(pts)
                   for (x2, y2) in pts[i + 1:]) / (len(pts) * (len(pts) - 1) / 2)
    assert mean_edge < mean_all / 2


def test_positions_in_the_graph_file_are_used(tmp_path: Path):
    (tmp_path / "map.json").write_text(json.dumps({
        "nodes": ["north", "south", "east"], "edges": [["north", "south"], ["south", "east"]],
        "positions": {"north": [0, 0], "south": [0, 10], "east": [5, 10]}}), encoding="utf-8")
    (tmp_path / "g.rules").write_text(
        'players A, B\nboard Map = graph from "map.json"\nstate\n    owner: Map -> Player? = none\n'
        "action claim(n: Map)\n    set owner[n] = current\nflow\n    repeat\n        turn\n            play claim\n",
        encoding="utf-8")
    board = describe_boards(regelwerk.load(tmp_path / "g.rules").model)[0]
    assert board["nodes"] == [["north", 0.0, 0.0], ["south", 0.0, 1.0], ["east", 0.5, 1.0]]


def test_player_colours_are_colour_blind_safe_and_follow_names():
    c = player_colours(["Red", "Yellow", "Blue", "Green"])
    assert c == {"Red": "#D55E00", "Yellow": "#F0E442", "Blue": "#0072B2", "Green": "#009E73"}
    c = player_colours(["Marquise", "Duchy"])
    assert c["Duchy"] != c["Marquise"]


def test_page_is_self_contained_and_small(played: dict[str, Played]):
    html = played["khan"].page.read_text(encoding="utf-8")
    assert "Content-Security-Policy" in html and "default-src 'none'" in html
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", html)
    assert re.findall(r"https?://[^\s\"'<>)]+", html) == ["http://www.w3.org/2000/svg"] * html.count("http://www.w3.org/2000/svg")
    data = page_data(html)
    assert len(data["steps"]) == len(played["khan"].lines) - 2  # header and result
    assert len(html.encode()) < 1_000_000


def test_data_cannot_end_its_script_element():
    text = data_json({"quote": "</script><script>alert(1)</script> & <!--"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == {"quote": "</script><script>alert(1)</script> & <!--"}


def test_rules_texts_are_kept_once(played: dict[str, Played]):
    data = page_data(played["root"].page.read_text(encoding="utf-8"))
    keys = [(r["rule"], r["kind"], r["at"]) for r in data["rules"]]
    assert len(keys) == len(set(keys))
    assert all("quote" not in s for s in data["steps"])
    first = next(s for s in played["root"].lines[1:] if s.get("quote"))
    assert data["rules"][data["steps"][first["step"]]["rule"]]["quote"] == first["quote"]


# ---------------------------------------------------------------------- what a player sees
def _secrets_for_ann(p: Played) -> set[str]:
    """Cards Ann never saw: ever in Bob's hand, offer or the deck, never public, never in
    her hand, never revealed to her (from the engine's own states and the full trace)."""
    cards = set(regelwerk.load(p.rules).model.enums["Card"].members)
    seen: set[str] = set()
    for st in p.truth.values():
        seen |= set(st["pile"]) | set(st["hand"]["Ann"])
    for step in p.lines[1:]:
        for c in step.get("changes", []):
            if c["path"] in ("pile", "hand[Ann]"):
                seen |= set(c["new"] or [])
        for e in step.get("events", []):
            if e.get("event") == "reveal" and e.get("to") == "Ann":
                seen.add(e["value"])
    return cards - seen


def test_a_players_page_holds_nothing_they_may_not_see(played: dict[str, Played]):
    p = played["canary"]
    secrets = _secrets_for_ann(p)
    assert len(secrets) >= 3, "the canary game must keep some of Bob's cards from Ann"
    full = p.page.read_text(encoding="utf-8")
    leaked_checks = [v for s in page_data(full)["steps"] for c in s.get("checks", [])
                     for v in c.get("values", {}).values()]
    assert secrets & set(re.findall(r"[a-z]+", json.dumps(leaked_checks))), \
        "the game must have checks that look at hidden cards, or this test proves nothing"
    assert any(s.get("decision", {}).get("by") == "Bob" and s["rule"] != "peek" for s in page_data(full)["steps"])
    ann = p.page_for("Ann").read_text(encoding="utf-8")
    found = {s for s in secrets if re.search(rf"\b{s}\b", ann)}
    assert not found, f"Ann's page shows {sorted(found)}"
    data = page_data(ann)
    assert data["viewer"] == "Ann" and data["seed"] is None  # the seed would replay every shuffle
    assert data["start"]["deck"] == {"hidden": 0}


def test_a_players_page_keeps_public_values():
    data = trace_data("tests/golden/climb-seed7.jsonl", "rulesets/examples/climb.rules", "North")
    lay = next(s for s in data["steps"] if s.get("decision", {}).get("action", "").startswith("lay"))
    assert lay["bindings"] != {} and "hidden" not in json.dumps(lay["bindings"])
    values = {k: v for c in lay["checks"] for k, v in c["values"].items()}
    assert values["beats(c)"] is True and values["c"] == lay["bindings"]["c"]
    take = next(s for s in data["steps"] if s.get("decision", {}).get("action") == "take")
    values = {k: v for c in take["checks"] for k, v in c["values"].items()}
    assert values["deck != []"] is True  # the deck's cards are nobody's to see, its size everybody's (issue 22)


def test_an_owner_hidden_map_written_whole_is_masked_per_entry():
    from regelwerk.viewer.visibility import Secrets

    model = regelwerk.load("rulesets/examples/climb.rules").model
    step = {"step": 0, "rule": "deal", "changes": [
        {"path": "hand", "old": {"North": [], "East": []}, "new": {"North": [1, 2], "East": [3, 4]}}]}
    seen = Secrets(model).step(step, "North")["changes"][0]
    assert seen["new"] == {"North": [1, 2], "East": {"hidden": 2}}


def test_save_page_has_the_position_and_the_deciders_moves(tmp_path: Path):
    rules = regelwerk.load("rulesets/khan/khan.rules")
    game = rules.new_game(players=3, seed=4)
    for _ in range(5):
        game.apply(game.legal_actions()[0])
    save = tmp_path / "s.json"
    save.write_text(json.dumps(game.to_json()), encoding="utf-8")
    data = page_data(page_for(str(save)))
    assert data["mode"] == "position" and data["legal"] == [str(a) for a in game.legal_actions()]
    decider = game.decision_player()
    other = next(p for p in game.players if p != decider)
    hidden = page_data(page_for(str(save), None, other))
    assert hidden["legal"] is None and hidden["pending"]["player"] == decider
    assert all(isinstance(v, dict) and "hidden" in v for k, v in hidden["start"]["hand"].items() if k != other)


@pytest.mark.parametrize("name", ["khan", "shogun", "root"])
def test_docs_keep_a_picture_of_each_seed_game(name: str):
    """README and docs/viewer.md show these; `tests/viewer/screenshots.py` remakes them."""
    png = Path(__file__).resolve().parents[2] / "docs" / "img" / f"viewer-{name}.png"
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert width >= 1000 and height >= 600


def test_the_games_own_note_is_on_the_page(played: dict[str, Played]):
    """Root's note (its results depend on unverified values) belongs wherever its results are shown."""
    p = played["root"]
    data = trace_data(str(p.trace), str(p.rules))
    assert "unverified" in data["game_note"]
    assert "unverified building, crown and card values" in p.page.read_text(encoding="utf-8")
