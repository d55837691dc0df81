"""Hover text: the rulebook behind a rule, the type and home of a name, a spec id's entry.

Returned as Markdown; positions are 1-based code points (the server converts).
"""

from __future__ import annotations

import os

from ..dsl import ast as A
from ..dsl.ast import iter_nodes
from ..dsl.printer import expr_text
from ..interpreter.stdlib.library import LIBRARY
from .analysis import Analysis
from .index import Symbol
from .specs import SpecInventory
from .typetext import type_text

_RULE_KINDS = {
    A.ActionDecl: "action", A.ProcedureDecl: "procedure", A.TriggerDecl: "trigger",
    A.HookDecl: "hook", A.FlowDecl: "flow", A.PhaseStmt: "phase", A.TurnStmt: "turn",
    A.DeviceDecl: "device", A.GameDecl: "game", A.ScenarioDecl: "scenario",
    A.InvariantDecl: "invariant",
}


def provenance_md(prov: A.Provenance) -> list[str]:
    """The quote, `source` and `spec` lines of a rule, as Markdown paragraphs."""
    out = []
    if prov.quote:
        out.append("> " + prov.quote.replace("\n", "\n> "))
    if prov.note:
        out.append("*not in the rulebook:* " + prov.note)
    if prov.sources:
        out.append("source " + ", ".join(f"`{s}`" for s in prov.sources))
    if prov.specs:
        out.append("spec " + ", ".join(f"`{s}`" for s in prov.specs))
    return out


def _where(sym: Symbol, root: str) -> str:
    if sym.where is None:
        return ""
    rel = os.path.relpath(sym.where.file, os.path.dirname(root))
    return f"declared at `{rel}:{sym.where.line}:{sym.where.column}`"


def _signature(node: A.Node, name: str) -> str:
    parts = [f"{p.name}: {type_text(p.type)}" if p.type is not None else f"{p.name} in {expr_text(p.domain)}"
             for p in getattr(node, "params", ())]
    return f"{name}({', '.join(parts)})" if parts else name


def _head(sym: Symbol) -> str:
    if sym.kind in ("action", "procedure", "device", "definition") and sym.decl is not None:
        keyword = "define" if sym.kind == "definition" else sym.kind
        return f"```regelwerk\n{keyword} {_signature(sym.decl, sym.name)}\n```"
    if sym.kind == "library":
        sig = LIBRARY[sym.name]
        return f"```regelwerk\n{sig.call_text} → {sym.type}\n```\nstandard library"
    typ = f": {sym.type}" if sym.type and sym.type != "type" else ""
    return f"```regelwerk\n({sym.kind}) {sym.name}{typ}\n```"


def symbol_md(sym: Symbol, root: str) -> str:
    """What a name is: its kind and type, where it is declared, and a rule's provenance."""
    parts = [_head(sym)]
    if sym.kind == "device" and sym.type:
        parts.append(f"outcome: `{sym.type}`")
    if sym.kind == "definition" and sym.type:
        parts.append(f"value: `{sym.type}`")
    if sym.detail:
        parts.append(sym.detail)
    where = _where(sym, root)
    if where:
        parts.append(where)
    prov = getattr(sym.decl, "prov", None)
    if isinstance(prov, A.Provenance) and sym.kind in ("action", "procedure", "device", "phase"):
        parts.extend(provenance_md(prov))
    return "\n\n".join(parts)


def _rule_on_line(module: A.Module, line: int) -> A.Node | None:
    """The rule (action, trigger, phase, ...) whose header is on `line`."""
    best = None
    for node in iter_nodes(module):
        if type(node) in _RULE_KINDS and node.span.line == line:
            best = node
    return best


def hover_md(an: Analysis, specs: SpecInventory, path: str, line: int, column: int) -> str | None:
    """Markdown for the position, or None when there is nothing to say."""
    toks = an.tokens.get(path)
    tok = toks.at(line, column) if toks is not None else None
    if tok is not None and tok.kind == "spec":
        entry = specs.lookup(tok.text, path)
        if entry is None:
            return f"spec `{tok.text}`: no inventory found (set `specDir` or REGELWERK_SPEC_DIR)"
        return f"**{tok.text}** — `{os.path.basename(entry.file)}:{entry.line}`\n\n{entry.text}"
    occ = an.index.at(path, line, column)
    if occ is not None:
        sym = an.index.symbols.get(occ.key)
        if sym is not None:
            return symbol_md(sym, an.root)
    module = an.module(path)
    if module is None or tok is None or tok.kind != "name":
        return None
    rule = _rule_on_line(module, line)
    if rule is None:
        return None
    kind = _RULE_KINDS[type(rule)]
    title = {A.TriggerDecl: "when …", A.HookDecl: f"on {getattr(rule, 'event', '')}"}.get(type(rule), kind)
    parts = [f"**{title}**" if kind in ("trigger", "hook") else f"**{kind}**"]
    parts.extend(provenance_md(rule.prov))
    return "\n\n".join(parts)
