"""Progress of a long run on stderr: a tqdm bar on a terminal, a plain line now and then
when stderr is a file or a pipe (logs, CI), nothing with --quiet.

tqdm rather than rich: it is one small pure-Python package with no dependencies, and its bar
already shows the count, the rate and the time left, which is all this needs.
"""

from __future__ import annotations

import time
from typing import TextIO

from .stats import rate_text


class Progress:
    """Silent: the interface the runner calls."""

    def start(self, total: int, done: int) -> None:
        pass

    def advance(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def _duration(seconds: float) -> str:
    s = int(seconds + 0.5)
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{s % 3600 // 60:02d}m"


class LineProgress(Progress):
    """A line every `every` seconds and at the end: count, rate, time left."""

    def __init__(self, stream: TextIO, every: float = 5.0):
        self.stream = stream
        self.every = every

    def start(self, total: int, done: int) -> None:
        self.total, self.done, self.first = total, done, done
        self.t0 = self.last = time.monotonic()

    def advance(self, n: int = 1) -> None:
        self.done += n
        now = time.monotonic()
        if now - self.last >= self.every:
            self.last = now
            self._line(now)

    def _line(self, now: float) -> None:
        rate = (self.done - self.first) / max(now - self.t0, 1e-9)
        left = (self.total - self.done) / rate if rate > 0 else None
        pct = 100 * self.done / self.total if self.total else 100.0
        text = f"simulate: {self.done}/{self.total} games ({pct:.0f}%), {rate_text(rate)} games/s"
        if left is not None and self.done < self.total:
            text += f", about {_duration(left)} left"
        print(text, file=self.stream, flush=True)

    def close(self) -> None:
        if hasattr(self, "t0"):
            self._line(time.monotonic())


class BarProgress(Progress):
    """tqdm's bar: games done of all, games per second, elapsed and remaining time."""

    def __init__(self, stream: TextIO):
        self.stream = stream
        self.bar = None

    def start(self, total: int, done: int) -> None:
        from tqdm import tqdm

        self.bar = tqdm(total=total, initial=done, unit="game", file=self.stream, dynamic_ncols=True,
                        smoothing=0.05, desc="simulate")

    def advance(self, n: int = 1) -> None:
        if self.bar is not None:
            self.bar.update(n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def progress_for(stream: TextIO, quiet: bool) -> Progress:
    if quiet:
        return Progress()
    isatty = getattr(stream, "isatty", None)
    return BarProgress(stream) if isatty is not None and isatty() else LineProgress(stream)
