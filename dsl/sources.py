"""Reading `.rules` files and parsing them through a cache, without loading the parser.

A `check` of an unchanged ruleset reads its syntax trees from the user cache folder; Lark and
the tree builder (dsl/parse.py) are imported only when a file must really be parsed, which
keeps a fresh `regelwerk check` fast."""

from __future__ import annotations

import functools
from pathlib import Path

from . import ast as A
from .cache import cache_folder
from .diagnostics import Diagnostic, RulesError
from .files import MAX_SOURCE_BYTES, BadEncoding, FileRefused, read_text


def parse_text(text: str, path: str = "<text>") -> A.Module:
    """dsl/parse.py's parser, imported when first needed."""
    from .parse import parse_text as parse

    return parse(text, path)


def parse_file(path: str | Path) -> A.Module:
    """Read and parse a `.rules` file (see `read_rules`), through the tree cache."""
    return _parse_cached(read_rules(path), str(path))


def read_rules(path: str | Path) -> str:
    """The text of a `.rules` file; a file that cannot be read (missing, a folder, a device,
    too large, not UTF-8) is a located diagnostic too."""
    try:
        return read_text(Path(path), MAX_SOURCE_BYTES)
    except BadEncoding as err:
        span = A.Span(str(path), err.line, err.column, err.line, err.column + 1)
        shown = _replaced(Path(path))
        raise RulesError([Diagnostic("E007", f"cannot read file: {err}", span)],
                         {str(path): shown} if shown is not None else {}) from None
    except FileRefused as err:
        span = A.Span(str(path), 1, 1, 1, 1)
        if str(err).startswith("larger than"):
            raise RulesError([Diagnostic("E004", f"file is larger than {MAX_SOURCE_BYTES} bytes", span)]) from None
        raise RulesError([Diagnostic("E007", f"cannot read file: {err}", span)]) from None


MAX_CACHED_TREES = 256


def _parse_cached(text: str, path: str) -> A.Module:
    """`parse_text`, with the syntax tree of a file parsed before read from the user cache
    folder (keyed by the text, the path and the parser's own source), which makes a `check`
    of an unchanged ruleset several times faster. Files that do not parse are not cached."""
    import hashlib
    import os
    import pickle

    folder = cache_folder()
    if folder is None:
        return parse_text(text, path)
    key = hashlib.sha256(f"{_parser_version()}\0{path}\0{text}".encode()).hexdigest()[:32]
    cached = folder / f"tree-{key}.pickle"
    try:
        with cached.open("rb") as fh:
            module = pickle.load(fh)
        if isinstance(module, A.Module):
            return module
    except (OSError, pickle.PickleError, EOFError, AttributeError, ImportError, TypeError, ValueError):
        pass  # not there, or not readable: parse
    module = parse_text(text, path)
    tmp = folder / f".tree-{key}.{os.getpid()}.tmp"
    try:
        with tmp.open("wb") as fh:
            pickle.dump(module, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, cached)
        _trim(folder)
    except (OSError, pickle.PickleError, RecursionError):
        tmp.unlink(missing_ok=True)
    return module


@functools.cache
def _parser_version() -> str:
    """What a cached tree depends on besides the text: the grammar and the tree builders."""
    import hashlib

    here = Path(__file__).parent
    digest = hashlib.sha256()
    for name in ("regelwerk.lark", "parse.py", "ast.py", "sugar.py"):
        try:
            digest.update((here / name).read_bytes())
        except OSError:
            digest.update(name.encode())
    return digest.hexdigest()


def _trim(folder: Path) -> None:
    """Keep the newest trees only."""
    trees = sorted(folder.glob("tree-*.pickle"), key=lambda p: p.stat().st_mtime)
    for old in trees[:-MAX_CACHED_TREES]:
        old.unlink(missing_ok=True)


def _replaced(path: Path) -> str | None:
    """The text with bad bytes replaced, for the excerpt under an encoding error."""
    try:
        return path.read_bytes()[:MAX_SOURCE_BYTES].decode("utf-8", errors="replace")
    except OSError:
        return None
