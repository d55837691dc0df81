"""One real `regelwerk lsp` process shared by the read-only tests; tests that edit or need
other settings start their own."""

from __future__ import annotations

from pathlib import Path

import pytest

from .lsp_client import LspClient

pytest.importorskip("pygls", reason="the lsp extra is not installed")

ROOT = Path(__file__).resolve().parents[2]
KHAN = ROOT / "rulesets" / "khan" / "khan.rules"
KHAN_ACTIONS = ROOT / "rulesets" / "khan" / "scenarios-actions.rules"
TICTACTOE = ROOT / "rulesets" / "classic" / "tictactoe.rules"
INVENTORY = """# Khan inventory (a test copy)

26. **KHAN-2C-03: the formal condition**
    - Rule: Put precisely, the tile must cover at least one of the player's own yurts.
    - Class: precondition

27. **KHAN-2C-04: sole majority**
"""


@pytest.fixture(scope="session")
def spec_dir(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("spec")
    (folder / "khan.md").write_text(INVENTORY, encoding="utf-8")
    return folder


@pytest.fixture(scope="session")
def client(spec_dir):
    c = LspClient(init_options={"specDir": str(spec_dir)})
    yield c
    assert c.shutdown() == 0
    assert not [line for line in c.stderr_lines if "Traceback" in line], c.stderr_lines


@pytest.fixture(scope="session")
def khan(client) -> str:
    """khan.rules, opened once; its diagnostics are checked by a test."""
    u = client.open(KHAN)
    client.khan_diagnostics = client.diagnostics(u)
    return u


def write(folder: Path, name: str, text: str) -> Path:
    """A rules file of a test's own, so tests can share one server without meeting."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def fresh():
    """A server of its own, for tests that edit documents."""
    c = LspClient()
    yield c
    assert c.shutdown() == 0
    assert not [line for line in c.stderr_lines if "Traceback" in line], c.stderr_lines
