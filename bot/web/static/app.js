// The live table's page: sign in (Discord's SDK, or ?code= outside Discord), open the socket, draw each
// state the server sends with the game's module (window.LiveGames[kind]), send actions and pose checks.
"use strict";
const Live = {
  words: {}, state: null, ws: null, token: null, nextId: 1, waiting: new Map(), lastSeen: 0,
  fmt(key, vars) {
    let text = this.words[key] || key;
    for (const [k, v] of Object.entries(vars || {})) text = text.split("{" + k + "}").join(String(v));
    return text;
  },
  el(id) { return document.getElementById(id); },
  say(text) { this.el("message").textContent = text || ""; },
  request(op, body) {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.ws.send(JSON.stringify({ op, id, ...body }));
    });
  },
  act(action) { return this.request("act", { action, version: this.state ? this.state.version : null }); },
  check(pose) { return this.request("check", { pose }); },
  isMyTurn() {
    const s = this.state;
    return s && s.seat !== null && s.status === "active" && s.view.current_player === s.seat;
  },
};
window.Live = Live;
window.LiveGames = window.LiveGames || {};

async function signIn() {
  const query = new URLSearchParams(window.location.search);
  let code = query.get("code");
  const saved = code && sessionStorage.getItem("live-token:" + code);
  if (saved) return saved;  // a reload: the one-time code was used already
  if (!code && window.LiveSDK.inDiscord) {
    const config = await (await fetch("/api/config")).json();
    await window.LiveSDK.start(config.client_id);
    code = await window.LiveSDK.authorize();
  }
  if (!code) throw new Error("no code");
  const answer = await fetch("/api/token", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ code }),
  });
  const body = await answer.json();
  if (!answer.ok || !body.access_token) throw new Error(body.error || "sign-in refused");
  sessionStorage.setItem("live-token:" + code, body.access_token);
  if (window.LiveSDK.inDiscord) await window.LiveSDK.authenticate(body.access_token);
  return body.access_token;
}

function header(state) {
  const v = state.view, names = state.names;
  const over = state.status !== "active";
  let status;
  if (over) status = Live.fmt("over");
  else if (state.seat === null) status = Live.fmt("watching");
  else if (v.current_player === state.seat) status = Live.fmt("your_turn");
  else status = Live.fmt("turn_of", { name: names[v.current_player] || "?" });
  Live.el("status").textContent = status;
  const points = v.scores || v.totals || [];
  const list = Live.el("scores");
  list.replaceChildren(...names.map((name, seat) => {
    const li = document.createElement("li");
    const who = seat === state.seat ? name + " (" + Live.fmt("you") + ")" : name;
    li.textContent = Live.fmt("score", { name: who, points: points[seat] ?? 0 });
    if (!over && seat === v.current_player) li.className = "turn";
    return li;
  }));
}

function show(state) {
  if (state.words) Live.words = state.words;
  if (Live.state && state.version < Live.state.version && state.game === Live.state.game) return;
  Live.state = state;
  document.title = Live.fmt("title");
  Live.el("title").textContent = Live.fmt("title");
  header(state);
  const game = window.LiveGames[state.kind];
  if (game) game.render(state, Live);
  document.body.dataset.kind = state.kind;
  document.body.dataset.version = String(state.version);
  document.body.dataset.seat = state.seat === null ? "watching" : String(state.seat);
  Live.lastSeen = performance.now();
}

function connect() {
  const query = new URLSearchParams(window.location.search);
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(scheme + "://" + window.location.host + "/ws");
  Live.ws = ws;
  ws.onopen = () => ws.send(JSON.stringify({
    op: "hello", access_token: Live.token, game: query.get("game"),
    channel: query.get("channel") || window.LiveSDK.channelId,
    locale: query.get("locale") || navigator.language || "en",
  }));
  ws.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    if (msg.op === "state") { show(msg); if (window.onLiveState) window.onLiveState(msg); }
    else if (msg.op === "error") { Live.say(msg.error); ws.onclose = null; }
    else if (Live.waiting.has(msg.id)) { const done = Live.waiting.get(msg.id); Live.waiting.delete(msg.id); done(msg); }
  };
  ws.onclose = () => {
    Live.el("status").textContent = Live.fmt("reconnecting");
    for (const done of Live.waiting.values()) done({ ok: false, error: Live.fmt("reconnecting") });
    Live.waiting.clear();
    setTimeout(connect, 1000);
  };
}

async function boot() {
  try {
    Live.token = await signIn();
  } catch (err) {
    Live.say(String(err.message || err));
    return;
  }
  for (const [id, key] of [["zoom-in", "zoom_in"], ["zoom-out", "zoom_out"]]) Live.el(id).setAttribute("aria-label", key);
  connect();
}
boot();
