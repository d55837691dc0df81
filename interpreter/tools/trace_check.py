"""Checks a trace line read from a file before anything renders it: a trace may have been
edited by hand or cut short, and `trace show` must then name the line and the field that is
wrong instead of failing somewhere inside the renderer.

The shape is the one docs/traces.md describes; a field is named by its JSON path from the
line (`step.changes[2].path`).
"""

from __future__ import annotations

from typing import Any

MAX_DEPTH = 100  # nesting of values inside a line: deeper is not a trace regelwerk wrote


class TraceLineError(ValueError):
    """One line of a trace file that is not what regelwerk writes there: `where` is the file
    and line (`t.jsonl:3`), the message names the field."""

    def __init__(self, message: str, where: str = ""):
        super().__init__(f"{where}: {message}" if where else message)
        self.message = message
        self.where = where


def _fail(path: str, msg: str) -> TraceLineError:
    return TraceLineError(f"{path}: {msg}")


def _text(obj: dict, key: str, path: str, optional: bool = False) -> None:
    if key not in obj and not optional:
        raise _fail(f"{path}.{key}", "missing")
    v = obj.get(key)
    if v is None and optional:
        return
    if not isinstance(v, str):
        raise _fail(f"{path}.{key}", f"expected a text, found {_short(v)}")


def _texts(obj: dict, key: str, path: str) -> None:
    v = obj.get(key, [])
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise _fail(f"{path}.{key}", "expected a list of texts")


def _list_of_maps(obj: dict, key: str, path: str) -> list[dict]:
    v = obj.get(key, [])
    if not isinstance(v, list):
        raise _fail(f"{path}.{key}", f"expected a list, found {_short(v)}")
    for i, x in enumerate(v):
        if not isinstance(x, dict):
            raise _fail(f"{path}.{key}[{i}]", f"expected a map, found {_short(x)}")
    return v


def _short(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def depth(v: Any) -> int:
    """How deeply lists and maps nest inside `v` (without recursion: a hostile line may nest
    deeper than Python's stack)."""
    best = 0
    stack = [(v, 1)]
    while stack:
        x, d = stack.pop()
        if isinstance(x, dict):
            best = max(best, d)
            stack.extend((y, d + 1) for y in x.values())
        elif isinstance(x, list):
            best = max(best, d)
            stack.extend((y, d + 1) for y in x)
    return best


def check_header(obj: Any, version: int) -> dict:
    """The first line: format, version, ruleset, hash, seed, players, options and hidden_state."""
    if not isinstance(obj, dict) or obj.get("format") != "regelwerk-trace":
        raise _fail("header", "not a regelwerk trace (no header line)")
    v = obj.get("version")
    if type(v) is not int or v < 1:
        raise _fail("header.version", f"{_short(v)} is not a trace version (a whole number from 1)")
    if v > version:
        raise _fail("header.version", f"{v} is newer than this regelwerk understands ({version})")
    _text(obj, "ruleset", "header")
    players = obj.get("players")
    if not isinstance(players, list) or not players or not all(isinstance(p, str) for p in players):
        raise _fail("header.players", "expected a non-empty list of player names")
    seed = obj.get("seed")
    if seed is not None and type(seed) is not int:
        raise _fail("header.seed", f"expected a whole number, found {_short(seed)}")
    if not isinstance(obj.get("options", {}), dict):
        raise _fail("header.options", "expected a map of option values")
    if type(obj.get("hidden_state", False)) is not bool:
        raise _fail("header.hidden_state", f"expected true or false, found {_short(obj['hidden_state'])}")
    if depth(obj) > MAX_DEPTH:
        raise _fail("header", f"values nest deeper than {MAX_DEPTH} levels")
    return obj


def check_line(obj: Any) -> dict:
    """A step or the result line, checked field by field; returns it unchanged."""
    if not isinstance(obj, dict):
        raise _fail("line", f"expected a JSON object, found {_short(obj)}")
    if depth(obj) > MAX_DEPTH:
        raise _fail("line", f"values nest deeper than {MAX_DEPTH} levels")
    if "result" in obj:
        return _check_result(obj["result"])
    return _check_step(obj)


def _check_result(r: Any) -> dict:
    if not isinstance(r, dict) or r.get("kind") not in ("winner", "draw", "ranking"):
        raise _fail("result.kind", "expected winner, draw or ranking")
    winners = r.get("winners", [])
    if not isinstance(winners, list) or not all(isinstance(w, str) for w in winners):
        raise _fail("result.winners", "expected a list of player names")
    scores = r.get("scores")
    if scores is not None and not (isinstance(scores, dict) and all(
            isinstance(k, str) and type(x) is int for k, x in scores.items())):
        raise _fail("result.scores", "expected a map from player to a whole number")
    return {"result": r}


def _check_step(s: dict) -> dict:
    p = "step"
    if type(s.get("step")) is not int:
        raise _fail(f"{p}.step", f"expected the step's number, found {_short(s.get('step'))}")
    _text(s, "rule", p)
    for key in ("kind", "phase", "player", "quote", "at", "note"):
        if s.get(key) is not None and not isinstance(s[key], str):
            raise _fail(f"{p}.{key}", f"expected a text, found {_short(s[key])}")
    _texts(s, "source", p)
    _texts(s, "spec", p)
    if not isinstance(s.get("bindings", {}), dict):
        raise _fail(f"{p}.bindings", "expected a map from name to value")
    if "automatic" in s and type(s["automatic"]) is not bool:
        raise _fail(f"{p}.automatic", "expected true or false")
    dec = s.get("decision")
    if dec is not None:
        if not isinstance(dec, dict):
            raise _fail(f"{p}.decision", "expected a map or null")
        for key in ("kind", "by", "action"):
            _text(dec, key, f"{p}.decision")
    for i, c in enumerate(_list_of_maps(s, "checks", p)):
        q = f"{p}.checks[{i}]"
        _text(c, "require", q)
        _text(c, "at", q)
        if c.get("message") is not None and not isinstance(c["message"], str):
            raise _fail(f"{q}.message", "expected a text or null")
        if type(c.get("value")) is not bool:
            raise _fail(f"{q}.value", "expected true or false")
        if not isinstance(c.get("values", {}), dict):
            raise _fail(f"{q}.values", "expected a map from expression to value")
    if "changes" not in s:
        raise _fail(f"{p}.changes", "missing")
    for i, c in enumerate(_list_of_maps(s, "changes", p)):
        q = f"{p}.changes[{i}]"
        _text(c, "path", q)
        for key in ("old", "new"):
            if key not in c:
                raise _fail(f"{q}.{key}", "missing")
        if "owner" in c and not isinstance(c["owner"], str):
            raise _fail(f"{q}.owner", "expected a player name")
    for i, c in enumerate(_list_of_maps(s, "chance", p)):
        q = f"{p}.chance[{i}]"
        _text(c, "kind", q)
        _text(c, "what", q)
        if "outcome" not in c:
            raise _fail(f"{q}.outcome", "missing")
        if "inputs" in c and not isinstance(c["inputs"], list):
            raise _fail(f"{q}.inputs", "expected a list")
    for i, e in enumerate(_list_of_maps(s, "events", p)):
        q = f"{p}.events[{i}]"
        _text(e, "event", q)
        if e["event"] == "log":
            _text(e, "message", q)
        elif e["event"] == "reveal":
            _text(e, "what", q)
            if "value" not in e:
                raise _fail(f"{q}.value", "missing")
            if e.get("to") is not None and not isinstance(e["to"], str):
                raise _fail(f"{q}.to", "expected a player name")
        elif e["event"] == "abandoned":
            _text(e, "reason", q)
        for key in ("player", "phase"):
            if e.get(key) is not None and not isinstance(e[key], str):
                raise _fail(f"{q}.{key}", "expected a text")
    return s
