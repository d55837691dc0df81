"""Quotes checked against the seed texts they cite.

A rule's quote holds only the rulebook's own words: a literal excerpt of the seed lines its
`source` names, with gaps written as `…` (or `...`). Whatever is authored (a reading, a
paraphrase, substrate) belongs in its `note`. This module decides whether a quote keeps that
contract, and says where the words really stand when it does not.

The seed texts are PDF extracts, so the comparison sets aside what the extraction adds:
line breaks and runs of spaces, a word hyphenated over a line break, spaces inside a word
(OCR), leader dots, footnote stars and the kind of quotation marks. Nothing else: letters,
their case, the other punctuation and the order of the words must be the rulebook's.

Seed files are looked for by name in a search path: folders given by the caller (`regelwerk
check --seeds DIR`), then the `REGELWERK_SEEDS` environment variable (folders separated by
the path separator), then a `seeds` or `shared/seeds` folder above the rules file. A quote
whose cited files are not found is not checked.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from . import ast as A
from .diagnostics import Diagnostic
from .punctuation import LEADERS, difference

SEEDS_ENV = "REGELWERK_SEEDS"
ELISION = re.compile(r"…|\.\.\.")
_REF = re.compile(r"^(?P<file>[^:\s]+)(?::(?P<a>\d+)(?:-(?P<b>\d+))?)?$")
_LOOKS_LIKE_FILE = re.compile(r"^[\w.-]+\.\w+:")
_MARKS = str.maketrans({"„": '"', "“": '"', "”": '"', "«": '"', "»": '"', "‘": "'", "’": "'",
                        "*": None, "\u00ad": None})
_SQUASH = re.compile(r'[\s."…]+')
_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+")
MAX_SEED_BYTES = 2_000_000


def normalise(text: str) -> str:
    """One kind of quotation mark, no footnote stars, single spaces."""
    return re.sub(r"\s+", " ", text.translate(_MARKS)).strip()


def squash(text: str) -> str:
    """Letters and signs only: spaces (also OCR spaces inside a word), dots and quotation
    marks do not count."""
    return _SQUASH.sub("", normalise(text))


def strict(text: str) -> str:
    """Letters and signs, the full stops and quotation marks too: only what the extraction adds
    (spaces, leader dots, footnote stars, the kind of quotation marks) does not count."""
    return re.sub(r"\s+", "", LEADERS.sub("", normalise(text)))


def _bare(text: str) -> str:
    """Letters and digits only (a `\x00` between cited ranges that do not meet stays)."""
    return re.sub(r"[^\w\x00]+|_", "", text)


def fragments(quote: str) -> list[str]:
    """The excerpts a quote is made of: its parts between elisions (`…`)."""
    return [f.strip() for f in ELISION.split(quote) if squash(f)]


# ---------------------------------------------------------------------- seed files
@dataclass(frozen=True)
class SeedRef:
    """One `source` entry: a file name and a line range (the whole file without one)."""

    file: str
    first: int | None
    last: int | None

    def __str__(self) -> str:
        if self.first is None:
            return self.file
        return f"{self.file}:{self.first}" + (f"-{self.last}" if self.last != self.first else "")


def parse_ref(text: str) -> SeedRef | None:
    m = _REF.match(text.strip())
    if m is None:
        return None
    a = int(m.group("a")) if m.group("a") else None
    b = int(m.group("b")) if m.group("b") else a
    return SeedRef(m.group("file"), a, b)


@dataclass
class SeedText:
    """One seed file, squashed once, with the line each squashed character came from."""

    name: str
    lines: list[str]
    flat: str = ""
    line_of: list[int] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)  # where each line begins in `flat`
    exact: str = ""  # the same with full stops and quotation marks (`strict`)
    exact_starts: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        parts: list[str] = []
        exact: list[str] = []
        offset = exact_offset = 0
        for i, line in enumerate(self.lines):
            text = line.rstrip()
            nxt = self.lines[i + 1].lstrip() if i + 1 < len(self.lines) else ""
            if text.endswith("-") and nxt[:1].isalnum():
                text = text[:-1]  # a word hyphenated over the line break
            sq, ex = squash(text), strict(text)
            self.starts.append(offset)
            self.exact_starts.append(exact_offset)
            offset += len(sq)
            exact_offset += len(ex)
            parts.append(sq)
            exact.append(ex)
            self.line_of.extend([i + 1] * len(sq))
        self.flat = "".join(parts)
        self.exact = "".join(exact)
        self.starts.append(len(self.flat))
        self.exact_starts.append(len(self.exact))

    def span(self, first: int, last: int) -> tuple[int, int]:
        """The squashed text's character range for lines first..last."""
        return self.starts[first - 1], self.starts[last]

    def exact_text(self, first: int, last: int) -> str:
        """Lines first..last compared with their full stops and quotation marks (`strict`)."""
        return self.exact[self.exact_starts[first - 1]:self.exact_starts[last]]

    def raw(self, first: int, last: int) -> str:
        """Lines first..last as they stand, hyphenations joined (for showing the signs)."""
        chunk = "\n".join(self.lines[first - 1:last])
        return re.sub(r"-[ \t]*\n[ \t]*(?=\w)", "", chunk)

    def text(self, first: int, last: int) -> str:
        """Lines first..last as one normalised text, hyphenations joined."""
        chunk = "\n".join(self.lines[first - 1:last])
        return normalise(re.sub(r"-[ \t]*\n[ \t]*(?=\w)", "", chunk))

    def lines_at(self, start: int, end: int) -> tuple[int, int]:
        """The lines that squashed characters start..end-1 stand on."""
        return self.line_of[start], self.line_of[max(end - 1, start)]


_READ: dict[tuple[str, int, int], SeedText] = {}
_VERIFIED: dict[tuple, QuoteProblem | None] = {}


class SeedLibrary:
    """Finds seed files by name in a search path and reads each once."""

    def __init__(self, folders: Iterable[Path]):
        self.folders = [f for f in folders if f.is_dir()]
        self._cache: dict[str, SeedText | None] = {}

    @classmethod
    def for_rules(cls, rules_file: str, extra: Iterable[str] = ()) -> SeedLibrary:
        return cls(search_path(rules_file, extra))

    def get(self, name: str) -> SeedText | None:
        if name not in self._cache:
            self._cache[name] = self._read(name)
        return self._cache[name]

    def _read(self, name: str) -> SeedText | None:
        if "/" in name or "\\" in name or name.startswith("."):
            return None
        for folder in self.folders:
            path = folder / name
            try:
                st = path.stat()
            except OSError:
                continue
            if st.st_size > MAX_SEED_BYTES:
                return None
            key = (str(path.resolve()), st.st_mtime_ns, st.st_size)
            if key not in _READ:  # read and squashed once per process while it is unchanged
                try:
                    _READ[key] = SeedText(name, _lines(path.read_text(encoding="utf-8")))
                except (OSError, UnicodeDecodeError):
                    return None
            return _READ[key]
        return None

    def all(self) -> Iterator[SeedText]:
        """Every seed text in the search path (for "these words stand elsewhere")."""
        seen = set()
        for folder in self.folders:
            for path in sorted(folder.glob("*.txt")):
                if path.name not in seen:
                    seen.add(path.name)
                    seed = self.get(path.name)
                    if seed is not None:
                        yield seed


def search_path(rules_file: str, extra: Iterable[str] = ()) -> list[Path]:
    """Folders given, then $REGELWERK_SEEDS, then `seeds` or `shared/seeds` above the file."""
    out = [Path(p) for p in extra if p]
    out += [Path(p) for p in os.environ.get(SEEDS_ENV, "").split(os.pathsep) if p]
    if rules_file and not rules_file.startswith("<"):
        for parent in Path(rules_file).resolve().parents:
            for candidate in (parent / "seeds", parent / "shared" / "seeds"):
                if candidate.is_dir():
                    out.append(candidate)
    return out


# ---------------------------------------------------------------------- verification
@dataclass(frozen=True)
class QuoteProblem:
    """Why a quote is not the rulebook's words, or why its `source` cannot be read."""

    code: str  # W002 not verbatim (words or signs), W004 a source that names no lines of a seed file
    message: str
    help: str | None = None


def verify(quote: str, sources: Iterable[str], library: SeedLibrary) -> list[QuoteProblem]:
    """The problems of one quote against its cited lines; [] when it is verbatim, or when a
    cited file is not reachable (then nothing can be said)."""
    problems: list[QuoteProblem] = []
    cited: list[tuple[SeedText, int, int]] = []
    unreachable = False
    for text in sources:
        ref = parse_ref(text)
        if ref is None:
            if _LOOKS_LIKE_FILE.match(text.strip()):
                problems.append(QuoteProblem("W004", f"source '{text}' is not 'file:line' or "
                                             "'file:first-last'"))
            else:
                unreachable = True  # free text ("public domain"): nothing to check against
            continue
        seed = library.get(ref.file)
        if seed is None:
            unreachable = True
            continue
        first = ref.first or 1
        last = ref.last if ref.last is not None else len(seed.lines)
        if first < 1 or last < first or last > len(seed.lines):
            problems.append(QuoteProblem("W004", f"source '{text}': {ref.file} has lines 1-"
                                         f"{len(seed.lines)}"))
            continue
        cited.append((seed, first, last))
    if unreachable or not cited or not quote:
        return problems
    key = (quote, tuple((id(seed), a, b) for seed, a, b in cited))
    if key not in _VERIFIED:  # editors check on every keystroke: each quote is judged once
        _VERIFIED[key] = _judge(quote, cited, library)
    found = _VERIFIED[key]
    return problems + ([found] if found is not None else [])


def _judge(quote: str, cited: list[tuple[SeedText, int, int]],
           library: SeedLibrary) -> QuoteProblem | None:
    """The first excerpt of the quote that is not the cited lines' letters and signs, and why:
    its signs alone (`_signs`), or its words (`_explain`)."""
    exact = _joined_text(cited, lambda seed, a, b: seed.exact_text(a, b))
    bad = next((f for f in fragments(quote) if strict(f) not in exact), None)
    if bad is None:
        return None
    flat = _joined_text(cited, lambda seed, a, b: seed.flat[slice(*seed.span(a, b))])
    if squash(bad) in flat or (_bare(normalise(bad)) and _bare(normalise(bad)) in _bare(exact)):
        found = _signs(bad, cited)
        if found is not None:
            return found
    return _explain(bad, cited, flat, library)


def _joined_text(cited: list[tuple[SeedText, int, int]],
                 part: Callable[[SeedText, int, int], str]) -> str:
    """The cited ranges' compared text (`part` of each range). A quote may run from one range
    into the next only where they meet in the file (37-43 then 44-51); anywhere else the words
    in between are left out, and the quote must say so with `…`."""
    out = ""
    prev: tuple[str, int] | None = None
    for seed, a, b in cited:
        if prev is not None and prev != (seed.name, a - 1):
            out += "\x00"
        out += part(seed, a, b)
        prev = (seed.name, b)
    return out


def _signs(frag: str, cited: list[tuple[SeedText, int, int]]) -> QuoteProblem | None:
    """A quote whose words are the rulebook's but whose punctuation is not: which signs it adds,
    drops or changes, and the cited lines' words there."""
    d = None
    for seed, a, b in cited:
        d = difference(frag, seed.raw(a, b))
        if d is not None:
            break
    if d is None:  # the words run over ranges that meet: compare with them joined
        d = difference(frag, "\n".join(seed.raw(a, b) for seed, a, b in cited))
    if d is None:
        return None
    return QuoteProblem("W002", f"quote's punctuation is not the rulebook's: {d.what()} in "
                        f"«{_as_written(frag, 70)}»",
                        f"the cited lines say «{d.seed_words}» where the quote says "
                        f"«{d.quote_words}»: copy the rulebook's signs, and write '…' where "
                        "something is left out")


def _explain(frag: str, cited: list[tuple[SeedText, int, int]], flat: str,
             library: SeedLibrary) -> QuoteProblem:
    """The first sentence of `frag` that is not in the cited lines, and where it does stand."""
    sentences = [s for s in _SENTENCE_END.split(frag) if squash(s)]
    missing = next((s for s in sentences if squash(s) not in flat), None)
    if missing is None:  # every sentence stands there, but not one after the other
        k = next(i for i in range(1, len(sentences) + 1)
                 if squash(" ".join(sentences[:i])) not in flat)
        before, after = sentences[k - 2], sentences[k - 1]
        return QuoteProblem(
            "W002", f"in the cited lines «{_short(before, 45, tail=True)}» is not followed by "
            f"«{_short(after, 45)}»", "mark the gap with '…'")
    where = _found_elsewhere(missing, cited, library)
    if where:
        return QuoteProblem("W002", f"quote not in its cited lines: «{_short(missing)}»",
                            f"these words stand at {where}: cite those lines")
    closest = _closest(missing, " ".join(seed.text(a, b) for seed, a, b in cited))
    if closest:
        ours, theirs = _first_difference(missing, closest)
        return QuoteProblem("W002", f"quote not verbatim in its cited lines: «{_short(missing)}»",
                            f"the closest words there say «{theirs}» where the quote says "
                            f"«{ours}»; words that are not the rulebook's belong in a 'note'")
    return QuoteProblem("W002", f"quote not in the rulebook's words: «{_short(missing)}»",
                        "the cited lines have nothing like it: write it as a 'note'")


def _found_elsewhere(sentence: str, cited: list[tuple[SeedText, int, int]],
                     library: SeedLibrary) -> str | None:
    sq = squash(sentence)
    if not sq:
        return None
    seeds = [seed for seed, _, _ in cited] + [s for s in library.all() if s not in
                                              [c[0] for c in cited]]
    for seed in seeds:
        k = seed.flat.find(sq)
        if k >= 0:
            a, b = seed.lines_at(k, k + len(sq))
            return f"{seed.name}:{a}" + (f"-{b}" if b != a else "")
    return None


def _closest(sentence: str, text: str) -> str | None:
    """The run of words in `text` most like `sentence`, if it is at least half alike."""
    words = text.split()
    want = sentence.split()
    n = len(want)
    if not words or not n:
        return None
    best, best_ratio = None, 0.5
    target = " ".join(want)
    for size in {max(1, n - 2), n, n + 2}:
        for i in range(0, max(1, len(words) - size + 1)):
            window = " ".join(words[i:i + size])
            sm = difflib.SequenceMatcher(None, window, target, autojunk=False)
            if sm.quick_ratio() <= best_ratio:
                continue
            r = sm.ratio()
            if r > best_ratio:
                best, best_ratio = window, r
    return best


def _first_difference(quote: str, source: str, context: int = 3) -> tuple[str, str]:
    """The first place where two texts differ, word by word, with a few words before it."""
    a, b = normalise(quote).split(), normalise(source).split()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal":
            ours = " ".join(a[max(0, i1 - context):min(i2, i1 + 6) + 2])
            theirs = " ".join(b[max(0, j1 - context):min(j2, j1 + 6) + 2])
            return ours or "(nothing)", theirs or "(nothing)"
    return normalise(quote), normalise(source)


def _head(span: A.Span, width: int = 40) -> A.Span:
    """The start of a long header line: enough for the caret to show where it is."""
    end = min(span.end_column, span.column + width) if span.end_line == span.line else span.column + width
    return A.Span(span.file, span.line, span.column, span.line, end)


def _as_written(text: str, n: int) -> str:
    """The start of a text with its own signs (quotation marks as written), single-spaced."""
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= n else text[: n - 1] + "…"


def _short(text: str, n: int = 90, tail: bool = False) -> str:
    text = normalise(text)
    if len(text) <= n:
        return text
    return "…" + text[-(n - 1):] if tail else text[: n - 1] + "…"


# ---------------------------------------------------------------------- a whole ruleset
def provenances(modules: Iterable[A.Module]) -> Iterator[tuple[A.Node, A.Provenance]]:
    """Every rule (declaration, phase, turn or scenario) with its provenance headers."""
    for mod in modules:
        for decl in mod.decls:
            prov = getattr(decl, "prov", None)
            if isinstance(prov, A.Provenance):
                yield decl, prov
            yield from _nested(getattr(decl, "body", ()))


def _nested(body: object) -> Iterator[tuple[A.Node, A.Provenance]]:
    if not isinstance(body, tuple):
        return
    for s in body:
        if isinstance(s, (A.PhaseStmt, A.TurnStmt, A.SimultaneousStmt)):
            yield s, s.prov
        for name in ("body", "orelse"):
            yield from _nested(getattr(s, name, ()))
        for _, branch in getattr(s, "branches", ()):
            yield from _nested(branch)


def _cites_lines(prov: A.Provenance) -> bool:
    """Whether a rule names lines of a text (`file:12-14`), so its ruleset is a transcription."""
    return any((r := parse_ref(s)) is not None and r.first is not None for s in prov.sources)


def quotes_unchecked(modules: list[A.Module]) -> bool:
    """Whether the ruleset cites lines of seed texts but no folder of seed texts is found, so
    its quotes could not be held to the rulebook's words (the command line says so)."""
    if not modules:
        return False
    return any(_cites_lines(p) for _, p in provenances(modules)) and \
        not SeedLibrary.for_rules(modules[0].path).folders


def check_quotes(modules: list[A.Module], extra_seed_dirs: Iterable[str] = ()) -> list[Diagnostic]:
    """Warnings for every quote that is not verbatim in its cited lines (W002), every quote
    without a `source` in a ruleset that cites its sources (W003), and every `source` that
    names no lines of a reachable seed file (W004)."""
    if not modules:
        return []
    rules = list(provenances(modules))
    library = SeedLibrary.for_rules(modules[0].path, extra_seed_dirs)
    cites = any(_cites_lines(p) for _, p in rules)
    out: list[Diagnostic] = []
    for node, prov in rules:
        if prov.quote and not prov.sources and cites:
            out.append(Diagnostic("W003", "a quote without a 'source': a reader cannot tell the "
                                  "rulebook's words from ours", _head(prov.quote_span or node.span),
                                  "cite its seed lines with 'source', or make it a 'note'",
                                  severity="warning"))
            continue
        if not prov.sources or not library.folders:
            continue
        for p in verify(prov.quote or "", prov.sources, library):
            span = _head((prov.quote_span if p.code == "W002" else prov.source_span) or node.span)
            out.append(Diagnostic(p.code, p.message, span, p.help, severity="warning"))
    return out


def _lines(text: str) -> list[str]:
    """The lines as an editor numbers them: split at newlines only (other separators stay in
    their line), without the empty piece after a final newline."""
    lines = text.split("\n")
    return lines[:-1] if len(lines) > 1 and lines[-1] == "" else lines
