"""`regelwerk serve PATH... [--host] [--port] [--db]`: the command line of the server.

Everything that can be wrong is found before the server listens (a ruleset that does not
load, a database that cannot be opened) and said in one line with a non-zero exit. uvicorn's
access log is off: seat tokens travel in query strings and must never be logged.
"""

from __future__ import annotations

import argparse
import sys

from .limits import IDLE_AFTER, MAX_LIVE, TIME_LIMIT, WORK_BUDGET


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="host games of rulesets in the browser: lobby, one page per seat "
                       "(docs/serve.md)")
    p.add_argument("paths", nargs="+", metavar="PATH", help="rules files or folders: nothing else is loaded")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", default="regelwerk-games.sqlite",
                   help="a sqlite file (default regelwerk-games.sqlite) or a postgresql://... URL")
    p.add_argument("--time-limit", type=float, default=TIME_LIMIT, metavar="SECONDS",
                   help=f"how long a game's rules may run between two decisions (default {TIME_LIMIT:g})")
    p.add_argument("--work-budget", type=int, default=WORK_BUDGET, metavar="STEPS",
                   help=f"steps of work the rules may take between two decisions (default {WORK_BUDGET:,})")
    p.add_argument("--max-live", type=int, default=MAX_LIVE, metavar="N",
                   help=f"games kept in memory at most; others wait in the database (default {MAX_LIVE})")
    p.add_argument("--idle-after", type=float, default=IDLE_AFTER, metavar="SECONDS",
                   help=f"a game nobody asked for or watched this long leaves memory (default {IDLE_AFTER:g})")
    p.set_defaults(fn=run)


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from .app import build_app
    except ImportError as err:
        print(f"error: `regelwerk serve` needs the serve extra (pip install 'regelwerk[serve]'): {err}",
              file=sys.stderr)
        return 2
    from .backends import open_store
    from .catalogue import Catalogue, CatalogueError
    from .store import StoreError

    for flag, value in (("--time-limit", args.time_limit), ("--work-budget", args.work_budget),
                        ("--max-live", args.max_live), ("--idle-after", args.idle_after)):
        if not value > 0:
            print(f"error: {flag} {value}: must be above 0", file=sys.stderr)
            return 2
    try:
        catalogue = Catalogue(args.paths, args.time_limit, args.work_budget)
    except CatalogueError as err:
        print(err, file=sys.stderr)
        return 1
    try:
        store = open_store(args.db)
    except StoreError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    names = ", ".join(catalogue.rulesets)
    print(f"serving {names} on http://{args.host}:{args.port}/ (games in {_safe_db(args.db)})", flush=True)
    try:
        uvicorn.run(build_app(catalogue, store, args.idle_after, args.max_live), host=args.host, port=args.port, access_log=False,
                    log_level="warning", ws_max_size=64 * 1024)
    finally:
        store.close()
    return 0


def _safe_db(db: str) -> str:
    """The database as it may be printed: a PostgreSQL URL without its password."""
    if "://" in db and "@" in db:
        scheme, rest = db.split("://", 1)
        creds, host = rest.rsplit("@", 1)
        return f"{scheme}://{creds.split(':', 1)[0]}@{host}"
    return db
