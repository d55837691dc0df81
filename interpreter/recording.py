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
        self._close()
        info = self.prog.rules.get(key) or {"name": key, "source": [], "spec": [], "quote": None, "at": None}
        self._step = {
            "step": None,
            "phase": self.phase,
            "player": decision["by"] if decision else self.current,
            "rule": info["name"],
            "kind": key.split(":", 1)[0],
            "source": info["source"],
            "spec": info["spec"],
            "quote": info["quote"],
            "at": info["at"],
            "bindings": bindings,
            "checks": checks or [],
            "changes": [],
            "chance": [],
            "events": [],
            "automatic": automatic,
            "decision": decision,
            "_key": key,
        }
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
        st = self._step
        if st is None:
            return
        self._step = None
        changes = []
        vars_decl = self.prog.model.vars
        for (_c, _k, old, new, path) in self.journal[self._jmark:]:
            if old is new or (type(old) is type(new) and old == new):
                continue  # written but not changed
            ch = {"path": _path_text(path), "old": jsonable(None if old is MISSING else old),
                  "new": jsonable(new)}
            decl = vars_decl.get(path[0])
            if decl is not None and decl.hidden == "all":
                ch["hidden"] = True
            elif decl is not None and decl.hidden == "owner":
                if len(path) > 1:
                    ch["owner"] = path[1]
                else:  # the whole map written at once: each player sees only their own entry
                    ch["per_owner"] = True
            changes.append(ch)
        if not (st["decision"] or changes or st["events"] or st["chance"]):
            return
        st["changes"] = changes
        del st["_key"]
        st["step"] = len(self.trace)
        self.trace.append(st)

    def _emit_result(self) -> None:
        if self.trace is not None and (not self.trace or "result" not in self.trace[-1]):
            self.trace.append({"result": self.result})

    # ------------------------------------------------------------------ copies


def _path_text(path: tuple) -> str:
    out = str(path[0])
    for k in path[1:]:
        out += f"[{value_text(k)}]"
    return out
