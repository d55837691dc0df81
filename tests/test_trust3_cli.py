"""Issue 22 ("Trust III"), the command line, trace display, what a player sees and simulate:
one regression test per defect, each failing before its fix."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from regelwerk.cli import main

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
BREAKTHROUGH = ROOT / "rulesets" / "classic" / "breakthrough.rules"
CANARY = FIXTURES / "visibility" / "canary.rules"


def run(capsys, *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


# ---------------------------------------------------------------------- 1. --version
def test_version_prints_the_installed_version_and_exits_0(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out == f"regelwerk {version('regelwerk')}\n"
    done = subprocess.run([sys.executable, "-m", "regelwerk.cli", "--version"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == f"regelwerk {version('regelwerk')}" and not done.stderr
