"""Reading what the viewer is given: a trace or a save, and the ruleset it belongs to.

Every failure is a `ViewerError` whose message starts with the file (and line) it is about,
so the command line can print it as it is.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..api import Ruleset, load
from ..dsl.diagnostics import RulesError
from ..dsl.files import BadEncoding, FileRefused, read_text
from ..interpreter.tools.trace import TRACE_FORMAT, TRACE_VERSION


class ViewerError(Exception):
    """A located message for the user (the CLI prints it and exits non-zero)."""


@dataclass
class TraceFile:
    """A trace split into its header, its steps (each with the line it came from) and result."""

    path: str
    header: dict
    steps: list[dict] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    result: dict | None = None


def read_json_file(path: str) -> Any:
    try:  # a regular file of bounded size: a FIFO or /dev/zero would never end
        text = read_text(Path(path), MAX_INPUT_BYTES)
    except BadEncoding as err:
        raise ViewerError(f"{path}:{err.line}:{err.column}: error: {err}") from None
    except FileRefused as err:
        if str(err) == "No such file or directory":
            raise ViewerError(f"{path}: error: no such file") from None
        raise ViewerError(f"{path}: error: cannot read: {err}") from None
    return text


MAX_INPUT_BYTES = 500_000_000


def kind_of(path: str) -> str:
    """'trace' or 'save', from the first line of the file (not its name)."""
    text = read_json_file(path)
    first = text.lstrip().split("\n", 1)[0]
    try:
        head = json.loads(first)
    except json.JSONDecodeError:
        try:
            head = json.loads(text)
        except json.JSONDecodeError as err:
            raise ViewerError(f"{path}:{err.lineno}:{err.colno}: error: neither a trace nor a save "
                              f"(not JSON: {err.msg})") from None
    fmt = head.get("format") if isinstance(head, dict) else None
    if fmt == TRACE_FORMAT:
        return "trace"
    if fmt == "regelwerk-save":
        return "save"
    raise ViewerError(f"{path}:1: error: neither a regelwerk trace nor a regelwerk save "
                      f"(format {fmt!r})")


def read_trace_file(path: str) -> TraceFile:
    """The trace, line by line; a line that is not JSON or not a step is reported where it is."""
    text = read_json_file(path)
    items: list[tuple[int, Any]] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            items.append((n, json.loads(line)))
        except json.JSONDecodeError as err:
            raise ViewerError(f"{path}:{n}: error: not a trace line ({err.msg}, column {err.colno})") from None
    if not items or not isinstance(items[0][1], dict) or items[0][1].get("format") != TRACE_FORMAT:
        raise ViewerError(f"{path}:1: error: not a regelwerk trace (no header line)")
    header = items[0][1]
    version = header.get("version")
    if not isinstance(version, int) or version > TRACE_VERSION:
        raise ViewerError(f"{path}:1: error: trace version {version!r} is newer than this regelwerk "
                          f"understands ({TRACE_VERSION})")
    for key in ("ruleset", "ruleset_hash", "players", "seed"):
        if key not in header:
            raise ViewerError(f"{path}:1: error: the header has no '{key}'")
    out = TraceFile(path, header)
    for n, obj in items[1:]:
        if isinstance(obj, dict) and "result" in obj:
            out.result = obj["result"]
            continue
        problem = _step_problem(obj)
        if problem:
            raise ViewerError(f"{path}:{n}: error: not a trace step ({problem})")
        out.steps.append(obj)
        out.lines.append(n)
    return out


def _step_problem(obj: Any) -> str | None:
    if not isinstance(obj, dict):
        return "not a JSON object"
    for key in ("step", "rule", "changes"):
        if key not in obj:
            return f"no '{key}'"
    if not isinstance(obj["changes"], list):
        return "'changes' is not a list"
    for c in obj["changes"]:
        if not isinstance(c, dict) or not isinstance(c.get("path"), str) or "new" not in c or "old" not in c:
            return "a change without path, old and new"
    for key in ("checks", "chance", "events"):
        if not isinstance(obj.get(key, []), list):
            return f"'{key}' is not a list"
    if not isinstance(obj.get("bindings", {}), dict):
        return "'bindings' is not a map"
    return None


def load_rules(rules: str | None, head: dict, origin: str) -> Ruleset:
    """The ruleset from `--rules`, else from the file the trace or save names."""
    named = head.get("ruleset_file")
    path = rules or (named if isinstance(named, str) else None)
    if path is None:  # a trace names its ruleset by title and hash: look for that text nearby
        found = find_rules(head, origin)
        if found is not None:
            return found
        raise ViewerError(f"{origin}:1: error: the file names its ruleset {head.get('ruleset')!r} only by "
                          "title and hash, and no .rules file beside it or under the current folder "
                          "has that hash; give the rules file with --rules FILE.rules")
    if not Path(path).is_file():
        raise ViewerError(f"{path}: error: no such rules file")
    if rules is None and not path.endswith(".rules"):  # named by the file: it may name any file
        raise ViewerError(f"{origin}:1: error: the file names {path[:80]!r}, which is not a .rules file; "
                          "give the rules file with --rules FILE.rules")
    try:
        return load(path)
    except RulesError as err:
        if rules is None:  # where, not what: the named file may not be rules text at all
            d = err.diagnostics[0]
            raise ViewerError(f"{origin}:1: error: the rules file it names, {path}, does not check "
                              f"({d.code} at {d.span.line}:{d.span.column})") from None
        raise ViewerError(err.format()) from None


MAX_CANDIDATES = 500  # .rules files looked at when a trace does not say where its rules are


def find_rules(head: dict, origin: str) -> Ruleset | None:
    """The ruleset whose title and hash the trace's header names, found among the .rules files
    beside the trace and under the current folder (those whose text names the title are loaded
    and their hash compared); None when there is none."""
    title, digest = head.get("ruleset"), head.get("ruleset_hash")
    if not isinstance(title, str) or not isinstance(digest, str):
        return None
    quoted = json.dumps(title, ensure_ascii=False)
    seen: set[Path] = set()
    beside = sorted(Path(origin).resolve().parent.glob("*.rules"))
    for candidate in [*beside, *_rules_under(Path.cwd())][:MAX_CANDIDATES]:
        candidate = candidate.resolve()
        if candidate in seen:
            continue
        seen.add(candidate)
        try:
            if quoted not in read_text(candidate, 2_000_000):
                continue
            ruleset = load(candidate)
        except (BadEncoding, FileRefused, OSError, RulesError):
            continue
        if ruleset.hash == digest:
            return ruleset
    return None


def _rules_under(folder: Path) -> list[Path]:
    """The .rules files under `folder`, skipping hidden folders (.git, .venv) and caches."""
    import os

    found: list[Path] = []
    for here, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in ("node_modules", "__pycache__"))
        found += [Path(here) / f for f in sorted(files) if f.endswith(".rules")]
        if len(found) >= MAX_CANDIDATES:
            break
    return found


def check_identity(ruleset: Ruleset, head: dict, origin: str) -> None:
    """The file must come from exactly this ruleset text, and name players it has."""
    if head.get("ruleset_hash") != ruleset.hash:
        raise ViewerError(
            f"{origin}:1: error: written by ruleset {head.get('ruleset')!r} "
            f"(hash {str(head.get('ruleset_hash'))[:12]}), but {ruleset.path} is {ruleset.title!r} "
            f"(hash {ruleset.hash[:12]}): a trace or save belongs to exactly one rules text")
    players = head.get("players")
    names = list(ruleset.player_names)
    if not isinstance(players, list) or players != names[:len(players)]:
        raise ViewerError(f"{origin}:1: error: players {players!r} do not fit the ruleset's "
                          f"{', '.join(names)}")
