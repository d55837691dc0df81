"""Mutations of the real rulesets (and their included files): lines dropped, doubled, swapped
or re-indented, names swapped for other names of the same file, keywords for keywords,
numbers nudged, stray characters and bytes inserted, the file cut short. Every mutant checks
clean or fails with located diagnostics; one that checks plays a short game that ends or
fails located. Never a traceback, a hang or exit 70."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .tally import outcome_of_cli, outcome_of_load, outcome_of_play, record

ROOT = Path(__file__).resolve().parents[2]
SMALL = ["classic/tictactoe.rules", "classic/connect4.rules", "classic/breakthrough.rules",
         "examples/climb.rules", "examples/pig.rules"]
BIG = {"khan/khan.rules": ["khan/khan.rules", "khan/scenarios-actions.rules"],
       "root/root.rules": ["root/root.rules", "root/duchy.rules", "root/marquise.rules"],
       "shogun/shogun.rules": ["shogun/shogun.rules"]}
KEYWORDS = ["action", "procedure", "require", "set", "add", "remove", "move", "draw", "if", "else", "for",
            "repeat", "while", "turn", "phase", "play", "choose", "finish", "do", "let", "state", "flow",
            "hidden", "when", "on", "goto", "break", "in", "not", "and", "or", "define", "const", "data"]
JUNK = ["$", "\t", "(", ")", "]", "[", "{", '"', "\u2028", "\x00", "é", "#", ":", "->", "..", "\\", "\r",
        "\ufeff", "𝔸", "0" * 60, "[" * 70, "not " * 200, "\udcff"]
WORD = re.compile(r"[A-Za-z_]\w*")
NUMBER = re.compile(r"\b\d+\b")


@pytest.fixture(scope="module")
def copies(tmp_path_factory) -> Path:
    """The rulesets copied once; a mutant is written over its file and put back after."""
    base = tmp_path_factory.mktemp("mutants")
    shutil.copytree(ROOT / "rulesets", base / "rulesets")
    return base / "rulesets"


@st.composite
def mutant(draw: st.DrawFn, text: str) -> str:
    lines = text.split("\n")
    for _ in range(draw(st.integers(1, 3))):
        if not lines:
            lines = [""]
        op = draw(st.sampled_from(["drop", "double", "swap", "indent", "name", "keyword", "number", "junk",
                                   "cut", "join"]))
        i = draw(st.integers(0, max(len(lines) - 1, 0)))
        line = lines[i] if lines else ""
        if op == "drop" and lines:
            del lines[i]
        elif op == "double" and lines:
            lines.insert(i, line)
        elif op == "swap" and lines:
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "indent":
            delta = draw(st.sampled_from([-4, -1, 1, 4]))
            lines[i] = " " * delta + line if delta > 0 else line[min(-delta, len(line) - len(line.lstrip(" "))):]
        elif op == "name":
            words = WORD.findall(text)
            spots = list(WORD.finditer(line))
            if words and spots:
                m = spots[draw(st.integers(0, len(spots) - 1))]
                lines[i] = line[:m.start()] + draw(st.sampled_from(sorted(set(words)))) + line[m.end():]
        elif op == "keyword":
            spots = [m for m in WORD.finditer(line) if m.group() in KEYWORDS]
            if spots:
                m = spots[draw(st.integers(0, len(spots) - 1))]
                lines[i] = line[:m.start()] + draw(st.sampled_from(KEYWORDS)) + line[m.end():]
        elif op == "number":
            spots = list(NUMBER.finditer(line))
            if spots:
                m = spots[draw(st.integers(0, len(spots) - 1))]
                n = int(m.group())
                lines[i] = line[:m.start()] + str(draw(st.sampled_from([0, 1, n + 1, max(n - 1, 0), n * 2]))) \
                    + line[m.end():]
        elif op == "junk":
            at = draw(st.integers(0, len(line)))
            lines[i] = line[:at] + draw(st.sampled_from(JUNK)) + line[at:]
        elif op == "cut":
            joined = "\n".join(lines)
            lines = joined[:draw(st.integers(0, len(joined)))].split("\n")
        elif op == "join" and i + 1 < len(lines):
            lines[i:i + 2] = [lines[i] + " " + lines[i + 1].lstrip()]
    return "\n".join(lines)


def check_mutant(copies: Path, main: str, target: str, text: str, seed: int) -> None:
    path = copies / target
    original = path.read_bytes()
    try:
        path.write_bytes(text.encode("utf-8", errors="surrogateescape"))
        outcome, found = outcome_of_load(copies / main)
        assert record("mutation", outcome) in ("ok", "located"), (outcome, found, target, text)
        if outcome == "ok":
            played, err = outcome_of_play(found, seed=seed, decisions=12)
            assert record("mutation-play", played) in ("ok", "located"), (played, err, target)
        if seed % 4 == 0:
            cli, err = outcome_of_cli(["check", str(copies / main)])
            assert record("mutation-cli", cli) in ("ok", "located"), (cli, err, target)
    finally:
        path.write_bytes(original)


def _files(small: bool) -> list[tuple[str, str]]:
    if small:
        return [(f, f) for f in SMALL]
    return [(main, f) for main, files in BIG.items() for f in files]


TEXTS = {f: (ROOT / "rulesets" / f).read_text(encoding="utf-8") for f in SMALL + [x for v in BIG.values() for x in v]}
FEW = settings(deadline=None, database=None, max_examples=100,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                      HealthCheck.data_too_large])


@st.composite
def case(draw: st.DrawFn, small: bool) -> tuple[str, str, str, int]:
    main, target = draw(st.sampled_from(_files(small)))
    return main, target, draw(mutant(TEXTS[target])), draw(st.integers(0, 10_000))


@FEW
@given(c=case(True))
def test_mutated_small_rulesets(copies: Path, c):
    check_mutant(copies, *c)


@settings(FEW, max_examples=12)
@given(c=case(False))
def test_mutated_seed_rulesets(copies: Path, c):
    check_mutant(copies, *c)


@pytest.mark.slow
@settings(FEW, max_examples=3000)
@given(c=case(True))
def test_mutated_small_rulesets_many(copies: Path, c):
    check_mutant(copies, *c)


@pytest.mark.slow
@settings(FEW, max_examples=1500)
@given(c=case(False))
def test_mutated_seed_rulesets_many(copies: Path, c):
    check_mutant(copies, *c)
