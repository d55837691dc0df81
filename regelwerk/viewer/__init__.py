"""`regelwerk view`: a trace or a saved position as one self-contained HTML page.

The Python side only prepares data (the ruleset's boards, the start state, the steps with
resolved change paths, filtered for one player when asked) and inlines it with the page's
own CSS and JS (`page/`). Everything interactive happens in the page.
"""

from .build import page_for, save_data, trace_data
from .inputs import ViewerError
from .page import render

__all__ = ["page_for", "trace_data", "save_data", "render", "ViewerError"]
