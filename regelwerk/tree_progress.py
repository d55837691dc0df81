"""Progress of a long walk over a game tree (`analyze`, `perft`) on stderr.

A tree's size is not known ahead, so progress is the share of the tree done, weighed by the
chance of reaching each part (analysis.Progress), and the positions left are estimated from
it. On a terminal it is a tqdm bar in percent; on a file or pipe, a plain line every few
seconds; nothing with --quiet.
"""

from __future__ import annotations

import time
from typing import TextIO

from .interpreter.tools.analysis import Progress


def _count(n: int | float | None) -> str:
    """`1.2M`; a count past a thousand G as a power of ten (`3.4e19`): the estimate of what is
    left of a tree too large to walk is astronomical early on, and says only that."""
    if n is None:
        return "?"
    if n >= 1e12:
        return f"{n:.1e}".replace("e+", "e")
    for size, unit in ((1_000_000_000, "G"), (1_000_000, "M"), (1_000, "k")):
        if n >= size:
            return f"{n / size:.1f}{unit}"
    return str(n)


def _share(done: float) -> str:
    """`41.2%`; a share above 0 that would print as 0.0% as `under 0.1%`."""
    if 0 < done < 0.0005:
        return "under 0.1%"
    return f"{100 * done:.1f}%"


def describe(p: Progress, noun: str = "positions") -> str:
    """`41.2% of the tree, 1.2M positions, about 1.7M left`."""
    return f"{_share(p.done)} of the tree, {_count(p.positions)} {noun}, about {_count(p.estimate_left)} left"


class TreeProgress:
    """Silent: the interface the commands call."""

    def __call__(self, p: Progress) -> None:
        pass

    def close(self) -> None:
        pass


class LineTreeProgress(TreeProgress):
    """A line every `every` seconds (what the tree walk reports is rate-limited already)."""

    def __init__(self, stream: TextIO, what: str, noun: str, every: float = 5.0):
        self.stream, self.what, self.noun, self.every = stream, what, noun, every
        self.last = time.monotonic()

    def __call__(self, p: Progress) -> None:
        now = time.monotonic()
        if now - self.last >= self.every:
            self.last = now
            print(f"{self.what}: {describe(p, self.noun)} ({p.seconds:.0f}s)", file=self.stream, flush=True)


class BarTreeProgress(TreeProgress):
    """tqdm's bar in percent of the tree, with the positions so far and the estimate left."""

    def __init__(self, stream: TextIO, what: str, noun: str):
        from tqdm import tqdm

        self.noun = noun
        self.bar = tqdm(total=100.0, unit="%", file=stream, dynamic_ncols=True, desc=what,
                        bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}<{remaining} {postfix}")
        self.shown = 0.0

    def __call__(self, p: Progress) -> None:
        target = 100 * p.done
        self.bar.set_postfix_str(f"{_count(p.positions)} {self.noun}, about {_count(p.estimate_left)} left",
                                 refresh=False)
        self.bar.update(max(0.0, target - self.shown))
        self.shown = max(self.shown, target)

    def close(self) -> None:
        self.bar.close()


def tree_progress_for(stream: TextIO, quiet: bool, what: str, noun: str = "positions") -> TreeProgress:
    if quiet:
        return TreeProgress()
    isatty = getattr(stream, "isatty", None)
    return BarTreeProgress(stream, what, noun) if isatty is not None and isatty() else \
        LineTreeProgress(stream, what, noun)
