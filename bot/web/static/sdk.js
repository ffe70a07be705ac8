// A minimal client of the Discord Embedded App SDK's postMessage protocol (what the npm package
// @discord/embedded-app-sdk does under the hood): handshake, wait for READY, AUTHORIZE (-> code),
// AUTHENTICATE (with the access token the server exchanged). Used only inside Discord (the URL carries
// frame_id); outside Discord (tests, a browser) the page takes ?code= instead. No build step, no Node.
"use strict";
window.LiveSDK = (function () {
  const OP = { HANDSHAKE: 0, FRAME: 1, CLOSE: 2 };
  const params = new URLSearchParams(window.location.search);
  const frameId = params.get("frame_id");
  const pending = new Map();
  let ready = null;
  let clientId = null;

  function send(op, payload) { window.parent.postMessage([op, payload], "*"); }

  function command(cmd, args) {
    const nonce = Math.random().toString(36).slice(2) + Date.now().toString(36);
    return new Promise((resolve, reject) => {
      pending.set(nonce, { resolve, reject });
      send(OP.FRAME, { cmd, args, nonce });
    });
  }

  window.addEventListener("message", (event) => {
    if (!Array.isArray(event.data)) return;
    const [op, payload] = event.data;
    if (op !== OP.FRAME || !payload) return;
    if (payload.evt === "READY" && ready) { ready.resolve(payload.data); return; }
    const waiting = payload.nonce && pending.get(payload.nonce);
    if (!waiting) return;
    pending.delete(payload.nonce);
    if (payload.evt === "ERROR") waiting.reject(new Error((payload.data && payload.data.message) || "SDK error"));
    else waiting.resolve(payload.data);
  });

  return {
    inDiscord: Boolean(frameId),
    channelId: params.get("channel_id"),
    guildId: params.get("guild_id"),
    async start(id) {
      clientId = id;
      const gotReady = new Promise((resolve, reject) => { ready = { resolve, reject }; });
      send(OP.HANDSHAKE, { v: 1, encoding: "json", client_id: clientId, frame_id: frameId });
      await gotReady;
    },
    async authorize() {
      const data = await command("AUTHORIZE", {
        client_id: clientId, response_type: "code", state: "", prompt: "none", scope: ["identify"],
      });
      return data.code;
    },
    authenticate(accessToken) { return command("AUTHENTICATE", { access_token: accessToken }); },
  };
})();
