"""Grammar-generated rules texts (grammar.py): every text checks clean or fails with located
diagnostics, never a traceback, a hang or exit 70; a text that checks clean plays a short
random game that ends or fails with a located engine error."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from .grammar import rules_text, typed_rules_text
from .tally import outcome_of_cli, outcome_of_load, outcome_of_play, record

FEW = settings(max_examples=150, deadline=None, database=None,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
MANY = settings(FEW, max_examples=3000)
TYPED_FEW = settings(FEW, max_examples=80)
TYPED_MANY = settings(FEW, max_examples=1500)


def check_text(folder: Path, text: str, n: int) -> None:
    path = folder / f"g{n % 7}.rules"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    outcome, found = outcome_of_load(path)
    assert record("grammar", outcome) in ("ok", "located"), (outcome, found, text)
    if outcome == "ok":
        played, err = outcome_of_play(found, seed=n)
        assert record("grammar-play", played) in ("ok", "located"), (played, err, text)
    if n % 5 == 0:
        cli, err = outcome_of_cli(["check", str(path)])
        assert record("grammar-cli", cli) in ("ok", "located"), (cli, err, text)


class Counter:
    n = 0


def _run(tmp_path_factory, text: str) -> None:
    Counter.n += 1
    check_text(tmp_path_factory.getbasetemp(), text, Counter.n)


@FEW
@given(text=rules_text())
def test_generated_texts(tmp_path_factory, text: str):
    _run(tmp_path_factory, text)


@pytest.mark.slow
@MANY
@given(text=rules_text())
def test_generated_texts_many(tmp_path_factory, text: str):
    _run(tmp_path_factory, text)


@TYPED_FEW
@given(text=typed_rules_text())
def test_generated_games(tmp_path_factory, text: str):
    _run(tmp_path_factory, text)


@pytest.mark.slow
@TYPED_MANY
@given(text=typed_rules_text())
def test_generated_games_many(tmp_path_factory, text: str):
    _run(tmp_path_factory, text)
