"""Comparisons of names that may be none, tested for none first (`CodeGen.NONE_FIRST`, choice
`none first`).

`cell[to] != current` where a square may be empty compares None with a text. CPython's
interpreter loop compares two texts in a specialised instruction; None against a text is not
specialised: it goes through `PyObject_RichCompare`, asks both types and falls back to identity.
A comparison site that sees both cases loses its specialisation too. Timed in a loop over a list
half None, half names (timeit, 2026-12-06): `x != cur` 41 ns, `x is not cur and (x is None or
x != cur)` 17 ns; `x == cur` 30 ns, the form below 24 ns. By callgrind, comparisons were 8% of a
random breakthrough game's instructions (`PyObject_RichCompare` and the calls it makes).

Only for values of a finite type (names: players, squares, enumerations), whose Python values
are texts or None, and only where one side's static type admits none. The forms are exact for
every pair of such values: they do not rely on the static types being right (which side may
be none decides only which side is tested first):

- `x == y` is `(x is y or x is not None and x == y)`: both None, or the same text, answer at
  once; None against a text is False; two texts compare as before;
- `x != y` is `(x is not y and (x is None or x != y))`;
- against a text literal `'a'` (never None; `is` of a literal is a SyntaxWarning):
  `(x is not None and x == 'a')` and `(x is None or x != 'a')`;
- `x != y` where `y` is never None at run time, which the engine promises of `current` only
  (`G.current` is always one of the players: set from the players, checked when a save is
  loaded), not the static types: `(x is None or x is not y and x != y)`, one test where `x` is
  None (an empty square), which is what most of breakthrough's `cell[to] != current` finds
  (callgrind, 2026-12-07: 3.90 → 3.79 M instructions a game). The form above answers None in
  two tests and a square of the mover's in one; this one a square of the mover's in two.

`x` and `y` are evaluated more than once, so each must be a local name or a literal. A look-up
`m[k]` bound once by `:=` was measured and dropped (callgrind, 2026-12-06): it gained breakthrough
another 0.9% but cost Shogun's traced games 0.7% and Root's 0.4%, whose owner maps are mostly
set (the extra tests cost more than the slow path they avoid), and an assignment expression
needs writing out again where inlining moves it into a comprehension's iterable."""

from __future__ import annotations

import re

_NAME = re.compile(r"[A-Za-z_]\w*")
_TEXT = re.compile(r"'[^'\\]*'")


def _simple(code: str) -> bool:
    return bool(_NAME.fullmatch(code) or _TEXT.fullmatch(code))


def none_first(left: str, op: str, right: str, left_may_be_none: bool, right_may_be_none: bool,
               other_never_none: bool = False) -> str | None:
    """The comparison `left op right` (op `==` or `!=`) with none tested first, or None when it
    is not worth it or not possible (neither side may be none, or an operand is not simple).
    `other_never_none`: the side that the static types say is not none is never None at run
    time either (`current`), whatever the types say."""
    if op not in ("==", "!=") or not (left_may_be_none or right_may_be_none):
        return None
    x, y = (left, right) if left_may_be_none else (right, left)
    if not _NAME.fullmatch(x) or not _simple(y):
        return None
    if _TEXT.fullmatch(y):
        if op == "==":
            return f"({x} is not None and {x} == {y})"
        return f"({x} is None or {x} != {y})"
    if op == "==":
        return f"({x} is {y} or {x} is not None and {x} == {y})"
    if other_never_none and not (left_may_be_none and right_may_be_none):
        return f"({x} is None or {x} is not {y} and {x} != {y})"
    return f"({x} is not {y} and ({x} is None or {x} != {y}))"
