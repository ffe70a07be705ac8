// The live table's door to Discord: Discord's official Embedded App SDK (@discord/embedded-app-sdk), wrapped in
// the four calls the page needs, exposed as window.LiveSDK. Built by build.mjs into bot/web/static/discord-sdk.js.
//
// Inside Discord the page is in an iframe whose query string carries frame_id, instance_id, platform, channel_id,
// guild_id: then start(clientId) makes the DiscordSDK and waits for ready(); authorize() returns the one-time
// OAuth2 code (scopes identify and guilds, no prompt); authenticate(accessToken) hands Discord the token the
// server got for that code. Outside Discord (no frame_id: local play, the browser tests with ?code=) inDiscord is
// false and the page never calls these (the SDK's constructor would throw without frame_id).
import { DiscordSDK } from "@discord/embedded-app-sdk";

const params = new URLSearchParams(window.location.search);
let sdk = null;

function started() {
  if (!sdk) throw new Error("LiveSDK.start(clientId) first");
  return sdk;
}

window.LiveSDK = {
  inDiscord: Boolean(params.get("frame_id")),
  channelId: params.get("channel_id"),
  guildId: params.get("guild_id"),
  version: __SDK_VERSION__,
  /** Make the SDK for the application `clientId` (a snowflake string) and wait until Discord says READY. */
  async start(clientId) {
    sdk = new DiscordSDK(String(clientId));
    await sdk.ready();
  },
  /** Ask Discord for a one-time OAuth2 code (scopes identify, guilds; no prompt); resolves to the code string. */
  async authorize() {
    const { code } = await started().commands.authorize({
      client_id: started().clientId,
      response_type: "code",
      state: "",
      prompt: "none",
      scope: ["identify", "guilds"],
    });
    return code;
  },
  /** Tell Discord the access token the server exchanged the code for; resolves to Discord's answer (the user). */
  authenticate(accessToken) {
    return started().commands.authenticate({ access_token: accessToken });
  },
};
