"""What a ruleset's book shows, in the order a reader meets it: the game's structure, then every
action, trigger, hook, procedure and definition in the order the flow reaches them (those it
never reaches after), each with its rulebook quote, our note, its spec ids, its rules text and
the scenarios that exercise it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..dsl import ast as A
from ..dsl.ast import iter_nodes


@dataclass
class Entry:
    """One rule of the book."""

    kind: str  # "action", "trigger", "hook", "procedure", "definition", "device"
    name: str
    decl: A.Node
    quote: str | None
    note: str | None
    specs: tuple[str, ...]
    sources: tuple[str, ...]
    file: str
    line: int
    end_line: int
    scenarios: list[A.ScenarioDecl] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)  # anchors of the rules it plays, does or uses
    called_by: list[str] = field(default_factory=list)  # anchors of the rules that call it ("flow": the flow)

    @property
    def anchor(self) -> str:
        return anchor(self.kind, self.name)


def anchor(kind: str, name: str) -> str:
    return f"{kind}-{name}".replace(" ", "-")


def _entry(kind: str, name: str, decl: A.Node) -> Entry:
    prov = getattr(decl, "prov", None) or A.Provenance()
    span = decl.span
    return Entry(kind, name, decl, prov.quote, prov.note, tuple(prov.specs), tuple(prov.sources),
                 span.file, span.line, span.end_line)


def _reached(body: tuple, model: Any, seen: list[tuple[str, str]]) -> None:
    """The actions and procedures a body plays or calls, in order, into `seen` (once each)."""
    for n in iter_nodes(body):
        if isinstance(n, A.PlayStmt):
            for a in n.actions:
                _add(("action", a), model, seen)
        elif isinstance(n, A.DoStmt):
            _add(("procedure", n.name), model, seen)


def _add(key: tuple[str, str], model: Any, seen: list[tuple[str, str]]) -> None:
    if key in seen:
        return
    seen.append(key)
    decl = (model.actions if key[0] == "action" else model.procedures).get(key[1])
    if decl is not None:
        _reached(decl.body, model, seen)


def flow_order(model: Any) -> list[Entry]:
    """Every rule, in the order the flow reaches it; then triggers, hooks and devices; then
    what the flow never reaches; then the definitions, in the file's order."""
    seen: list[tuple[str, str]] = []
    if model.flow is not None:
        _reached(model.flow.body, model, seen)
    for t in model.triggers:
        _reached(t.body, model, seen)
    for h in model.hooks:
        _reached(h.body, model, seen)
    out: list[Entry] = []
    for kind, name in seen:
        decl = (model.actions if kind == "action" else model.procedures).get(name)
        if decl is not None:
            out.append(_entry(kind, name, decl))
    out += [_entry("trigger", f"when {i + 1}", t) for i, t in enumerate(model.triggers)]
    out += [_entry("hook", f"on {h.event}", h) for h in model.hooks]
    out += [_entry("device", name, d) for name, d in model.devices.items()]
    out += [_entry("action", name, d) for name, d in model.actions.items() if ("action", name) not in seen]
    out += [_entry("procedure", name, d) for name, d in model.procedures.items() if ("procedure", name) not in seen]
    out += [_entry("definition", name, d) for name, d in model.defines.items()]
    _attach_scenarios(out, model.scenarios)
    _attach_calls(out, model)
    return out


def calls_of(node: A.Node | tuple, model: Any) -> list[tuple[str, str]]:
    """What a rule (or the flow) leads to, in source order, once each: the actions it plays,
    the procedures it does, the definitions and chance devices it uses."""
    out: list[tuple[str, str]] = []
    for n in iter_nodes(node):
        found: list[tuple[str, str]] = []
        if isinstance(n, A.PlayStmt):
            found = [("action", a) for a in n.actions]
        elif isinstance(n, A.DoStmt):
            found = [("procedure", n.name)]
        elif isinstance(n, A.Call) and n.func in model.defines:
            found = [("definition", n.func)]
        elif isinstance(n, A.Call) and n.func in model.devices:
            found = [("device", n.func)]
        elif isinstance(n, A.Name) and n.name in model.defines:
            found = [("definition", n.name)]
        out += [f for f in found if f not in out]
    return out


def _attach_calls(entries: list[Entry], model: Any) -> None:
    """Each rule's calls and callers, among the book's rules; the flow calls as "flow"."""
    by_anchor = {e.anchor: e for e in entries}
    if model.flow is not None:
        for key in calls_of(model.flow.body, model):
            if anchor(*key) in by_anchor:
                by_anchor[anchor(*key)].called_by.append("flow")
    for e in entries:
        for key in calls_of(e.decl, model):
            target = by_anchor.get(anchor(*key))
            if target is None or target is e:
                continue
            e.calls.append(target.anchor)
            target.called_by.append(e.anchor)


def _names_in(sc: A.ScenarioDecl) -> set[str]:
    """The actions a scenario plays or asks about, and the definitions and procedures it calls."""
    out: set[str] = set()
    for st in sc.steps:
        if st.call is not None:
            out.add(st.call.name)
        for n in iter_nodes((st.value, st.body) if isinstance(st.value, A.Node) else st.body):
            if isinstance(n, A.Call):
                out.add(n.func)
            elif isinstance(n, A.DoStmt):
                out.add(n.name)
    return out


def _attach_scenarios(entries: list[Entry], scenarios: list[A.ScenarioDecl]) -> None:
    """A scenario exercises a rule when it plays, calls or asks about it by name, or cites one
    of the rule's spec ids."""
    for sc in scenarios:
        names, specs = _names_in(sc), set(sc.prov.specs)
        for e in entries:
            if (e.kind in ("action", "procedure", "definition") and e.name in names) or specs & set(e.specs):
                e.scenarios.append(sc)


def phases(model: Any) -> list[tuple[str, A.PhaseStmt]]:
    return list(model.phases.items())


def cited(entries: list[Entry], scenarios: list[A.ScenarioDecl]) -> dict[str, list[str]]:
    """Spec id -> the anchors of the rules and scenarios that cite it."""
    out: dict[str, list[str]] = {}
    for e in entries:
        for s in e.specs:
            out.setdefault(s, []).append(e.anchor)
    for i, sc in enumerate(scenarios):
        for s in sc.prov.specs:
            out.setdefault(s, []).append(f"scenario-{i}")
    return out
