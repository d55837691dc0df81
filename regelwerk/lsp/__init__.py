"""Editor support: `regelwerk lsp`, a language server over stdio (needs the `lsp` extra).

Diagnostics come from the same parser and checker as `regelwerk check`; hover, definition,
references, completion, outline, formatting, rename and scenario code lenses read one index
of the ruleset. Start it with `main()`; `server.build_server()` gives an unstarted server.
"""
