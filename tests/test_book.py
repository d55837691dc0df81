"""`regelwerk book FILE.rules` (issue 28, part 2): the ruleset as one self-contained page, every
rule in the order of play with its Dutch quote, our note (marked as such), its spec ids, its
text and the scenarios that exercise it, with a picture of their position; the spec index."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import regelwerk
from regelwerk.book import build_book
from regelwerk.book.collect import flow_order
from regelwerk.cli import main

ROOT = Path(__file__).resolve().parent.parent
KHAN = ROOT / "rulesets" / "khan" / "khan.rules"
TTT = ROOT / "rulesets" / "classic" / "tictactoe.rules"


@pytest.fixture(scope="module")
def khan_page(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("book") / "khan.html"
    assert main(["book", str(KHAN), "--out", str(out)]) == 0
    return out


def test_the_rules_come_in_the_order_of_play():
    model = regelwerk.load(KHAN).model
    names = [(e.kind, e.name) for e in flow_order(model)]
    assert names[0] == ("procedure", "setup")  # the flow's first `do`
    assert names.index(("action", "invade")) < names.index(("action", "conquer")) < names.index(("procedure", "lay"))
    kinds = [k for k, _ in names]
    assert kinds.index("definition") > max(i for i, k in enumerate(kinds) if k in ("action", "procedure"))
    assert {n for k, n in names if k == "action"} == set(model.actions)  # every rule, once
    assert len(names) == len(set(names))


def test_each_rule_says_what_it_calls_and_what_calls_it(khan_page):
    """A rule's calls (the actions it plays, the procedures it does, the definitions and chance
    devices it uses), in its text's order, and its callers, each both ways and linked."""
    entries = {e.anchor: e for e in flow_order(regelwerk.load(KHAN).model)}
    conquer, lay = entries["action-conquer"], entries["procedure-lay"]
    assert conquer.calls.index("definition-has_majority") < conquer.calls.index("procedure-lay")
    assert "action-conquer" in lay.called_by and lay.calls == ["procedure-lay_bridge", "procedure-lay_tile"]
    assert entries["procedure-setup"].called_by == ["flow"]
    for a, e in entries.items():  # the two lists agree
        assert all(a in entries[c].called_by for c in e.calls) and len(set(e.calls)) == len(e.calls)
    html = khan_page.read_text(encoding="utf-8")
    part = html[html.index("id='procedure-lay'"):]
    part = part[:part.index("<pre>")]
    assert ("<b>Calls</b> <a href='#procedure-lay_bridge'>lay_bridge</a> <span class=kind>procedure</span>, "
            "<a href='#procedure-lay_tile'>lay_tile</a>") in part
    assert "<b>called by</b> <a href='#action-conquer'>conquer</a>" in part
    setup = html[html.index("id='procedure-setup'"):]
    assert "<b>called by</b> <a href='#flow'>the flow</a>" in setup[:setup.index("<pre>")] and "id=flow>" in html


def test_every_quote_note_spec_and_scenario_is_on_the_page(khan_page):
    html = khan_page.read_text(encoding="utf-8")
    model = regelwerk.load(KHAN).model
    from html import escape

    for decl in [*model.actions.values(), *model.procedures.values()]:
        if decl.prov.quote:
            assert f"<blockquote lang=nl>{escape(decl.prov.quote)}</blockquote>" in html, decl.name
        if decl.prov.note:
            assert f"<div class=note>{escape(decl.prov.note)}</div>" in html, decl.name
        for s in decl.prov.specs:
            assert f"href='#spec-{s}'" in html
    for i, sc in enumerate(model.scenarios):
        assert f"id='scenario-{i}'" in html and escape(sc.name) in html
    # a quote is the rulebook's, a note is ours: the page says which is which
    assert "content: 'Rulebook'" in html and "Note — not in the rulebook" in html
    # the rules text, with the keywords marked, and the source named
    assert "<span class=k>action</span> conquer(" in html and "khan.rules:328" in html
    # a declaration's text and link stop at its own last line, not where the next one begins
    conquer = html[html.index("id='action-conquer'"):]
    conquer = conquer[:conquer.index("</pre>")]
    assert "khan.rules:328–351" in conquer and "lay(t: Tile" not in conquer
    # the worked example of conquer's majority rule, with its boards (drawn by the page's script)
    start = html.index("Worked example: example 1: majority against neutral yurts")
    assert "<div class=example-boards data-example=" in html[start:start + 20_000]
    # every id the rules cite is in the index, linked to where it is cited
    for sid in {s for d in model.actions.values() for s in d.prov.specs}:
        assert f"<tr id='spec-{sid}'" in html


def test_the_page_needs_nothing_from_outside(khan_page):
    """Its style, program and data are inlined, and its Content-Security-Policy forbids every
    request: the page opens from disk and by mail."""
    html = khan_page.read_text(encoding="utf-8")
    csp = re.search(r'<meta http-equiv=Content-Security-Policy content="([^"]*)">', html).group(1)
    assert csp.startswith("default-src 'none';") and "connect-src" not in csp and "http" not in csp
    assert html.index("Content-Security-Policy") < html.index("<style>")  # before anything it governs
    assert re.findall(r"<script[^>]*>", html) == ["<script type=application/json id=regelwerk-data>", "<script>"]
    text = html.replace('"http://www.w3.org/2000/svg"', "")  # the SVG namespace is a name, not a fetch
    assert "http://" not in text and "https://" not in text
    assert not re.search(r"<link|@import|url\(|fetch\(|XMLHttpRequest|WebSocket", text)


def test_the_pages_boards_are_the_viewers_drawing():
    """One drawing for the viewer, the seat pages and the book: the page inlines the viewer's
    boards.js as it is, and each worked example carries its positions before its first move
    and at its end."""
    from regelwerk.viewer.page import boards_script

    html = build_book(regelwerk.load(TTT), TTT.parent)
    assert boards_script() in html
    assert "<noscript><p class=meta>The example boards are drawn by this page's own script" in html
    data = json.loads(re.search(r"<script type=application/json id=regelwerk-data>(.*?)</script>", html).group(1))
    assert [b["name"] for b in data["boards"]] == ["Square"] and data["colours"].keys() == {"X", "O"}
    ex = data["examples"]["0"]
    assert ex["before"] == {"cell": {}} or not any(ex["before"]["cell"].values())  # nothing placed yet
    assert {k: v for k, v in ex["after"]["cell"].items() if v} == {"a1": "X", "b1": "O", "b2": "X", "c1": "O", "c3": "X"}


def test_the_book_in_a_browser_shows_the_dutch_sentences_and_the_examples(khan_page, browser):
    """Headless Chromium opens the page from disk: no request leaves it, no error, and a reader
    sees the Dutch rulebook sentences and the worked examples (the session's browser,
    tests/conftest.py)."""
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    requests, errors = [], []
    url = khan_page.resolve().as_uri()
    page.on("request", lambda r: requests.append(r.url) if not r.url.startswith(url) else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url + "#action-conquer")
    text = page.inner_text("body")
    assert "De speler pakt een veroveringstegel" in text  # conquer's Dutch sentence
    assert "Worked example: example 1: majority against neutral yurts" in text
    # 48 of Khan's 59 examples play a move: each board before and after, the changes outlined
    assert page.locator("figure.board[data-when=before]").count() == 48
    assert page.locator("figure.board[data-when=after]").count() == 48
    example = page.locator(".example", has_text="example 1: majority against neutral yurts").first
    after = example.locator("figure.board[data-when=after]")
    assert "Land, after (" in after.inner_text() and after.locator("svg .hl").count() >= 1
    assert example.locator("figure.board[data-when=before] svg .hl").count() == 0
    assert example.locator(".legend").count() == 1
    quote = page.locator("#action-conquer ~ blockquote").first
    assert quote.evaluate("e => getComputedStyle(e).fontStyle") == "italic"
    assert requests == [] and errors == []
    page.close()


def test_a_ruleset_without_scenarios_or_inventory_still_has_its_book(tmp_path):
    rules = tmp_path / "tiny.rules"
    rules.write_text('game "Tiny"\nplayers A, B\naction go\n    "Go."\n    spec T-1\n    finish winner current\n'
                     'flow\n    turn\n        play go\n', encoding="utf-8")
    html = build_book(regelwerk.load(rules), tmp_path)
    assert "<blockquote lang=nl>Go.</blockquote>" in html and "T-1" in html
    assert "not reachable from here" in html  # no shared/spec above a temporary folder


def test_bad_input_is_a_message_not_a_traceback(tmp_path, capsys):
    assert main(["book", str(tmp_path / "none.rules")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["book", str(TTT), "--out", str(tmp_path / "no" / "such" / "x.html")]) == 2
    assert "no folder" in capsys.readouterr().err


def test_the_documented_example_runs_as_written(tmp_path, monkeypatch, capsys):
    text = (ROOT / "docs" / "book.md").read_text(encoding="utf-8")
    block = re.search(r"```console\n\$ regelwerk (book .*?)\n(.*?)```", text, re.S)
    args, shown = block.group(1).split(), block.group(2)
    monkeypatch.chdir(tmp_path)
    args[1] = str(ROOT / args[1])  # the ruleset, from the repository's root as the docs say
    assert main(args) == 0
    assert capsys.readouterr().out == shown
    assert (tmp_path / "ttt-book.html").read_text(encoding="utf-8").startswith("<!doctype html>")


SPEC = ROOT.parent / "shared" / "spec"


def _spec_rows(page: str) -> dict[str, str]:
    """Spec id -> its title cell in the page's index."""
    return dict(re.findall(r"<tr id='spec-([^']+)'[^>]*><td>[^<]*</td><td>(.*?)</td>", page))


@pytest.mark.skipif(not (SPEC / "ids.txt").is_file(), reason="the inventories (../shared/spec) are not here")
def test_every_inventory_id_has_its_own_title():
    """An id's entry is the line it starts, not an earlier line that mentions it: KHAN-1-09 was
    found at `**Reading:** ... counts as a ruler removal for KHAN-1-09 / KHAN-EF-01`, and 5 Khan,
    12 Shogun and 63 Root ids had a wrong or empty title in the hover and the book's index."""
    from regelwerk.lsp.specs import SpecInventory, entry_title

    inv = SpecInventory(str(SPEC))
    entry = inv.lookup("KHAN-1-09", str(KHAN))
    assert entry is not None and entry.file.endswith("khan.md") and entry.line == 114
    assert entry_title(entry, "KHAN-1-09") == "fifth removal starts the end phase"
    bad = []
    for line in (SPEC / "ids.txt").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        _, sid = line.split()
        entry = inv.lookup(sid, str(KHAN))
        title = entry_title(entry, sid) if entry is not None else None
        if not title or title.startswith("/") or sid not in entry.text.splitlines()[0]:
            bad.append((sid, title))
    assert bad == []


@pytest.mark.skipif(not (SPEC / "ids.txt").is_file(), reason="the inventories (../shared/spec) are not here")
def test_khans_spec_index_titles_each_id(khan_page):
    rows = _spec_rows(khan_page.read_text(encoding="utf-8"))
    assert rows["KHAN-1-09"].startswith("fifth removal starts the end phase <span class=meta>khan.md:114")
    assert len(rows) == 118 and all(t and not t.startswith(("/", "<")) for t in rows.values())


def test_an_ids_entry_is_its_heading_not_an_earlier_mention(tmp_path: Path):
    """A line that mentions an id beside other bold text (`**Reading:** ... for LUCKY-2`)
    before the id's own entry is not its entry, nor is a mention in an earlier file."""
    from regelwerk.lsp.specs import SpecInventory, entry_title

    spec = tmp_path / "spec"
    spec.mkdir()
    (spec / "lucky.md").write_text(
        "1. **LUCKY-1: seven wins**\n   - **Reading:** counts as a win for LUCKY-2 / OTHER-1. It does\n\n"
        "2. **LUCKY-2: a second rule**\n   - Rule: ...\n", encoding="utf-8")
    (spec / "a-notes.md").write_text("- **Note:** LUCKY-1 is read as in LUCKY-2.\n", encoding="utf-8")
    inv = SpecInventory(str(spec))
    entry = inv.lookup("LUCKY-2", str(tmp_path / "x.rules"))
    assert entry is not None and entry.line == 4 and entry.text.startswith("2. **LUCKY-2")
    assert entry_title(entry, "LUCKY-2") == "a second rule"
    entry = inv.lookup("LUCKY-1", str(tmp_path / "x.rules"))  # its entry, in a later file
    assert entry is not None and entry.file.endswith("lucky.md") and entry.line == 1


@pytest.mark.parametrize(("entry", "title"), [
    ("1. **LUCKY-1: seven wins**\n- Rule: the first to seven wins.", "seven wins"),
    ("### LUCKY-1: seven wins (F2:5-7)\n- Source: ...", "seven wins (F2:5-7)"),
    ("**6. `LUCKY-1`** — effect\n- Rule: The first to seven wins.", "The first to seven wins. (effect)"),
    ("- **LUCKY-1** (clarification): seven is seven.", "(clarification): seven is seven."),
    ("| id | rule |\n|---|---|\n| LUCKY-1 | seven wins |", "seven wins"),
])
def test_spec_titles_in_each_inventory_format(tmp_path: Path, entry: str, title: str):
    """Khan's `**ID: title**`, Shogun's `### ID: title` and `- **ID** (kind): text`, Root's
    `**6. `ID`** — kind` with its Rule line, and a table row each give their title in the
    book's index, past an earlier line that mentions the id."""
    spec = tmp_path / "shared" / "spec"
    spec.mkdir(parents=True)
    (spec / "ids.txt").write_text("lucky LUCKY-1\n", encoding="utf-8")
    (spec / "lucky.md").write_text(f"See LUCKY-1 below.\n\n{entry}\n", encoding="utf-8")
    rules = tmp_path / "lucky.rules"
    rules.write_text('game "Lucky"\nplayers A, B\naction go\n    spec LUCKY-1\n    finish winner current\n'
                     'flow\n    turn\n        play go\n', encoding="utf-8")
    from html import escape

    rows = _spec_rows(build_book(regelwerk.load(rules), tmp_path))
    assert rows["LUCKY-1"].startswith(f"{escape(title)} <span class=meta>lucky.md:"), rows
