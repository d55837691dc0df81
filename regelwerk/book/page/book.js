// regelwerk book: draws each worked example's boards before its first move and where it ends,
// the squares that changed outlined, with the viewer's own drawing (boards.js, inlined before
// this file). Everything else on the page is plain HTML written by the Python side.
"use strict";

const DATA = JSON.parse(document.getElementById("regelwerk-data").textContent);

function drawExample(el) {
  const ex = DATA.examples[el.dataset.example];
  if (!ex) return;
  DATA.consts = ex.consts;  // what this example's game has: its terrain, its players
  DATA.players = ex.players;
  for (const b of DATA.boards) {
    const shown = ex.before ? [["before the first move", ex.before, new Map()],
      ["after", ex.after, positionChanges(b, ex.before, ex.after)]] : [["the position", ex.after, new Map()]];
    const figs = shown.map(([label, st, ch]) => {
      const svg = b.kind === "grid" ? drawGrid(b, st, ch) : drawGraph(b, st, ch);
      const when = label === "after" ? "after" : ex.before ? "before" : "position";
      const more = label === "after" ? ` (${ch.size ? `${ch.size} changed, outlined` : "nothing changed"})` : "";
      return h("figure", { class: "board", "data-board": b.name, "data-when": when },
        h("figcaption", { text: `${b.name}, ${label}${more}` }), svg);
    });
    el.append(h("div", { class: "pair" }, figs), legend(b, ex.after));
  }
}

document.querySelectorAll(".example-boards").forEach(drawExample);
