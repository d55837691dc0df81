"""Shared set-up for the server's tests: an app over a few rulesets and a fresh sqlite file."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the serve extra is not installed (pip install -e '.[serve]')")

with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2; httpx works the same
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from regelwerk.serve.app import build_app  # noqa: E402
from regelwerk.serve.catalogue import Catalogue  # noqa: E402
from regelwerk.serve.store import SqliteStore  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CANARY = ROOT / "tests/fixtures/visibility/canary.rules"
SMALL = [ROOT / "rulesets/classic/tictactoe.rules", ROOT / "rulesets/examples/kuhn.rules",
         ROOT / "rulesets/examples/goofspiel.rules", CANARY]


@pytest.fixture(scope="session")
def small_catalogue() -> Catalogue:
    return Catalogue([str(p) for p in SMALL])


@pytest.fixture
def client(small_catalogue: Catalogue, tmp_path: Path) -> Iterator[TestClient]:
    store = SqliteStore(str(tmp_path / "games.sqlite"))
    with TestClient(build_app(small_catalogue, store), raise_server_exceptions=False) as c:
        yield c
    store.close()
