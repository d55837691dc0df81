"""The outline of a file: its declarations, with the flow's phases nested under it."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..dsl import ast as A
from ..dsl.printer import expr_text
from .tokens import Tokens
from .typetext import type_text


@dataclass
class OutlineItem:
    name: str
    kind: str  # action, procedure, trigger, hook, flow, phase, scenario, state, enum, ...
    span: A.Span
    name_at: tuple[int, int, int] | None  # line, column, end column of the name
    detail: str = ""
    children: list[OutlineItem] = field(default_factory=list)


def _name_at(toks: Tokens, span: A.Span, name: str) -> tuple[int, int, int] | None:
    for tok in toks.in_range(span.line, span.column, span.end_line, span.end_column):
        if tok.text == name or (tok.kind == "string" and tok.text[1:-1] == name):
            return tok.line, tok.column, tok.end_column
    return None


def _phases(body: tuple, toks: Tokens) -> list[OutlineItem]:
    out = []
    for s in body:
        if isinstance(s, A.PhaseStmt):
            item = OutlineItem(s.name, "phase", s.span, _name_at(toks, s.span, s.name),
                               s.prov.quote[:60] if s.prov.quote else "")
            item.children = _phases(s.body, toks)
            out.append(item)
        else:
            for name in ("body", "orelse"):
                inner = getattr(s, name, None)
                if isinstance(inner, tuple):
                    out.extend(_phases(inner, toks))
            for _test, inner in getattr(s, "branches", ()):
                out.extend(_phases(inner, toks))
    return out


def outline(module: A.Module, toks: Tokens) -> list[OutlineItem]:
    """One item per declaration (state variables each get one), in file order."""
    out: list[OutlineItem] = []
    for d in module.decls:
        name = getattr(d, "name", None)
        if isinstance(d, (A.ActionDecl, A.ProcedureDecl, A.DefineDecl, A.DeviceDecl)):
            kind = {A.ActionDecl: "action", A.ProcedureDecl: "procedure", A.DefineDecl: "define",
                    A.DeviceDecl: "device"}[type(d)]
            params = ", ".join(p.name for p in d.params)
            out.append(OutlineItem(d.name, kind, d.span, _name_at(toks, d.span, d.name),
                                   f"({params})" if params else ""))
        elif isinstance(d, A.TriggerDecl):
            out.append(OutlineItem("when " + expr_text(d.test), "trigger", d.span, None))
        elif isinstance(d, A.HookDecl):
            out.append(OutlineItem("on " + d.event, "hook", d.span, None))
        elif isinstance(d, A.FlowDecl):
            out.append(OutlineItem("flow", "flow", d.span, None, "", _phases(d.body, toks)))
        elif isinstance(d, A.ScenarioDecl):
            out.append(OutlineItem(d.name, "scenario", d.span, _name_at(toks, d.span, d.name)))
        elif isinstance(d, A.StateDecl):
            item = OutlineItem("state", "state", d.span, None)
            item.children = [OutlineItem(v.name, "variable", v.span, _name_at(toks, v.span, v.name),
                                         type_text(v.type)) for v in d.vars]
            out.append(item)
        elif isinstance(d, A.GameDecl):
            out.append(OutlineItem(d.title, "game", d.span, None))
        elif isinstance(d, (A.EnumDecl, A.RecordDecl, A.GridDecl, A.GraphDecl, A.GraphFileDecl,
                            A.DataDecl, A.ConstDecl, A.OptionDecl)) and name:
            kind = {A.EnumDecl: "enum", A.RecordDecl: "record", A.DataDecl: "data",
                    A.ConstDecl: "const", A.OptionDecl: "option"}.get(type(d), "board")
            out.append(OutlineItem(name, kind, d.span, _name_at(toks, d.span, name)))
    return out
