"""Headless Chromium for the viewer's tests, benchmark and screenshots: Debian's `chromium`
driven by Playwright (which only drives it; no browser is downloaded)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def chromium_path() -> str:
    """The browser: $REGELWERK_CHROMIUM, else Debian's /usr/bin/chromium."""
    path = os.environ.get("REGELWERK_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).exists():
        raise RuntimeError(f"no Chromium at {path}: `make test` installs Debian's chromium "
                           "(or set REGELWERK_CHROMIUM)")
    return path


@contextmanager
def chromium() -> Iterator[Any]:
    """A running headless browser (closed afterwards)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


class Opened:
    """A page opened from disk, with everything it printed to the console and every
    request that was not for the file itself."""

    def __init__(self, browser: Any, path: Path, width: int = 1280, height: int = 900, step: int | None = None):
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page = browser.new_page(viewport={"width": width, "height": height})
        self.page.on("console", lambda m: self.errors.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        url = path.resolve().as_uri()
        self.page.on("request", lambda r: self.requests.append(r.url) if not r.url.startswith(url) else None)
        self.page.goto(url + (f"#step={step}" if step is not None else ""))
        self.page.wait_for_function("window.regelwerkViewer !== undefined")

    def js(self, expr: str, arg: Any = None) -> Any:
        return self.page.evaluate(expr, arg)

    def close(self) -> None:
        self.page.close()
