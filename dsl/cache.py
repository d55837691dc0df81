"""The user cache folder (`$REGELWERK_CACHE`, else `$XDG_CACHE_HOME/regelwerk` or
`~/.cache/regelwerk`): the parser's tables (dsl/parse.py) and the trees of files parsed before
(dsl/sources.py) are kept there, so a `check` of an unchanged ruleset starts fast."""

from __future__ import annotations

from pathlib import Path


def cache_folder() -> Path | None:
    """A writable folder for the parser cache, or None (then the parser is built each time)."""
    import os

    base = os.environ.get("REGELWERK_CACHE")
    if base == "":
        return None
    if base is None:
        xdg = os.environ.get("XDG_CACHE_HOME")
        base = os.path.join(xdg, "regelwerk") if xdg else os.path.join(os.path.expanduser("~"), ".cache", "regelwerk")
    folder = Path(base)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder if os.access(folder, os.W_OK) else None
