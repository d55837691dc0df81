// regelwerk's boards as SVG: the helpers and the drawing shared by the viewer's page
// (regelwerk view), the seat pages of regelwerk serve (served as /static/board.js) and the
// rulebook page (regelwerk book). Plain JS, no libraries, no network. The functions read the
// page's DATA (boards, consts, colours, players) when they are called; the page that includes
// this file defines DATA. Text from the data is only ever set as text, never parsed as HTML.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";

// ------------------------------------------------------------------ small helpers
function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : String(kid));
  }
  return el;
}

function s(tag, attrs, ...kids) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined) continue;
    if (k === "text") el.textContent = v;
    else el.setAttribute(k, v);
  }
  for (const kid of kids.flat()) if (kid) el.append(kid);
  return el;
}

function clone(v) {
  return v !== null && typeof v === "object" ? structuredClone(v) : v;
}

function isHidden(v) {
  return v === "hidden" || (v !== null && typeof v === "object" && !Array.isArray(v)
    && Object.keys(v).length === 1 && "hidden" in v);
}

// A value as the rules write it (none, true, [a, b], {k: v}); hidden values say so.
function text(v) {
  if (isHidden(v)) return typeof v.hidden === "number" ? `${v.hidden} hidden` : "hidden";
  if (v === null || v === undefined) return "none";
  if (v === true) return "true";
  if (v === false) return "false";
  if (Array.isArray(v)) return "[" + v.map(text).join(", ") + "]";
  if (typeof v === "object") return "{" + Object.entries(v).map(([k, x]) => `${k}: ${text(x)}`).join(", ") + "}";
  return String(v);
}

function valueEl(v) {
  return h("span", { class: isHidden(v) ? "hidden-value" : "code", text: text(v) });
}

// old → new; a long list shows only what came and went.
function changeEls(oldV, newV) {
  if (Array.isArray(oldV) && Array.isArray(newV) && Math.max(oldV.length, newV.length) > 8) {
    const rest = newV.map(text);
    const removed = [];
    for (const x of oldV.map(text)) {
      const i = rest.indexOf(x);
      if (i >= 0) rest.splice(i, 1); else removed.push(x);
    }
    const parts = [];
    if (rest.length) parts.push(h("span", { class: "new", text: "+[" + rest.join(", ") + "]" }));
    if (removed.length) parts.push(h("span", { class: "old", text: "−[" + removed.join(", ") + "]" }));
    return [h("span", { text: `${oldV.length} → ${newV.length} items` }),
      ...(parts.length ? parts.flatMap((p) => [", ", p]) : [", reordered"])];
  }
  return [h("span", { class: "old " + (isHidden(oldV) ? "hidden-value" : "code"), text: text(oldV) }),
    h("span", { class: "arrow", text: "→" }),
    h("span", { class: "new " + (isHidden(newV) ? "hidden-value" : "code"), text: text(newV) })];
}

function luminance(hex) {
  const n = parseInt(hex.slice(1), 16);
  const c = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((x) => {
    const y = x / 255;
    return y <= 0.03928 ? y / 12.92 : ((y + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}

function inkOn(hex) {
  return luminance(hex) > 0.3 ? "#000" : "#fff";
}

function playerColour(p) {
  return DATA.colours[p] || "#777";
}

function playerChip(p) {
  return h("span", { class: "player-chip" },
    h("span", { class: "dot", style: `background:${playerColour(p)}` }), p);
}

// Tints for values drawn as a square's background: common terrain words get their usual
// colour, everything else a light tint in order of first appearance.
const TERRAIN = [
  [/river|water|sea|lake|ocean/, "#a9cde8"], [/forest|wood|jungle/, "#b5d6a7"],
  [/mountain|peak|hill/, "#c9b8a6"], [/sand|desert|beach/, "#f1e2a8"], [/ice|snow|glacier/, "#e8f4f8"],
  [/tundra|steppe|grass|plain|field/, "#d9e4b8"], [/rock|stone/, "#d8c9b8"], [/swamp|marsh/, "#b9c9b0"],
  [/outer|frame|void|edge|off/, "#e4e4e4"],
];
const TINTS = ["#dbe9f6", "#f8e3c8", "#d8efe3", "#f1dbe8", "#f6d5c5", "#e2eef9", "#f5f1c8", "#e7e2f4", "#dfe8d2", "#f0e0d6"];
const STRONG = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#8c6d1f", "#555555"];
const tintCache = new Map();

function tint(layer, v, strong) {
  const key = layer + "\u0000" + text(v) + (strong ? "!" : "");
  if (tintCache.has(key)) return tintCache.get(key);
  let c = null;
  if (!strong) for (const [re, col] of TERRAIN) if (re.test(String(v).toLowerCase())) { c = col; break; }
  if (!c) {
    const used = [...tintCache.keys()].filter((k) => k.startsWith(layer + "\u0000") && k.endsWith("!") === !!strong).length;
    const pal = strong ? STRONG : TINTS;
    c = pal[used % pal.length];
  }
  tintCache.set(key, c);
  return c;
}

// A list as its items only (castle, temple), for labels on the board.
function short(v) {
  return Array.isArray(v) ? v.map(text).join(", ") : text(v);
}

function abbrev(v, n) {
  const t = text(v);
  return t.length <= n ? t : t.slice(0, n);
}

// ------------------------------------------------------------------ which squares changed
function boardChanges(step) {
  // board name -> square -> list of [layer, old, new]
  const out = new Map();
  if (!step) return out;
  for (const b of DATA.boards) {
    const m = new Map();
    const add = (sq, what) => { if (!m.has(sq)) m.set(sq, []); m.get(sq).push(what); };
    for (const layer of b.layers) {
      for (const c of step.changes || []) {
        if (c.keys[0] !== layer.name) continue;
        const k = c.keys;
        if (layer.shape === "cells" && k.length >= 2) add(String(k[1]), [layer.name, c.old, c.new]);
        else if (layer.shape === "per_player" && k.length >= 3) add(String(k[2]), [`${layer.name}[${k[1]}]`, c.old, c.new]);
        else if (layer.shape === "per_player" && k.length === 2) {
          for (const sq of Object.keys(c.new || {})) {
            if (text((c.old || {})[sq]) !== text(c.new[sq])) add(sq, [`${layer.name}[${k[1]}]`, (c.old || {})[sq], c.new[sq]]);
          }
        } else if (layer.shape === "pieces") {
          if (k.length >= 2) {
            if (c.old) add(String(c.old), [`${layer.name}[${k[1]}]`, c.old, c.new]);
            if (c.new) add(String(c.new), [`${layer.name}[${k[1]}]`, c.old, c.new]);
          }
        } else if (layer.shape === "marks" && k.length === 1 && Array.isArray(c.old) && Array.isArray(c.new)) {
          const o = new Set(c.old.map(String)), n = new Set(c.new.map(String));
          for (const x of n) if (!o.has(x)) add(x, [layer.name, "absent", "present"]);
          for (const x of o) if (!n.has(x)) add(x, [layer.name, "present", "absent"]);
        } else if (layer.shape === "cells" && k.length === 1 && c.new && typeof c.new === "object") {
          for (const sq of Object.keys(c.new)) if (text((c.old || {})[sq]) !== text(c.new[sq])) add(sq, [layer.name, (c.old || {})[sq], c.new[sq]]);
        }
      }
    }
    out.set(b.name, m);
  }
  return out;
}

// Between two whole positions (a worked example's before and after): square -> [[what, before,
// after]] for each square whose facts differ, by the same facts the board draws.
function positionChanges(board, before, after) {
  const a = squareFacts(before, board), b = squareFacts(after, board);
  const out = new Map();
  for (const sq of new Set([...a.keys(), ...b.keys()])) {
    const x = (a.get(sq) || []).map(factText).join("; "), y = (b.get(sq) || []).map(factText).join("; ");
    if (x !== y) out.set(sq, [["square", x || "empty", y || "empty"]]);
  }
  return out;
}

// ------------------------------------------------------------------ boards
function layerValue(st, layer) {
  return layer.source === "const" ? DATA.consts[layer.name] : st[layer.name];
}

// What each layer says about one square: [{layer, value, player?}]
function squareFacts(st, board) {
  const facts = new Map();
  const put = (sq, f) => { if (!facts.has(sq)) facts.set(sq, []); facts.get(sq).push(f); };
  for (const layer of board.layers) {
    const v = layerValue(st, layer);
    if (v === undefined || v === null || isHidden(v)) continue;
    if (layer.shape === "cells") {
      for (const [sq, x] of Object.entries(v)) if (!empty(x)) put(sq, { layer, value: x });
    } else if (layer.shape === "pieces") {
      for (const [piece, sq] of Object.entries(v)) if (sq !== null) put(String(sq), { layer, value: piece });
    } else if (layer.shape === "marks" && Array.isArray(v)) {
      for (const sq of v) put(String(sq), { layer, value: true });
    } else if (layer.shape === "per_player") {
      for (const [p, m] of Object.entries(v)) {
        if (!m || typeof m !== "object" || isHidden(m)) continue;
        for (const [sq, x] of Object.entries(m)) if (!empty(x)) put(sq, { layer, value: x, player: p });
      }
    }
  }
  return facts;
}

function empty(x) {
  return x === null || x === false || x === 0 || (Array.isArray(x) && x.length === 0)
    || (x && typeof x === "object" && !Array.isArray(x) && Object.keys(x).length === 0);
}

function factText(f) {
  const who = f.player ? `[${f.player}]` : "";
  if (f.layer.shape === "marks") return f.layer.name;
  if (f.layer.shape === "pieces") return `${f.layer.name}: ${f.value}`;
  return `${f.layer.name}${who} ${text(f.value)}`;
}

function pieceDisc(x, y, r, p, label) {
  const col = playerColour(p);
  return s("g", { class: "piece", "data-player": p },
    s("circle", { cx: x, cy: y, r, fill: col, stroke: "#222", "stroke-width": r * 0.12 }),
    s("text", { x, y: y + r * 0.36, "font-size": r * 1.05, "text-anchor": "middle", fill: inkOn(col), "font-weight": "700", text: label }));
}

function drawGrid(board, st, changed) {
  const C = 10, PAD = 6;
  const W = board.width * C + PAD * 2, H = board.height * C + PAD * 2;
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `board ${board.name}` });
  const facts = squareFacts(st, board);
  const bgLayer = board.layers[0] && board.layers[0].shape === "cells" && board.layers[0].values === "value" ? board.layers[0] : null;
  const over = s("g", {});
  for (let x = 0; x < board.width; x++) {
    svg.append(s("text", { x: PAD + x * C + C / 2, y: PAD - 1.5, "font-size": 3, "text-anchor": "middle", fill: "#555", text: colName(x) }));
  }
  for (let y = 0; y < board.height; y++) {
    svg.append(s("text", { x: PAD - 1.5, y: PAD + y * C + C / 2 + 1, "font-size": 3, "text-anchor": "end", fill: "#555", text: String(board.height - y) }));
  }
  for (const [sq, gx, gy] of board.squares) {
    const x = PAD + gx * C, y = PAD + gy * C;
    const fs = facts.get(sq) || [];
    const g = s("g", { class: "sq", "data-square": sq });
    const bg = bgLayer ? fs.find((f) => f.layer === bgLayer) : null;
    g.append(s("rect", { x, y, width: C, height: C, fill: bg ? tint(bgLayer.name, bg.value) : "#fff", stroke: "#8a8a8a", "stroke-width": 0.2 }));
    if (bg) g.append(s("text", { x: x + 0.8, y: y + 2.6, "font-size": 2.2, fill: "#555", text: abbrev(bg.value, 2) }));
    let badges = 0;
    for (const f of fs) {
      if (f === bg) continue;
      const L = f.layer;
      if (L.values === "player" && L.shape === "cells") {
        g.append(pieceDisc(x + C / 2, y + C / 2, 3, f.value, String(f.value)[0]));
      } else if (L.shape === "marks") {
        g.append(s("rect", { x: x + C - 3.4, y: y + 0.7, width: 2.6, height: 2.6, fill: "#222", rx: 0.4 }));
      } else if (L.shape === "pieces") {
        g.append(s("rect", { x: x + 0.6, y: y + C - 3.6, width: C - 1.2, height: 3, fill: "#fff", stroke: "#222", "stroke-width": 0.25, rx: 0.6 }));
        g.append(s("text", { x: x + C / 2, y: y + C - 1.3, "font-size": 2.3, "text-anchor": "middle", text: abbrev(f.value, 6) }));
      } else if (L.shape === "cells" && L.values === "value") {
        g.append(s("rect", { x: x + 0.7, y: y + 0.7, width: C - 1.4, height: C - 1.4, fill: "none", stroke: tint(L.name, f.value, true), "stroke-width": 0.9 }));
        g.append(s("text", { x: x + C - 1, y: y + C - 1.2, "font-size": 2, "text-anchor": "end", fill: "#222", text: abbrev(f.value, 5) }));
      } else if (L.shape === "per_player") {
        g.append(pieceDisc(x + 2 + badges * 3.2, y + C - 2, 1.5, f.player, String(f.value)));
        badges++;
      } else {
        g.append(s("text", { x: x + C / 2, y: y + C / 2 + 1, "font-size": 3, "text-anchor": "middle", text: abbrev(f.value, 4) }));
      }
    }
    const ch = changed.get(sq);
    g.append(s("title", { text: tooltip(sq, fs, ch) }));
    svg.append(g);
    if (ch) {
      over.append(s("rect", { class: "hl-under", x: x + 0.3, y: y + 0.3, width: C - 0.6, height: C - 0.6, "stroke-width": 1.1 }));
      over.append(s("rect", { class: "hl", x: x + 0.3, y: y + 0.3, width: C - 0.6, height: C - 0.6, "stroke-width": 0.7, "data-changed": sq }));
    }
  }
  svg.append(over);
  return svg;
}

function colName(x) {
  let out = "";
  let n = x;
  do { out = String.fromCharCode(97 + (n % 26)) + out; n = Math.floor(n / 26) - 1; } while (n >= 0);
  return out;
}

function tooltip(sq, fs, ch) {
  const lines = [sq, ...fs.map(factText)];
  if (ch) for (const [what, o, n] of ch) lines.push(`changed: ${what}: ${text(o)} → ${text(n)}`);
  return lines.join("\n");
}

function drawGraph(board, st, changed) {
  const SIZE = 115 * Math.max(4, Math.sqrt(board.nodes.length));
  const PAD = 64;
  const xs = board.nodes.map((n) => n[1]), ys = board.nodes.map((n) => n[2]);
  const W = Math.max(...xs) * SIZE + PAD * 2, H = Math.max(...ys) * SIZE + PAD * 2 + 20;
  const at = new Map(board.nodes.map(([n, x, y]) => [n, [PAD + x * SIZE, PAD + y * SIZE]]));
  const svg = s("svg", { viewBox: `0 0 ${Math.round(W)} ${Math.round(H)}`, role: "img", "aria-label": `board ${board.name}` });
  const facts = squareFacts(st, board);
  for (const [a, b] of board.edges) {
    const [x1, y1] = at.get(a), [x2, y2] = at.get(b);
    svg.append(s("line", { x1, y1, x2, y2, stroke: "#9a9a9a", "stroke-width": 2 }));
  }
  const over = s("g", {});
  const R = 16;
  const inside = firstCount(board);
  for (const [n] of board.nodes) {
    const [x, y] = at.get(n);
    const fs = facts.get(n) || [];
    const g = s("g", { class: "sq", "data-square": n });
    const owner = fs.find((f) => f.layer.shape === "cells" && f.layer.values === "player");
    const fill = owner ? playerColour(owner.value) : "#fff";
    g.append(s("circle", { cx: x, cy: y, r: R, fill, stroke: "#333", "stroke-width": 1.5 }));
    const count = fs.find((f) => f.layer === inside);
    if (count) g.append(s("text", { x, y: y + 6, "font-size": 17, "font-weight": "700", "text-anchor": "middle", fill: inkOn(fill), text: String(count.value) }));
    else if (owner) g.append(s("text", { x, y: y + 6, "font-size": 15, "font-weight": "700", "text-anchor": "middle", fill: inkOn(fill), text: String(owner.value)[0] }));
    g.append(s("text", { x, y: y + R + 17, "font-size": 13, "text-anchor": "middle", fill: "#111", "paint-order": "stroke", stroke: "#fdfdfb", "stroke-width": 3, text: n }));
    const rest = fs.filter((f) => f !== owner && f !== count && f.layer.shape !== "per_player");
    const line2 = rest.map((f) => f.layer.shape === "marks" ? f.layer.name
      : f.layer.values === "items" ? short(f.value) : `${f.layer.name} ${short(f.value)}`).join(" · ");
    if (line2) g.append(s("text", { x, y: y + R + 30, "font-size": 11, "text-anchor": "middle", fill: "#333", "paint-order": "stroke", stroke: "#fdfdfb", "stroke-width": 3, text: line2 }));
    const pp = fs.filter((f) => f.layer.shape === "per_player");
    pp.forEach((f, i) => {
      const bx = x + R + 4 + i * 17, by = y - R + 4;
      g.append(pieceDisc(bx + 7, by + 4, 8, f.player, String(f.value)));
    });
    const ch = changed.get(n);
    g.append(s("title", { text: tooltip(n, fs, ch) }));
    svg.append(g);
    if (ch) {
      over.append(s("circle", { class: "hl-under", cx: x, cy: y, r: R + 5, "stroke-width": 6 }));
      over.append(s("circle", { class: "hl", cx: x, cy: y, r: R + 5, "stroke-width": 3.5, style: "stroke-dasharray: 7 4", "data-changed": n }));
    }
  }
  svg.append(over);
  return svg;
}

// On a graph, the first count layer is the number inside each node.
function firstCount(board) {
  return board.kind === "graph" ? board.layers.find((x) => x.shape === "cells" && x.values === "count") || null : null;
}

function legend(board, st) {
  const items = [];
  for (const L of board.layers) {
    const v = layerValue(st, L);
    if (L.shape === "cells" && L.values === "value") {
      const first = board.layers[0] === L;
      const seen = new Set();
      const vals = L.source === "const" ? Object.values(v || {}) : Object.values(v || {});
      for (const x of vals) if (!empty(x) && !isHidden(x)) seen.add(text(x));
      for (const t of [...seen].sort()) {
        items.push(h("span", {}, h("span", { class: "swatch", style: first ? `background:${tint(L.name, t)}` : `background:#fff;border:3px solid ${tint(L.name, t, true)}` }), `${L.name} ${t}`));
      }
    } else if (L.shape === "marks" && board.kind === "graph") {
      items.push(h("span", {}, `${L.name}: its name under the node`));
    } else if (L.shape === "marks") {
      items.push(h("span", {}, h("span", { class: "swatch", style: "background:#222" }), L.name));
    } else if (L.shape === "pieces") {
      items.push(h("span", {}, h("span", { class: "swatch", style: "background:#fff;border-radius:.3rem" }), `${L.name} (label)`));
    } else if (L.values === "player" || L.shape === "per_player") {
      items.push(h("span", {}, `${L.name}${L.extra ? " (per player)" : ""}:`, ...DATA.players.map(playerChip)));
    } else if (L.values === "count") {
      const inside = board.kind === "graph" ? firstCount(board) === L : true;
      items.push(h("span", {}, `${L.name}: ${inside ? "the number inside" : "under the name"}`));
    } else {
      items.push(h("span", {}, `${L.name}: ${board.kind === "graph" ? "under the name" : "text on the square"}`));
    }
  }
  return h("div", { class: "legend" }, items);
}

function drawBoards(st, step) {
  const root = document.getElementById("boards");
  const changes = boardChanges(step);
  const figs = DATA.boards.map((b) => {
    const changed = changes.get(b.name) || new Map();
    const svg = b.kind === "grid" ? drawGrid(b, st, changed) : drawGraph(b, st, changed);
    const cap = h("figcaption", {}, b.name, h("span", { class: "muted", text: ` (${b.layers.map((l) => l.name).join(", ")})` }));
    // a big map stays legible in a narrow window: it scrolls sideways inside its frame
    const size = b.kind === "graph" ? b.nodes.length : b.width;
    svg.style.minWidth = size > 20 ? "36rem" : size > 8 ? "22rem" : "";
    return h("figure", { class: "board card", "data-board": b.name, style: "margin:0 0 1rem" }, cap,
      h("div", { class: "board-scroll" }, svg), legend(b, st));
  });
  if (!figs.length) figs.push(h("p", { class: "muted", text: "This ruleset declares no board to draw." }));
  root.replaceChildren(...figs);
}
