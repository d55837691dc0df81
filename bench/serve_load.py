"""`regelwerk serve` under load (issue 26; a measurement, not a test): 50 concurrent games
played by client bots over loopback HTTP, each move a GET of the mover's state and a POST of
a random legal move; moves per second, latency p50/p99 of a move (the POST), and memory per
open game (the server's RSS over many open games), for SQLite and PostgreSQL side by side.

    .venv/bin/python bench/serve_load.py [--seconds 20] [--games 50] [--backend sqlite|postgresql|both]

The figures in docs/serve.md come from this script. PostgreSQL runs on a throw-away local
cluster (tests/serve/pg_cluster.py) or $REGELWERK_PG_URL.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.serve.pg_cluster import cluster  # noqa: E402
from tests.serve.server_proc import ServerProcess  # noqa: E402

RULES = [str(ROOT / "rulesets/classic/connect4.rules"), str(ROOT / "rulesets/khan/khan.rules")]


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def one_game_loop(client: httpx.AsyncClient, rnd: random.Random, stop: float, lat: list[float],
                        done: list[int]) -> None:
    """Play connect4 games one after another until `stop`."""
    while time.monotonic() < stop:
        r = await client.post("/api/games", json={"ruleset": "connect4", "seed": rnd.randrange(2**31), "seats": {}})
        g = r.json()
        tok = {p: s["token"] for p, s in g["seats"].items()}
        who = "Red"
        while time.monotonic() < stop:
            st = (await client.get(f"/api/games/{g['id']}", params={"token": tok[who]})).json()
            if st["result"] is not None:
                break
            who = st["to_move"][0]
            if not st["legal"]:
                continue
            t0 = time.perf_counter()
            r = await client.post(f"/api/games/{g['id']}/moves",
                                  json={"token": tok[who], "move": rnd.choice(st["legal"]), "step": st["steps"]})
            lat.append(time.perf_counter() - t0)
            if r.status_code == 200:
                done[0] += 1
                nxt = r.json()["to_move"]
                who = nxt[0] if nxt else who


async def load(base: str, games: int, seconds: float) -> dict:
    lat: list[float] = []
    done = [0]
    limits = httpx.Limits(max_connections=games, max_keepalive_connections=games)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as client:
        start = time.monotonic()
        stop = start + seconds
        await asyncio.gather(*(one_game_loop(client, random.Random(i), stop, lat, done) for i in range(games)))
        wall = time.monotonic() - start
    lat.sort()
    return {"moves_per_s": done[0] / wall, "p50_ms": 1000 * statistics.median(lat),
            "p99_ms": 1000 * lat[int(0.99 * (len(lat) - 1))], "moves": done[0]}


async def memory(server: ServerProcess, ruleset: str, players: int, n: int) -> float:
    """KiB of server memory per open game: RSS after n more games, each created and looked at."""
    async with httpx.AsyncClient(base_url=server.base, timeout=60) as client:
        await client.post("/api/games", json={"ruleset": ruleset, "players": players, "seats": {}})
        before = rss_kib(server.proc.pid)
        for i in range(n):
            g = (await client.post("/api/games", json={"ruleset": ruleset, "players": players, "seed": i,
                                                        "seats": {}})).json()
            await client.get(f"/api/games/{g['id']}")
        return (rss_kib(server.proc.pid) - before) / n


def run(backend: str, db: str, games: int, seconds: float) -> dict:
    folder = Path(tempfile.mkdtemp(prefix=f"serve-bench-{backend}-"))
    server = ServerProcess(RULES, db, folder)
    server.start()
    try:
        out: dict = {"kib_per_connect4_game": asyncio.run(memory(server, "connect4", 2, 300)),
                     "kib_per_khan_game": asyncio.run(memory(server, "khan", 3, 100))}  # on a fresh server
        out.update(asyncio.run(load(server.base, games, seconds)))
    finally:
        server.stop()
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    args = ap.parse_args()
    results = {}
    if args.backend in ("sqlite", "both"):
        results["SQLite"] = run("sqlite", str(Path(tempfile.mkdtemp()) / "games.sqlite"), args.games, args.seconds)
    if args.backend in ("postgresql", "both"):
        with cluster() as url:
            results["PostgreSQL"] = run("postgresql", url, args.games, args.seconds)
    print(f"{args.games} concurrent games over loopback, {args.seconds:g} s each backend")
    print("| backend | moves/s | p50 ms | p99 ms | KiB per open connect4 game | KiB per open Khan game |")
    print("|---|---|---|---|---|---|")
    for name, r in results.items():
        print(f"| {name} | {r['moves_per_s']:.0f} | {r['p50_ms']:.1f} | {r['p99_ms']:.1f} | "
              f"{r['kib_per_connect4_game']:.0f} | {r['kib_per_khan_game']:.0f} |")


if __name__ == "__main__":
    main()
