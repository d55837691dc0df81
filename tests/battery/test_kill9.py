"""kill -9 while saves and traces are written: the file on disk is always a whole old or a
whole new version (never a mix, never cut short), and the temporary file a killed writer left
behind is gone after the next write to the same path."""

from __future__ import annotations

import json
import os
import random
import signal
import time
from pathlib import Path

import pytest
from regelwerk.interpreter.tools.agents import RandomAgent
from regelwerk.interpreter.tools.trace import read_trace, write_atomic, write_trace

import regelwerk

from .tally import record

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "tests" / "fixtures" / "visibility" / "canary.rules"


def _games() -> list:
    out = []
    for seed in (1, 2):
        g = regelwerk.load(RULES).new_game(players=3, seed=seed, record=True)
        agent = RandomAgent(seed)
        while not g.is_over:
            g.apply(agent(g))
        out.append(g)
    return out


GAMES = _games()


def _write_forever(kind: str, target: Path) -> None:
    """The child: write the two games' trace or save, one after the other, until killed."""
    i = 0
    while True:
        g = GAMES[i % 2]
        if kind == "trace":
            write_trace(g, target)
        else:
            write_atomic(target, json.dumps({**g.to_json(), "padding": "x" * 3_000_000}, sort_keys=True) + "\n")
        i += 1


def leftovers(folder: Path, name: str) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.startswith(f".{name}.")]


def kill_while_writing(folder: Path, kind: str, rnd: random.Random) -> None:
    target = folder / ("t.jsonl" if kind == "trace" else "s.json")
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child never returns
        try:
            _write_forever(kind, target)
        finally:
            os._exit(0)
    try:
        deadline = time.monotonic() + 10
        while not target.exists() and time.monotonic() < deadline:
            time.sleep(0.002)
        time.sleep(rnd.uniform(0, 0.15))
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    if kind == "trace":
        lines = read_trace(target)  # a whole trace, or read_trace would name the bad line
        assert "result" in lines[-1]
    else:
        data = json.loads(target.read_text(encoding="utf-8"))
        assert data["format"] == "regelwerk-save" and len(data["padding"]) == 3_000_000
    LEFT.append(len(leftovers(folder, target.name)))
    write_atomic(target, target.read_text(encoding="utf-8"))  # the next write cleans up
    assert leftovers(folder, target.name) == []
    record("kill-9", "ok")


LEFT: list[int] = []  # how many temporary files each kill left behind


@pytest.mark.parametrize("kind", ["trace", "save"])
def test_kill_9_during_writes_leaves_whole_files(tmp_path: Path, kind: str):
    rnd = random.Random(kind)
    start = len(LEFT)
    for tries in range(1, 41):  # at least 8 kills, and on until one lands inside a write
        kill_while_writing(tmp_path, kind, rnd)
        if tries >= 8 and any(LEFT[start:]):
            break
    assert any(LEFT[start:]), "no kill hit a write in 40 tries: the test proves nothing"


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["trace", "save"])
def test_kill_9_during_writes_leaves_whole_files_many(tmp_path: Path, kind: str):
    rnd = random.Random(kind)
    for _ in range(150):
        kill_while_writing(tmp_path, kind, rnd)


def test_a_temp_file_of_a_live_writer_is_left_alone(tmp_path: Path):
    target = tmp_path / "t.jsonl"
    mine = tmp_path / f".t.jsonl.{os.getppid()}.abc.part"  # the parent process is alive
    mine.write_text("half", encoding="utf-8")
    dead = tmp_path / ".t.jsonl.999999999.abc.part"
    dead.write_text("half", encoding="utf-8")
    write_atomic(target, "whole\n")
    assert mine.exists() and not dead.exists() and target.read_text(encoding="utf-8") == "whole\n"
