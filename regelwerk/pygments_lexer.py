"""A Pygments lexer for `.rules` files, so Sphinx, MkDocs and `pygmentize` highlight rules.

Registered through the `pygments.lexers` entry point (pyproject.toml) under the name
`regelwerk`; needs Pygments (the `lsp` extra brings it). The keyword lists follow the grammar
(`dsl/regelwerk.lark`); a test keeps them in step.
"""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import (
    Comment,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    Whitespace,
)

__all__ = ["RegelwerkLexer"]

DECLARATION_WORDS = (
    "game", "players", "enum", "board", "record", "data", "state", "const", "option", "define",
    "action", "procedure", "when", "on", "flow", "scoring", "umpire", "include", "device", "display",
    "invariant", "conserve", "scenario",
)
STATEMENT_WORDS = (
    "set", "add", "remove", "clear", "let", "move", "draw", "shuffle", "require", "finish", "do",
    "play", "choose", "break", "goto", "log", "reveal", "result", "abandon", "if", "elif", "else",
    "for", "repeat", "while", "turn", "simultaneously", "phase", "roll", "settle", "then", "times", "to", "from",
    "by", "where", "with", "up", "of", "optional", "winner", "ranking", "hidden", "except",
    "owner", "legend", "grid", "graph", "across", "without", "scenarios", "chosen", "one", "per",
)
SCENARIO_WORDS = (
    "given", "expect", "legal", "illegal", "because", "script", "returns", "seed", "before",
    "start", "decision", "over",
)
OPERATOR_WORDS = ("and", "or", "not", "in")
AGGREGATES = ("all", "any", "count", "sum", "max", "min", "argmax", "argmin", "first", "streak",
              "list", "set", "map")
CONSTANTS = ("true", "false", "none")
BUILTIN_VALUES = ("current", "players", "player_count", "round", "current_phase",
                  "N", "NE", "E", "SE", "S", "SW", "W", "NW")
BUILTIN_TYPES = ("int", "bool", "text", "Player", "Direction")
_NAME = r"(?!\d)[^\W]\w*"


class RegelwerkLexer(RegexLexer):
    """Rules text: declarations, statements, provenance headers, scenarios."""

    name = "regelwerk"
    aliases = ["regelwerk", "rules"]
    filenames = ["*.rules"]
    mimetypes = ["text/x-regelwerk"]

    tokens = {
        "root": [
            (r"\n", Whitespace),
            (r"[ \t\f]+", Whitespace),
            (r"#.*?$", Comment.Single),
            # provenance headers: `source "file:lines"`, `note "..."`, `spec KHAN-2C-03, ...`
            (r"(source)(\b)", bygroups(Keyword.Declaration, Text), "source"),
            (r"(note)(?=[ \t]+\")", Keyword.Declaration, "source"),
            (r"(spec)(\s+)", bygroups(Keyword.Declaration, Whitespace), "spec"),
            (r"(on)(\s+)(turn\s+(?:start|end))\b", bygroups(Keyword.Declaration, Whitespace, Name.Function)),
            (r"(action|procedure|define|device)(\s+)(" + _NAME + ")",
             bygroups(Keyword.Declaration, Whitespace, Name.Function)),
            (r"(enum|record|board)(\s+)(" + _NAME + ")",
             bygroups(Keyword.Declaration, Whitespace, Name.Class)),
            (r"(phase)(\s+)(" + _NAME + ")", bygroups(Keyword.Declaration, Whitespace, Name.Label)),
            (r"(do)(\s+)(" + _NAME + ")", bygroups(Keyword, Whitespace, Name.Function)),
            (r"(goto)(\s+)(" + _NAME + ")", bygroups(Keyword, Whitespace, Name.Label)),
            (r'"(\\\\|\\"|[^"\n])*"', String.Double),
            (words(AGGREGATES, suffix=r"(?=\s+" + _NAME + r"\s+in\b)"), Keyword.Pseudo),
            (words(DECLARATION_WORDS, prefix=r"\b", suffix=r"\b"), Keyword.Declaration),
            (words(STATEMENT_WORDS + SCENARIO_WORDS, prefix=r"\b", suffix=r"\b"), Keyword),
            (words(OPERATOR_WORDS, prefix=r"\b", suffix=r"\b"), Operator.Word),
            (words(CONSTANTS, prefix=r"\b", suffix=r"\b"), Keyword.Constant),
            (words(BUILTIN_TYPES, prefix=r"\b", suffix=r"\b"), Keyword.Type),
            (words(BUILTIN_VALUES, prefix=r"\b", suffix=r"\b"), Name.Builtin),
            (r"(\d+)(\s+)(x)(\s+)(\d+)", bygroups(Number.Integer, Whitespace, Keyword, Whitespace,
                                                 Number.Integer)),
            (r"\d+", Number.Integer),
            (r"==|!=|<=|>=|->|\.\.|//|[-+*%<>=?]", Operator),
            (r"[()\[\]{},.:]", Punctuation),
            (_NAME + r"(?=\()", Name.Function),
            (_NAME, Name),
        ],
        "source": [
            (r'"(\\\\|\\"|[^"\n])*"', String.Other),
            (r"[ \t,]+", Whitespace),
            (r"\n", Whitespace, "#pop"),
            (r"#.*?$", Comment.Single),
            (r"[^\n]", Text),
        ],
        "spec": [
            (r"[A-Z][A-Z0-9]*(-[A-Za-z0-9.]+)+", Name.Tag),
            (r"[ \t,]+", Whitespace),
            (r"\n", Whitespace, "#pop"),
            (r"#.*?$", Comment.Single),
            (r"[^\n]", Text),
        ],
    }
