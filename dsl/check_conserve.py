"""`conserve ITEMS in ZONE, ...` checked: its zones must be state lists or sets (or maps of
them), distinct, holding items of the same type as ITEMS, and the first zone (where a
scenario's `given` puts back what it displaced) must be a plain list or set (E230)."""

from __future__ import annotations

from .diagnostics import Diagnostic, did_you_mean
from .types import ANY, ListOf, MapOf, SetOf, Type, compatible


def _content(t: Type) -> Type | None:
    """What a zone of type `t` holds: the item type of a list or set, or of a map's values."""
    if isinstance(t, MapOf):
        t = t.val
    return t.item if isinstance(t, (ListOf, SetOf)) else None


def _declared(model: object, name: str) -> bool:
    return any(name in getattr(model, table) for table in ("consts", "options", "data", "defines"))


def check_conserve(model: object) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    var_types: dict[str, Type] = model.var_types  # type: ignore[attr-defined]
    for inv in model.invariants:  # type: ignore[attr-defined]
        if not inv.conserve:
            continue
        items, *zones = inv.test.args
        it = model.type_of(items)  # type: ignore[attr-defined]
        want = it.item if isinstance(it, (ListOf, SetOf)) or getattr(it, "is_collection", False) else None
        if want is None and it != ANY:
            out.append(Diagnostic("E230", f"'conserve' needs a list or set of pieces, not {it}",
                                  items.span))
        seen: set[str] = set()
        for i, z in enumerate(zones):
            if z.name not in var_types:
                if not _declared(model, z.name):
                    continue  # an unknown name: E202 says so already
                out.append(Diagnostic("E230", f"'{z.name}' is not a state variable: a zone is a "
                                      "list or set in the state, or a map of them", z.span,
                                      did_you_mean(z.name, var_types)))
                continue
            if z.name in seen:
                out.append(Diagnostic("E230", f"zone '{z.name}' is named twice", z.span))
            seen.add(z.name)
            zt = var_types[z.name]
            held = _content(zt)
            if held is None:
                out.append(Diagnostic("E230", f"zone '{z.name}' is {zt}: a zone is a list or set, "
                                      "or a map of them", z.span))
            elif want is not None and not compatible(held, want):
                out.append(Diagnostic("E230", f"zone '{z.name}' holds {held}, not the pieces "
                                      f"conserved ({want})", z.span))
            elif i == 0 and isinstance(zt, MapOf):
                out.append(Diagnostic("E230", f"the first zone ('{z.name}') is where scenarios put "
                                      "back what they displace: make it a list or set", z.span))
    return out

