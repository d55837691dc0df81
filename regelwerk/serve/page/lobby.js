// regelwerk serve: the lobby. Lists the rulesets and creates a game; text is set as text only.
"use strict";

const $ = (id) => document.getElementById(id);
let RULESETS = [];

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") e.textContent = v; else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
}

function chosen() {
  return RULESETS.find((r) => r.name === $("ruleset").value);
}

function drawSeats() {
  const r = chosen();
  if (!r) return;
  const n = Math.min(Math.max(Number($("players").value) || r.players[0], r.players[0]), r.players[1]);
  $("players").min = r.players[0];
  $("players").max = r.players[1];
  $("players").value = n;
  const rows = [el("legend", { text: "Seats" })];
  r.names.slice(0, n).forEach((p, i) => {
    const sel = el("select", { name: `seat-${p}`, "data-player": p });
    for (const [v, label] of [["human", "a person"], ["random", "bot: random"], ["mcts:200", "bot: search (mcts:200)"]]) {
      const o = el("option", { value: v, text: label });
      sel.append(o);
    }
    rows.push(el("p", {}, el("label", {}, `${p}: `, sel)));
  });
  $("seats").replaceChildren(...rows);
}

async function load() {
  RULESETS = await (await fetch("/api/rulesets")).json();
  $("rulesets").replaceChildren(...RULESETS.map((r) => el("li", {}, el("strong", { text: r.title }),
    ` (${r.name}, ${r.players[0] === r.players[1] ? r.players[0] : r.players.join("–")} players: ${r.names.join(", ")})`)));
  $("ruleset").replaceChildren(...RULESETS.map((r) => el("option", { value: r.name, text: `${r.title} (${r.name})` })));
  $("ruleset").onchange = () => { $("players").value = chosen().players[0]; drawSeats(); };
  $("players").onchange = drawSeats;
  $("players").value = RULESETS.length ? RULESETS[0].players[0] : 2;
  drawSeats();
}

async function create(ev) {
  ev.preventDefault();
  $("message").textContent = "";
  const seats = {};
  for (const sel of document.querySelectorAll("#seats select")) seats[sel.dataset.player] = sel.value;
  const body = { ruleset: $("ruleset").value, players: Number($("players").value), seats };
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  const r = await fetch("/api/games", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const out = await r.json();
  if (r.status !== 201) { $("message").textContent = out.error || `refused (${r.status})`; return; }
  const items = [];
  for (const [p, seat] of Object.entries(out.seats)) {
    const url = new URL(seat.url, location.href).href;
    items.push(el("li", {}, el("a", { href: url, "data-seat": p, text: `${p}'s page` }), el("input", { readonly: "", value: url })));
  }
  const watch = new URL(out.watch, location.href).href;
  items.push(el("li", {}, el("a", { href: watch, "data-seat": "", text: "spectators' page" }), el("input", { readonly: "", value: watch })));
  $("links").replaceChildren(...items);
  $("links-card").hidden = false;
}

$("create").onsubmit = create;
load();
