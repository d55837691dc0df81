"""Where to draw a graph board's nodes: from the data when it gives positions, else a
deterministic layout computed from the nodes and edges alone.

The layout is stress majorization (SMACOF) on graph distances, started from classical
scaling: nodes that are few steps apart are drawn close, so a map of provinces or clearings
keeps its shape. Everything is plain Python with fixed starting values, so the same graph
always gets the same picture (and the page's bytes stay reproducible).
"""

from __future__ import annotations

import json
import math
from collections import deque
from pathlib import Path
from typing import Any

Point = tuple[float, float]


def graph_positions(model: Any, board: str) -> dict[str, Point] | None:
    """Positions from a graph file's optional `"positions": {"node": [x, y], ...}`, or None.
    The file text is the one the checker read (and the ruleset hash covers)."""
    decl = model.boards.get(board)
    rel = getattr(decl, "path", None)
    if rel is None or not hasattr(decl, "span"):
        return None
    text = model.data_files.get(str(Path(decl.span.file).parent / rel))
    if text is None:
        return None
    try:
        raw = json.loads(text).get("positions")
        pos = {str(n): (float(xy[0]), float(xy[1])) for n, xy in raw.items()}
    except (AttributeError, TypeError, ValueError, IndexError, json.JSONDecodeError):
        return None
    nodes = model.graphs[board][0]
    return pos if all(n in pos for n in nodes) else None


def layout(nodes: list[str], edges: list[tuple[str, str]], given: dict[str, Point] | None = None) -> dict[str, Point]:
    """Positions in the unit square (x right, y down), rounded so the output is stable."""
    if not nodes:
        return {}
    if given is not None:
        pts = [given[n] for n in nodes]
    else:
        pts = _pack([_component_layout(c, edges) for c in _components(nodes, edges)])
        pts = [pts[n] for n in nodes]
    return dict(zip(nodes, _normalise(pts), strict=True))


def _components(nodes: list[str], edges: list[tuple[str, str]]) -> list[list[str]]:
    """Connected parts, largest first (ties in node order)."""
    adj: dict[str, list[str]] = {n: [] for n in nodes}
    for a, b in edges:
        adj[a].append(b)
        adj[b].append(a)
    seen: set[str] = set()
    parts = []
    for n in nodes:
        if n in seen:
            continue
        part, todo = [], [n]
        seen.add(n)
        while todo:
            u = todo.pop()
            part.append(u)
            for v in adj[u]:
                if v not in seen:
                    seen.add(v)
                    todo.append(v)
        parts.append(sorted(part, key=nodes.index))
    return sorted(parts, key=len, reverse=True)


def _component_layout(part: list[str], edges: list[tuple[str, str]]) -> dict[str, Point]:
    """One connected part, in edge lengths, with its corner at (0, 0)."""
    if len(part) == 1:
        return {part[0]: (0.0, 0.0)}
    inside = set(part)
    d = _distances(part, [e for e in edges if e[0] in inside])
    pts = _spread(_smacof(d, _classical(d)))
    x0, y0 = min(p[0] for p in pts), min(p[1] for p in pts)
    return {n: (p[0] - x0, p[1] - y0) for n, p in zip(part, pts, strict=True)}


def _pack(parts: list[dict[str, Point]]) -> dict[str, Point]:
    """The largest part on the left, the others in a column to its right."""
    out = dict(parts[0])
    x = max(p[0] for p in out.values()) + 1.5
    y = 0.0
    for part in parts[1:]:
        for n, p in part.items():
            out[n] = (x + p[0], y + p[1])
        y += max(p[1] for p in part.values()) + 1.5
    return out


def _distances(nodes: list[str], edges: list[tuple[str, str]]) -> list[list[float]]:
    """Shortest path lengths; unconnected pairs count as one step further than the longest."""
    index = {n: i for i, n in enumerate(nodes)}
    adj: list[list[int]] = [[] for _ in nodes]
    for a, b in edges:
        adj[index[a]].append(index[b])
        adj[index[b]].append(index[a])
    n = len(nodes)
    d = [[math.inf] * n for _ in range(n)]
    for s in range(n):
        d[s][s] = 0.0
        todo = deque([s])
        while todo:
            u = todo.popleft()
            for v in adj[u]:
                if d[s][v] == math.inf:
                    d[s][v] = d[s][u] + 1
                    todo.append(v)
    far = max((x for row in d for x in row if x != math.inf), default=1.0) + 1
    return [[far if x == math.inf else x for x in row] for row in d]


def _classical(d: list[list[float]]) -> list[Point]:
    """Classical scaling: the two leading eigenvectors of the double-centred squared distances
    (power iteration from fixed vectors, so the result is the same every time)."""
    n = len(d)
    sq = [[x * x for x in row] for row in d]
    row_mean = [sum(r) / n for r in sq]
    total = sum(row_mean) / n
    b = [[-0.5 * (sq[i][j] - row_mean[i] - row_mean[j] + total) for j in range(n)] for i in range(n)]
    axes = []
    for k in range(2):
        v = [math.cos(i * (k + 1) + 0.5) + 0.01 * i for i in range(n)]
        lam = 0.0
        for _ in range(300):
            w = [sum(b[i][j] * v[j] for j in range(n)) for i in range(n)]
            for u, lu in axes:  # deflate: take out the axes already found
                dot = sum(u[j] * v[j] for j in range(n))
                w = [w[i] - lu * dot * u[i] for i in range(n)]
            norm = math.sqrt(sum(x * x for x in w)) or 1.0
            lam = norm
            v = [x / norm for x in w]
        axes.append((v, lam))
    return [(axes[0][0][i] * math.sqrt(axes[0][1]), axes[1][0][i] * math.sqrt(axes[1][1])) for i in range(n)]


def _smacof(d: list[list[float]], start: list[Point], rounds: int = 300) -> list[Point]:
    """Stress majorization with weights 1/d²: each round moves every node to where its
    distances to the others best match the graph distances."""
    n = len(d)
    x = [list(p) for p in start]
    w = [[0.0 if i == j else 1.0 / (d[i][j] ** 2) for j in range(n)] for i in range(n)]
    wsum = [sum(row) for row in w]
    for _ in range(rounds):
        new = []
        for i in range(n):
            sx = sy = 0.0
            xi, yi = x[i]
            for j in range(n):
                if i == j:
                    continue
                dx, dy = xi - x[j][0], yi - x[j][1]
                dist = math.hypot(dx, dy) or 1e-9
                sx += w[i][j] * (x[j][0] + d[i][j] * dx / dist)
                sy += w[i][j] * (x[j][1] + d[i][j] * dy / dist)
            new.append([sx / wsum[i], sy / wsum[i]])
        x = new
    return [(p[0], p[1]) for p in x]


def _spread(pts: list[Point], gap: float = 0.9, rounds: int = 50) -> list[Point]:
    """Push apart nodes closer than `gap` edge lengths, so labels have room."""
    x = [list(p) for p in pts]
    n = len(x)
    for _ in range(rounds):
        moved = False
        for i in range(n):
            for j in range(i + 1, n):
                dx, dy = x[j][0] - x[i][0], x[j][1] - x[i][1]
                dist = math.hypot(dx, dy)
                if dist >= gap:
                    continue
                if dist < 1e-9:
                    dx, dy, dist = 1.0, 0.0, 1.0
                push = (gap - dist) / 2 / dist
                x[i][0] -= dx * push
                x[i][1] -= dy * push
                x[j][0] += dx * push
                x[j][1] += dy * push
                moved = True
        if not moved:
            break
    return [(p[0], p[1]) for p in x]


def _normalise(pts: list[Point]) -> list[Point]:
    """Into [0, 1] on the longer side, keeping the aspect ratio; a wide picture stays wide."""
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    span = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    return [(round((p[0] - min(xs)) / span, 4), round((p[1] - min(ys)) / span, 4)) for p in pts]
