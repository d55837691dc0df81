"""Hostile files, each with the message it must produce: rules files and the files they name
that try to leave their folder, never end (FIFOs, /dev/zero), are huge, are not text, nest
without end, or hide what they are; saves and traces that do the same. Every case ends with
its located message and exit code, within seconds, printing nothing of a file that is not
rules text."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .tally import record, run_cli

ROOT = Path(__file__).resolve().parents[2]
TTT = ROOT / "rulesets" / "classic" / "tictactoe.rules"
BASE = "players X\nflow\n    finish draw\n"
SECRET = "root:$6$hostile-secret:19000:0:99999:7:::\n"
FIFO, DIR = ("fifo",), ("dir",)


def sparse(size: int) -> tuple:
    return ("sparse", size)


def link(target: str) -> tuple:
    return ("symlink", target)


def data(decl: str) -> str:
    return decl + "\n" + BASE


# (case id, files in the ruleset's folder ("../x" lands beside it), argv, exit code, expected stderr)
CASES = [
    # the rules file itself
    ("utf8", {"g.rules": b"players X\nflow\n    fin\xe9sh draw\n"}, ["check", "g.rules"], 1,
     "g.rules:3:8: error: cannot read file: not UTF-8 text: byte 0xe9 at line 3, column 8 [E007]"),
    ("nul", {"g.rules": "players X\nflow\n    finish\x00 draw\n"}, ["check", "g.rules"], 1,
     "g.rules:3:11: error: file contains a NUL character [E001]"),
    ("huge", {"g.rules": sparse(3_000_000)}, ["check", "g.rules"], 1,
     "g.rules:1:1: error: file is larger than 2000000 bytes [E004]"),
    ("fifo", {"g.rules": FIFO}, ["check", "g.rules"], 1,
     "g.rules:1:1: error: cannot read file: not a regular file (a device, pipe or socket) [E007]"),
    ("device", {}, ["check", "/dev/zero"], 1,
     "/dev/zero:1:1: error: cannot read file: not a regular file (a device, pipe or socket) [E007]"),
    ("empty-folder", {"sub": DIR}, ["check", "sub"], 2, "sub: error: no .rules files in this folder"),
    ("brackets", {"g.rules": "players X\nconst a = " + "[" * 3000 + "]" * 3000 + "\n" + BASE}, ["check", "g.rules"],
     1, "g.rules:2:71: error: nesting deeper than 60 levels [E005]"),
    ("indent", {"g.rules": "players X\nflow\n" + " " * 200 + "finish draw\n"}, ["check", "g.rules"], 1,
     "g.rules:3:1: error: nesting deeper than 60 levels [E005]"),
    ("not-chain", {"g.rules": "players X\nconst a = " + "not " * 5000 + "true\n" + BASE}, ["check", "g.rules"], 1,
     "error: an expression nested deeper than 150 levels [E005]"),
    ("plus-chain", {"g.rules": "players X\nconst a = " + "1 + " * 5000 + "1\n" + BASE}, ["check", "g.rules"], 1,
     "error: an expression nested deeper than 150 levels [E005]"),
    ("digits", {"g.rules": "players X\nconst a = " + "7" * 5000 + "\n" + BASE}, ["check", "g.rules"], 1,
     "g.rules:2:11: error: a number of more than 100 digits [E003]"),
    ("strings", {"g.rules": 'const a = "' + "(" * 100 + '"  # ' + "[" * 100 + "\n" + BASE},
     ["check", "g.rules"], 0, ""),
    ("bom", {"g.rules": "\ufeff" + BASE}, ["check", "g.rules"], 0, ""),
    ("crlf", {"g.rules": BASE.replace("\n", "\r\n")}, ["check", "g.rules"], 0, ""),
    ("tab", {"g.rules": "players X\nflow\n\tfinish draw\n"}, ["check", "g.rules"], 0, ""),
    ("line-separator", {"g.rules": "players X\n# \u2028\u2029\x85 note\nflow\n    play zz\n"}, ["check", "g.rules"], 1,
     "g.rules:4:5: error: unknown action 'zz' [E219]\n    4 |     play zz\n"),
    ("control", {"g.rules": "players X\nflow\n    finish draw \x1b[2J\n"}, ["check", "g.rules"], 1,
     "g.rules:3:17: error: unexpected character '\\x1b' [E001]"),
    ("empty", {"g.rules": ""}, ["check", "g.rules"], 1, "g.rules:1:1: error: no 'players' declaration [E105]"),
    # includes
    ("include-up", {"g.rules": 'include "../secret.rules"\n' + BASE, "../secret.rules": SECRET},
     ["check", "g.rules"], 1, "g.rules:1:1: error: cannot include '../secret.rules': it is outside the ruleset's folder"),
    ("include-abs", {"g.rules": 'include "/etc/shadow"\n' + BASE}, ["check", "g.rules"], 1,
     "g.rules:1:1: error: cannot include '/etc/shadow': an absolute path; name files relative to the rules file [E008]"),
    ("include-home", {"g.rules": 'include "~/x.rules"\n' + BASE}, ["check", "g.rules"], 1,
     "g.rules:1:1: error: cannot include '~/x.rules': an absolute path"),
    ("include-link", {"g.rules": 'include "s.rules"\n' + BASE, "s.rules": link("../secret.txt"), "../secret.txt": SECRET},
     ["check", "g.rules"], 1, "g.rules:1:1: error: cannot include 's.rules': it is outside the ruleset's folder"),
    ("include-json", {"g.rules": 'include "d.json"\n' + BASE, "d.json": "[1]"}, ["check", "g.rules"], 1,
     "g.rules:1:1: error: cannot include 'd.json': only .rules files are included [E008]"),
    ("include-fifo", {"g.rules": 'include "f.rules"\n' + BASE, "f.rules": FIFO}, ["check", "g.rules"], 1,
     "g.rules:1:1: error: cannot include 'f.rules': not a regular file [E008]"),
    ("include-self", {"g.rules": 'include "g.rules"\n' + BASE}, ["check", "g.rules"], 0, ""),
    ("include-cycle", {"g.rules": 'include "h.rules"\n' + BASE, "h.rules": 'include "g.rules"\n'}, ["check", "g.rules"],
     0, ""),
    ("include-nul", {"g.rules": 'include "a\\u0000.rules"\n' + BASE}, ["check", "g.rules"], 1,
     "g.rules:1:1: error: cannot include"),
    # data, board and text-map files
    ("data-up", {"g.rules": data('data d: list int from "../secret.txt"'), "../secret.txt": SECRET},
     ["check", "g.rules"], 1, "g.rules:1:1: error: cannot read data file '../secret.txt': it is outside the ruleset's folder"),
    ("data-abs", {"g.rules": data('data d: list int from "/etc/shadow"')}, ["check", "g.rules"], 1,
     "g.rules:1:1: error: cannot read data file '/etc/shadow': an absolute path; name files relative to the rules file [E401]"),
    ("data-zero", {"g.rules": data('data d: list int from "z.json"'), "z.json": link("/dev/zero")}, ["check", "g.rules"],
     1, "g.rules:1:1: error: cannot read data file 'z.json': it is outside the ruleset's folder"),
    ("data-fifo", {"g.rules": data('data d: list int from "f.json"'), "f.json": FIFO}, ["check", "g.rules"], 1,
     "g.rules:1:1: error: cannot read data file 'f.json': not a regular file (a device, pipe or socket) [E401]"),
    ("data-dir", {"g.rules": data('data d: list int from "d"'), "d": DIR}, ["check", "g.rules"], 1,
     "g.rules:1:1: error: cannot read data file 'd': it is a folder, not a file [E401]"),
    ("data-huge", {"g.rules": data('data d: list int from "h.json"'), "h.json": sparse(200_000_000)},
     ["check", "g.rules"], 1, "g.rules:1:1: error: cannot read data file 'h.json': larger than 5,000,000 bytes [E401]"),
    ("data-utf8", {"g.rules": data('data d: list int from "u.json"'), "u.json": b"[1,\n 2\xc3]"}, ["check", "g.rules"],
     1, "g.rules:1:1: error: cannot read data file 'u.json': not UTF-8 text: byte 0xc3 at line 2, column 3 [E401]"),
    ("data-deep", {"g.rules": data('data d: list int from "d.json"'), "d.json": "[" * 5000 + "]" * 5000},
     ["check", "g.rules"], 1, "g.rules:1:1: error: 'd.json':1:101: nested deeper than 100 levels [E402]"),
    ("data-digits", {"g.rules": data('data d: list int from "d.json"'), "d.json": "[" + "9" * 5000 + "]"},
     ["check", "g.rules"], 1, "g.rules:1:1: error: 'd.json':1:2: a number of more than 100 digits [E402]"),
    ("data-nan", {"g.rules": data('data d: list int from "d.json"'), "d.json": "[NaN, 1e999]"}, ["check", "g.rules"],
     1, "g.rules:1:1: error: data file d.json[0]: expected a whole number, found nan [E404]"),
    ("graph-digits", {"g.rules": data('board B = graph from "b.json"'), "b.json": '{"nodes": [' + "1" * 5000 + "]}"},
     ["check", "g.rules"], 1, "g.rules:1:1: error: 'b.json':1:12: a number of more than 100 digits [E402]"),
    ("graph-shape", {"g.rules": data('board B = graph from "b.json"'), "b.json": '"nodes"'}, ["check", "g.rules"], 1,
     "g.rules:1:1: error: 'b.json': a graph file is"),
    ("map-fifo", {"g.rules": data('board B = grid from "m.txt"'), "m.txt": FIFO}, ["check", "g.rules"], 1,
     "g.rules:1:1: error: cannot read data file 'm.txt': not a regular file (a device, pipe or socket) [E401]"),
    ("map-link", {"g.rules": data('board B = grid from "m.txt"'), "m.txt": link("../secret.txt"),
                  "../secret.txt": SECRET}, ["check", "g.rules"], 1,
     "g.rules:1:1: error: cannot read data file 'm.txt': it is outside the ruleset's folder"),
    # saves and traces
    ("save-fifo", {"s.json": FIFO}, ["legal", str(TTT), "--state", "s.json"], 2,
     "s.json: error: cannot read: not a regular file (a device, pipe or socket)"),
    ("save-deep", {"s.json": "[" * 100_000 + "]" * 100_000}, ["legal", str(TTT), "--state", "s.json"], 1,
     "s.json: error: not a save: nested too deeply"),
    ("save-digits", {"s.json": '{"seed": ' + "9" * 5000 + "}"}, ["legal", str(TTT), "--state", "s.json"], 1,
     "s.json: error: not a save: a number too long"),
    ("save-utf8", {"s.json": b'{"format": "\xff"}'}, ["legal", str(TTT), "--state", "s.json"], 1,
     "s.json:1:13: error: not UTF-8 text: byte 0xff at line 1, column 13"),
    ("save-names-shadow", {"s.json": '{"format": "regelwerk-save", "version": 2, "ruleset_file": "/etc/shadow"}'},
     ["view", "s.json"], 1, "s.json:1: error: the file names '/etc/shadow', which is not a .rules file"),
    ("trace-fifo", {"t.jsonl": FIFO}, ["trace", "show", "t.jsonl"], 1,
     "t.jsonl: error: cannot read: not a regular file (a device, pipe or socket)"),
    ("trace-huge-int", {"t.jsonl": '{"format": "regelwerk-trace", "version": 1, "seed": ' + "1" * 5000 + "}"},
     ["trace", "show", "t.jsonl"], 1, "t.jsonl:1: error: not a trace line (Exceeds the limit"),
    ("trace-deep", {"t.jsonl": "[" * 100_000 + "]" * 100_000}, ["trace", "show", "t.jsonl"], 1,
     "t.jsonl:1: error: not a trace line (nested too deeply)"),
    ("trace-binary", {"t.jsonl": b"\x89PNG\r\n\x1a\n\x00\x00"}, ["trace", "show", "t.jsonl"], 1,
     "t.jsonl:1:1: error: not UTF-8 text: byte 0x89 at line 1, column 1"),
    ("view-fifo", {"t.jsonl": FIFO}, ["view", "t.jsonl"], 1,
     "t.jsonl: error: cannot read: not a regular file (a device, pipe or socket)"),
    # moves and options
    ("move-digits", {}, ["explain", str(TTT), "--state", "s.json", "place(" + "9" * 5000 + ")"], 2, ""),
    ("option-digits", {}, ["run", str(TTT), "--option", "n=" + "9" * 5000], 2, "--option 'n': unknown option"),
]


def make(folder: Path, files: dict) -> None:
    for name, spec in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if spec == FIFO:
            os.mkfifo(path)
        elif spec == DIR:
            path.mkdir()
        elif isinstance(spec, tuple) and spec[0] == "symlink":
            path.symlink_to(spec[1] if spec[1].startswith("/") else folder / spec[1])
        elif isinstance(spec, tuple) and spec[0] == "sparse":
            with open(path, "wb") as fh:
                fh.truncate(spec[1])
        else:
            path.write_bytes(spec if isinstance(spec, bytes) else spec.encode("utf-8"))


@pytest.mark.parametrize(("files", "argv", "code", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_hostile_file(tmp_path: Path, monkeypatch, files: dict, argv: list[str], code: int, expected: str):
    folder = tmp_path / "game"
    folder.mkdir()
    make(folder, files)
    if "s.json" in argv and "s.json" not in files:  # a move needs a position to be explained in
        from regelwerk.cli import main
        main(["run", str(TTT), "--stop-after", "1", "--save", str(folder / "s.json")])
    monkeypatch.chdir(folder)
    outcome, got, err = run_cli(argv, seconds=20)
    record("hostile", outcome)
    assert outcome in ("ok", "located"), (outcome, err)
    assert got == code, err
    assert expected in err, err
    assert "hostile-secret" not in err
