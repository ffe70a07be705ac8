// CONEX on the live table: the table (SVG in mm, pan/zoom), your hand, a card dragged and rotated as a
// "ghost" whose pose the server checks with the engine's own rules (green/red, points, snap on release),
// then confirmed. Keyboard: pick a card with Enter, arrows move it, Q/E rotate, Enter plays, Escape puts back.
"use strict";
(function () {
  const NS = "http://www.w3.org/2000/svg";
  const INK = { Y: "#f2c94c", R: "#e05a47", T: "#2bb3a6", P: "#8e5cc2" };
  const PALE = { Y: "#f6e6ad", R: "#f0b7ad", T: "#a6e0d9", P: "#d2bde6" };
  const NAMES = { Y: "yellow", R: "red", T: "turquoise", P: "purple" };
  let L = null, S = null, svg = null, box = null, ghost = null, wired = false;
  let checking = false, dirty = false, dirtySnap = false, seq = 0;
  const pointers = new Map();
  let gesture = null;

  function node(tag, attrs, parent) {
    const n = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) n.setAttribute(k, v);
    if (parent) parent.appendChild(n);
    return n;
  }

  function drawCard(face, parent, attrs) {
    const g = node("g", attrs || {}, parent);
    node("rect", { x: -30, y: -45, width: 60, height: 90, rx: 3, fill: PALE[face.color], stroke: "#333", "stroke-width": 0.8 }, g);
    for (const k of face.corners) {
      node("polygon", { points: k.points.map((p) => p.join(",")).join(" "), fill: INK[k.color], stroke: "#222", "stroke-width": 0.5 }, g);
      const cx = (k.points[0][0] + k.points[1][0] + k.points[2][0]) / 3, cy = (k.points[0][1] + k.points[1][1] + k.points[2][1]) / 3;
      const label = node("text", { x: cx, y: cy + 2.5, "font-size": 7, "text-anchor": "middle", fill: "#111", "font-weight": 700 }, g);
      label.textContent = k.index + "·" + k.value;
    }
    const n = node("text", { x: 0, y: 5, "font-size": 16, "text-anchor": "middle", fill: "#222", "font-weight": 700 }, g);
    n.textContent = face.id;
    if (face.action) {
      const a = node("text", { x: 0, y: 22, "font-size": 10, "text-anchor": "middle", fill: "#222" }, g);
      a.textContent = face.action === "plus2" ? "+2" : "⚅";
    }
    return g;
  }

  function describe(face) {
    const corners = face.corners.map((k) => L.fmt("corner", { index: k.index, colour: NAMES[k.color], value: k.value }));
    return L.fmt("card", { card: face.id, colour: NAMES[face.color] }) + (face.action === "plus2" ? " +2" : "") + "; " + corners.join(", ");
  }

  function toSvg(clientX, clientY) {
    const p = svg.createSVGPoint();
    p.x = clientX; p.y = clientY;
    const q = p.matrixTransform(svg.getScreenCTM().inverse());
    return { x: q.x, y: q.y };
  }

  function setBox() { svg.setAttribute("viewBox", [box.x, box.y, box.w, box.h].join(" ")); }
  function fit() {  // the board and every card on it, with room around (at most the whole table)
    const [w, h] = S.view.table_mm, b = S.view.board_mm / 2;
    let x0 = -b, y0 = -b, x1 = b, y1 = b;
    for (const t of S.view.table) { x0 = Math.min(x0, t.x_mm - 55); y0 = Math.min(y0, t.y_mm - 55); x1 = Math.max(x1, t.x_mm + 55); y1 = Math.max(y1, t.y_mm + 55); }
    x0 = Math.max(x0 - 60, -w / 2 - 10); y0 = Math.max(y0 - 60, -h / 2 - 10);
    x1 = Math.min(x1 + 60, w / 2 + 10); y1 = Math.min(y1 + 60, h / 2 + 10);
    box = { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
    setBox();
  }
  function zoom(factor, cx, cy) {
    if (cx === undefined) { cx = box.x + box.w / 2; cy = box.y + box.h / 2; }
    const w = Math.min(Math.max(box.w * factor, 120), 2000), k = w / box.w;
    box = { x: cx - (cx - box.x) * k, y: cy - (cy - box.y) * k, w, h: box.h * k };
    setBox();
  }

  function drawTable() {
    svg.replaceChildren();
    const v = S.view, [w, h] = v.table_mm, b = v.board_mm;
    node("rect", { x: -w / 2, y: -h / 2, width: w, height: h, fill: "#2f5d46", rx: 8 }, svg);
    node("rect", { x: -b / 2, y: -b / 2, width: b, height: b, fill: "#ece6d6", stroke: "#554", "stroke-width": 1 }, svg);
    for (const [colour, [x0, y0, x1, y1]] of Object.entries(v.squares)) {
      node("rect", { x: x0, y: y0, width: x1 - x0, height: y1 - y0, fill: INK[colour], opacity: 0.9 }, svg);
    }
    for (const t of v.table) {
      const g = drawCard(v.faces[t.card], svg, { transform: `translate(${t.x_mm} ${t.y_mm}) rotate(${t.rotation})`, "data-card": t.card });
      g.setAttribute("role", "img");
      g.setAttribute("aria-label", describe(v.faces[t.card]));
    }
    if (ghost) drawGhost();
  }

  function drawGhost() {
    const old = svg.querySelector("#ghost");
    if (old) old.remove();
    const face = S.view.faces[ghost.card];
    const g = drawCard(face, svg, { id: "ghost", transform: `translate(${ghost.x} ${ghost.y}) rotate(${ghost.rotation})`, opacity: 0.92 });
    g.classList.add(ghost.legal === true ? "ghost-ok" : ghost.legal === false ? "ghost-bad" : "ghost-wait");
    node("rect", { class: "outline", x: -31.5, y: -46.5, width: 63, height: 93, rx: 4 }, g);
    g.style.cursor = "grab";
    document.body.dataset.ghost = ghost.legal === true ? "legal" : ghost.legal === false ? "illegal" : "checking";
    L.el("pose-tools").hidden = false;
    L.el("confirm").disabled = ghost.legal !== true || !L.isMyTurn();
  }

  function verdict(text, ok) {
    const v = L.el("verdict");
    v.textContent = text;
    v.className = ok === true ? "ok" : ok === false ? "bad" : "";
  }

  async function runCheck(snap) {
    if (!ghost) return;
    if (checking) { dirty = true; dirtySnap = snap; return; }  // the latest request, its snap kept (a drop's)
    checking = true;
    const mine = ++seq, pose = { card: ghost.card, x: ghost.x, y: ghost.y, rotation: ghost.rotation, double: ghost.double, snap: snap === "wide" ? "wide" : Boolean(snap) };
    const answer = await L.check(pose);
    checking = false;
    if (ghost && mine === seq && pose.card === ghost.card) {
      if (answer.legal) {
        Object.assign(ghost, { legal: true, corner: answer.corner, points: answer.points });
        verdict(L.fmt(answer.points === 1 ? "legal_one" : "legal", { points: answer.points }), true);
      } else if (answer.snap) {
        Object.assign(ghost, answer.snap.pose, { legal: true, corner: answer.snap.corner, points: answer.snap.points });
        verdict(L.fmt(answer.snap.points === 1 ? "snapped_one" : "snapped", { points: answer.snap.points }), true);
      } else {
        Object.assign(ghost, { legal: false, corner: null });
        verdict(L.fmt("illegal", { why: answer.error || answer.ok === false && answer.error || "?" }) + (snap ? " " + L.fmt("no_snap") : ""), false);
      }
      if (answer.ok === false) verdict(answer.error, false);
      drawGhost();
    }
    if (dirty) { dirty = false; runCheck(dirtySnap); }
  }

  function moved(snapAfter) {
    if (!ghost) return;
    ghost.legal = null;
    seq++;
    drawGhost();
    runCheck(snapAfter);
  }

  function take(card, x, y) {
    const centre = { x: box.x + box.w / 2, y: box.y + box.h / 2 };
    ghost = { card, x: x ?? centre.x, y: y ?? centre.y, rotation: ghost && ghost.card === card ? ghost.rotation : 0, legal: null, double: L.el("double") ? L.el("double").checked : false };
    renderHand();
    drawGhost();
  }

  function putBack() {
    ghost = null;
    const old = svg.querySelector("#ghost");
    if (old) old.remove();
    L.el("pose-tools").hidden = true;
    document.body.dataset.ghost = "";
    verdict("");
    renderHand();
  }

  function rotate(deg) { if (ghost) { ghost.rotation = ((ghost.rotation + deg) % 360 + 360) % 360; moved(false); } }

  async function confirm() {
    if (!ghost || ghost.legal !== true) return;
    const g = ghost;
    L.el("confirm").disabled = true;
    const done = await L.act({ type: "place", card: g.card, corner: g.corner, x: g.x, y: g.y, rotation: g.rotation, double: g.double });
    if (done.ok) { putBack(); L.say(""); L.el("hint").textContent = L.fmt("played"); }
    else { L.say(done.error); verdict(done.error, false); }
  }

  function renderHand() {
    const v = S.view, hand = L.el("hand");
    L.el("hand-title").hidden = S.seat === null;
    L.el("hand-title").textContent = L.fmt("hand");
    hand.replaceChildren(...v.hand.map((h) => {
      const face = v.faces[h.card];
      const b = document.createElement("button");
      b.type = "button";
      b.className = "hand-card";
      b.dataset.card = h.card;
      b.setAttribute("role", "listitem");
      b.setAttribute("aria-pressed", ghost && ghost.card === h.card ? "true" : "false");
      b.setAttribute("aria-label", (h.letter ? h.letter + ": " : "") + describe(face));
      const mini = node("svg", { viewBox: "-31 -46 62 92", "aria-hidden": "true" }, b);
      drawCard(face, mini);
      b.addEventListener("pointerdown", (e) => startHandDrag(e, h.card));
      b.addEventListener("click", (e) => { if (e.detail === 0) { take(h.card); moved("wide"); svg.focus(); } });
      return b;
    }));
  }

  function startHandDrag(e, card) {
    e.preventDefault();
    const start = { x: e.clientX, y: e.clientY };
    let dragging = false;
    const move = (m) => {
      if (!dragging && Math.hypot(m.clientX - start.x, m.clientY - start.y) > 6) { dragging = true; take(card); }
      if (dragging) { const p = toSvg(m.clientX, m.clientY); ghost.x = p.x; ghost.y = p.y; ghost.legal = null; drawGhost(); runCheck(false); }
    };
    const up = (u) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      if (!dragging) { take(card); moved("wide"); return; }  // a tap: the card goes to the middle of the view, snapped
      const r = svg.getBoundingClientRect();
      if (u.clientX < r.left || u.clientX > r.right || u.clientY < r.top || u.clientY > r.bottom) { putBack(); return; }
      moved(true);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
  }

  function wire() {
    svg = L.el("board");
    svg.addEventListener("pointerdown", (e) => {
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      svg.setPointerCapture(e.pointerId);
      const onGhost = e.target.closest && e.target.closest("#ghost");
      if (pointers.size === 2) { gesture = twoFinger(); return; }
      const p = toSvg(e.clientX, e.clientY);
      gesture = onGhost && ghost ? { kind: "ghost", dx: ghost.x - p.x, dy: ghost.y - p.y } : { kind: "pan", x: e.clientX, y: e.clientY, box: { ...box } };
    });
    svg.addEventListener("pointermove", (e) => {
      if (!pointers.has(e.pointerId)) return;
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (!gesture) return;
      if (gesture.kind === "ghost") {
        const p = toSvg(e.clientX, e.clientY);
        ghost.x = p.x + gesture.dx; ghost.y = p.y + gesture.dy; ghost.legal = null; drawGhost(); runCheck(false);
      } else if (gesture.kind === "pan") {
        const r = svg.getBoundingClientRect(), k = Math.max(box.w / r.width, box.h / r.height);
        box = { ...gesture.box, x: gesture.box.x - (e.clientX - gesture.x) * k, y: gesture.box.y - (e.clientY - gesture.y) * k };
        setBox();
      } else if (gesture.kind === "two" && pointers.size === 2) {
        const now = twoFinger();
        zoom(gesture.dist / now.dist);
        if (ghost) { ghost.rotation = (ghost.rotation + (now.angle - gesture.angle) * 180 / Math.PI + 360) % 360; ghost.legal = null; drawGhost(); }
        gesture = now;
      }
    });
    const end = (e) => {
      pointers.delete(e.pointerId);
      if (gesture && (gesture.kind === "ghost" || gesture.kind === "two") && ghost) moved(true);
      gesture = null;
    };
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointercancel", end);
    svg.addEventListener("wheel", (e) => {
      e.preventDefault();
      const onGhost = e.target.closest && e.target.closest("#ghost");
      if (ghost && (onGhost || e.shiftKey)) rotate(e.deltaY > 0 ? 5 : -5);
      else { const p = toSvg(e.clientX, e.clientY); zoom(e.deltaY > 0 ? 1.15 : 1 / 1.15, p.x, p.y); }
    }, { passive: false });
    document.addEventListener("keydown", (e) => {
      if (!ghost || !S || S.kind !== "conex" || ["SELECT", "INPUT"].includes(document.activeElement.tagName)) return;
      const step = e.shiftKey ? 10 : 2;
      const keys = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
      if (keys[e.key]) { ghost.x += keys[e.key][0]; ghost.y += keys[e.key][1]; moved(false); e.preventDefault(); }
      else if (e.key === "q" || e.key === "Q") rotate(e.shiftKey ? -1 : -15);
      else if (e.key === "e" || e.key === "E") rotate(e.shiftKey ? 1 : 15);
      else if (e.key === "Enter" && document.activeElement === svg) { confirm(); e.preventDefault(); }
      else if (e.key === "Escape") putBack();
    });
    L.el("rot-left").addEventListener("click", () => rotate(-15));
    L.el("rot-right").addEventListener("click", () => rotate(15));
    L.el("confirm").addEventListener("click", confirm);
    L.el("cancel").addEventListener("click", putBack);
    L.el("zoom-in").addEventListener("click", () => zoom(1 / 1.25));
    L.el("zoom-out").addEventListener("click", () => zoom(1.25));
    wired = true;
  }

  function twoFinger() {
    const [a, b] = [...pointers.values()];
    return { kind: "two", dist: Math.hypot(b.x - a.x, b.y - a.y) || 1, angle: Math.atan2(b.y - a.y, b.x - a.x) };
  }

  function button(label, onClick, enabled, extra) {
    const b = document.createElement("button");
    b.type = "button"; b.textContent = label; b.disabled = !enabled;
    Object.assign(b.dataset, extra || {});
    b.addEventListener("click", onClick);
    return b;
  }

  function picker(label, values, go, name) {
    const wrap = document.createElement("span");
    const sel = document.createElement("select");
    sel.setAttribute("aria-label", label);
    sel.name = name;
    for (const value of values) { const o = document.createElement("option"); o.value = value; o.textContent = "#" + value; sel.appendChild(o); }
    wrap.append(sel, button(label, () => go(Number(sel.value)), values.length > 0, { action: name }));
    return wrap;
  }

  async function simple(action) {
    const done = await L.act(action);
    L.say(done.ok ? "" : done.error);
  }

  function renderActions() {
    const v = S.view, can = v.can, bar = L.el("actions");
    bar.replaceChildren();
    if (S.seat === null) {
      const holder = (star) => { const h = v.stars[star] && v.stars[star].holder; return h === null || h === undefined ? L.fmt("nobody") : S.names[h]; };
      bar.append(L.fmt("pile", { count: v.draw_pile }) + " · " + L.fmt("stars", { double: holder("2x"), lightning: holder("lightning") }));
      L.el("hint").textContent = "";
      return;
    }
    if (can.draw || (!can.pass && !v.pending_discards.length)) bar.append(button(L.fmt("draw"), () => simple({ type: "draw" }), can.draw, { action: "draw" }));
    if (can.pass) bar.append(button(L.fmt("pass"), () => simple({ type: "pass" }), true, { action: "pass" }));
    if (can.lightning) bar.append(picker(L.fmt("lightning"), v.free, (card) => simple({ type: "lightning", card }), "lightning"));
    if (can.discard) bar.append(picker(L.fmt("discard"), v.hand.map((h) => h.card), (card) => simple({ type: "discard", card }), "discard"));
    if (can.double) {
      const label = document.createElement("label");
      const box2 = document.createElement("input");
      box2.type = "checkbox"; box2.id = "double";
      box2.addEventListener("change", () => { if (ghost) { ghost.double = box2.checked; moved(false); } });
      label.append(box2, " " + L.fmt("double"));
      bar.append(label);
    }
    bar.append(document.createTextNode(" " + L.fmt("pile", { count: v.draw_pile })));
    const holder = (star) => { const h = v.stars[star] && v.stars[star].holder; return h === null || h === undefined ? L.fmt("nobody") : S.names[h]; };
    const stars = document.createElement("p");
    stars.id = "stars";
    stars.textContent = L.fmt("stars", { double: holder("2x"), lightning: holder("lightning") });
    bar.append(stars);
    L.el("hint").textContent = can.place ? L.fmt("pick_card") + " " + L.fmt("keys") : "";
  }

  function render(state, live) {
    L = live;
    const first = !S || S.game !== state.game || S.kind !== state.kind;
    S = state;
    if (!wired) wire();
    L.el("zoom").hidden = false;
    for (const [id, key] of [["zoom-in", "zoom_in"], ["zoom-out", "zoom_out"], ["rot-left", "rotate_left"], ["rot-right", "rotate_right"]]) {
      L.el(id).setAttribute("aria-label", L.fmt(key));
      L.el(id).title = L.fmt(key);
    }
    L.el("confirm").textContent = L.fmt("confirm");
    L.el("cancel").textContent = L.fmt("cancel");
    svg.setAttribute("aria-label", L.fmt("table"));
    if (first || !box) fit();
    if (ghost && !state.view.hand.some((h) => h.card === ghost.card)) ghost = null;
    if (!ghost) { L.el("pose-tools").hidden = true; }
    drawTable();
    renderHand();
    renderActions();
    if (ghost) moved(false);  // the table changed under the held card: check it again
  }

  window.LiveGames = window.LiveGames || {};
  window.LiveGames.conex = { render };
})();
