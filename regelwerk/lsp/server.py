"""`regelwerk lsp`: the language server over stdio, wired with pygls.

This module only translates between LSP and the feature modules (hover, navigation, ...);
they work on 1-based code-point positions and never see the protocol. Every handler is
guarded: an internal error is logged in one line and answered with nothing, so a bug in one
feature never takes the server down, and a broken rules file only ever gives diagnostics.
"""

from __future__ import annotations

import functools
import gc
import logging
import os
from collections.abc import Callable
from typing import Any

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from ..dsl.diagnostics import Diagnostic
from . import completion, formatting, hover, navigation, outline, rename, scenarios
from .analysis import Analysis
from .index import Loc
from .positions import from_position, loc_range, span_range, to_position
from .specs import SpecInventory
from .store import norm
from .workspace import Workspace

log = logging.getLogger("regelwerk.lsp")
RUN_SCENARIOS = "regelwerk.runScenarios"
VERSION = "0.1.0"


class RulesServer(LanguageServer):
    """The server's state: the workspace of rules files and the scenario outcomes."""

    def __init__(self) -> None:
        super().__init__("regelwerk", VERSION)
        self.rules = Workspace()
        self.specs = SpecInventory()
        self.outcomes: dict[str, dict[str, scenarios.Outcome]] = {}  # path -> name -> outcome
        self.published: dict[str, set[str]] = {}  # root -> files given diagnostics

    # ---------------------------------------------------------------- paths and positions
    @staticmethod
    def path_of(uri: str) -> str:
        path = to_fs_path(uri)
        return norm(path) if path else uri

    @staticmethod
    def uri_of(path: str) -> str:
        if not os.path.isabs(path):  # an editor buffer without a file (untitled:...)
            return path
        return from_fs_path(path) or path

    def lines(self, path: str) -> list[str]:
        text = self.rules.store.text(path)
        return text.splitlines() if text is not None else []

    def position(self, uri: str, pos: T.Position) -> tuple[str, int, int]:
        path = self.path_of(uri)
        line, column = from_position(self.workspace.position_codec, self.lines(path), pos)
        return path, line, column

    def request(self, uri: str, pos: T.Position) -> tuple[Analysis, str, int, int] | None:
        """The analysis and the position a request is about, in the text the analysis parsed
        (a file that does not parse now is answered from its last good version)."""
        path, line, column = self.position(uri, pos)
        an = self.rules.analysis_for(path)
        lines = an.line_map(path)
        if lines is not None:
            old = lines.to_old(line)
            if old is None:
                return None
            line = old
        return an, path, line, column

    def location(self, loc: Loc, an: Analysis | None = None) -> T.Location:
        lines = an.line_map(loc.file) if an is not None else None
        if lines is not None and lines.to_new(loc.line) is not None:
            loc = Loc(loc.file, lines.to_new(loc.line), loc.column, loc.end_column)
        rng = loc_range(self.workspace.position_codec, self.lines(loc.file), loc)
        return T.Location(uri=self.uri_of(loc.file), range=rng)

    # ---------------------------------------------------------------- diagnostics
    def lsp_diagnostic(self, d: Diagnostic, lines: list[str]) -> T.Diagnostic:
        message = d.message + (f"\nhelp: {d.help}" if d.help else "")
        severity = T.DiagnosticSeverity.Warning if d.severity == "warning" else T.DiagnosticSeverity.Error
        return T.Diagnostic(range=span_range(self.workspace.position_codec, lines, d.span),
                            message=message, severity=severity, code=d.code, source="regelwerk")

    def scenario_diagnostics(self, path: str, lines: list[str]) -> list[T.Diagnostic]:
        out = []
        for o in self.outcomes.get(path, {}).values():
            if not o.passed and o.at is not None:
                out.append(T.Diagnostic(
                    range=span_range(self.workspace.position_codec, lines, o.at),
                    message=f"scenario '{o.name}' failed: {o.failure}",
                    severity=T.DiagnosticSeverity.Error, code="scenario", source="regelwerk test"))
        return out

    def publish(self, an: Analysis) -> None:
        files = set(an.files)
        for path in sorted(self.published.get(an.root, set()) - files):
            self.text_document_publish_diagnostics(
                T.PublishDiagnosticsParams(uri=self.uri_of(path), diagnostics=[]))
        for path in an.files:
            lines = an.texts.get(path, "").splitlines()
            diags = [self.lsp_diagnostic(d, lines) for d in an.diagnostics.get(path, [])]
            diags += self.scenario_diagnostics(path, lines)
            self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(
                uri=self.uri_of(path), diagnostics=diags, version=self.rules.store.version(path)))
        self.published[an.root] = files

    def refresh(self, uri: str, fresh_roots: bool = False) -> Analysis:
        """Take the editor's text of `uri`, re-check its ruleset and publish the diagnostics."""
        path = self.path_of(uri)
        doc = self.workspace.get_text_document(uri)
        self.rules.store.set_open(path, doc.source, doc.version)
        if fresh_roots:
            self.rules.root_of(path, refresh=True)
        an = self.rules.analysis_for(path, fresh=True)
        for f in an.files:
            self.outcomes.pop(f, None)
        self.publish(an)
        return an


def guarded(default: Any = None) -> Callable:
    """Run a handler; on an internal error log one line and answer `default`."""

    def wrap(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def run(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except Exception as err:  # the server must outlive any bug in a feature
                log.warning("%s failed: %s: %s", fn.__name__, type(err).__name__, err)
                if os.environ.get("REGELWERK_DEBUG"):
                    log.exception("traceback")
                return default

        return run

    return wrap


_SYMBOL_KINDS = {
    "action": T.SymbolKind.Method, "procedure": T.SymbolKind.Function,
    "define": T.SymbolKind.Function, "device": T.SymbolKind.Event, "trigger": T.SymbolKind.Event,
    "hook": T.SymbolKind.Event, "flow": T.SymbolKind.Namespace, "phase": T.SymbolKind.Module,
    "scenario": T.SymbolKind.Class, "state": T.SymbolKind.Namespace,
    "variable": T.SymbolKind.Variable, "game": T.SymbolKind.File, "enum": T.SymbolKind.Enum,
    "record": T.SymbolKind.Struct, "data": T.SymbolKind.Constant, "const": T.SymbolKind.Constant,
    "option": T.SymbolKind.Property, "board": T.SymbolKind.Object,
}

_COMPLETION_KINDS = {
    "keyword": T.CompletionItemKind.Keyword, "state": T.CompletionItemKind.Variable,
    "constant": T.CompletionItemKind.Constant, "option": T.CompletionItemKind.Property,
    "data": T.CompletionItemKind.Constant, "definition": T.CompletionItemKind.Function,
    "action": T.CompletionItemKind.Method, "procedure": T.CompletionItemKind.Function,
    "device": T.CompletionItemKind.Event, "enum": T.CompletionItemKind.Enum,
    "member": T.CompletionItemKind.EnumMember, "record": T.CompletionItemKind.Struct,
    "field": T.CompletionItemKind.Field, "board": T.CompletionItemKind.Class,
    "square": T.CompletionItemKind.Value, "node": T.CompletionItemKind.Value,
    "player": T.CompletionItemKind.EnumMember, "phase": T.CompletionItemKind.Module,
    "parameter": T.CompletionItemKind.Variable, "local": T.CompletionItemKind.Variable,
    "library": T.CompletionItemKind.Function, "builtin": T.CompletionItemKind.Constant,
    "type": T.CompletionItemKind.TypeParameter,
}


def build_server() -> RulesServer:  # noqa: C901 - a table of the request handlers, one nested function each
    """A server with every feature registered (not started)."""
    server = RulesServer()

    @server.feature(T.INITIALIZE)
    @guarded()
    def initialize(ls: RulesServer, params: T.InitializeParams) -> None:
        opts = params.initialization_options
        if isinstance(opts, dict) and isinstance(opts.get("specDir"), str):
            ls.specs.configured = opts["specDir"]

    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    @guarded()
    def did_open(ls: RulesServer, params: T.DidOpenTextDocumentParams) -> None:
        ls.refresh(params.text_document.uri, fresh_roots=True)
        # The parser tables and the rulesets just loaded live as long as the server: keep them
        # out of the cyclic collector, whose full passes over them cost a keystroke 50-80 ms.
        gc.freeze()

    @server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    @guarded()
    def did_change(ls: RulesServer, params: T.DidChangeTextDocumentParams) -> None:
        ls.refresh(params.text_document.uri)

    @server.feature(T.TEXT_DOCUMENT_DID_SAVE)
    @guarded()
    def did_save(ls: RulesServer, params: T.DidSaveTextDocumentParams) -> None:
        ls.refresh(params.text_document.uri, fresh_roots=True)

    @server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    @guarded()
    def did_close(ls: RulesServer, params: T.DidCloseTextDocumentParams) -> None:
        path = ls.path_of(params.text_document.uri)
        ls.rules.store.close(path)  # the file on disk counts again
        an = ls.rules.analysis_for(path, fresh=True)
        ls.publish(an)

    @server.feature(T.TEXT_DOCUMENT_HOVER)
    @guarded()
    def on_hover(ls: RulesServer, params: T.HoverParams) -> T.Hover | None:
        got = ls.request(params.text_document.uri, params.position)
        if got is None:
            return None
        an, path, line, column = got
        text = hover.hover_md(an, ls.specs, path, line, column)
        if text is None:
            return None
        return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=text))

    @server.feature(T.TEXT_DOCUMENT_DEFINITION)
    @guarded()
    def on_definition(ls: RulesServer, params: T.DefinitionParams) -> list[T.Location] | None:
        got = ls.request(params.text_document.uri, params.position)
        if got is None:
            return None
        an, path, line, column = got
        return [ls.location(loc, an) for loc in navigation.definition(an, path, line, column)] or None

    @server.feature(T.TEXT_DOCUMENT_REFERENCES)
    @guarded()
    def on_references(ls: RulesServer, params: T.ReferenceParams) -> list[T.Location] | None:
        got = ls.request(params.text_document.uri, params.position)
        if got is None:
            return None
        an, path, line, column = got
        locs = navigation.references(an, path, line, column, params.context.include_declaration)
        return [ls.location(loc, an) for loc in locs] or None

    @server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=["."]))
    @guarded()
    def on_completion(ls: RulesServer, params: T.CompletionParams) -> T.CompletionList | None:
        path, line, column = ls.position(params.text_document.uri, params.position)
        lines = ls.lines(path)
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        an = ls.rules.analysis_for(path)
        moved = an.line_map(path)
        at = moved.near_old(line) if moved is not None else line
        items = completion.complete(an, path, at, column, text)
        seen: set[str] = set()
        out = []
        for it in items:
            if it.label in seen:
                continue
            seen.add(it.label)
            out.append(T.CompletionItem(
                label=it.label, kind=_COMPLETION_KINDS.get(it.kind, T.CompletionItemKind.Text),
                detail=it.detail or None,
                documentation=T.MarkupContent(kind=T.MarkupKind.Markdown, value=it.doc) if it.doc else None,
                insert_text=it.insert))
        return T.CompletionList(is_incomplete=False, items=out)

    @server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @guarded()
    def on_symbols(ls: RulesServer, params: T.DocumentSymbolParams) -> list[T.DocumentSymbol] | None:
        path = ls.path_of(params.text_document.uri)
        an = ls.rules.analysis_for(path)
        module = an.module(path)
        if module is None:
            return None
        codec, lines = ls.workspace.position_codec, ls.lines(path)

        def convert(item: outline.OutlineItem) -> T.DocumentSymbol:
            rng = span_range(codec, lines, item.span)
            sel = rng if item.name_at is None else T.Range(
                start=to_position(codec, lines, item.name_at[0], item.name_at[1]),
                end=to_position(codec, lines, item.name_at[0], item.name_at[2]))
            return T.DocumentSymbol(name=item.name, kind=_SYMBOL_KINDS.get(item.kind, T.SymbolKind.Object),
                                    range=rng, selection_range=sel, detail=item.detail or None,
                                    children=[convert(c) for c in item.children] or None)

        return [convert(i) for i in outline.outline(module, an.tokens[path])]

    @server.feature(T.TEXT_DOCUMENT_FORMATTING)
    @guarded()
    def on_formatting(ls: RulesServer, params: T.DocumentFormattingParams) -> list[T.TextEdit] | None:
        path = ls.path_of(params.text_document.uri)
        text = ls.rules.store.text(path)
        if text is None:
            return None
        new = formatting.formatted(text, path)
        if new is None or new == text:
            return [] if new is not None else None
        lines = text.splitlines()
        end = T.Position(line=len(lines) + 1, character=0)
        return [T.TextEdit(range=T.Range(start=T.Position(line=0, character=0), end=end), new_text=new)]

    @server.feature(T.TEXT_DOCUMENT_PREPARE_RENAME)
    @guarded()
    def on_prepare_rename(ls: RulesServer, params: T.PrepareRenameParams) -> T.PrepareRenamePlaceholder | None:
        path, line, column = ls.position(params.text_document.uri, params.position)
        an = ls.rules.analysis_for(path)
        if an.broken:
            return None
        try:
            occ = rename.renamable(an, path, line, column)
        except rename.RenameError:
            return None
        return T.PrepareRenamePlaceholder(range=ls.location(occ.loc).range,
                                          placeholder=an.index.symbols[occ.key].name)

    @server.feature(T.TEXT_DOCUMENT_RENAME, T.RenameOptions(prepare_provider=True))
    @guarded()
    def on_rename(ls: RulesServer, params: T.RenameParams) -> T.WorkspaceEdit | None:
        path, line, column = ls.position(params.text_document.uri, params.position)
        an = ls.rules.analysis_for(path)
        try:
            if an.broken:
                raise rename.RenameError("a file of the ruleset does not parse: fix it first")
            places = rename.rename(an, path, line, column, params.new_name)
        except rename.RenameError as err:  # said to the user, not logged as a server fault
            ls.window_show_message(T.ShowMessageParams(type=T.MessageType.Warning,
                                                       message=f"cannot rename: {err}"))
            return None
        changes = {ls.uri_of(f): [T.TextEdit(range=ls.location(loc).range, new_text=params.new_name)
                                  for loc in locs] for f, locs in places.items()}
        return T.WorkspaceEdit(changes=changes)

    @server.feature(T.TEXT_DOCUMENT_CODE_LENS)
    @guarded()
    def on_code_lens(ls: RulesServer, params: T.CodeLensParams) -> list[T.CodeLens] | None:
        uri = params.text_document.uri
        path = ls.path_of(uri)
        an = ls.rules.analysis_for(path)
        found = scenarios.scenarios_in(an, path)
        if not found:
            return None
        codec, lines = ls.workspace.position_codec, ls.lines(path)
        done = ls.outcomes.get(path, {})
        first = span_range(codec, lines, found[0].span)
        passed = sum(1 for o in done.values() if o.passed)
        title = (f"▶ run all {len(found)} scenarios" if not done else
                 f"{passed} passed, {len(done) - passed} failed — run all {len(found)} again")
        lenses = [T.CodeLens(range=first, command=T.Command(title=title, command=RUN_SCENARIOS,
                                                            arguments=[uri]))]
        for sc in found:
            rng = span_range(codec, lines, sc.span)
            rng = T.Range(start=rng.start, end=T.Position(line=rng.start.line, character=rng.start.character))
            lenses.append(T.CodeLens(range=rng, command=T.Command(
                title=scenarios.lens_title(done.get(sc.name)), command=RUN_SCENARIOS,
                arguments=[uri, sc.name])))
        return lenses

    @server.command(RUN_SCENARIOS)
    @server.thread()
    def run_scenarios(ls: RulesServer, *args: Any) -> dict:
        """Arguments: a file's URI, and a scenario's name to run only that one. The outcomes show
        as lenses and as diagnostics on the failing lines."""
        if not args or not isinstance(args[0], str):
            return {"passed": 0, "failed": 0, "error": "expected a document URI", "results": []}
        path = ls.path_of(args[0])
        name = args[1] if len(args) > 1 and isinstance(args[1], str) else None
        an = ls.rules.analysis_for(path)
        try:
            results = scenarios.run(an, path, name)
        except scenarios.ScenarioError as err:
            ls.window_show_message(T.ShowMessageParams(type=T.MessageType.Warning, message=str(err)))
            return {"passed": 0, "failed": 0, "error": str(err), "results": []}
        except Exception as err:  # a thread must not die silently: say what happened
            log.warning("running scenarios failed: %s: %s", type(err).__name__, err)
            return {"passed": 0, "failed": 0, "error": f"internal error: {err}", "results": []}
        store = ls.outcomes.setdefault(path, {})
        for o in results:
            store[o.name] = o
        ls.publish(an)
        caps = ls.client_capabilities.workspace
        if caps is not None and caps.code_lens is not None and caps.code_lens.refresh_support:
            ls.workspace_code_lens_refresh(None)
        passed = sum(1 for o in results if o.passed)
        return {"passed": passed, "failed": len(results) - passed, "results": [
            {"name": o.name, "passed": o.passed, "failure": o.failure,
             "line": o.at.line if o.at is not None and not o.passed else None} for o in results]}

    return server


def main() -> None:
    """Serve on stdin/stdout until the client says exit."""
    logging.basicConfig(level=logging.WARNING, format="regelwerk-lsp: %(levelname)s: %(message)s")
    build_server().start_io()
