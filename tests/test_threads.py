"""Rulesets loaded, compiled and played in several threads at once (a server's request threads,
a Dask worker's task threads) give exactly what one thread gives: the parser and the
compiler's conversions of Python trees take turns (dsl/parse.py, interpreter/compiler/pytree.py)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

import regelwerk

ROOT = Path(__file__).resolve().parent.parent
FILES = ["rulesets/classic/tictactoe.rules", "rulesets/classic/connect4.rules", "rulesets/examples/pig.rules",
         "rulesets/classic/breakthrough.rules"]


def _work(text: str, name: str, k: int) -> tuple:
    """Parse anew (a comment makes the text new to the parse cache), check, compile, play."""
    r = regelwerk.load_text(f"# copy {k} in thread {threading.get_ident()}\n{text}", name)
    g = r.new_game(seed=k % 3, record=k % 2 == 0)
    moves = 0
    while not g.is_over and moves < 40:
        g.apply(g.legal_actions()[0])
        moves += 1
    return name, k % 3, k % 2 == 0, str(g.vars)


def test_loading_and_playing_in_threads_matches_one_thread():
    texts = {f: (ROOT / f).read_text(encoding="utf-8") for f in FILES}
    jobs = [(texts[f], Path(f).name, k) for k in range(6) for f in FILES]
    alone = {(name, k): _work(text, name, k) for text, name, k in jobs}
    together: dict = {}
    errors: list[str] = []

    def worker(part: list) -> None:
        for text, name, k in part:
            try:
                together[(name, k)] = _work(text, name, k)
            except Exception as err:  # noqa: BLE001 - any failure is the finding
                errors.append(f"{name} #{k}: {type(err).__name__}: {str(err)[:200]}")

    threads = [threading.Thread(target=worker, args=(jobs[i::4],)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert together == alone


def test_a_spurious_ast_error_of_another_thread_is_overcome(monkeypatch):
    """CPython 3.11's shared recursion counter (python/cpython#106905) can make a conversion
    fail with a SystemError while another thread converts; the compiler does it again."""
    import ast

    from regelwerk.interpreter.compiler import pytree

    real = ast.parse
    calls = []

    def flaky(*args, **kw):
        calls.append(1)
        if len(calls) == 1:
            raise SystemError("AST constructor recursion depth mismatch (before=63, after=68)")
        return real(*args, **kw)

    monkeypatch.setattr(ast, "parse", flaky)
    assert isinstance(pytree.parse("x = 1\n"), ast.Module) and len(calls) == 2
    def broken(*args, **kw):
        raise SystemError("other")

    monkeypatch.setattr(ast, "parse", broken)
    with pytest.raises(SystemError, match="other"):
        pytree.parse("x = 1\n")
