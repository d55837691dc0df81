"""Shared set-up for the viewer's tests: games played once per session, their traces and
pages (the headless Chromium they share with every browser test is tests/conftest.py's)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from viewer_browser import Opened
from viewer_games import GAMES, Played, play


@pytest.fixture(scope="session")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Played]:
    folder = tmp_path_factory.mktemp("viewer")
    return {name: play(name, folder) for name in GAMES}


@pytest.fixture
def opened(browser: Any):
    """Open pages; every page is checked for console errors and network requests at the end."""
    pages: list[Opened] = []

    def open_page(path: Path, **kw: Any) -> Opened:
        p = Opened(browser, path, **kw)
        pages.append(p)
        return p

    yield open_page
    for p in pages:
        assert p.errors == [], f"console errors in {p.page.url}: {p.errors}"
        assert p.requests == [], f"the page tried to load {p.requests}"
        p.close()
