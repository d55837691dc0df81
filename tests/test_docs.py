"""Every fenced ```rules example in docs/ and the README parses, checks clean, and its
scenarios pass: the documentation cannot drift from the language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from regelwerk.interpreter.tools.scenario import run_scenarios

import regelwerk

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^```rules\n(.*?)^```", re.S | re.M)


def _examples() -> list[tuple[str, str]]:
    out = []
    for doc in sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]:
        text = doc.read_text(encoding="utf-8")
        for i, m in enumerate(FENCE.finditer(text)):
            line = text[: m.start()].count("\n") + 2
            out.append((f"{doc.name}:{line}#{i}", m.group(1)))
    return out


EXAMPLES = _examples()


def test_docs_have_examples():
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize("where,text", EXAMPLES, ids=[w for w, _ in EXAMPLES])
def test_doc_example_checks_and_its_scenarios_pass(where, text, tmp_path):
    path = ROOT / "docs" / f"example-{where.replace(':', '-').replace('#', '-')}.rules"
    r = regelwerk.load_text(text, str(path))
    failures = [(res.name, res.failure) for res in run_scenarios(r) if not res.passed]
    assert failures == []
