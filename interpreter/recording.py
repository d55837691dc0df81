"""Trace recording: how a traced game turns its journal and events into step records.

Only traced games (`record=True`) call these; an untraced game's generated code never does,
so simulations pay nothing for traces (see docs/traces.md for the step format).
"""

from __future__ import annotations

from typing import Any

from .runtime import MISSING
from .values import jsonable, value_text


class TraceRecorder:
    """Mixed into Game: the open step, and the methods generated code calls while tracing."""

    def _open(self, key: str, automatic: bool, bindings: dict, decision: dict | None,
              checks: list | None = None) -> None:
        if self._step is not None:
            self._close()
        head = self.prog.step_heads.get(key)
        if head is None:  # what every step of this rule says about it, made once per rule
            info = self.prog.rules.get(key) or {"name": key, "source": [], "spec": [], "quote": None, "at": None}
            head = self.prog.step_heads[key] = {
                "step": None, "phase": None, "player": None, "rule": info["name"],
                "kind": key.split(":", 1)[0], "source": info["source"], "spec": info["spec"],
                "quote": info["quote"], "at": info["at"], "_key": key,
            }
        step = head.copy()
        step["phase"] = self.phase
        step["player"] = decision["by"] if decision else self.current
        step["bindings"] = bindings
        step["checks"] = checks or []
        step["changes"] = []
        step["chance"] = []
        step["events"] = []
        step["automatic"] = automatic
        step["decision"] = decision
        self._step = step
        self._jmark = len(self.journal)

    def push_rule(self, key: str) -> str | None:
        """Traced games only: the changes that follow belong to rule `key` (a procedure)."""
        prev = self._step["_key"] if self._step is not None else None
        self._open(key, True, {}, None)
        return prev

    def pop_rule(self, prev: str | None) -> None:
        self._close()
        if prev is not None:
            self._open(prev, True, {}, None)

    def _auto(self, frame: list) -> None:
        key = self._rule_key(frame) if frame[0] is not None else frame[3]
        if self._step is None or self._step["_key"] != key:
            self._open(key, True, {}, None)

    def _event(self, frame: list, ev: dict) -> None:
        self._auto(frame)
        self._step["events"].append(ev)

    def note_chance(self, kind: str, what: str, outcome: Any, args: Any = None) -> None:
        if not self.record or self.quiet_chance:
            return
        if self._step is None:
            self._auto(self.frames[-1] if self.frames else [None, None, None, "flow"])
        entry = {"kind": kind, "what": what, "outcome": jsonable(outcome)}
        if args is not None:
            entry["inputs"] = jsonable(args)
        self._step["chance"].append(entry)

    def note_reveal(self, text: str, value: Any, to: str | None) -> None:
        if self._step is None:
            self._auto(self.frames[-1])
        ev = {"event": "reveal", "what": text, "value": jsonable(value)}
        if to is not None:
            ev["to"] = to
        self._step["events"].append(ev)

    def note_log(self, message: str) -> None:
        if self._step is None:
            self._auto(self.frames[-1])
        self._step["events"].append({"event": "log", "message": message})

    def _close(self) -> None:
        """Finish the open step: keep it if it decided, changed, noted or drew anything. Its
        changes are kept as they were written (dicts copied now, since dicts change in place);
        they and its checks are put into their trace form only when the trace is read."""
        st = self._step
        if st is None:
            return
        self._step = None
        changes = []
        journal = self.journal
        if len(journal) > self._jmark:
            for (_c, _k, old, new, path) in journal[self._jmark:]:
                if old is new or (type(old) is type(new) and old == new):
                    continue  # written but not changed
                if type(old) is dict:
                    old = jsonable(old)
                if type(new) is dict:
                    new = jsonable(new)
                changes.append((path, old, new))
        if not (st["decision"] or changes or st["events"] or st["chance"]):
            return
        del st["_key"]
        st["_raw"] = (changes, st["checks"])
        st["step"] = len(self._steps)
        self._steps.append(st)

    def _emit_result(self) -> None:
        steps = self._steps
        if steps is not None and (not steps or "result" not in steps[-1]):
            steps.append({"result": self.result})

    @property
    def trace(self) -> list[dict] | None:
        """The steps so far (docs/traces.md), or None for an untraced game."""
        steps = self._steps
        if steps is not None and self._cooked < len(steps):
            hidden = self.prog.hidden
            for st in steps[self._cooked:]:
                raw = st.pop("_raw", None)
                if raw is not None:
                    st["changes"] = [_change(path, old, new, hidden) for path, old, new in raw[0]]
                    st["checks"] = cooked_checks(*raw[1]) if type(raw[1]) is tuple else raw[1]
            self._cooked = len(steps)
        return steps


_PLAIN = (str, int, bool, type(None))


def _change(path: tuple, old: Any, new: Any, hidden: dict[str, str]) -> dict:
    ch = {"path": _path_text(path),
          "old": None if old is MISSING else (old if type(old) in _PLAIN else jsonable(old)),
          "new": new if type(new) in _PLAIN else jsonable(new)}
    how = hidden.get(path[0])
    if how == "all":
        ch["hidden"] = True
    elif how == "owner" and len(path) > 1:
        ch["owner"] = path[1]
    return ch


def raw_checks(ca: Any, args: tuple, game: Any, errors: tuple) -> tuple | list:
    """A decided action's checks as its explain function gives them, with values that could
    still change (dicts) copied now; `cooked_checks` turns them into trace records."""
    try:
        results = ca.explain(game, *args)
    except errors:
        return []
    for _idx, _value, subs in results:
        for i, (t, v) in enumerate(subs):
            if type(v) is dict or (type(v) is list and v and type(v[0]) is dict):
                subs[i] = (t, jsonable(v))
    return (ca, results)


def cooked_checks(ca: Any, results: list) -> list[dict]:
    out = []
    for idx, value, subs in results:
        req = ca.requires[idx]
        out.append({
            "require": ca.require_texts[idx],
            "at": f"{req.span.line}:{req.span.column}",
            "message": req.message,
            "value": bool(value),
            "values": {t: (v if type(v) in _PLAIN else jsonable(v)) for t, v in subs},
        })
    return out


def _path_text(path: tuple) -> str:
    if len(path) == 2 and type(path[1]) is str and path[1].isidentifier():  # cell[b2]
        return f"{path[0]}[{path[1]}]"
    out = str(path[0])
    for k in path[1:]:
        out += f"[{value_text(k)}]"
    return out
