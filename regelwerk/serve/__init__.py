"""`regelwerk serve`: games of the given rulesets in the browser, for several people.

Modules, one job each: catalogue.py (the rulesets hosted), store.py and store_pg.py (where
games live), session.py (seats, moves, bots and views on the engine's public API), hub.py
(websocket pushes), app.py (the ASGI app and its routes), command.py (the CLI), page/ (the
lobby and the seat's page). The HTTP contract is in docs/serve.md.
"""
