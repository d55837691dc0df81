"""A player's observation as a flat list of numbers, for learning algorithms (OpenSpiel's
`observation_tensor`): the same facts as `view(player)`, laid out by the declared types, so
the length depends only on the ruleset, the number of players and the options.

Layout, in this order: who is to move (one-hot over the players), who decides now (one-hot;
all zero at a chance node or the end), waiting for chance, over, the phase (one-hot over the
flow's phases), the round; then every state variable in declaration order:

| type | numbers |
|---|---|
| `bool`, `int` | the value (an int as it is) |
| a finite type (`Player`, an enum, a board's squares, `Direction`) | one-hot over its values |
| `T?` | 1 when present, then `T` (zeros when none) |
| a record | its fields in order |
| `list T`, `set T` of a finite `T` | how many of each value, then the size |
| `list T`, `set T` of anything else | the size |
| `K -> V` with a finite `K` | `V` for each key in order |
| `K -> V` with other keys | the number of entries |
| `text` | nothing |

What the player may not see is zero, except the size of a hidden collection, which players
see (how many cards a hand holds): the rules of interpreter/observe/visibility.py.

`Encoder.encode_plain` walks the layout type by type; `encode` runs code generated once per
layout (`FastEncoder`) that gives the same numbers (tests/test_tensor_code.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...dsl.types import BOOL, INT, Elem, ListOf, MapOf, Opt, Record, SetOf, Type

_COLLECTIONS = (list, tuple, frozenset, set)


class Encoder:
    """The layout for one ruleset, player count and option set; `encode` fills it in."""

    def __init__(self, game: Any):
        model = game.prog.model
        self.model = model
        self.players = tuple(game.players)
        self.domains = game.domains()
        self.index = {name: {v: i for i, v in enumerate(values)} for name, values in self.domains.items()}
        self.phases = {name: i for i, name in enumerate(model.phases)}
        self.vars = [(name, model.var_types[name], model.vars[name].hidden) for name in model.vars]
        self.size = 2 * len(self.players) + 3 + len(self.phases) + sum(self.width(t) for _n, t, _h in self.vars)
        self._fast: Callable[[Any, str], list[float]] | None = None

    # ------------------------------------------------------------------ layout
    def finite(self, t: Type) -> tuple | None:
        if t == BOOL:
            return (False, True)
        if isinstance(t, Elem):
            return self.domains.get(t.name, ())
        return None

    def width(self, t: Type) -> int:
        if t in (BOOL, INT):
            return 1
        if isinstance(t, Elem):
            return len(self.domains.get(t.name, ()))
        if isinstance(t, Opt):
            return 1 + self.width(t.inner)
        if isinstance(t, Record):
            return sum(self.width(ft) for ft in self.model.record_fields.get(t.name, {}).values())
        if isinstance(t, (ListOf, SetOf)):
            values = self.finite(t.elem)
            return 1 + (len(values) if values is not None else 0)
        if isinstance(t, MapOf):
            keys = self.finite(t.key)
            return len(keys) * self.width(t.val) if keys is not None else 1
        return 0  # text, and values of no fixed type

    # ------------------------------------------------------------------ values
    def encode(self, game: Any, player: str) -> list[float]:
        """The tensor, by the code generated for this layout (`FastEncoder`): the same numbers
        as `encode_plain` (tests/test_tensor_code.py), without walking the types each time."""
        fast = self._fast
        if fast is None:
            fast = self._fast = FastEncoder(self).function()
        return fast(game, player)

    def encode_plain(self, game: Any, player: str) -> list[float]:
        """The tensor, the layout walked type by type (what the generated code must match)."""
        out: list[float] = []
        n = len(self.players)
        head = [0.0] * (2 * n + 3 + len(self.phases))
        if game.current in self.players:
            head[self.players.index(game.current)] = 1.0
        decider = game.decision_player()
        if decider in self.players:
            head[n + self.players.index(decider)] = 1.0
        head[2 * n] = 1.0 if game.chance_node is not None else 0.0
        head[2 * n + 1] = 1.0 if game.is_over else 0.0
        if game.phase in self.phases:
            head[2 * n + 2 + self.phases[game.phase]] = 1.0
        head[-1] = float(game.round)
        out.extend(head)
        for name, t, hidden in self.vars:
            value = game.vars.get(name)
            if hidden == "all":
                self.put(t, value, out, False)
            elif hidden == "owner" and isinstance(t, MapOf) and isinstance(value, dict):
                keys = self.finite(t.key)
                if keys is None:
                    out.append(float(len(value)))
                else:
                    for k in keys:
                        self.put(t.val, value.get(k, t.val.default()), out, k == player)
            else:
                self.put(t, value, out, True)
        assert len(out) == self.size, (len(out), self.size)
        return out

    def put(self, t: Type, v: Any, out: list[float], seen: bool) -> None:
        """Append the numbers of value `v` of type `t`; unseen values are zeros but sizes."""
        if t in (BOOL, INT):
            out.append(float(v) if seen and isinstance(v, (int, bool)) else 0.0)
        elif isinstance(t, Elem):
            values = self.domains.get(t.name, ())
            row = [0.0] * len(values)
            i = self.index.get(t.name, {}).get(v) if seen else None
            if i is not None:
                row[i] = 1.0
            out.extend(row)
        elif isinstance(t, Opt):
            present = v is not None and seen
            out.append(1.0 if present else 0.0)
            if present:
                self.put(t.inner, v, out, True)
            else:
                out.extend([0.0] * self.width(t.inner))
        elif isinstance(t, Record):
            fields = self.model.record_fields.get(t.name, {})
            for f, ft in fields.items():
                self.put(ft, v.get(f) if seen and isinstance(v, dict) else None, out, seen and isinstance(v, dict))
        elif isinstance(t, (ListOf, SetOf)):
            values = self.finite(t.elem)
            items = v if isinstance(v, (list, tuple, frozenset, set)) else ()
            if values is not None:
                row = [0.0] * len(values)
                if seen:
                    where = self.index.get(t.elem.name, {}) if isinstance(t.elem, Elem) else {False: 0, True: 1}
                    for x in items:
                        i = where.get(x)
                        if i is not None:
                            row[i] += 1.0
                out.extend(row)
            out.append(float(len(items)))  # sizes are seen even of hidden collections
        elif isinstance(t, MapOf):
            keys = self.finite(t.key)
            d = v if isinstance(v, dict) else {}
            if keys is None:
                out.append(float(len(d)))
            else:
                for k in keys:
                    self.put(t.val, d.get(k, t.val.default()), out, seen)


class FastEncoder:
    """Python code for one `Encoder`'s layout, generated once: every offset worked out, each
    state variable read once and written by code for its declared type, into a list of zeros.
    Where a type has no short way here (records, maps of maps), the code calls the encoder's
    own `put` for that variable, so the layout and what is hidden are decided in one place.
    Information states of OpenSpiel's tabular policies ask one tensor per information state
    (Leduc: 936 in CFR's set-up), at about a fifth of the cost of walking the types."""

    def __init__(self, enc: Encoder):
        self.enc = enc
        self.lines: list[str] = []
        self.space: dict[str, Any] = {"_put": enc.put, "_COLL": _COLLECTIONS}
        self.count = 0

    def name(self, value: Any, prefix: str) -> str:
        """A module-level name in the generated code's namespace for `value`."""
        self.count += 1
        name = f"_{prefix}{self.count}"
        self.space[name] = value
        return name

    def function(self) -> Callable[[Any, str], list[float]]:
        enc, lines = self.enc, self.lines
        n = len(enc.players)
        players = self.name({p: i for i, p in enumerate(enc.players)}, "P")
        phases = self.name(enc.phases, "PH")
        lines += [f"    out = [0.0] * {enc.size}",
                  f"    i = {players}.get(game.current) if type(game.current) is str else None",
                  "    if i is not None:", "        out[i] = 1.0",
                  "    d = game.decision_player()",
                  f"    i = {players}.get(d) if type(d) is str else None",
                  "    if i is not None:", f"        out[{n} + i] = 1.0",
                  "    if game.chance_node is not None:", f"        out[{2 * n}] = 1.0",
                  "    if game.is_over:", f"        out[{2 * n + 1}] = 1.0",
                  f"    i = {phases}.get(game.phase) if type(game.phase) is str else None",
                  "    if i is not None:", f"        out[{2 * n + 2} + i] = 1.0",
                  f"    out[{2 * n + 2 + len(enc.phases)}] = float(game.round)",
                  "    v = game.vars"]
        at = 2 * n + 3 + len(enc.phases)
        for k, (name, t, hidden) in enumerate(enc.vars):
            x = f"x{k}"
            lines.append(f"    {x} = v.get({name!r})")
            if hidden == "all":
                self.put(t, x, at, False, "    ")
            elif hidden == "owner" and isinstance(t, MapOf):
                keys = enc.finite(t.key)
                lines.append(f"    if isinstance({x}, dict):")
                if keys is None:
                    lines.append(f"        out[{at}] = float(len({x}))")
                else:
                    o = at
                    for j, key in enumerate(keys):
                        y = f"y{k}_{j}"
                        lines.append(f"        {y} = {x}.get({self.name(key, 'K')}, {self.name(t.val.default(), 'D')})")
                        lines.append(f"        if {self.name(key, 'K')} == player:")
                        self.put(t.val, y, o, True, "            ")
                        lines.append("        else:")
                        self.put(t.val, y, o, False, "            ")
                        lines.append("            pass")
                        o += enc.width(t.val)
                lines.append("    else:")
                self.put(t, x, at, True, "        ")
                lines.append("        pass")
            else:
                self.put(t, x, at, True, "    ")
            at += enc.width(t)
        assert at == enc.size, (at, enc.size)
        lines.append(f"    assert len(out) == {enc.size}, len(out)")  # as encode_plain's
        lines.append("    return out")
        src = "def encode(game, player):\n" + "\n".join(lines) + "\n"
        exec(compile(src, "<observation tensor>", "exec"), self.space)  # noqa: S102 - our own code
        return self.space["encode"]

    def put(self, t: Type, y: str, o: int, seen: bool, ind: str) -> None:
        """Code writing value `y` of type `t` at offset `o`, as `Encoder.put` appends it."""
        enc, lines = self.enc, self.lines
        if t in (BOOL, INT):
            if seen:
                lines.append(f"{ind}if isinstance({y}, (int, bool)):")
                lines.append(f"{ind}    out[{o}] = float({y})")
        elif isinstance(t, Elem):
            if seen:
                index = self.name(enc.index.get(t.name, {}), "I")
                lines.append(f"{ind}i = {index}.get({y})")
                lines.append(f"{ind}if i is not None:")
                lines.append(f"{ind}    out[{o} + i] = 1.0")
        elif isinstance(t, Opt) and (t.inner in (BOOL, INT) or isinstance(t.inner, Elem)):
            if seen:
                lines.append(f"{ind}if {y} is not None:")
                lines.append(f"{ind}    out[{o}] = 1.0")
                self.put(t.inner, y, o + 1, True, ind + "    ")
        elif isinstance(t, (ListOf, SetOf)):
            values = enc.finite(t.elem)
            size = o + (len(values) if values is not None else 0)
            lines.append(f"{ind}if isinstance({y}, _COLL):")
            if values is not None and seen:
                where = enc.index.get(t.elem.name, {}) if isinstance(t.elem, Elem) else {False: 0, True: 1}
                lines.append(f"{ind}    for z in {y}:")
                lines.append(f"{ind}        i = {self.name(where, 'W')}.get(z)")
                lines.append(f"{ind}        if i is not None:")
                lines.append(f"{ind}            out[{o} + i] += 1.0")
            lines.append(f"{ind}    out[{size}] = float(len({y}))")
        elif isinstance(t, MapOf):
            keys = enc.finite(t.key)
            self.count += 1
            d = f"d{self.count}"
            lines.append(f"{ind}{d} = {y} if isinstance({y}, dict) else {{}}")
            if keys is None:
                lines.append(f"{ind}out[{o}] = float(len({d}))")
                return
            default = self.name(t.val.default(), "D")
            for j, key in enumerate(keys):
                e = f"{d}_{j}"
                lines.append(f"{ind}{e} = {d}.get({self.name(key, 'K')}, {default})")
                self.put(t.val, e, o + j * enc.width(t.val), seen, ind)
        else:  # records, optional collections: the encoder's own way, spliced in
            w = enc.width(t)
            lines.append(f"{ind}z = []")
            lines.append(f"{ind}_put({self.name(t, 'T')}, {y}, z, {seen})")
            lines.append(f"{ind}out[{o}:{o + w}] = z")


def encoder(game: Any) -> Encoder:
    """The encoder for this game's ruleset, players and options, made once."""
    key = (len(game.players), repr(sorted(game.options.items())))
    cache = game.prog.__dict__.setdefault("_encoders", {})
    enc = cache.get(key)
    if enc is None:
        enc = cache[key] = Encoder(game)
    return enc
