"""The two pages `regelwerk serve` shows: the lobby (the rulesets; make a game) and a seat's page
(the seat's view, its legal moves as buttons, an illegal try answered with its reason, the
result), kept live by the seat's websocket, which reconnects by itself. Plain HTML and a little
script, served from the same origin; the board drawing of the viewer is not on it yet."""

from __future__ import annotations

import json
from html import escape

_CSS = """body{font:15px/1.45 system-ui,sans-serif;max-width:900px;margin:1.5em auto;padding:0 1em;color:#222}
button{margin:.15em;padding:.3em .7em;font:inherit;cursor:pointer} .err{color:#b03a2e} .muted{color:#777}
pre{background:#f6f6f6;padding:.6em;overflow:auto;font-size:.85em} select,input{font:inherit}"""


def lobby_page() -> str:
    return f"""<!doctype html><html lang=en><meta charset=utf-8><title>regelwerk — games</title>
<style>{_CSS}</style><h1>Games</h1><div id=list class=muted>loading…</div><div id=made></div>
<script>
const list = document.getElementById('list'), made = document.getElementById('made');
fetch('/api/rulesets').then(r => r.json()).then(rs => {{
  list.textContent = '';
  for (const r of rs) {{
    const row = document.createElement('p');
    const b = document.createElement('button');
    b.textContent = 'New game of ' + r.title + ' (' + r.players.join('–') + ' players)';
    b.onclick = async () => {{
      const res = await fetch('/api/games', {{method: 'POST', headers: {{'content-type': 'application/json'}},
        body: JSON.stringify({{ruleset: r.name, seats: {{}}}})}});
      const g = await res.json();
      made.innerHTML = '';
      if (!res.ok) {{ made.textContent = g.error; made.className = 'err'; return; }}
      for (const [p, s] of Object.entries(g.seats)) {{
        const a = document.createElement('a'); a.href = s.url; a.textContent = p + "'s seat";
        const li = document.createElement('p'); li.append(a); made.append(li);
      }}
      const w = document.createElement('a'); w.href = g.watch; w.textContent = 'watch'; made.append(w);
    }};
    row.append(b); list.append(row);
  }}
}});
</script>"""


def seat_page(game_id: str) -> str:
    gid = json.dumps(game_id)
    return f"""<!doctype html><html lang=en><meta charset=utf-8><title>regelwerk — game {escape(game_id)}</title>
<style>{_CSS}</style><h1 id=title>Game</h1><p id=who class=muted></p><p id=msg></p>
<div id=moves></div><h2>What you see</h2><pre id=view></pre>
<script>
const gid = {gid}, token = new URLSearchParams(location.search).get('token');
const q = token ? '?token=' + encodeURIComponent(token) : '';
let step = 0, delay = 500;
function show(s) {{
  step = s.steps;
  document.getElementById('title').textContent = s.ruleset + (s.result ? ' — over' : '');
  const waiting = s.to_move.length > 1 && s.you && !s.to_move.includes(s.you) ? ' (waiting for the others)' : '';
  document.getElementById('who').textContent = (s.you ? 'You are ' + s.you : 'Watching') +
    ' · to move: ' + (s.to_move.join(', ') || 'nobody') + waiting + ' · step ' + s.steps;
  const moves = document.getElementById('moves'); moves.textContent = '';
  for (const m of s.legal) {{
    const b = document.createElement('button'); b.textContent = m; b.onclick = () => play(m); moves.append(b);
  }}
  document.getElementById('view').textContent = JSON.stringify(s.result || s.view, null, 1);
}}
async function play(m) {{
  const res = await fetch('/api/games/' + gid + '/moves', {{method: 'POST', headers: {{'content-type': 'application/json'}},
    body: JSON.stringify({{token, move: m, step}})}});
  const out = await res.json(), msg = document.getElementById('msg');
  if (!res.ok) {{ msg.textContent = out.error; msg.className = 'err'; return; }}
  msg.textContent = ''; show(out);
}}
function connect() {{
  const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws/games/' + gid + q);
  ws.onmessage = e => {{ delay = 500; show(JSON.parse(e.data)); }};
  ws.onclose = () => {{ setTimeout(connect, delay); delay = Math.min(delay * 2, 8000); }};
}}
connect();
</script>"""
