// Constructo on the live table: the hex tiles with their stacks; tap a chip of your reserve (or one of your
// lone chips on the board), then a highlighted tile. Only the engine's legal moves (sent by the server in the
// game's own notation: "L5", "3-4") are highlighted; every tile and chip is a keyboard button with a label.
"use strict";
(function () {
  const NS = "http://www.w3.org/2000/svg";
  const SEAT = ["#e05a47", "#3d8bfd"];
  const RADIUS = { S: 0.28, M: 0.48, L: 0.68 };
  const SIZES = ["L", "M", "S"];
  const WORD = { S: "small", M: "medium", L: "large" };
  let L = null, S = null, picked = null;

  function node(tag, attrs, parent) {
    const n = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) n.setAttribute(k, v);
    if (parent) parent.appendChild(n);
    return n;
  }

  function centre([q, r]) { return [Math.sqrt(3) * (q + r / 2), 1.5 * r]; }

  function targets() {
    const legal = S.view.legal;
    if (!picked) return new Map();
    const out = new Map();
    for (const move of legal) {
      if (picked.size && move[0] === picked.size && !move.includes("-")) out.set(Number(move.slice(1)), move);
      if (picked.tile && move.startsWith(picked.tile + "-")) out.set(Number(move.split("-")[1]), move);
    }
    return out;
  }

  function stackWords(stack) {
    if (!stack.length) return L.fmt("empty");
    return stack.map(([owner, size]) => S.names[owner] + " " + L.fmt(WORD[size])).join(", ");
  }

  async function play(move) {
    picked = null;
    const done = await L.act({ type: "move", move });
    L.say(done.ok ? "" : done.error);
    if (!done.ok) draw();
  }

  function draw() {
    const v = S.view, svg = L.el("board"), to = targets();
    const sources = new Set(v.legal.filter((m) => m.includes("-")).map((m) => Number(m.split("-")[0])));
    svg.replaceChildren();
    const pts = v.cells.map(centre);
    const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
    const pad = 1.3;
    svg.setAttribute("viewBox", [Math.min(...xs) - pad, Math.min(...ys) - pad, Math.max(...xs) - Math.min(...xs) + 2 * pad, Math.max(...ys) - Math.min(...ys) + 2 * pad].join(" "));
    svg.setAttribute("aria-label", L.fmt("round", { round: v.round }));
    v.cells.forEach((cell, i) => {
      const tile = i + 1, [cx, cy] = centre(cell), stack = v.tiles[i];
      const g = node("g", { class: "tile", tabindex: 0, role: "button", "data-tile": tile }, svg);
      if (to.has(tile)) g.classList.add("target");
      if (picked && picked.tile === tile) g.classList.add("source");
      g.setAttribute("aria-label", L.fmt("tile_stack", { tile, stack: stackWords(stack) }) + (to.has(tile) ? " → " + to.get(tile) : ""));
      if (to.has(tile)) node("title", {}, g).textContent = to.get(tile);  // the move in the game's notation
      const corners = [...Array(6).keys()].map((k) => { const a = Math.PI / 180 * (60 * k - 30); return [cx + 0.97 * Math.cos(a), cy + 0.97 * Math.sin(a)].join(","); });
      node("polygon", { points: corners.join(" ") }, g);
      stack.forEach(([owner, size], level) => {
        node("circle", { cx, cy: cy - level * 0.06, r: RADIUS[size], fill: SEAT[owner], stroke: "#111", "stroke-width": 0.03 }, g);
      });
      const label = node("text", { x: cx - 0.62, y: cy - 0.45, "font-size": 0.32, fill: "#dfe7ea" }, g);
      label.textContent = tile;
      const go = () => {
        if (to.has(tile)) play(to.get(tile));
        else if (sources.has(tile)) { picked = picked && picked.tile === tile ? null : { tile }; draw(); }
      };
      g.addEventListener("click", go);
      g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
    });
    drawReserve();
  }

  function drawReserve() {
    const v = S.view, bar = L.el("actions");
    bar.replaceChildren();
    L.el("hand").replaceChildren();
    const mine = S.seat !== null ? v.reserves[S.seat] : null;
    L.el("hand-title").hidden = mine === null;
    L.el("hand-title").textContent = L.fmt("reserve");
    if (mine) {
      for (const size of SIZES) {
        const b = document.createElement("button");
        b.type = "button"; b.className = "chip-btn"; b.dataset.size = size;
        b.textContent = L.fmt("chip", { size: L.fmt(WORD[size]), left: mine[size] });
        const can = v.legal.some((m) => m[0] === size && !m.includes("-"));
        b.disabled = !can;
        b.setAttribute("aria-pressed", picked && picked.size === size ? "true" : "false");
        b.addEventListener("click", () => { picked = picked && picked.size === size ? null : { size }; draw(); });
        L.el("hand").appendChild(b);
      }
    }
    for (const name of v.layouts) {
      const b = document.createElement("button");
      b.type = "button"; b.textContent = name; b.dataset.layout = name;
      b.addEventListener("click", async () => { const done = await L.act({ type: "layout", layout: name }); L.say(done.ok ? "" : done.error); });
      bar.appendChild(b);
    }
    L.el("hint").textContent = v.legal.length ? L.fmt("pick_chip") : "";
  }

  function render(state, live) {
    L = live;
    if (S && (S.game !== state.game || S.version !== state.version)) picked = null;
    S = state;
    L.el("zoom").hidden = true;
    L.el("pose-tools").hidden = true;
    draw();
    document.querySelectorAll("#scores li").forEach((li, seat) => {  // whose colour is whose
      const dot = document.createElement("span");
      dot.className = "swatch"; dot.style.background = SEAT[seat]; dot.setAttribute("aria-hidden", "true");
      li.prepend(dot);
    });
  }

  window.LiveGames = window.LiveGames || {};
  window.LiveGames.constructo = { render };
})();
