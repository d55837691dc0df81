// regelwerk serve: one seat's page. The state comes from GET /api/games/ID and the websocket;
// boards are drawn by the viewer's own code (board.js: drawBoards, h, text, playerChip).
// Text from the server is only ever set as text, never parsed as HTML.
"use strict";

const PARAMS = new URLSearchParams(location.search);
const TOKEN = PARAMS.get("token");
const GAME = decodeURIComponent(location.pathname.split("/").pop());
const Q = TOKEN ? `?token=${encodeURIComponent(TOKEN)}` : "";
const $ = (id) => document.getElementById(id);
let STATE = null;
let picked = [];        // squares clicked so far, narrowing the moves
let traceSteps = -1;    // the state's steps when the trace was last fetched
let socket = null;
let retry = 250;

async function api(path, options) {
  const r = await fetch(path, options);
  let body = null;
  try { body = await r.json(); } catch (e) { body = null; }
  return { status: r.status, body };
}

function setConn(text, cls) {
  const c = $("conn");
  c.textContent = text;
  c.className = "conn " + (cls || "");
}

function say(text, ok) {
  const m = $("message");
  m.textContent = text || "";
  m.className = "message" + (ok ? " ok" : "");
}

// ------------------------------------------------------------------ who decides
function statusOf(st) {
  const you = st.you;
  const pending = st.view.pending;
  if (st.result) return ["The game is over.", ""];
  if (pending && pending.kind === "simultaneous") {
    if (you && st.legal.length) return ["Your decision: choose secretly, the others choose at the same time.", "yours"];
    const others = st.to_move.filter((p) => p !== you);
    return [`${you ? "You have chosen; waiting" : "Waiting"} for the others: ${others.join(", ")}.`, "waiting"];
  }
  if (you && st.to_move.includes(you)) return ["Your decision.", "yours"];
  if (!st.to_move.length) return ["Nobody decides now.", "waiting"];
  return [`Waiting for ${st.to_move.join(" and ")}${st.seats[st.to_move[0]] !== "human" ? " (a bot)" : ""}.`, "waiting"];
}

function promptOf(st) {
  const p = st.view.pending;
  if (!p) return null;
  const own = p.kind === "simultaneous" ? p.yours : p;
  if (own && own.kind === "choose" && own.player === st.you) return own.prompt || `Choose ${own.var}`;
  return null;
}

// ------------------------------------------------------------------ moves on the board
function argsOf(move) {
  const m = /\((.*)\)$/.exec(move);
  return m ? m[1].split(",").map((x) => x.trim()).filter(Boolean) : [];
}

function open(moves) {
  return moves.filter((mv) => picked.every((sq) => argsOf(mv).includes(sq)));
}

function markTargets(st) {
  const moves = open(st.legal);
  const targets = new Set(moves.flatMap(argsOf));
  for (const g of document.querySelectorAll("#boards [data-square]")) {
    const sq = g.getAttribute("data-square");
    g.classList.toggle("target", targets.has(sq) && !picked.includes(sq));
    g.classList.toggle("picked", picked.includes(sq));
    g.onclick = targets.has(sq) || picked.includes(sq) ? () => clickSquare(sq) : null;
  }
}

function clickSquare(sq) {
  if (picked.includes(sq)) picked = picked.filter((x) => x !== sq);
  else picked.push(sq);
  const moves = open(STATE.legal);
  if (moves.length === 1 && picked.length) { play(moves[0]); return; }
  if (!moves.length) picked = [];
  drawMoves(STATE);
  markTargets(STATE);
}

function drawMoves(st) {
  const shown = new Set(open(st.legal));
  const buttons = st.legal.map((mv) => {
    const b = h("button", { type: "button", class: shown.has(mv) ? (picked.length ? "picked" : "") : "dim", "data-move": mv, text: mv });
    b.onclick = () => play(mv);
    return b;
  });
  if (!buttons.length) buttons.push(h("span", { class: "muted", text: st.you ? "none now" : "you are watching" }));
  $("moves").replaceChildren(...buttons);
  $("typed").hidden = !st.you || st.result !== null;
}

async function play(move) {
  picked = [];
  say("");
  let r;
  try {
    r = await api(`/api/games/${encodeURIComponent(GAME)}/moves`, {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: TOKEN, move, step: STATE ? STATE.steps : undefined }) });
  } catch (e) {
    say("The server cannot be reached; your move did not count. Trying to reconnect…");
    return;
  }
  if (r.status === 200) { render(r.body); return; }
  const why = r.body && r.body.error ? r.body.error : `refused (${r.status})`;
  say(r.status === 422 ? `Not possible: ${why}` : why);
  if (r.body && r.body.state) render(r.body.state, true);
}

// ------------------------------------------------------------------ the page
function drawVars(st) {
  const rows = [];
  const onBoard = new Set(DATA.boards.flatMap((b) => b.layers.map((l) => l.name)));
  for (const [name, v] of Object.entries(st.view.vars)) {
    if (onBoard.has(name)) continue;
    rows.push(h("tr", {}, h("th", { text: name }), h("td", { text: text(v) })));
  }
  for (const k of ["phase", "round", "current"]) {
    if (st.view[k] !== null && st.view[k] !== undefined) rows.unshift(h("tr", {}, h("th", { text: k }), h("td", { text: String(st.view[k]) })));
  }
  $("vars").replaceChildren(...rows);
  const shown = (st.view.revealed || []).map((r) => h("p", { class: "muted" }, `Shown to you at step ${r.step}: ${r.what} = `, h("strong", { text: text(r.value) })));
  $("revealed").replaceChildren(...shown);
}

function drawResult(st) {
  $("result-card").hidden = !st.result;
  if (!st.result) return;
  const r = st.result;
  const parts = [];
  parts.push(r.winners && r.winners.length ? `Winner: ${r.winners.join(", ")}` : "A draw: nobody wins");
  if (st.you && r.winners) parts.push(r.winners.includes(st.you) ? " (you won)" : " (you did not win)");
  if (r.scores && Object.keys(r.scores).length) parts.push(". Scores: " + Object.entries(r.scores).map(([p, v]) => `${p} ${v}`).join(", "));
  $("result").textContent = parts.join("");
}

async function refreshTrace(st) {
  if (st.steps === traceSteps && !st.result) return;
  traceSteps = st.steps;
  let body;
  try {
    const r = await fetch(`/api/games/${encodeURIComponent(GAME)}/trace${Q}`);
    if (!r.ok) return;
    body = await r.text();
  } catch (e) { return; }
  const items = [];
  for (const line of body.split("\n")) {
    if (!line.trim()) continue;
    const step = JSON.parse(line);
    if (step.format) continue;
    if (step.result) continue;
    const dec = step.decision;
    const head = dec ? [h("span", { class: "by", text: dec.by }), ": ", h("code", { text: dec.action })]
      : [h("span", { class: "muted", text: "automatic: " }), h("code", { text: step.rule })];
    const quote = step.quote ? h("span", { class: "quote", text: `“${step.quote}”` }) : null;
    const logs = (step.events || []).filter((e) => e.event === "log").map((e) => h("span", { class: "quote", text: String(e.message) }));
    items.push(h("li", { "data-step": step.step }, `#${step.step} `, ...head, dec ? h("span", { class: "muted", text: ` (${step.rule})` }) : null, quote, ...logs));
  }
  $("trace").replaceChildren(...items.reverse());
}

function render(st, keepMessage) {
  const first = STATE === null;
  STATE = st;
  document.title = `${st.title} · ${st.you || "spectator"} · regelwerk`;
  $("title").textContent = st.title;
  $("you").replaceChildren(st.you ? h("span", {}, "You play ", playerChip(st.you)) : h("span", { text: "You are watching (public view)" }));
  const [line, cls] = statusOf(st);
  $("status").textContent = line;
  $("status").className = "status " + cls;
  const prompt = promptOf(st);
  $("prompt").hidden = !prompt;
  $("prompt").textContent = prompt || "";
  if (!keepMessage && !first) say("");
  drawBoards(st.view.vars, null);
  drawMoves(st);
  markTargets(st);
  drawVars(st);
  drawResult(st);
  refreshTrace(st);
}

// ------------------------------------------------------------------ live updates
function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${proto}//${location.host}/ws/games/${encodeURIComponent(GAME)}${Q}`);
  socket.onopen = () => { retry = 250; setConn("live", "live"); };
  socket.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "state") render(msg.state, true);
  };
  socket.onclose = (ev) => {
    if (ev.code === 4403 || ev.code === 4404) {
      setConn(ev.code === 4403 ? "this link's token is not valid for this game" : "no such game", "lost");
      return;
    }
    setConn("connection lost, reconnecting…", "lost");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 3000);
  };
}

async function start() {
  const board = await api(`/api/games/${encodeURIComponent(GAME)}/board`);
  if (board.status !== 200) {
    $("status").textContent = board.body && board.body.error ? board.body.error : "This game cannot be shown.";
    setConn("", "lost");
    return;
  }
  Object.assign(DATA, board.body);
  const st = await api(`/api/games/${encodeURIComponent(GAME)}${Q}`);
  if (st.status !== 200) {
    $("status").textContent = st.body && st.body.error ? st.body.error : "This game cannot be shown.";
    return;
  }
  render(st.body);
  $("typed").onsubmit = (ev) => {
    ev.preventDefault();
    const t = $("move-text").value.trim();
    if (t) play(t);
  };
  connect();
}

start();
