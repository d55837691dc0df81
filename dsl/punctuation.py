"""Where a quote's punctuation departs from the rulebook's.

A quote whose letters stand in its cited lines in the same order, but not with the same signs
between them (a full stop added after a heading, a comma dropped, a closing bracket turned into
a full stop, quotation marks left out), is not verbatim: the punctuation is the rulebook's. This
module lines the quote's letters up with the seed's, compares the signs between each pair of
letters, and names the first difference with the words around it on both sides, so the author
can copy the rulebook's signs.

What a PDF extraction adds is set aside as in `quotes.py`: spaces and line breaks, a word
hyphenated over a line break, leader dots, footnote stars and the kind of quotation marks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

LEADERS = re.compile(r"\.{2,}|…+")  # leader dots (`Elk gebouw ……… 1 punt`), not signs of the text
_KIND = str.maketrans({"„": '"', "“": '"', "”": '"', "«": '"', "»": '"', "‘": "'", "’": "'"})
_IGNORED = {"*", "\u00ad"}  # footnote stars and soft hyphens
_CLAUSE_END = ".,;:!?"


@dataclass(frozen=True)
class Marks:
    """A text reduced to what is compared: its characters without spaces, leaders, stars and
    soft hyphens, quotation marks of one kind, each with its index in the original text."""

    text: str
    chars: str
    at: list[int]

    @classmethod
    def of(cls, text: str) -> Marks:
        skip = set()
        for m in LEADERS.finditer(text):
            skip.update(range(m.start(), m.end()))
        chars, at = [], []
        for i, c in enumerate(text):
            if i in skip or c.isspace() or c in _IGNORED:
                continue
            chars.append(c.translate(_KIND))
            at.append(i)
        return cls(text, "".join(chars), at)

    def letters(self) -> tuple[str, list[int]]:
        """The letters and digits, each with its index in `chars`."""
        idx = [i for i, c in enumerate(self.chars) if c.isalnum()]
        return "".join(self.chars[i] for i in idx), idx


@dataclass(frozen=True)
class Difference:
    """The first place where the quote's signs are not the rulebook's."""

    ours: str  # the quote's signs there ("" when it drops the rulebook's)
    theirs: str  # the rulebook's signs there ("" when the quote adds some)
    quote_words: str  # the quote's words around it
    seed_words: str  # the cited lines' words around it

    def what(self) -> str:
        if not self.ours:
            return f"'{self.theirs}' dropped"
        if not self.theirs:
            return f"'{self.ours}' added"
        return f"'{self.ours}' where the rulebook has '{self.theirs}'"


def difference(quote: str, seed_text: str) -> Difference | None:
    """The first punctuation difference between a quote (one excerpt, no `…` in it) and the
    place in `seed_text` where its letters stand; None when its letters stand nowhere there in
    that order, or when nothing differs."""
    q, t = Marks.of(quote), Marks.of(seed_text)
    ql, qi = q.letters()
    tl, ti = t.letters()
    if not ql:
        return None
    best: tuple[int, Difference] | None = None
    start = tl.find(ql)
    for _ in range(64):  # the same words may stand twice: report the closest place
        if start < 0:
            break
        found = _first(q, qi, t, ti[start:start + len(ql)], ti, start)
        if found is None:
            return None
        if best is None or found[0] > best[0]:
            best = found
        start = tl.find(ql, start + 1)
    return None if best is None else best[1]


def _first(q: Marks, qi: list[int], t: Marks, tj: list[int], ti: list[int],
           start: int) -> tuple[int, Difference] | None:
    """(letters before it, the difference) for one alignment of the quote's letters `qi` with
    the seed's `tj`; the signs before the first letter and after the last may be a part of the
    seed's (an excerpt may begin or end inside a run of signs)."""
    n = len(qi)
    before_t = ti[start - 1] + 1 if start > 0 else 0
    after_t = ti[start + n] if start + n < len(ti) else len(t.chars)
    lead_q, lead_t = q.chars[:qi[0]], t.chars[before_t:tj[0]]
    if not lead_t.endswith(lead_q):
        return 0, _diff(q, t, lead_q, lead_t, 0, qi[0], before_t, tj[0], edge=True)
    for j in range(n - 1):
        ours, theirs = q.chars[qi[j] + 1:qi[j + 1]], t.chars[tj[j] + 1:tj[j + 1]]
        if ours != theirs:
            return j + 1, _diff(q, t, ours, theirs, qi[j], qi[j + 1], tj[j], tj[j + 1])
    tail_q, tail_t = q.chars[qi[-1] + 1:], t.chars[tj[-1] + 1:after_t]
    if not tail_t.startswith(tail_q):
        return n, _diff(q, t, tail_q, tail_t, qi[-1], len(q.chars) - 1, tj[-1], after_t - 1,
                        edge=True)
    return None


def _diff(q: Marks, t: Marks, ours: str, theirs: str, q_lo: int, q_hi: int, t_lo: int,
          t_hi: int, edge: bool = False) -> Difference:
    """The difference between two runs of signs, shown with a few words of each text. At the
    quote's edge (`edge`) an excerpt may stop short of the rulebook's signs, so signs of its own
    there are added ones, unless the rulebook ends a clause there too (`niet?` for `niet!`)."""
    k = 0
    while k < min(len(ours), len(theirs)) and ours[k] == theirs[k]:
        k += 1
    ours, theirs = ours[k:], theirs[k:]
    while ours and theirs and ours[-1] == theirs[-1]:
        ours, theirs = ours[:-1], theirs[:-1]
    if edge and ours and not any(c in _CLAUSE_END for c in theirs):
        theirs = ""
    return Difference(_original(q, ours, q_lo, q_hi), _original(t, theirs, t_lo, t_hi),
                      _words_around(q, q_lo, q_hi), _words_around(t, t_lo, t_hi))


def _original(m: Marks, signs: str, lo: int, hi: int) -> str:
    """`signs` as the text writes them (its own kind of quotation marks), found between
    compared characters lo and hi."""
    if not signs:
        return ""
    for a in range(max(lo, 0), min(hi, len(m.chars)) + 1):
        if m.chars[a:a + len(signs)] == signs:
            return "".join(m.text[m.at[a + i]] for i in range(len(signs)))
    return signs


def _words_around(m: Marks, lo: int, hi: int, n: int = 3) -> str:
    """The words of the original text from `n` words before compared character lo to `n`
    words after compared character hi, single-spaced, leaders shown as one `…`."""
    lo_at = m.at[max(0, min(lo, len(m.at) - 1))] if m.at else 0
    hi_at = m.at[max(0, min(hi, len(m.at) - 1))] if m.at else 0
    words = list(re.finditer(r"\S+", m.text))
    if not words:
        return ""
    first = next((i for i, w in enumerate(words) if w.end() > lo_at), len(words) - 1)
    last = next((i for i, w in enumerate(words) if w.end() > hi_at), len(words) - 1)
    chosen = words[max(0, first - n):last + n + 1]
    text = " ".join(w.group() for w in chosen)
    return re.sub(r"\s+", " ", LEADERS.sub("…", text)).strip()
