import type { MongoClient } from "mongodb";

/**
 * A monitor silent this long while the server is unknown is hung: it checks at least every
 * heartbeat (10 s), and one check gives up after the connect timeout (10 s, set by the store).
 */
const STALLED_MS = 25_000;

/**
 * Calls `onStalled` when the client's server has been unknown (unreachable) and its monitor has
 * reported no heartbeat, started or finished, for STALLED_MS: the mongodb driver (7.9) can leave
 * its monitor waiting forever on a `hello` sent over a connection that died under it, and then
 * no operation can select the server again, though it is back. `follow` moves the watch to the
 * replacement client.
 */
export function watchMonitor(first: MongoClient, onStalled: () => void, now = () => Date.now()) {
  let unknownSince: number | undefined;
  let lastHeartbeat = now();
  const attach = (client: MongoClient) => {
    unknownSince = undefined;
    lastHeartbeat = now();
    const beat = () => void (lastHeartbeat = now());
    client.on("serverHeartbeatStarted", beat);
    client.on("serverHeartbeatSucceeded", beat);
    client.on("serverHeartbeatFailed", beat);
    client.on("serverDescriptionChanged", (e) => {
      unknownSince = e.newDescription.type === "Unknown" ? (unknownSince ?? now()) : undefined;
    });
  };
  attach(first);
  const timer = setInterval(() => {
    const t = now();
    if (unknownSince !== undefined && t - unknownSince > STALLED_MS && t - lastHeartbeat > STALLED_MS) onStalled();
  }, 5_000);
  timer.unref();
  return { follow: attach, stop: () => clearInterval(timer) };
}
