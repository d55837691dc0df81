"""parse_*: rules text → AST. Lark errors never escape; they become located Diagnostics."""

from __future__ import annotations

import difflib
import functools
import re
import threading
from pathlib import Path

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import (
    LarkError,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)
from lark.indenter import Indenter

from . import ast as A
from . import sugar
from .ast import iter_nodes as iter_nodes  # re-exported: walks used to live here
from .brackets import CLOSING, OPENING, brackets
from .cache import cache_folder
from .diagnostics import Diagnostic, RulesError
from .files import MAX_SOURCE_BYTES
from .syntax_hints import hint

MAX_NESTING = 60

# One parser serves every thread, and Lark's indentation post-lexer keeps its state (open
# brackets, indent levels) on the parser: two threads parsing at once corrupt each other's
# indentation ("'require' should be indented"). Parses take turns (tests/test_threads.py).
_PARSE_LOCK = threading.Lock()


class _RulesIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB", "LBRACE"]
    CLOSE_PAREN_types = ["RPAR", "RSQB", "RBRACE"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8


@functools.cache
def _parser() -> Lark:
    """The LALR parser. Building its tables takes most of a second, so it is kept in a user
    cache folder (`$REGELWERK_CACHE`, else `$XDG_CACHE_HOME/regelwerk` or `~/.cache/regelwerk`)
    under the grammar's hash; a new cache file is written under a temporary name and then
    moved into place, so processes starting together never read half a file."""
    grammar = (Path(__file__).with_name("regelwerk.lark")).read_text(encoding="utf-8")
    options = dict(parser="lalr", lexer="contextual", postlex=_RulesIndenter(), propagate_positions=True,
                   maybe_placeholders=True, start=["start", "action_text"])
    folder = cache_folder()
    if folder is None:
        return Lark(grammar, **options)
    import hashlib
    import os
    import sys

    import lark

    key = hashlib.sha256(f"{grammar}{lark.__version__}{sys.version_info[:2]}".encode()).hexdigest()[:24]
    final = folder / f"grammar-{key}.lark"
    if final.is_file():
        return Lark(grammar, cache=str(final), **options)
    tmp = folder / f".grammar-{key}.{os.getpid()}.tmp"
    parser = Lark(grammar, cache=str(tmp), **options)
    try:
        os.replace(tmp, final)
    except OSError:
        tmp.unlink(missing_ok=True)
    return parser


# Friendly labels for the terminals Lark names in "expected one of" lists.
_TERMINAL_LABELS = {
    "_NL": "end of line",
    "_INDENT": "an indented block",
    "_DEDENT": "end of block",
    "NAME": "a name",
    "INT": "a number",
    "STRING": 'a quoted text "..."',
    "SPEC_ID": "a spec id like KHAN-2C-03",
    "COMP_OP": "a comparison",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COLON": "':'",
    "COMMA": "','",
    "EQUAL": "'='",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '//' or '%'",
}


_STATEMENT_STARTS = {"SET", "ADD", "REMOVE", "CLEAR", "LET", "MOVE", "DRAW", "SHUFFLE", "REQUIRE",
                     "IF", "FOR", "REPEAT", "WHILE", "PLAY", "CHOOSE", "FINISH", "DO", "TURN"}


# the words a declaration or a statement starts with, so a list of "expected" words names them only
_STARTS = _STATEMENT_STARTS | {"GAME", "PLAYERS", "ENUM", "BOARD", "STATE", "CONST", "OPTION", "DEFINE",
                               "ACTION", "PROCEDURE", "WHEN", "ON", "FLOW", "SCORING", "INCLUDE", "RECORD",
                               "DATA", "DEVICE", "DISPLAY", "INVARIANT", "CONSERVE", "SCENARIO", "LOG",
                               "GOTO", "BREAK", "REVEAL", "RESULT", "ABANDON", "CLEAR", "PHASE"}


def _label(term: str) -> str:
    if term in _TERMINAL_LABELS:
        return _TERMINAL_LABELS[term]
    if term.isupper() and not term.startswith("_"):
        return f"'{term.lower()}'"
    return term


@functools.cache
def _keywords() -> frozenset[str]:
    """The terminals that are words of the language (`and`, `then`, ...), not punctuation."""
    return frozenset(t.name for t in _parser().terminals
                     if t.pattern.type == "str" and t.pattern.value.isalpha() and len(t.pattern.value) > 1)


def _describe(tok: Token) -> str:
    if tok.type == "_NL":
        return "end of line"
    if tok.type == "_INDENT":
        return "an unexpected indent"
    if tok.type == "_DEDENT":
        return "end of block"
    if tok.type == "$END":
        return "end of file"
    return f"'{tok.value}'"


def _unclosed(text: str) -> tuple[str, int, int] | None:
    """The innermost bracket the text opens and never closes: (bracket, line, column)."""
    stack: list[tuple[str, int, int]] = []
    for ch, line, col in brackets(text):
        if ch in OPENING:
            stack.append((ch, line, col))
        elif stack and OPENING.index(stack[-1][0]) == CLOSING.index(ch):
            stack.pop()
    return stack[-1] if stack else None


def _never_closed(err: UnexpectedInput, path: str, text: str) -> Diagnostic | None:
    """A syntax error after a bracket that is never closed is that bracket's fault: everything
    up to the next declaration was read as its inside, so the error shows far from it."""
    if isinstance(err, UnexpectedCharacters):
        return None
    opened = _unclosed(text)
    if opened is None:
        return None
    ch, line, col = opened
    tok = getattr(err, "token", None)
    at = (getattr(tok, "line", None) or getattr(err, "line", 0) or 0, getattr(tok, "column", None) or 0)
    if not isinstance(err, UnexpectedEOF) and getattr(tok, "type", "") != "$END" and at < (line, col):
        return None  # the error comes before the bracket: said as it is
    closer = CLOSING[OPENING.index(ch)]
    if at[0] == line:
        why = f"add its '{closer}'"
    else:
        shown = f"line {at[0]}" if at[0] else "the end of the file"
        why = f"add its '{closer}'; without it, everything up to {shown} was read as its inside"
    at_end = isinstance(err, UnexpectedEOF) or getattr(tok, "type", "") == "$END"  # the file ends inside it
    return Diagnostic("E002" if at_end else "E003", f"'{ch}' is never closed", A.Span(path, line, col, line, col + 1),
                      why)


def _syntax_diagnostic(err: UnexpectedInput, path: str, text: str) -> Diagnostic:
    line = getattr(err, "line", 0) or 0
    col = getattr(err, "column", 0) or 0
    unclosed = _never_closed(err, path, text)
    if unclosed is not None:
        return unclosed
    if isinstance(err, UnexpectedCharacters):
        ch = text[err.pos_in_stream] if 0 <= err.pos_in_stream < len(text) else "?"
        span = A.Span(path, line, col, line, col + 1)
        if ch == "\t":
            return Diagnostic("E001", "tab character: indent with spaces", span)
        return Diagnostic("E001", f"unexpected character {ch!r}", span)
    if isinstance(err, UnexpectedEOF):
        nlines = text.count("\n") + 1
        span = A.Span(path, nlines, 1, nlines, 1)
        return Diagnostic("E002", "unexpected end of file", span, "a block or expression is unfinished")
    if isinstance(err, UnexpectedToken) and err.token.type == "$END":
        tok = err.token  # it borrows the position of the last token: point just after that
        tline = getattr(tok, "end_line", None) or tok.line or line or text.count("\n") + 1
        tcol = getattr(tok, "end_column", None) or tok.column or col or 1
        span = A.Span(path, tline, tcol, tline, tcol + 1)
        return Diagnostic("E002", "unexpected end of file", span, "a block or expression is unfinished")
    if isinstance(err, UnexpectedToken):
        tok = err.token
        tline = tok.line or line or 1
        tcol = tok.column or col or 1
        width = len(str(tok.value)) if tok.type not in ("_NL", "_INDENT", "_DEDENT") else 1
        span = A.Span(path, tline, tcol, tline, tcol + max(width, 1))
        expected = sorted({_label(t) for t in err.expected if not t.startswith("__")})
        msg = f"unexpected {_describe(tok)}"
        help_text = None
        keywords = sorted(t.lower() for t in err.expected if t in _keywords())
        known = hint(tok, err.expected, text)
        if known is not None:
            msg, help_text = known
        elif tok.type == "_INDENT":
            msg = "unexpected indent"
            help_text = "only a block header (action, if, for, ...) may be followed by an indented block"
        elif tok.type == "NAME" and keywords:
            close = difflib.get_close_matches(str(tok.value), keywords, n=1, cutoff=0.6)
            if close:
                msg = f"unknown keyword '{tok.value}'"
                help_text = f"did you mean '{close[0]}'?"
            elif starts := [k for k in keywords if k.upper() in _STARTS]:
                help_text = "expected a declaration or statement keyword, such as " + ", ".join(starts[:8])
            elif "AND" in err.expected:
                help_text = (f"'{tok.value}' cannot follow the expression before it: join them with an "
                             f"operator ('and', 'or', '+', '==', ...), or end the line")
        elif tok.type in _STATEMENT_STARTS and set(err.expected) <= {"_NL", "_INDENT"}:
            msg = f"'{tok.value}' should be indented"
            help_text = "the body of a block is indented one level deeper than its header"
        elif tok.type == "EQUAL" and "COMP_OP" in err.expected:
            help_text = "use '==' to compare; 'set x = v' assigns"
        elif expected and len(expected) <= 8:
            help_text = "expected " + ", ".join(expected)
        return Diagnostic("E003", msg, span, help_text)
    span = A.Span(path, line or 1, col or 1, line or 1, (col or 1) + 1)
    return Diagnostic("E003", "syntax error", span)


def _span(path: str, meta) -> A.Span:
    if getattr(meta, "empty", True):
        return A.Span(path, 0, 0, 0, 0)
    return A.Span(path, meta.line, meta.column, meta.end_line, meta.end_column)


def _unquote(tok: Token) -> str:
    body = str(tok)[1:-1]
    out: list[str] = []
    it = iter(body)
    for ch in it:
        if ch == "\\":
            nxt = next(it, "")
            out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
        else:
            out.append(ch)
    return "".join(out)


def _split_body(path: str, items: list) -> tuple[A.Provenance, tuple]:
    quote_parts: list[str] = []
    note_parts: list[str] = []
    sources: list[str] = []
    specs: list[str] = []
    stmts: list = []
    quote_spans: list[A.Span] = []
    source_spans: list[A.Span] = []
    for it in items:
        if isinstance(it, Tree) and it.data == "quote":
            quote_parts.append(" ".join(_unquote(t) for t in it.children))
            quote_spans.append(_token_span(path, it.children))
        elif isinstance(it, Tree) and it.data == "note":
            note_parts.append(" ".join(_unquote(t) for t in it.children))
        elif isinstance(it, Tree) and it.data == "source":
            sources.extend(_unquote(t) for t in it.children)
            source_spans.append(_token_span(path, it.children))
        elif isinstance(it, Tree) and it.data == "spec":
            specs.extend(str(t) for t in it.children)
        else:
            stmts.append(it)
    prov = A.Provenance(" ".join(quote_parts) or None, tuple(sources), tuple(specs),
                        " ".join(note_parts) or None, _joined(quote_spans), _joined(source_spans))
    return prov, tuple(stmts)


def _token_span(path: str, tokens: list) -> A.Span:
    """From the first token of a header line to the end of its last (the line break left out)."""
    first, last = tokens[0], tokens[-1]
    return A.Span(path, first.line, first.column, last.end_line, last.end_column)


def _joined(spans: list[A.Span]) -> A.Span | None:
    """One span from the first to the last of several header lines (a quote over two lines)."""
    if not spans:
        return None
    first, last = spans[0], spans[-1]
    return A.Span(first.file, first.line, first.column, last.end_line, last.end_column)


@v_args(meta=True)
class _Builder(Transformer):
    """Lark tree → AST. Each method is named after the grammar rule (or alias) it builds."""

    def __init__(self, path: str):
        super().__init__()
        self.path = path

    def _s(self, meta) -> A.Span:
        return _span(self.path, meta)

    # -- headers and blocks: kept as trees until the owning declaration splits them
    def quote(self, meta, children):
        return Tree("quote", children, meta)

    def source(self, meta, children):
        return Tree("source", children, meta)

    def note(self, meta, children):
        return Tree("note", children, meta)

    def spec(self, meta, children):
        return Tree("spec", children, meta)

    def body(self, meta, children):
        return _split_body(self.path, children)

    def suite(self, meta, children):
        return tuple(children)

    def start(self, meta, children):
        return A.Module(self._s(meta), self.path, tuple(children))

    # -- declarations
    def game_decl(self, meta, children):
        prov, _ = _split_body(self.path, children[1:])
        return A.GameDecl(self._s(meta), _unquote(children[0]), prov)

    def name_list(self, meta, children):
        return tuple(str(c) for c in children)

    def players_fixed(self, meta, children):
        names = children[0]
        return A.PlayersDecl(self._s(meta), names, len(names), len(names))

    def players_range(self, meta, children):
        lo, hi, names = children
        return A.PlayersDecl(self._s(meta), names, _int(lo), _int(hi))

    def enum_decl(self, meta, children):
        return A.EnumDecl(self._s(meta), str(children[0]), children[1])

    def board_grid(self, meta, children):
        name, w, h = children
        return A.GridDecl(self._s(meta), str(name), _int(w), _int(h))

    def board_grid_file(self, meta, children):
        return A.GridDecl(self._s(meta), str(children[0]), 0, 0, _unquote(children[1]))

    def graph_line(self, meta, children):
        return tuple(str(c) for c in children)

    def board_graph(self, meta, children):
        return A.GraphDecl(self._s(meta), str(children[0]), tuple(children[1:]))

    def board_graph_file(self, meta, children):
        return A.GraphFileDecl(self._s(meta), str(children[0]), _unquote(children[1]))

    def field_decl(self, meta, children):
        return (str(children[0]), children[1])

    def record_decl(self, meta, children):
        return A.RecordDecl(self._s(meta), str(children[0]), tuple(children[1:]))

    def data_decl(self, meta, children):
        name, typ, path, legend = children
        return A.DataDecl(self._s(meta), str(name), typ, _unquote(path), legend)

    def device_require(self, meta, c):
        return A.RequireStmt(self._s(meta), c[0], _unquote(c[1]) if c[1] else None)

    def device_decl(self, meta, c):
        name, params, typ = c[0], c[1], c[2]
        rest = list(c[3:])
        settle = rest.pop() if rest and (rest[-1] is None or isinstance(rest[-1], tuple)) else None
        headers = [x for x in rest if isinstance(x, Tree)]
        others = [x for x in rest if not isinstance(x, Tree)]
        prov, _ = _split_body(self.path, headers)
        roll = others[0]
        requires = tuple(others[1:])
        return A.DeviceDecl(self._s(meta), str(name), params or (), typ, prov, roll, requires,
                            tuple(settle or ()))

    def invariant_decl(self, meta, c):
        test, message, *headers = c
        prov, _ = _split_body(self.path, headers)
        return A.InvariantDecl(self._s(meta), test, _unquote(message) if message else None, prov)

    def conserve_decl(self, meta, c):
        items, rest = c[0], c[1:]
        zones = [t for t in rest if isinstance(t, Token) and t.type == "NAME"]
        message = next((t for t in rest[len(zones):len(zones) + 1] if isinstance(t, Token)), None)
        prov, _ = _split_body(self.path, rest[len(zones) + 1:])
        names = tuple(A.Name(_token_span(self.path, [z]), str(z)) for z in zones)
        test = A.Call(self._s(meta), "each_once", (items, *names))
        return A.InvariantDecl(self._s(meta), test, _unquote(message) if message else None, prov, True)

    def set_lit(self, meta, c):
        return A.SetLit(self._s(meta), tuple(c))

    def display_decl(self, meta, c):
        return A.DisplayDecl(self._s(meta), str(c[0]), c[1])

    def abandon_stmt(self, meta, c):
        return A.AbandonStmt(self._s(meta), _unquote(c[0]))

    def result_stmt(self, meta, c):
        return A.ResultStmt(self._s(meta), c[0], c[1])

    def sc_script(self, meta, c):
        return A.ScenarioStep(self._s(meta), "script", (str(c[0]), c[1]))

    def field_init(self, meta, children):
        return (str(children[0]), children[1])

    def record_lit(self, meta, children):
        return A.RecordLit(self._s(meta), str(children[0]), tuple(children[1:]))

    def state_decl(self, meta, children):
        return A.StateDecl(self._s(meta), tuple(children))

    def hidden_all(self, meta, children):
        return "all"

    def hidden_owner(self, meta, children):
        return "owner"

    def var_decl(self, meta, children):
        name, typ, default, vis = children
        return A.VarDecl(self._s(meta), str(name), typ, default, vis)

    def const_decl(self, meta, children):
        return A.ConstDecl(self._s(meta), str(children[0]), children[1])

    def option_decl(self, meta, children):
        name, typ, default, doc = children
        return A.OptionDecl(self._s(meta), str(name), typ, default, _unquote(doc) if doc else None)

    def params(self, meta, children):
        return tuple(c for c in children if c is not None)

    def param_typed(self, meta, children):
        return A.Param(self._s(meta), str(children[0]), children[1], None)

    def param_domain(self, meta, children):
        return A.Param(self._s(meta), str(children[0]), None, children[1])

    def define_decl(self, meta, children):
        name, params, typ, *lets, value = children
        for let in reversed(lets):  # each `let` line holds the lines below it
            span = let.span
            value = A.LetExpr(A.Span(span.file, span.line, span.column, value.span.end_line,
                                     value.span.end_column), let.name, let.value, value)
        return A.DefineDecl(self._s(meta), str(name), params or (), typ, value)

    def define_let(self, meta, c):
        return A.LetStmt(self._s(meta), str(c[0]), c[1])

    def action_decl(self, meta, children):
        name, params, (prov, body) = children
        return A.ActionDecl(self._s(meta), str(name), params or (), prov, body)

    def procedure_decl(self, meta, children):
        name, params, (prov, body) = children
        return A.ProcedureDecl(self._s(meta), str(name), params or (), prov, body)

    def trigger_decl(self, meta, children):
        test, (prov, body) = children
        return A.TriggerDecl(self._s(meta), test, prov, body)

    def hook_decl(self, meta, children):
        event, (prov, body) = children
        return A.HookDecl(self._s(meta), " ".join(str(event).split()), prov, body)

    def flow_decl(self, meta, children):
        prov, body = children[0]
        return A.FlowDecl(self._s(meta), prov, body)

    def scoring_decl(self, meta, children):
        return A.ScoringDecl(self._s(meta), children[0])

    def umpire_decl(self, meta, children):
        return A.UmpireDecl(self._s(meta), _unquote(children[0]))

    def include_decl(self, meta, children):
        return A.IncludeDecl(self._s(meta), _unquote(children[0]), children[1] is not None)

    # -- types
    def named_type(self, meta, children):
        return A.NamedType(self._s(meta), str(children[0]))

    def optional_type(self, meta, children):
        return A.OptionalType(self._s(meta), children[0])

    def list_type(self, meta, children):
        return A.ListType(self._s(meta), children[0])

    def set_type(self, meta, children):
        return A.SetType(self._s(meta), children[0])

    def map_type(self, meta, children):
        return A.MapType(self._s(meta), children[0], children[1])

    def type_atom(self, meta, children):
        return children[0]

    # -- statements
    def target(self, meta, children):
        root = str(children[0])
        steps: list = []
        for c in children[1:]:
            steps.append(str(c) if isinstance(c, Token) else c)
        return A.Target(self._s(meta), root, tuple(steps))

    def set_stmt(self, meta, c):
        return A.SetStmt(self._s(meta), c[0], c[1])

    def add_stmt(self, meta, c):
        return A.AddStmt(self._s(meta), c[0], c[1])

    def remove_stmt(self, meta, c):
        return A.RemoveStmt(self._s(meta), c[0], c[1])

    def clear_stmt(self, meta, c):
        return A.ClearStmt(self._s(meta), c[0])

    def let_stmt(self, meta, c):
        return A.LetStmt(self._s(meta), str(c[0]), c[1])

    def move_stmt(self, meta, c):
        return A.MoveStmt(self._s(meta), c[0], c[1], c[2])

    def draw_stmt(self, meta, c):
        return A.DrawStmt(self._s(meta), c[0], c[1], c[2])

    def shuffle_stmt(self, meta, c):
        return A.ShuffleStmt(self._s(meta), c[0])

    def require_stmt(self, meta, c):
        return A.RequireStmt(self._s(meta), c[0], _unquote(c[1]) if c[1] else None)

    def finish_winner(self, meta, c):
        return ("winner", (c[0],))

    def finish_draw(self, meta, c):
        return ("draw", ())

    def finish_ranking(self, meta, c):
        return ("ranking", tuple(c[1:]), str(c[0]))

    def finish_stmt(self, meta, c):
        kind, exprs, *var = c[0]
        return A.FinishStmt(self._s(meta), kind, exprs, var[0] if var else None)

    def do_stmt(self, meta, c):
        return A.DoStmt(self._s(meta), str(c[0]), tuple(x for x in c[1:] if x is not None))

    def play_up_to(self, meta, c):
        return ("up_to", _int(c[0]))

    def play_optional(self, meta, c):
        return ("optional", 1)

    def by_clause(self, meta, c):
        return c[0]

    def where_clause(self, meta, c):
        return c[0]

    def play_stmt(self, meta, c):
        count, names, by, otherwise = c
        up_to, optional = 1, False
        if count is not None:
            kind, n = count
            up_to, optional = n, True
        return A.PlayStmt(self._s(meta), names, up_to, optional, by, otherwise)

    def choose_stmt(self, meta, c):
        name, domain, where, by, prompt = c
        return A.ChooseStmt(
            self._s(meta), str(name), domain, where, by, _unquote(prompt) if prompt else None
        )

    def break_stmt(self, meta, c):
        return A.BreakStmt(self._s(meta))

    def goto_stmt(self, meta, c):
        return A.GotoStmt(self._s(meta), str(c[0]))

    def reveal_stmt(self, meta, c):
        return A.RevealStmt(self._s(meta), c[0], c[1])

    def log_stmt(self, meta, c):
        return A.LogStmt(self._s(meta), _unquote(c[0]))

    def elif_clause(self, meta, c):
        return (c[0], c[1])

    def else_clause(self, meta, c):
        return c[0]

    def if_stmt(self, meta, c):
        branches = [(c[0], c[1])]
        orelse: tuple = ()
        for extra in c[2:]:
            if isinstance(extra, tuple) and len(extra) == 2 and not isinstance(extra[0], A.Node):
                orelse = extra
            elif isinstance(extra, tuple) and len(extra) == 2 and isinstance(extra[1], tuple):
                branches.append(extra)
            else:
                orelse = extra
        return A.IfStmt(self._s(meta), tuple(branches), tuple(orelse))

    def if_let_stmt(self, meta, c):
        plain = self.if_stmt(meta, [c[1], *c[2:]])
        (test, body), *rest = plain.branches
        return sugar.build_if_let(plain.span, str(c[0]), test, body, tuple(rest), plain.orelse)

    def for_stmt(self, meta, c):
        return A.ForStmt(self._s(meta), str(c[0]), c[1], c[2])

    def for_chosen_stmt(self, meta, c):
        var, items, optional, by, prompt, body = c
        return sugar.build_for_chosen(self._s(meta), str(var), items, optional is not None, by,
                                      _unquote(prompt) if prompt else None, body)

    def choose_one_per_stmt(self, meta, c):
        n, var, items, slot, slots, fits, by, prompt, body = c
        return sugar.build_choose_one_per(self._s(meta), n, str(var), items, str(slot), slots, fits,
                                          by, _unquote(prompt) if prompt else None, body)

    def repeat_forever(self, meta, c):
        return A.RepeatStmt(self._s(meta), None, c[0])

    def repeat_times(self, meta, c):
        return A.RepeatStmt(self._s(meta), c[0], c[1])

    def while_stmt(self, meta, c):
        return A.WhileStmt(self._s(meta), c[0], c[1])

    def turn_stmt(self, meta, c):
        player, (prov, body) = c
        return A.TurnStmt(self._s(meta), player, prov, body)

    def simultaneous_stmt(self, meta, c):
        var, domain, (prov, body) = c
        return A.SimultaneousStmt(self._s(meta), str(var), domain, prov, body)

    def phase_stmt(self, meta, c):
        name, (prov, body) = c
        return A.PhaseStmt(self._s(meta), str(name), prov, body)

    # -- expressions
    def cond_expr(self, meta, c):
        return A.CondExpr(self._s(meta), c[0], c[1], c[2])

    def aggregate(self, meta, c):
        kind, var, domain, where, body = c
        return A.Aggregate(self._s(meta), str(kind), str(var), domain, where, body)

    def count_one_per(self, meta, c):
        kind, var, items, slot, slots, fits = c
        if str(kind) != "count":
            raise ValueError(f"only 'count' takes 'one per', not '{kind}'")
        return sugar.build_count_one_per(self._s(meta), str(var), items, str(slot), slots, fits)

    def _boolop(self, meta, op: str, c: list) -> A.BoolOp:
        items: list = []
        for x in c:  # flatten left-nested chains: a or b or c is one BoolOp
            if isinstance(x, A.BoolOp) and x.op == op and x.span.line != 0 and not getattr(x, "_paren", False):
                items.extend(x.items)
            else:
                items.append(x)
        return A.BoolOp(self._s(meta), op, tuple(items))

    def or_op(self, meta, c):
        return self._boolop(meta, "or", c)

    def and_op(self, meta, c):
        return self._boolop(meta, "and", c)

    def not_op(self, meta, c):
        return A.Not(self._s(meta), c[0])

    def compare(self, meta, c):
        op = " ".join(str(c[1]).split())
        return A.Compare(self._s(meta), op, c[0], c[2])

    def range_expr(self, meta, c):
        return A.Range(self._s(meta), c[0], c[1])

    def binop(self, meta, c):
        return A.BinOp(self._s(meta), str(c[1]), c[0], c[2])

    def neg(self, meta, c):
        return A.Neg(self._s(meta), c[0])

    def index(self, meta, c):
        return A.Index(self._s(meta), c[0], c[1])

    def field(self, meta, c):
        return A.Field(self._s(meta), c[0], str(c[1]))

    def call(self, meta, c):
        return A.Call(self._s(meta), str(c[0]), tuple(x for x in c[1:] if x is not None))

    def int_lit(self, meta, c):
        return A.IntLit(self._s(meta), _int(c[0]))

    def str_lit(self, meta, c):
        return A.StrLit(self._s(meta), _unquote(c[0]))

    def true_lit(self, meta, c):
        return A.BoolLit(self._s(meta), True)

    def false_lit(self, meta, c):
        return A.BoolLit(self._s(meta), False)

    def none_lit(self, meta, c):
        return A.NoneLit(self._s(meta))

    def name(self, meta, c):
        return A.Name(self._s(meta), str(c[0]))

    def list_lit(self, meta, c):
        return A.ListLit(self._s(meta), tuple(x for x in c if x is not None))

    def map_item(self, meta, c):
        return (c[0], c[1])

    def map_lit(self, meta, c):
        return A.MapLit(self._s(meta), tuple(x for x in c if x is not None))

    # -- scenarios
    def action_call(self, meta, c):
        return A.ActionCall(self._s(meta), str(c[0]), tuple(x for x in c[1:] if x is not None))

    def scenario_decl(self, meta, c):
        name = _unquote(c[0])
        prov, steps = _split_body(self.path, c[1:])
        return A.ScenarioDecl(self._s(meta), name, prov, steps)

    def sc_players(self, meta, c):
        return A.ScenarioStep(self._s(meta), "players", _int(c[0]))

    def sc_seed(self, meta, c):
        return A.ScenarioStep(self._s(meta), "seed", _int(c[0]))

    def sc_option(self, meta, c):
        return A.ScenarioStep(self._s(meta), "option", (str(c[0]), c[1]))

    def sc_before_start(self, meta, c):
        return A.ScenarioStep(self._s(meta), "before_start", body=c[0])

    def sc_start_phase(self, meta, c):
        return A.ScenarioStep(self._s(meta), "start_phase", str(c[0]))

    def sc_given(self, meta, c):
        return A.ScenarioStep(self._s(meta), "given", body=c[0])

    def sc_by(self, meta, c):
        return c[0]

    def sc_do(self, meta, c):
        return A.ScenarioStep(self._s(meta), "do", call=c[0], by=c[1])

    def sc_expect(self, meta, c):
        return A.ScenarioStep(self._s(meta), "expect", c[0], message=_unquote(c[1]) if c[1] else None)

    def sc_expect_legal(self, meta, c):
        return A.ScenarioStep(self._s(meta), "legal", call=c[0], message=_unquote(c[2]) if c[2] else None, by=c[1])

    def sc_expect_illegal(self, meta, c):
        msg = _unquote(c[2]) if c[2] else None
        why = _unquote(c[3]) if c[3] else None  # `else "..."`: said when the expectation fails
        return A.ScenarioStep(self._s(meta), "illegal", why, call=c[0], message=msg, by=c[1])

    def sc_expect_winner(self, meta, c):
        return A.ScenarioStep(self._s(meta), "winner", c[0])

    def sc_expect_draw(self, meta, c):
        return A.ScenarioStep(self._s(meta), "draw")

    def sc_expect_decider(self, meta, c):
        return A.ScenarioStep(self._s(meta), "decider", c[0], message=_unquote(c[1]) if c[1] else None)

    def sc_expect_over(self, meta, c):
        return A.ScenarioStep(self._s(meta), "over")

    def sc_expect_not_over(self, meta, c):
        return A.ScenarioStep(self._s(meta), "not_over")


def _too_deep(text: str, path: str) -> Diagnostic | None:
    """Cheap guard against hostile nesting before the parser recurses into it: the first
    bracket deeper than MAX_NESTING (brackets inside texts and comments do not count), or the
    first line indented deeper than MAX_NESTING levels."""
    depth = 0
    for ch, line, col in brackets(text):
        if ch in OPENING:
            depth += 1
            if depth > MAX_NESTING:
                return Diagnostic("E005", f"nesting deeper than {MAX_NESTING} levels",
                                  A.Span(path, line, col, line, col + 1), "give parts of it a name with let or define")
        else:
            depth -= 1
    for n, row in enumerate(text.split("\n"), 1):
        indent = len(row) - len(row.lstrip(" "))
        if indent // 2 > MAX_NESTING and row.strip():
            return Diagnostic("E005", f"nesting deeper than {MAX_NESTING} levels",
                              A.Span(path, n, 1, n, indent + 1), "blocks are indented too deeply")
    return None


MAX_TOKENS = 100_000
# the tokens of a rules text as the limit counts them: texts, comments (not counted), words
# and numbers, and signs; unrolled so that a long text is matched without backtracking points
_TOKEN = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"|#[^\n]*|\w+|\S')


def _too_many_tokens(text: str, path: str) -> Diagnostic | None:
    """E009 at the first token past MAX_TOKENS. The parser takes about 20 µs and 400 bytes a
    token, so a 600,000-item list (1.8 MB) took 25 s and 770 MB to check; this count is a
    regular expression's scan, a few milliseconds for the largest bundled file (10,000
    tokens), and stops at the limit."""
    if len(text) < MAX_TOKENS:  # fewer characters than the limit: fewer tokens too
        return None
    count = 0
    for m in _TOKEN.finditer(text):
        if text[m.start()] == "#":
            continue
        count += 1
        if count > MAX_TOKENS:
            at = m.start()
            line = text.count("\n", 0, at) + 1
            col = at - text.rfind("\n", 0, at)
            return Diagnostic("E009", f"more than {MAX_TOKENS:,} tokens (names, numbers, texts and signs) in one file",
                              A.Span(path, line, col, line, col + 1),
                              "a long table belongs in a data file ('data NAME: TYPE from \"FILE.json\"'), "
                              "and long rules can be split into files joined with 'include'")
    return None


MAX_TREE_DEPTH = 150


def _deepest(tree: Tree, path: str) -> Diagnostic | None:
    """A syntax tree deeper than MAX_TREE_DEPTH (a chain like `not not not ...` or
    `1 + 1 + ...` thousands long) is refused where it gets too deep, before the recursive
    steps that follow (AST building, checking, code generation) run out of stack."""
    stack: list[tuple[Tree, int]] = [(tree, 1)]
    while stack:
        node, d = stack.pop()
        if d > MAX_TREE_DEPTH:
            meta = node.meta
            line = getattr(meta, "line", 1) if not getattr(meta, "empty", True) else 1
            col = getattr(meta, "column", 1) if not getattr(meta, "empty", True) else 1
            return Diagnostic("E005", f"an expression nested deeper than {MAX_TREE_DEPTH} levels",
                              A.Span(path, line, col, line, col + 1), "give parts of it a name with let or define")
        stack.extend((c, d + 1) for c in node.children if isinstance(c, Tree))
    return None


def parse_text(text: str, path: str = "<text>") -> A.Module:
    """Parse one rules text. Raises RulesError with located diagnostics, never a Lark error."""
    span0 = A.Span(path, 1, 1, 1, 2)
    if text.startswith("\ufeff"):  # a byte-order mark some editors write: not part of the rules
        text = text[1:]
    if len(text.encode("utf-8", errors="replace")) > MAX_SOURCE_BYTES:
        raise RulesError([Diagnostic("E004", f"file is larger than {MAX_SOURCE_BYTES} bytes", span0)])
    if "\x00" in text:
        at = text.index("\x00")
        line = text.count("\n", 0, at) + 1
        col = at - text.rfind("\n", 0, at)
        raise RulesError([Diagnostic("E001", "file contains a NUL character",
                                     A.Span(path, line, col, line, col + 1))], {path: text})
    many = _too_many_tokens(text, path)
    if many is not None:
        raise RulesError([many], {path: text})
    deep = _too_deep(text, path)
    if deep is not None:
        raise RulesError([deep], {path: text})
    if not text.endswith("\n"):
        text += "\n"
    try:
        parser = _parser()
        with _PARSE_LOCK:
            tree = parser.parse(text, start="start")
        deep = _deepest(tree, path)
        if deep is not None:
            raise RulesError([deep], {path: text})
        return _Builder(path).transform(tree)
    except UnexpectedInput as err:
        raise RulesError([_syntax_diagnostic(err, path, text)], {path: text}) from None
    except VisitError as err:  # an AST builder failed: report where, never the traceback
        inner = err.orig_exc
        meta = getattr(err.obj, "meta", None)
        span = _span(path, meta) if meta is not None else span0
        if isinstance(inner, _Refused):
            raise RulesError([Diagnostic(inner.code, inner.message, span)], {path: text}) from None
        raise RulesError([Diagnostic("E006", f"cannot build syntax tree: {inner}", span)], {path: text}) from None
    except (LarkError, RecursionError) as err:
        raise RulesError([Diagnostic("E003", f"syntax error: {type(err).__name__}", span0)]) from None


class _Refused(Exception):
    """A token the grammar accepts but the language does not (a number of 5,000 digits)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


MAX_DIGITS = 100


def _int(tok: Token) -> int:
    text = str(tok)
    if len(text) > MAX_DIGITS:
        raise _Refused("E003", f"a number of more than {MAX_DIGITS} digits")
    return int(text)


MAX_ACTION_TEXT = 10_000


def parse_action_call(text: str) -> A.ActionCall:
    """Parse a move written as text, `name` or `name(arg, ...)`, with the rules' own grammar.
    Raises RulesError (located in the text, path `<move>`) on anything else."""
    path = "<move>"
    span0 = A.Span(path, 1, 1, 1, 2)
    if len(text) > MAX_ACTION_TEXT:
        raise RulesError([Diagnostic("E004", f"a move is at most {MAX_ACTION_TEXT} characters", span0)])
    if "\n" in text.strip() or "\x00" in text:
        raise RulesError([Diagnostic("E001", "a move is one line", span0)])
    deep = _too_deep(text, path)
    if deep is not None:
        raise RulesError([deep], {path: text})
    try:
        parser = _parser()
        with _PARSE_LOCK:
            tree = parser.parse(text.strip(), start="action_text")
        deep = _deepest(tree, path)
        if deep is not None:
            raise RulesError([deep], {path: text})
        return _Builder(path).transform(tree).children[0]
    except UnexpectedInput as err:
        raise RulesError([_syntax_diagnostic(err, path, text)], {path: text}) from None
    except VisitError as err:
        inner = err.orig_exc
        if isinstance(inner, _Refused):
            raise RulesError([Diagnostic(inner.code, inner.message, span0)], {path: text}) from None
        raise RulesError([Diagnostic("E006", f"cannot read the move: {inner}", span0)]) from None
    except (LarkError, RecursionError) as err:
        raise RulesError([Diagnostic("E003", f"syntax error: {type(err).__name__}", span0)]) from None
