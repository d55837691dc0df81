"""The seat's page and the lobby in real Chromium (Debian's, driven by Playwright), one
browser context per player, against a real `regelwerk serve` (issue 26): a whole tic-tac-toe
game between two people, a Kuhn hand where each sees only their own card, a Khan turn with a
choice inside an effect, a reconnect after a server restart."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the browser extra is not installed")
from .server_proc import ROOT, ServerProcess  # noqa: E402

RULES = [str(ROOT / "rulesets/classic/tictactoe.rules"), str(ROOT / "rulesets/examples/kuhn.rules"),
         str(ROOT / "rulesets/khan/khan.rules")]
# screenshots for a person to judge; docs/img/serve-*.png were made with REGELWERK_SERVE_SHOTS=docs/img
SHOTS = Path(os.environ.get("REGELWERK_SERVE_SHOTS") or tempfile.gettempdir())


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("browser")
    srv = ServerProcess(RULES, str(folder / "games.sqlite"), folder)
    srv.start()
    yield srv
    srv.stop()


class Seat:
    """One player's own browser context and page, with what it logged."""

    def __init__(self, browser: Any, url: str):
        self.context = browser.new_context(viewport={"width": 1200, "height": 900}, bypass_csp=True)  # for wait_for_function
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error"
                     and "status of 422" not in m.text else None)  # an illegal try is answered 422
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(url)
        self.page.wait_for_selector("#conn.live")

    def status(self) -> str:
        return self.page.inner_text("#status")

    def close(self) -> None:
        self.context.close()


def create(server: ServerProcess, ruleset: str, **body: Any) -> dict:
    status, g = server.request("POST", "/api/games", {"ruleset": ruleset, **body})
    assert status == 201, g
    return g


def test_lobby_creates_a_game(server: ServerProcess, browser: Any) -> None:
    page = browser.new_context().new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#rulesets li")
    assert "Tic-tac-toe" in page.inner_text("#rulesets")
    page.select_option("#ruleset", "tictactoe")
    page.select_option("#seats select[data-player=O]", "random")
    page.click("#create button[type=submit]")
    page.wait_for_selector("#links a[data-seat=X]")
    assert page.locator("#links a[data-seat=O]").count() == 0  # a bot seat has no link
    page.click("#links a[data-seat=X]")
    page.wait_for_selector("#conn.live")
    assert page.inner_text("#status") == "Your decision."
    page.context.close()


def test_a_whole_tictactoe_game_between_two_people(server: ServerProcess, browser: Any) -> None:
    g = create(server, "tictactoe", seed=1, seats={})
    x = Seat(browser, server.base + g["seats"]["X"]["url"])
    o = Seat(browser, server.base + g["seats"]["O"]["url"])
    assert x.status() == "Your decision." and o.status().startswith("Waiting for X")
    # X plays on the board, O from the list; an illegal try is answered with its reason
    for seat, how, square in [(x, "board", "b2"), (o, "list", "a1"), (x, "board", "a3"), (o, "try", "b2"),
                              (o, "list", "c1"), (x, "board", "b1"), (o, "board", "c2"), (x, "board", "b3")]:
        other = o if seat is x else x
        if how == "board":
            seat.page.click(f"#boards [data-square={square}].target")
        elif how == "list":
            seat.page.click(f"#moves button[data-move='place({square})']")
        else:
            seat.page.fill("#move-text", f"place({square})")
            seat.page.click("#typed button")
            seat.page.wait_for_function("document.getElementById('message').textContent.includes('Not possible')")
            assert "taken" in seat.page.inner_text("#message")
            continue
        other.page.wait_for_function("document.getElementById('status').textContent === 'Your decision.'"
                                     " || document.getElementById('result-card').hidden === false")
    for seat in (x, o):
        seat.page.wait_for_selector("#result-card:not([hidden])")
        assert "Winner: X" in seat.page.inner_text("#result")
    assert "(you won)" in x.page.inner_text("#result") and "(you did not win)" in o.page.inner_text("#result")
    assert x.page.locator("#trace li").count() >= 8
    x.page.screenshot(path=str(SHOTS / "serve-tictactoe.png"))
    assert not x.errors and not o.errors, x.errors + o.errors
    x.close(), o.close()


def test_a_kuhn_hand_each_sees_only_their_own_card(server: ServerProcess, browser: Any) -> None:
    g = create(server, "kuhn", seed=1, seats={})  # seed 1: Ann holds the jack, Bob the queen
    ann = Seat(browser, server.base + g["seats"]["Ann"]["url"])
    bob = Seat(browser, server.base + g["seats"]["Bob"]["url"])
    watch = Seat(browser, server.base + g["watch"])
    ann_text, bob_text, watch_text = (s.page.inner_text("body") for s in (ann, bob, watch))
    assert "jack" in ann_text and "queen" not in ann_text
    assert "queen" in bob_text and "jack" not in bob_text
    assert "jack" not in watch_text and "queen" not in watch_text
    assert "You are watching" in watch_text
    ann.page.click("#moves button >> nth=0")
    bob.page.wait_for_function("document.getElementById('status').textContent === 'Your decision.'")
    assert "jack" not in bob.page.inner_text("body")
    ann.page.screenshot(path=str(SHOTS / "serve-kuhn.png"))
    assert not ann.errors and not bob.errors and not watch.errors
    ann.close(), bob.close(), watch.close()


def test_a_khan_turn_with_a_choice_inside_an_effect(server: ServerProcess, browser: Any) -> None:
    g = create(server, "khan", players=3, seed=0, seats={"Yellow": "random", "Blue": "random"})
    red = Seat(browser, server.base + g["seats"]["Red"]["url"])
    red.page.click("#moves button[data-move='free_invasion(b11)']")
    red.page.wait_for_selector("#prompt:not([hidden])")
    assert "kaarten" in red.page.inner_text("#prompt")  # the rules' own Dutch question
    assert red.page.locator("#moves button[data-move='choose([])']").count() == 1
    red.page.screenshot(path=str(SHOTS / "serve-khan.png"))
    red.page.click("#moves button[data-move='choose([])']")
    red.page.wait_for_function("document.getElementById('prompt').hidden")
    assert red.page.locator("#trace li").count() > 2
    assert not red.errors, red.errors
    red.close()


def test_the_page_reconnects_after_a_server_restart(server: ServerProcess, browser: Any) -> None:
    g = create(server, "tictactoe", seed=2, seats={})
    x = Seat(browser, server.base + g["seats"]["X"]["url"])
    o = Seat(browser, server.base + g["seats"]["O"]["url"])
    x.page.click("#moves button[data-move='place(b2)']")
    o.page.wait_for_function("document.getElementById('status').textContent === 'Your decision.'")
    server.kill9()
    o.page.wait_for_selector("#conn.lost")
    server.start()
    o.page.wait_for_selector("#conn.live", timeout=20000)
    x.page.wait_for_selector("#conn.live", timeout=20000)
    o.page.click("#moves button[data-move='place(a1)']")  # the game goes on where it was
    x.page.wait_for_function("document.getElementById('status').textContent === 'Your decision.'")
    assert x.page.locator("#moves button[data-move='place(b2)']").count() == 0
    x.close(), o.close()
