"""The book as one self-contained HTML page: its style, program and data inlined, nothing
fetched (its Content-Security-Policy forbids every request), so it opens from disk and by mail.

The worked examples' boards are drawn before and after by the viewer's own drawing code
(regelwerk/viewer/page/boards.js, with page/book.js); everything else is plain HTML. Rulebook quotes are shown as quotes (in Dutch, `lang=nl`), our notes as notes, marked "not in
the rulebook"; the rules text is highlighted with the project's Pygments lexer when Pygments is
installed (the `lsp` extra), else shown plain.
"""

from __future__ import annotations

import os
import re
from html import escape
from importlib import resources
from pathlib import Path
from typing import Any

from ..dsl import ast as A
from ..dsl.printer import scenario_step_text
from ..lsp.specs import SpecInventory, entry_title
from ..viewer.boards import describe_boards, layer_constants, player_colours
from ..viewer.page import boards_script, data_json
from .collect import Entry, cited, flow_order
from .positions import before_and_after, layer_state

CSS = """
body { font: 16px/1.5 Georgia, 'DejaVu Serif', serif; margin: 0 auto; max-width: 940px; padding: 1.5em; color: #222; }
h1 { font-size: 1.9em; margin-bottom: .1em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
h3 { margin: 1.8em 0 .3em; font-size: 1.2em; } h3 .kind { color: #777; font-weight: normal; font-size: .8em; }
.sub { color: #666; margin-top: 0; } a { color: #2a5d9f; }
blockquote { margin: .5em 0; padding: .4em .9em; background: #f6f1e3; border-left: 4px solid #b89b5e; font-style: italic; }
blockquote::before { content: 'Rulebook'; display: block; font: 600 .7em system-ui, sans-serif; color: #8a7443;
  letter-spacing: .08em; text-transform: uppercase; font-style: normal; }
.note { margin: .5em 0; padding: .4em .9em; border: 1px dashed #999; color: #444; font-family: system-ui, sans-serif; font-size: .92em; }
.note::before { content: 'Note — not in the rulebook'; display: block; font: 600 .75em system-ui, sans-serif; color: #777;
  letter-spacing: .06em; text-transform: uppercase; }
.meta { font: .85em system-ui, sans-serif; color: #555; } .spec { background: #eef3fa; border-radius: 3px; padding: 0 .3em; margin-right: .3em; }
pre { background: #fafafa; border: 1px solid #e3e3e3; padding: .6em .8em; overflow-x: auto; font-size: .82em; line-height: 1.4; }
.example { border-left: 3px solid #4f9d69; margin: .8em 0 .8em .5em; padding: .1em .9em; background: #f7fbf8; }
.example h4 { margin: .4em 0; font: 600 .95em system-ui, sans-serif; }
.example ol { margin: .2em 0; padding-left: 1.3em; font: .88em ui-monospace, monospace; }
.example .w { font: 600 .85em system-ui, sans-serif; color: #4f9d69; margin-right: .4em; }
.pair { display: flex; flex-wrap: wrap; gap: 1em; } figure.board { margin: .4em 0; width: 24em; max-width: 100%; }
figure.board svg { width: 100%; height: auto; display: block; } svg text { font-family: system-ui, 'DejaVu Sans', sans-serif; }
figcaption { font: .8em system-ui, sans-serif; color: #666; }
.legend { display: flex; flex-wrap: wrap; gap: .1em .8em; font: .75em system-ui, sans-serif; margin-top: .2em; }
.legend span { display: inline-flex; align-items: center; gap: .25em; }
.swatch { display: inline-block; width: .8em; height: .8em; border: 1px solid #777; border-radius: .15em; }
.player-chip { display: inline-flex; align-items: center; gap: .25em; font-weight: 600; white-space: nowrap; }
.dot { display: inline-block; width: .8em; height: .8em; border-radius: 50%; border: 1px solid #333; }
svg .hl { fill: none; stroke: #000; stroke-dasharray: 2 1.2; pointer-events: none; }
svg .hl-under { fill: none; stroke: #fff; pointer-events: none; }
@media print { .example { break-inside: avoid; } }
table { border-collapse: collapse; font: .85em system-ui, sans-serif; } td, th { padding: .15em .6em; text-align: left; vertical-align: top; border-bottom: 1px solid #eee; }
.uncited { color: #b03a2e; } .calls .kind { color: #999; font-size: .85em; } nav ol { columns: 2; font: .9em system-ui, sans-serif; }
.k { color: #7d2e8e; font-weight: 600; } .s { color: #2e7d32; } .c { color: #888; font-style: italic; } .n { color: #a34c00; }
"""

_WORDS = {"given": "Given", "do": "Do", "expect": "Expect", "legal": "Expect", "illegal": "Expect",
          "winner": "Expect", "draw": "Expect", "over": "Expect", "not_over": "Expect", "decider": "Expect",
          "players": "With", "seed": "With", "option": "With", "script": "With", "before_start": "Before the start",
          "start_phase": "Start in"}


def _highlight(text: str) -> str:
    """The rules text as HTML: Pygments' tokens mapped to a few classes, else escaped."""
    try:
        from pygments.token import Comment, Keyword, Number, String

        from ..pygments_lexer import RegelwerkLexer
    except ImportError:
        return escape(text)
    out = []
    for tok, value in RegelwerkLexer().get_tokens(text):
        cls = "k" if tok in Keyword else "s" if tok in String else "c" if tok in Comment else \
            "n" if tok in Number else None
        out.append(f"<span class={cls}>{escape(value)}</span>" if cls else escape(value))
    return "".join(out).rstrip("\n")


def _lines(sources: dict[str, str], file: str, first: int, last: int) -> str:
    """The declaration's own lines: from its first line up to the next line that starts at
    the margin (a span may reach to where the next declaration begins)."""
    text = sources.get(file)
    if text is None:
        return ""
    lines = text.splitlines()[first - 1:last]
    for k in range(1, len(lines)):
        if lines[k][:1] not in ("", " ", "\t"):
            lines = lines[:k]
            break
    return "\n".join(lines).rstrip()


def _where(entry_file: str, line: int, end: int, out_dir: Path) -> str:
    """A link to the rules file (relative to the page), with the lines named."""
    try:
        rel = os.path.relpath(entry_file, out_dir)
    except ValueError:
        rel = entry_file
    return f"<a href='{escape(rel)}'>{escape(Path(entry_file).name)}:{line}–{end}</a>"


class Book:
    """Collects and renders one ruleset's book."""

    def __init__(self, ruleset: Any, out_dir: Path):
        self.r, self.m, self.out_dir = ruleset, ruleset.model, out_dir
        self.entries = flow_order(self.m)
        self.by_anchor = {e.anchor: e for e in self.entries}
        self.shown: set[int] = set()  # scenarios drawn in full once, linked elsewhere
        self.index = {id(sc): i for i, sc in enumerate(self.m.scenarios)}
        self.boards = describe_boards(self.m)
        self.examples: dict[str, dict[str, Any]] = {}  # scenario index -> its positions, for book.js

    def page(self) -> str:
        title = self.m.title
        parts = ["<!doctype html><html lang=en><meta charset=utf-8>",
                 "<meta name=viewport content='width=device-width, initial-scale=1'>",
                 f"<meta http-equiv=Content-Security-Policy content=\"{CSP}\">",
                 f"<title>{escape(title)} — the rules</title><style>{CSS}</style>",
                 f"<h1>{escape(title)}</h1>",
                 "<noscript><p class=meta>The example boards are drawn by this page's own script, "
                 "which is off: everything else reads without it.</p></noscript>",
                 self._intro(), self._contents(), self._structure(),
                 "<h2 id=rules>The rules, in the order of play</h2>"]
        parts += [self._entry(e) for e in self.entries]
        rest = [sc for sc in self.m.scenarios if self.index[id(sc)] not in self.shown]
        if rest:
            parts.append("<h2 id=more-examples>More worked examples</h2>")
            parts += [self._scenario(sc) for sc in rest]
        parts.append(self._spec_index())
        if self.examples:
            data = {"boards": self.boards, "colours": player_colours(self._players()), "consts": {},
                    "players": self._players(), "examples": self.examples}
            parts.append(f"<script type=application/json id=regelwerk-data>{data_json(data)}</script>")
            parts.append(f"<script>\n{_script()}\n</script>")
        return "\n".join(parts) + "\n"

    def _players(self) -> list[str]:
        return list(self.m.players.names) if self.m.players else []

    def _intro(self) -> str:
        p = self.m.players
        who = ", ".join(p.names) if p else "—"
        count = "" if p is None else (f"{p.min_count}" if p.min_count == p.max_count else f"{p.min_count}–{p.max_count}")
        out = [f"<p class=sub>{count} players ({escape(who)}) · ruleset <code>{self.r.hash[:12]}</code> · "
               f"{len(self.entries)} rules · {len(self.m.scenarios)} worked examples</p>"]
        game = self.m.game
        if game is not None and game.prov.note:
            out.append(f"<div class=note>{escape(game.prov.note)}</div>")
        out.append("<p class=meta>Quotes are the rulebook's own words, as each rule cites them; notes are "
                   "ours. Each rule shows its spec ids, its text in the rules file, and the worked "
                   "examples (scenarios) that exercise it, with their boards before the first move and after "
                   "it, the squares that changed outlined (drawn by the page's script).</p>")
        return "\n".join(out)

    def _contents(self) -> str:
        items = "".join(f"<li><a href='#{e.anchor}'>{escape(e.name)}</a> <span class=meta>{e.kind}</span></li>"
                        for e in self.entries)
        return f"<nav><h2>Contents</h2><ol>{items}</ol><p><a href='#specs'>Spec ids</a></p></nav>"

    def _structure(self) -> str:
        m = self.m
        out = ["<h2 id=structure>The game's structure</h2>"]
        if m.phases:
            out.append("<p>Phases: " + ", ".join(f"<b>{escape(n)}</b>" for n in m.phases) + ".</p>")
            for name, ph in m.phases.items():
                if ph.prov.quote:
                    out.append(f"<p><b>{escape(name)}</b></p><blockquote lang=nl>{escape(ph.prov.quote)}</blockquote>")
                if ph.prov.note:
                    out.append(f"<div class=note>{escape(ph.prov.note)}</div>")
        if m.flow is not None:
            f = m.flow
            if f.prov.quote:
                out.append(f"<blockquote lang=nl>{escape(f.prov.quote)}</blockquote>")
            if f.prov.note:
                out.append(f"<div class=note>{escape(f.prov.note)}</div>")
            text = _lines(self.r.sources, f.span.file, f.span.line, f.span.end_line)
            last = f.span.line + text.count("\n")
            out.append(f"<p class=meta id=flow>The flow ({_where(f.span.file, f.span.line, last, self.out_dir)}):</p>")
            out.append(f"<pre>{_highlight(text)}</pre>")
        if m.options:
            out.append("<p>Options: " + ", ".join(f"<code>{escape(n)}</code>" for n in m.options) + ".</p>")
        return "\n".join(out)

    def _entry(self, e: Entry) -> str:
        out = [f"<h3 id='{escape(e.anchor)}'>{escape(e.name)} <span class=kind>{e.kind}</span></h3>"]
        if e.quote:
            out.append(f"<blockquote lang=nl>{escape(e.quote)}</blockquote>")
        if e.note:
            out.append(f"<div class=note>{escape(e.note)}</div>")
        meta = [f"<a class=spec href='#spec-{escape(s)}'>{escape(s)}</a>" for s in e.specs]
        text = _lines(self.r.sources, e.file, e.line, e.end_line)
        meta.append(_where(e.file, e.line, e.line + text.count("\n"), self.out_dir))
        if e.sources:
            meta.append("source " + escape(", ".join(e.sources)))
        out.append(f"<p class=meta>{' · '.join(meta)}</p>")
        links = []
        if e.calls:
            links.append("<b>Calls</b> " + ", ".join(self._ref(a) for a in e.calls))
        if e.called_by:
            links.append("<b>called by</b> " + ", ".join(self._ref(a) for a in e.called_by))
        if links:
            out.append(f"<p class='meta calls'>{' · '.join(links)}</p>")
        out.append(f"<pre>{_highlight(text)}</pre>")
        for sc in e.scenarios:
            i = self.index[id(sc)]
            if i in self.shown:
                out.append(f"<p class=meta>Worked example: <a href='#scenario-{i}'>{escape(sc.name)}</a></p>")
            else:
                self.shown.add(i)
                out.append(self._scenario(sc))
        return "\n".join(out)

    def _ref(self, anchor: str) -> str:
        """A link to a rule of the book (or to the flow), by its name and kind."""
        if anchor == "flow":
            return "<a href='#flow'>the flow</a>"
        e = self.by_anchor[anchor]
        return f"<a href='#{escape(anchor)}'>{escape(e.name)}</a> <span class=kind>{e.kind}</span>"

    def _scenario(self, sc: A.ScenarioDecl) -> str:
        i = self.index[id(sc)]
        self.shown.add(i)
        steps = []
        for st in sc.steps:
            lines = [line[4:] if line.startswith("    ") else line for line in scenario_step_text(st)]
            word = _WORDS.get(st.kind, st.kind)
            if st.kind == "given":
                body = "<br>".join(escape(x.strip()) for x in lines[1:])
                steps.append(f"<li><span class=w>{word}</span>{body}</li>")
            else:
                text = re.sub(r"^(do|expect) ", "", lines[0].strip())
                steps.append(f"<li><span class=w>{word}</span>{escape(text)}</li>")
        board = ""
        if self.boards:
            before, after = before_and_after(self.r, sc)
            if after is not None:
                self.examples[str(i)] = {
                    "before": layer_state(before, self.boards) if before is not None else None,
                    "after": layer_state(after, self.boards), "players": list(after.players),
                    "consts": layer_constants(self.boards, after.consts)}
                board = f"<div class=example-boards data-example='{i}'></div>"
        specs = " ".join(f"<a class=spec href='#spec-{escape(s)}'>{escape(s)}</a>" for s in sc.prov.specs)
        note = f"<div class=note>{escape(sc.prov.note)}</div>" if sc.prov.note else ""
        quote = f"<blockquote lang=nl>{escape(sc.prov.quote)}</blockquote>" if sc.prov.quote else ""
        return (f"<div class=example id='scenario-{i}'><h4>Worked example: {escape(sc.name)}</h4>{quote}{note}"
                f"<p class=meta>{specs} {_where(sc.span.file, sc.span.line, sc.span.end_line, self.out_dir)}</p>"
                f"<ol>{''.join(steps)}</ol>{board}</div>")

    def _spec_index(self) -> str:
        where = cited(self.entries, self.m.scenarios)
        names = {e.anchor: e.name for e in self.entries}
        names.update({f"scenario-{i}": f"example “{sc.name}”" for i, sc in enumerate(self.m.scenarios)})
        inventory = SpecInventory()
        rules_file = self.r.path or next(iter(self.r.sources), "")
        known = _inventory_ids(inventory, rules_file, set(where))
        rows = []
        for sid in sorted(set(where) | set(known)):
            entry = inventory.lookup(sid, rules_file)
            head = ""
            if entry is not None:
                title = entry_title(entry, sid) or ""
                head = f"{escape(title)} <span class=meta>{escape(Path(entry.file).name)}:{entry.line}</span>"
            refs = ", ".join(f"<a href='#{escape(a)}'>{escape(names.get(a, a))}</a>" for a in dict.fromkeys(where.get(sid, [])))
            cls = "" if sid in where else " class=uncited"
            rows.append(f"<tr id='spec-{escape(sid)}'{cls}><td>{escape(sid)}</td><td>{head}</td>"
                        f"<td>{refs or 'not cited'}</td></tr>")
        out = ["<h2 id=specs>Spec ids: where each is cited</h2>"]
        if known:
            missing = sorted(set(known) - set(where))
            out.append(f"<p class=meta>{len(set(where) & set(known))} of {len(known)} ids of the inventory "
                       f"are cited{': not ' + escape(', '.join(missing)) if missing else ''}.</p>")
        else:
            out.append("<p class=meta>The inventory (shared/spec) is not reachable from here: the ids "
                       "the rules cite are listed.</p>")
        out.append("<table><tr><th>id</th><th>inventory</th><th>cited by</th></tr>" + "".join(rows) + "</table>")
        return "\n".join(out)


def _inventory_ids(inventory: SpecInventory, rules_file: str, cited_ids: set[str]) -> list[str]:
    """The inventory's ids of this game (ids.txt, by the game of the cited ids), or []."""
    folder = inventory.folder_for(rules_file) if rules_file else None
    if folder is None or not (folder / "ids.txt").is_file():
        return []
    rows = [line.split() for line in (folder / "ids.txt").read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]
    games = {g for g, i in rows if i in cited_ids}
    return [i for g, i in rows if g in games]


CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"


def _script() -> str:
    """The page's program: the viewer's board drawing (boards.js), then book.js."""
    js = boards_script() + "\n" + resources.files(__package__).joinpath("page", "book.js").read_text(encoding="utf-8")
    if "</script" in js.lower():
        raise ValueError("the book's script must not contain a closing tag")  # a packaging mistake
    return js


def build_book(ruleset: Any, out_dir: Path | None = None) -> str:
    """The book of `ruleset` as HTML; links to the rules files are relative to `out_dir`."""
    return Book(ruleset, (out_dir or Path.cwd()).resolve()).page()
