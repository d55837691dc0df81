"""The page: the template with its CSS, JS and data inlined into one HTML file.

Nothing is fetched when the page opens (its Content-Security-Policy forbids it), so the
file works from disk and by mail. The data is JSON inside a `<script type=
"application/json">`, with `<`, `>` and `&` escaped so no text in a trace can end the script.
"""

from __future__ import annotations

import html
import json
from importlib import resources
from typing import Any

_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath("page", name).read_text(encoding="utf-8")


def boards_script() -> str:
    """The board drawing shared by the viewer's page, the seat pages of `regelwerk serve` and
    the rulebook page (page/boards.js): it reads the page's `DATA` when called."""
    return _asset("boards.js")


def script(name: str) -> str:
    """A page's program: the shared board drawing (boards.js), then the page's own file."""
    text = boards_script() + "\n" + _asset(name)
    if "</script" in text.lower():
        raise ValueError(f"{name} must not contain a closing tag")  # a packaging mistake, not user input
    return text


def data_json(data: Any) -> str:
    """JSON that is safe inside a script element, and the same bytes for the same data."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    for ch, esc in _ESCAPES.items():
        text = text.replace(ch, esc)
    return text


def render(data: dict) -> str:
    """The whole page as one string."""
    css, js = _asset("viewer.css"), script("viewer.js")
    if "</style" in css.lower():
        raise ValueError("viewer.css must not contain a closing tag")  # a packaging mistake, not user input
    title = html.escape(f"{data['title']} · regelwerk view" + (f" · {data['viewer']}" if data.get("viewer") else ""))
    page = _asset("viewer.html")
    # one pass, so inlined text can never be mistaken for a later placeholder
    parts = {"/*TITLE*/": title, "/*CSS*/": css, "/*JS*/": js, "/*DATA*/": data_json(data)}
    out, rest = [], page
    for marker in ("/*TITLE*/", "/*CSS*/", "/*DATA*/", "/*JS*/"):
        before, found, rest = rest.partition(marker)
        if not found:
            raise ValueError(f"the page template has no {marker}")
        out += [before, parts[marker]]
    return "".join(out) + rest
