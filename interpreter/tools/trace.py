"""Traces: JSON Lines out (header, steps, result) and a rendering for people.

The same arguments give the same bytes: keys are sorted, no timestamps, no paths that
depend on the machine. Files are written to a temporary name and then moved into place.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ...dsl.files import BadEncoding, FileRefused, read_text
from ..engine.saves import identity
from ..engine.values import value_text
from .trace_check import TraceLineError, check_header, check_line

TRACE_FORMAT = "regelwerk-trace"
TRACE_VERSION = 1
NOT_IN_RULEBOOK = "not in the rulebook: "  # how authored notes are set apart from quotes
MAX_TRACE_BYTES = 500_000_000


def dump_line(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def header(game: Any) -> dict:
    """The first line. `hidden_state` says whether the ruleset declares any hidden state, so a
    trace shown for one player without its rules masks nothing in a game that has no secret."""
    return {"format": TRACE_FORMAT, "version": TRACE_VERSION, **identity(game),
            "hidden_state": bool(game.prog.hidden)}


def trace_lines(game: Any) -> list[str]:
    lines = [dump_line(header(game))]
    lines.extend(dump_line(step) for step in game.trace or [])
    if game.result is not None and (not game.trace or "result" not in game.trace[-1]):
        lines.append(dump_line({"result": game.result}))
    return lines


def write_atomic(path: str | Path, text: str) -> None:
    """Write `text` to `path` so that the file is never half-written: into a temporary file
    in the same folder, synced to disk, renamed over `path`, and the folder synced too. A
    temporary file left behind by a process that was killed (kill -9) is removed on the next
    write to the same path."""
    p = Path(path)
    folder = p.parent if str(p.parent) else Path(".")
    _clean_stale(folder, p.name)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.{os.getpid()}.", suffix=TMP_SUFFIX, dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, _mode_for(p))  # mkstemp makes 0600; keep the file's own permissions
        os.replace(tmp, p)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    _sync_folder(folder)


TMP_SUFFIX = ".part"


def _clean_stale(folder: Path, name: str) -> None:
    """Remove `.NAME.PID.*.part` files whose writing process is gone."""
    prefix = f".{name}."
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for e in entries:
        if not (e.name.startswith(prefix) and e.name.endswith(TMP_SUFFIX)):
            continue
        pid = e.name[len(prefix):].split(".", 1)[0]
        if pid.isdigit() and not _alive(int(pid)):
            try:
                os.unlink(e.path)
            except OSError:
                pass


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (where the system lets a folder be synced)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _mode_for(p: Path) -> int:
    try:
        return p.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_trace(game: Any, path: str | Path) -> None:
    write_atomic(path, "\n".join(trace_lines(game)) + "\n")


def read_trace(path: str | Path) -> list[dict]:
    """A trace file's lines, each checked (trace_check.py); a bad line raises TraceLineError
    naming the file, the line and the field."""
    out: list[dict] = []
    try:
        text = read_text(Path(path), MAX_TRACE_BYTES)  # a regular file of bounded size: no FIFO, no /dev/zero
    except BadEncoding as err:
        raise TraceLineError(str(err), f"{path}:{err.line}:{err.column}") from None
    except FileRefused as err:
        raise TraceLineError(f"cannot read: {err}", str(path)) from None
    for n, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as err:
            raise TraceLineError(f"not a trace line ({err.msg})", f"{path}:{n}:{err.colno}") from None
        except (ValueError, RecursionError) as err:  # 4,300-digit numbers, deep nesting
            why = "nested too deeply" if isinstance(err, RecursionError) else str(err)
            raise TraceLineError(f"not a trace line ({why})", f"{path}:{n}") from None
        try:
            out.append(check_header(obj, TRACE_VERSION) if not out else check_line(obj))
        except TraceLineError as err:
            raise TraceLineError(err.message, f"{path}:{n}") from None
    if not out:
        raise TraceLineError("not a regelwerk trace (no header line)", f"{path}:1")
    return out


_v = value_text


def _hv(x: Any) -> str:
    if isinstance(x, dict) and set(x) == {"hidden"}:
        return f"({x['hidden']} hidden)"
    return "(hidden)" if x == "hidden" else _v(x)


def _change_text(old: Any, new: Any) -> str:
    """old → new; a long list shows only what came and went (a deck of 72 stays readable)."""
    if isinstance(old, list) and isinstance(new, list) and max(len(old), len(new)) > 8:
        rest = list(new)
        removed = []
        for x in old:
            if x in rest:
                rest.remove(x)
            else:
                removed.append(x)
        parts = ([f"+{_v(rest)}"] if rest else []) + ([f"-{_v(removed)}"] if removed else [])
        return f"{len(old)} → {len(new)} items" + (", " + ", ".join(parts) if parts else ", reordered")
    return f"{_hv(old)} → {_hv(new)}"


def render_step(step: dict, only_player: str | None = None) -> list[str]:
    """Lines for one step: who did what under which rule, its source, checks, changes."""
    if "result" in step:
        r = step["result"]
        if r.get("winners"):
            text = "winner: " + ", ".join(r["winners"])
        else:
            text = "draw"
        scores = r.get("scores")
        if scores:
            text += "  scores: " + ", ".join(f"{p} {s}" for p, s in scores.items())
        return [f"== game over: {text}"]
    dec = step.get("decision")
    who = step.get("player")
    head = f"#{step['step']:<4} "
    if dec:
        head += f"{dec['by']}: {dec['action']}"
        if dec["kind"] == "action":
            head += f"  [{step['rule']}]"
    else:
        head += f"(automatic) {step['rule']}"
    if step.get("phase"):
        head += f"  phase {step['phase']}"
    out = [head]
    refs = []
    if step.get("spec"):
        refs.append(", ".join(step["spec"]))
    if step.get("source"):
        refs.append(", ".join(step["source"]))
    if refs:
        out.append("      " + " · ".join(refs))
    if step.get("quote"):
        out.append(f"      „{step['quote']}”")
    if step.get("note"):
        out.append(f"      {NOT_IN_RULEBOOK}{step['note']}")
    for c in step.get("checks", []):
        mark = "✓" if c["value"] else "✗"
        vals = ", ".join(f"{k} = {_hv(v)}" for k, v in c.get("values", {}).items() if k != c["require"])
        out.append(f"      {mark} require {c['require']}  (line {c['at']})" + (f"  where {vals}" if vals else ""))
    for ch in step.get("chance", []):
        inputs = f" in {', '.join(_v(x) for x in ch['inputs'])}" if ch.get("inputs") else ""
        out.append(f"      chance {ch['kind']} {ch['what']}{inputs} → out {_hv(ch['outcome'])}"
                   if inputs else f"      chance {ch['kind']} {ch['what']}: {_hv(ch['outcome'])}")
        if "detail" in ch:
            out.append(f"        detail: {_v(ch['detail'])}")
    for ch in step.get("changes", []):
        out.append(f"      {ch['path']}: {_change_text(ch['old'], ch['new'])}")
    for ev in step.get("events", []):
        if ev["event"] == "log":
            out.append(f"      log: {ev['message']}")
        elif ev["event"] == "reveal":
            to = f" to {ev['to']}" if ev.get("to") else ""
            out.append(f"      reveals{to}: {ev['what']} = {_hv(ev['value'])}")
        else:
            detail = ev.get("player") or ev.get("phase") or ""
            out.append(f"      · {ev['event']} {detail}")
    del who, only_player
    return out


def render(lines: Iterable[dict]) -> str:
    items = list(lines)
    head = items[0]
    seed = head.get("seed")
    out = [f"{head['ruleset']} · players {', '.join(head['players'])} · "
           + (f"seed {seed}" if seed is not None else "seed hidden")
           + (f" · as seen by {head['viewer']}" if head.get("viewer") else "")]
    for step in items[1:]:
        out.extend(render_step(step))
    return "\n".join(out)


def filter_for(lines: list[dict], player: str, model: Any = None) -> list[dict]:
    """The trace as `player` may see it (interpreter/observe/visibility.py decides); without the
    ruleset's `model` everything that might be secret is masked."""
    from ..observe.visibility import trace_observer

    return trace_observer(lines[0], player, model).trace(lines) if lines else []


def filter_step(step: dict, player: str, model: Any = None) -> dict:
    """One step as `player` may see it (see `filter_for`)."""
    from ..observe.visibility import trace_observer

    return trace_observer({}, player, model).step(step)
