"""Change paths (`cell[b2]`, `warriors[Duchy][c5]`) as key lists, and applying them to a state.

A trace names each write by its text path. The page applies changes to a JSON state, so the
keys are resolved once here, against the state as it stood, into exactly the keys the JSON
uses (list indexes as numbers, map keys as the strings `jsonable` made of them).
"""

from __future__ import annotations

import copy
from typing import Any

# value_text spells these keys the rules' way; jsonable made map keys of them with str()
_KEY_SPELLINGS = {"none": "None", "true": "True", "false": "False"}


class PathError(ValueError):
    """A change path that does not fit the state it is applied to."""


def split_path(text: str) -> list[str]:
    """`warriors[Duchy][c5]` -> ["warriors", "Duchy", "c5"]; keys may hold brackets (`x[[a, b]]`)."""
    head, sep, rest = text.partition("[")
    if not head:
        raise PathError(f"change path {text!r} has no variable name")
    parts = [head]
    if not sep:
        return parts
    rest = "[" + rest
    i = 0
    while i < len(rest):
        if rest[i] != "[":
            raise PathError(f"change path {text!r}: expected '[' at {len(head) + i}")
        depth, j = 0, i
        while j < len(rest):
            depth += {"[": 1, "]": -1}.get(rest[j], 0)
            if depth == 0:
                break
            j += 1
        if depth:
            raise PathError(f"change path {text!r}: unclosed '['")
        parts.append(rest[i + 1:j])
        i = j + 1
    return parts


def resolve(state: dict, parts: list[str]) -> list[str | int]:
    """The JSON keys of `parts` in `state`: the root must be a variable, each container must
    exist (a map entry may be new only at the last step)."""
    root = parts[0]
    if root not in state:
        raise PathError(f"'{root}' is not a state variable of this ruleset")
    keys: list[str | int] = [root]
    here: Any = state[root]
    for n, part in enumerate(parts[1:], 1):
        last = n == len(parts) - 1
        if isinstance(here, list):
            try:
                k: str | int = int(part)
            except ValueError:
                raise PathError(f"'{part}' is not a list index") from None
            if not 0 <= k < len(here):
                raise PathError(f"index {k} is outside a list of {len(here)}")
        elif isinstance(here, dict):
            k = part
            if k not in here and _KEY_SPELLINGS.get(k) in here:
                k = _KEY_SPELLINGS[k]
            if k not in here and not last:
                raise PathError(f"no entry '{part}'")
        else:
            raise PathError(f"cannot index a {type(here).__name__} with '{part}'")
        keys.append(k)
        if not last:
            here = here[k]
    return keys


def apply(state: dict, keys: list[str | int], value: Any) -> None:
    """Write a copy of `value` at `keys` (so later writes never change the trace's own values)."""
    here: Any = state
    for k in keys[:-1]:
        here = here[k]
    here[keys[-1]] = copy.deepcopy(value)
