// regelwerk view: the page's program. Plain modern JS, no libraries, no network. The board
// drawing it uses (h, s, text, drawBoards, ...) is boards.js, inlined before this file. It reads the JSON the Python writer inlined, rebuilds each position from the trace's
// changes (periodic snapshots + forward/backward application), and draws board, step and
// state panels. Text from the data is only ever set as text, never parsed as HTML.
"use strict";

const DATA = JSON.parse(document.getElementById("regelwerk-data").textContent);
const STEPS = DATA.steps;
const N = STEPS.length;
const SNAP_EVERY = 32;

// ------------------------------------------------------------------ state from changes
function applyChange(state, keys, value) {
  let here = state;
  for (let i = 0; i < keys.length - 1; i++) {
    here = here[keys[i]];
    if (here === null || typeof here !== "object") return; // inside a hidden value
  }
  here[keys[keys.length - 1]] = clone(value);
}

function forward(state, step) {
  for (const c of step.changes || []) applyChange(state, c.keys, c.new);
}

function backward(state, step) {
  const cs = step.changes || [];
  for (let i = cs.length - 1; i >= 0; i--) applyChange(state, cs[i].keys, cs[i].old);
}

const snapshots = [];
(function buildSnapshots() {
  const st = clone(DATA.start);
  snapshots.push(clone(st));
  for (let i = 1; i <= N; i++) {
    forward(st, STEPS[i - 1]);
    if (i % SNAP_EVERY === 0) snapshots.push(clone(st));
  }
})();

let pos = 0; // 0 = the start; k = after step index k - 1
let state = clone(DATA.start);

function stateAt(target) {
  if (target === pos) return state;
  if (target === pos + 1) { forward(state, STEPS[pos]); return state; }
  if (target === pos - 1) { backward(state, STEPS[pos - 1]); return state; }
  const base = Math.floor(target / SNAP_EVERY);
  const st = clone(snapshots[base]);
  for (let i = base * SNAP_EVERY; i < target; i++) forward(st, STEPS[i]);
  return st;
}

// ------------------------------------------------------------------ the step
function stepHeading(step, index) {
  const dec = step.decision;
  const parts = [h("span", { class: "code", text: `#${step.step}` }), " "];
  if (dec) {
    parts.push(playerChip(dec.by), ": ", h("span", { class: "code", text: dec.action }));
    if (dec.kind && dec.kind !== "action") parts.push(h("span", { class: "muted", text: ` (${dec.kind})` }));
  } else {
    parts.push(h("span", { class: "muted", text: "automatic: " }), h("span", { class: "code", text: RULE(step).rule }));
  }
  return h("h2", { id: "step-heading", "data-index": index }, parts);
}

function RULE(step) {
  return DATA.rules[step.rule];
}

function drawStep(step, index) {
  const root = document.getElementById("step");
  if (!step) {
    const kids = [h("h2", { id: "step-heading", text: DATA.mode === "position" ? "Saved position" : "Start" })];
    if (DATA.mode === "position") kids.push(...positionInfo());
    else kids.push(h("p", { class: "muted", text: `The declared start values, before the first of ${N} steps. Step forward (→) to follow the game.` }));
    root.replaceChildren(h("div", { class: "card" }, kids));
    return;
  }
  const r = RULE(step);
  const kids = [stepHeading(step, index)];
  const ctx = [];
  if (step.phase) ctx.push(`phase ${step.phase}`);
  if (step.player) ctx.push(`${step.decision ? "decided by" : "turn of"} ${step.player}`);
  if (ctx.length) kids.push(h("p", { class: "muted", text: ctx.join(" · ") }));
  kids.push(h("p", { class: "rule-line" }, "Rule ", h("strong", { id: "rule-name", class: "code", text: r.rule }),
    h("span", { class: "muted", text: ` (${r.kind})` }), r.at ? h("span", { class: "refs", text: ` · ${r.at}` }) : null));
  if ((r.spec || []).length || (r.source || []).length) {
    kids.push(h("p", { class: "refs" },
      (r.spec || []).length ? h("span", {}, "spec ", h("span", { id: "spec-ids", class: "code", text: r.spec.join(", ") })) : null,
      (r.spec || []).length && (r.source || []).length ? " · " : null,
      (r.source || []).length ? h("span", {}, "source ", h("span", { class: "code", text: r.source.join(", ") })) : null));
  }
  if (r.quote) kids.push(h("blockquote", { id: "quote", class: "quote", text: `„${r.quote}”` }));
  if (r.note) kids.push(h("div", { id: "note", class: "note", text: r.note }));
  const b = Object.entries(step.bindings || {});
  if (b.length) {
    kids.push(h("h3", { text: "Bindings" }), h("table", { id: "bindings" },
      b.map(([k, v]) => h("tr", {}, h("th", { class: "code", text: k }), h("td", {}, valueEl(v))))));
  }
  if ((step.checks || []).length) {
    kids.push(h("h3", { text: "Checks" }), h("div", { id: "checks" }, step.checks.map(checkEl)));
  }
  if ((step.chance || []).length) {
    kids.push(h("h3", { text: "Chance" }), h("ul", { id: "chance" }, step.chance.map((c) => h("li", {},
      h("span", { class: "code", text: `${c.kind} ${c.what}` }),
      c.inputs ? h("span", { class: "muted", text: ` in ${text(c.inputs)}` }) : null,
      h("span", { class: "arrow", text: "→" }), valueEl(c.outcome)))));
  }
  if ((step.changes || []).length) {
    kids.push(h("h3", { text: "Changes" }), h("ul", { id: "changes", class: "changes" }, step.changes.map((c) =>
      h("li", { "data-path": c.path }, h("span", { class: "code", text: c.path }), ": ", ...changeEls(c.old, c.new)))));
  }
  if ((step.events || []).length) {
    kids.push(h("h3", { text: "Events" }), h("ul", { id: "events" }, step.events.map(eventEl)));
  }
  if (index === N - 1 && DATA.result) kids.push(resultEl(DATA.result));
  root.replaceChildren(h("div", { class: "card" }, kids));
}

function checkEl(c) {
  const vals = Object.entries(c.values || {}).filter(([k]) => k !== c.require);
  return h("div", { class: "check " + (c.value ? "ok" : "bad") },
    h("span", { class: "mark", text: c.value ? "✓" : "✗" }),
    h("span", { class: "code", text: `require ${c.require}` }),
    h("span", { class: "muted", text: ` (line ${c.at})` }),
    !c.value && c.message ? h("div", { class: "muted", text: c.message }) : null,
    vals.length ? h("table", {}, vals.map(([k, v]) => h("tr", {}, h("td", { class: "code", text: k }), h("td", {}, valueEl(v))))) : null);
}

function eventEl(e) {
  if (e.event === "log") return h("li", {}, "log: ", e.message);
  if (e.event === "reveal") return h("li", {}, `reveals${e.to ? " to " + e.to : ""}: `, h("span", { class: "code", text: e.what }), " = ", valueEl(e.value));
  return h("li", { text: `${e.event} ${e.player || e.phase || e.target || ""}`.trim() });
}

function resultEl(r) {
  let t = r.winners && r.winners.length ? "winner: " + r.winners.join(", ") : "draw";
  if (r.scores) t += " · scores: " + Object.entries(r.scores).map(([p, v]) => `${p} ${v}`).join(", ");
  return h("p", { id: "result", class: "result", text: "Game over: " + t });
}

function positionInfo() {
  const out = [];
  const p = DATA.pending;
  if (DATA.result) out.push(resultEl(DATA.result));
  if (DATA.current) out.push(h("p", {}, "turn of ", playerChip(DATA.current), DATA.phase ? ` · phase ${DATA.phase}` : ""));
  if (p && p.player) {
    out.push(h("p", {}, playerChip(p.player), ` to decide${p.kind === "choose" ? " (a choice)" : ""}`, p.prompt ? `: ${p.prompt}` : ""));
  }
  if (DATA.legal) {
    out.push(h("h3", { text: `Legal moves (${DATA.legal.length})` }),
      h("ol", { id: "legal", class: "legal" }, DATA.legal.map((a) => h("li", { class: "code", text: a }))));
  } else if (p && p.player) {
    out.push(h("p", { class: "muted", text: `${p.player}'s options are not shown to ${DATA.viewer}.` }));
  }
  return out;
}

// ------------------------------------------------------------------ state panels
function drawPanels(st, step) {
  const changes = (step && step.changes) || [];
  const touched = new Set(changes.map((c) => c.keys[0]));
  // a per-player entry changed: a write into it, or a write of the whole map
  const entryChanged = (name, p) => changes.some((c) => c.keys[0] === name && (c.keys.length === 1 || c.keys[1] === p));
  const groups = { players: [], values: [], collections: [], maps: [] };
  for (const v of DATA.panels) groups[v.panel].push(v);
  const cards = [];
  if (groups.players.length) {
    const head = h("tr", {}, h("th", {}), DATA.players.map((p) => h("th", {}, playerChip(p))));
    const rows = groups.players.map((v) => {
      const m = st[v.name] || {};
      const nums = DATA.players.map((p) => m[p]).filter((x) => typeof x === "number");
      const max = Math.max(1, ...nums.map(Math.abs));
      return h("tr", { "data-var": v.name }, h("th", { class: "code", title: v.type },
        v.name, v.hidden ? h("span", { class: "muted", text: v.hidden === "owner" ? " (own only)" : " (hidden)" }) : null),
        DATA.players.map((p) => h("td", {
          class: (typeof m[p] === "number" ? "num " : "") + (entryChanged(v.name, p) ? "changed" : ""),
          "data-player": p,
        }, cellValue(m[p], max))));
    });
    cards.push(h("div", { class: "card", id: "panel-players" }, h("h3", { text: "Players" }), h("table", {}, head, rows)));
  }
  if (groups.values.length) {
    cards.push(h("div", { class: "card", id: "panel-values" }, h("h3", { text: "Values" }), h("table", {}, groups.values.map((v) =>
      h("tr", { "data-var": v.name, class: touched.has(v.name) ? "changed" : null }, h("th", { class: "code", title: v.type, text: v.name }), h("td", {}, valueEl(st[v.name])))))));
  }
  if (groups.collections.length) {
    cards.push(h("div", { class: "card", id: "panel-collections" }, h("h3", { text: "Piles and sets" }), groups.collections.map((v) => {
      const x = st[v.name];
      const n = Array.isArray(x) ? x.length : isHidden(x) ? x.hidden : 0;
      const body = Array.isArray(x) ? chips(x) : [valueEl(x)];
      return h("details", { "data-var": v.name, class: touched.has(v.name) ? "changed" : null, open: n <= 16 ? true : null },
        h("summary", {}, h("span", { class: "code", text: v.name }), h("span", { class: "muted", text: ` ${n} item${n === 1 ? "" : "s"}${v.hidden ? " · hidden" : ""}` })), body);
    })));
  }
  if (groups.maps.length) {
    cards.push(h("div", { class: "card", id: "panel-maps" }, h("h3", { text: "Tables" }), groups.maps.map((v) => {
      const m = st[v.name] || {};
      const entries = isHidden(m) ? [] : Object.entries(m).filter(([, x]) => !empty(x));
      return h("div", { "data-var": v.name, class: touched.has(v.name) ? "changed" : null },
        h("span", { class: "code", text: v.name }), ": ",
        entries.length ? entries.map(([k, x]) => h("span", { class: "chip", text: `${k} ${text(x)}` })) : h("span", { class: "muted", text: isHidden(m) ? "hidden" : "empty" }));
    })));
  }
  document.getElementById("panels").replaceChildren(...cards);
}

// Chips with spaces between them, so the text reads (and copies) as words.
function chips(items) {
  return items.flatMap((i, n) => (n ? [" ", h("span", { class: "chip", text: text(i) })] : [h("span", { class: "chip", text: text(i) })]));
}

function cellValue(x, max) {
  if (typeof x === "number") return [String(x), h("span", { class: "bar", style: `width:${(3 * Math.abs(x)) / max}rem` })];
  if (Array.isArray(x)) return x.length ? chips(x) : h("span", { class: "muted", text: "–" });
  return valueEl(x);
}

// ------------------------------------------------------------------ timeline
const el = (id) => document.getElementById(id);

function go(target) {
  const t = Math.max(0, Math.min(N, target | 0));
  state = stateAt(t);
  pos = t;
  render();
}

function render() {
  const step = pos > 0 ? STEPS[pos - 1] : null;
  drawBoards(state, step);
  drawStep(step, pos - 1);
  drawPanels(state, step);
  el("slider").value = String(pos);
  el("where").value = pos === 0 ? `start · ${N} steps` : `step #${STEPS[pos - 1].step} · ${pos} of ${N}`;
  el("back").disabled = pos === 0;
  el("first").disabled = pos === 0;
  el("forward").disabled = pos === N;
  el("last").disabled = pos === N;
  if (DATA.mode === "trace") rememberPosition();
}

// The address keeps the position for reloading and sharing, by trace step number as the
// "Go to step" box reads it (#step=N shows the position after step #N; #start the start);
// written at most every half second, since browsers throttle pages that rewrite their address
// many times a second.
let remember = null;
function rememberPosition() {
  if (remember !== null) return;
  remember = setTimeout(() => {
    remember = null;
    history.replaceState(null, "", pos === 0 ? "#start" : "#step=" + STEPS[pos - 1].step);
  }, 500);
}

function buildFind() {
  const sel = el("find-kind");
  const opt = (value, label) => h("option", { value, text: label });
  const dec = h("optgroup", { label: "Decision by" }, opt("decision:", "any player"), DATA.players.map((p) => opt("decision:" + p, p)));
  const names = [...new Set(DATA.rules.map((r) => r.rule))].sort();
  const rules = h("optgroup", { label: "Rule" }, names.map((r) => opt("rule:" + r, r)));
  const specs = [...new Set(DATA.rules.flatMap((r) => r.spec || []))].sort();
  const spec = h("optgroup", { label: "Spec id" }, specs.map((x) => opt("spec:" + x, x)));
  sel.replaceChildren(dec, rules, spec);
}

function matches(step, query) {
  const [kind, value] = [query.slice(0, query.indexOf(":")), query.slice(query.indexOf(":") + 1)];
  const r = RULE(step);
  if (kind === "decision") return !!step.decision && (!value || step.decision.by === value);
  if (kind === "rule") return r.rule === value;
  if (kind === "spec") return (r.spec || []).includes(value);
  return false;
}

function find(dir) {
  const q = el("find-kind").value;
  for (let p = pos + dir; p >= 1 && p <= N; p += dir) {
    if (matches(STEPS[p - 1], q)) {
      el("find-status").textContent = "";
      go(p);
      return true;
    }
  }
  el("find-status").textContent = dir > 0 ? "no later match" : "no earlier match";
  return false;
}

function jumpTo(n) {
  // by trace step number (#n); steps left out of a trace fall to the nearest one before
  let best = 0;
  for (let i = 0; i < N; i++) if (STEPS[i].step <= n) best = i + 1; else break;
  go(best);
}

function wire() {
  el("title").textContent = DATA.title;
  const meta = [`${DATA.mode === "trace" ? `${N} steps` : "a saved position"}`, "players "];
  el("meta").replaceChildren(meta[0], " · ", meta[1], ...DATA.players.flatMap((p, i) => (i ? [" ", playerChip(p)] : [playerChip(p)])),
    DATA.seed !== null && DATA.seed !== undefined ? ` · seed ${DATA.seed}` : "",
    Object.keys(DATA.options || {}).length ? ` · options ${text(DATA.options)}` : "",
    DATA.viewer ? h("strong", { text: ` · as seen by ${DATA.viewer}` }) : "",
    ` · ruleset ${DATA.ruleset_hash.slice(0, 12)}`);
  if (DATA.game_note) {  // the authors' note on the whole game (Root: the Stub can never win)
    el("game-note").append(DATA.game_note);
    el("game-note").hidden = false;
  }
  if (DATA.mode !== "trace") el("timeline").hidden = true;
  el("slider").max = String(N);
  el("slider").addEventListener("input", (e) => go(Number(e.target.value)));
  el("first").addEventListener("click", () => go(0));
  el("back").addEventListener("click", () => go(pos - 1));
  el("forward").addEventListener("click", () => go(pos + 1));
  el("last").addEventListener("click", () => go(N));
  el("jump").addEventListener("change", (e) => { if (e.target.value !== "") jumpTo(Number(e.target.value)); });
  el("find-next").addEventListener("click", () => find(1));
  el("find-prev").addEventListener("click", () => find(-1));
  buildFind();
  document.addEventListener("keydown", (e) => {
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA") && t.id !== "slider") return;
    if (t && t.id === "slider" && (e.key === "ArrowLeft" || e.key === "ArrowRight")) return; // the slider steps itself
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const k = { ArrowRight: () => go(pos + 1), ArrowLeft: () => go(pos - 1), Home: () => go(0), End: () => go(N),
      n: () => find(1), p: () => find(-1) }[e.key];
    if (k) { e.preventDefault(); k(); }
  });
  const m = /^#step=(\d+)$/.exec(location.hash);
  if (m) jumpTo(Number(m[1])); else go(0);
}

// For tests and benchmarks: read-only access to the reconstruction and the controls.
window.regelwerkViewer = {
  go, find, jumpTo,
  position: () => pos,
  steps: () => N,
  stateAt: (p) => structuredClone(p === pos ? state : (() => {
    const base = Math.floor(p / SNAP_EVERY); const st = clone(snapshots[base]);
    for (let i = base * SNAP_EVERY; i < p; i++) forward(st, STEPS[i]);
    return st;
  })()),
};

wire();
