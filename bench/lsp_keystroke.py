"""Per-keystroke cost of `regelwerk lsp` on khan.rules (a benchmark, not a test).

Types a new statement into an action of khan.rules one character at a time, as an editor
sends it (an incremental didChange per key), and measures:

- in process: re-parse (only the edited declaration) + check of the whole ruleset (khan.rules
  and its three scenario files) + the LSP diagnostics, per keystroke;
- over stdio: from sending the didChange to receiving that version's publishDiagnostics, with
  the real server in a subprocess;
- for comparison: parsing khan.rules whole, what every keystroke would cost without the
  incremental parser.

Run: .venv/bin/python bench/lsp_keystroke.py [--keys N]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KHAN = ROOT / "rulesets" / "khan" / "khan.rules"
sys.path.insert(0, str(ROOT / "tests" / "lsp"))

TYPED = "let spare = count s in area where yurt[s] == current"
ANCHOR = "    do ask_consent(guardians(current, area))\n"


def _summary(name: str, ms: list[float]) -> str:
    ms = sorted(ms)
    p90 = ms[int(0.9 * (len(ms) - 1))]
    return (f"{name:<44} median {statistics.median(ms):6.1f} ms   p90 {p90:6.1f} ms   "
            f"max {ms[-1]:6.1f} ms   ({len(ms)} keys)")


def in_process(keys: str, anchor: str = ANCHOR) -> tuple[list[float], int]:
    from lsprotocol import types as T
    from pygls.workspace.position_codec import PositionCodec

    from regelwerk.lsp.positions import span_range
    from regelwerk.lsp.store import Store, norm
    from regelwerk.lsp.workspace import Workspace

    path = norm(str(KHAN))
    text = KHAN.read_text(encoding="utf-8")
    ws = Workspace(Store())
    ws.store.set_open(path, text, 0)
    ws.analysis_for(path, fresh=True)  # the first open parses everything
    gc.freeze()  # as the server does after opening a file
    codec = PositionCodec()
    at = text.index(anchor) + len(anchor)
    text = text[:at] + "    \n" + text[at:]
    cursor = at + 4
    before = ws.store.parsed_chunks(path)
    times = []
    for i, ch in enumerate(keys, start=1):
        text = text[:cursor] + ch + text[cursor:]
        cursor += 1
        start = time.perf_counter()
        ws.store.set_open(path, text, i)
        an = ws.analysis_for(path, fresh=True)
        for f in an.files:
            lines = an.texts[f].splitlines()
            [T.Diagnostic(range=span_range(codec, lines, d.span), message=d.message)
             for d in an.diagnostics[f]]
        times.append(1000 * (time.perf_counter() - start))
    return times, ws.store.parsed_chunks(path) - before


def over_stdio(keys: str) -> list[float]:
    from lsp_client import LspClient, find

    client = LspClient()
    try:
        text = KHAN.read_text(encoding="utf-8")
        u = client.open(KHAN, text)
        client.diagnostics(u, 1)
        line, _ = find(text, ANCHOR)
        client.change(u, [{"range": {"start": {"line": line + 1, "character": 0},
                                     "end": {"line": line + 1, "character": 0}}, "text": "    \n"}])
        client.diagnostics(u, 2)
        times = []
        for i, ch in enumerate(keys):
            mark = client.mark()
            start = time.perf_counter()
            client.change(u, [{"range": {"start": {"line": line + 1, "character": 4 + i},
                                         "end": {"line": line + 1, "character": 4 + i}}, "text": ch}])
            client.diagnostics(u, client.versions[u], since=mark)
            times.append(1000 * (time.perf_counter() - start))
        return times
    finally:
        client.shutdown()


def whole_parse(rounds: int = 5) -> list[float]:
    from regelwerk.dsl.parse import parse_text

    text = KHAN.read_text(encoding="utf-8")
    parse_text(text, str(KHAN))
    out = []
    for _ in range(rounds):
        start = time.perf_counter()
        parse_text(text, str(KHAN))
        out.append(1000 * (time.perf_counter() - start))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keys", type=int, default=len(TYPED), help="how many characters to type")
    keys = (TYPED * 10)[: ap.parse_args().keys]
    times, parsed = in_process(keys)
    print(f"khan.rules: {len(KHAN.read_text(encoding='utf-8').splitlines())} lines, "
          "checked with its 3 included scenario files")
    print(_summary("keystroke, in process (parse + check + diags)", times))
    print(f"{'':<44} declarations re-parsed: {parsed} for {len(keys)} keys")
    times, _ = in_process("\n" * len(keys), "enum Bank = bank_a, bank_b, no_bank\n")
    print(_summary("Enter near the top, in process (all move)", times))
    print(_summary("keystroke, over stdio (change -> diagnostics)", over_stdio(keys)))
    print(_summary("for comparison: parsing khan.rules whole", whole_parse()))


if __name__ == "__main__":
    main()
