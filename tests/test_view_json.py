"""Information states digest views written by `view_json`, which calls json's C encoder once
made instead of `JSONEncoder.encode` (that builds one per call): the text must be the same
byte for byte, or every information state would change."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st
from regelwerk.interpreter.observe.infostate import view_json

LEAVES = st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.text(max_size=8)
VIEWS = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=4) |
                     st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=25)


@given(VIEWS)
def test_view_json_writes_what_json_dumps_writes(view):
    expected = json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    assert view_json(view) == expected


def test_a_value_json_cannot_write_is_written_as_its_text():
    assert view_json({"b": frozenset(), "a": 1}) == '{"a":1,"b":"frozenset()"}'
