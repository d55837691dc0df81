"""dsl/brackets.py: the one scanner behind the nesting guards and the LSP's declaration splitter."""

from __future__ import annotations

from regelwerk.dsl.brackets import brackets


def test_brackets_outside_texts_and_comments_with_their_places():
    text = 'f(a, "(]", [b])  # ) [\nx = {"\\")"}\n'
    assert list(brackets(text)) == [("(", 1, 2), ("[", 1, 12), ("]", 1, 14), (")", 1, 15),
                                    ("{", 2, 5), ("}", 2, 11)]


def test_without_comments_a_hash_is_text_and_a_line_ends_an_open_text():
    assert [b for b, _l, _c in brackets('[1] # (', comments=False)] == ["[", "]", "("]
    assert [b for b, _l, _c in brackets('"open\n[')] == ["["]
