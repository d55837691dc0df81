"""Shared fixtures: the bundled rulesets, loaded once per session."""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled import BUNDLED

import regelwerk

# The optional extras `make test` installs (pyproject.toml), by the module each one brings.
# Their tests skip where an extra is missing; `make test` sets REGELWERK_REQUIRE_EXTRAS=1, so
# in CI a missing extra fails the run instead of skipping its tests quietly.
EXTRAS = {"playwright": "browser", "pygls": "lsp", "pygments": "lsp", "matplotlib": "report",
          "distributed": "dask", "pyspiel": "openspiel", "starlette": "serve",
          "uvicorn": "serve", "psycopg": "serve"}


def pytest_configure(config: pytest.Config) -> None:
    import importlib.util
    import os

    if os.environ.get("REGELWERK_REQUIRE_EXTRAS") == "1":
        missing = sorted({f"{extra} ({module})" for module, extra in EXTRAS.items()
                          if importlib.util.find_spec(module) is None})
        if missing:
            raise pytest.UsageError(f"extras not installed: {', '.join(missing)}; "
                                    "`make test` installs them (pip install -e '.[...]')")


@pytest.fixture(scope="session")
def rulesets() -> dict[str, regelwerk.Ruleset]:
    return {name: regelwerk.load(path) for name, path in BUNDLED.items()}


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for every browser test of the run (viewer, book, serve). Playwright's
    sync API runs one instance per thread: when the viewer's session browser was still open as
    the serve tests started their own, those failed ("Sync API inside the asyncio loop")."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent / "viewer"))
    from viewer_browser import chromium

    with chromium() as b:
        yield b
