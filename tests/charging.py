"""A stand-in for the game's work counter, for tests that run a charging pass's output on its
own (test_charged_once.py, test_charges_merged.py)."""

from __future__ import annotations


class CountingGame:
    """The counter and `out_of_work` as the engine's: a chunk used up is counted and the counter
    refilled to `refill` (so the code goes on after the call, with the counter it finds)."""

    def __init__(self, work: int, refill: int):
        self.work, self.calls, self.refill = work, [], refill

    def out_of_work(self, where: object) -> None:
        self.calls.append((where, self.work))
        self.work = self.refill


def run_counted(code: str, work: int, refill: int, *args: object) -> tuple:
    """`f(g, *args)` of `code` (the test's own text) on a `CountingGame`: its answer, the calls of
    `out_of_work` and the counter left."""
    ns: dict = {}
    exec(compile(code, "<test>", "exec"), ns)  # noqa: S102 - the test's own code
    g = CountingGame(work, refill)
    return ns["f"](g, *args), g.calls, g.work
