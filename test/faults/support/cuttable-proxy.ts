import { createServer, connect, type Socket } from "node:net";

/** A TCP proxy a test can cut (the server behind it is gone) and restore. */
export interface CuttableProxy {
  /** The port services connect to, instead of the server's. */
  port: number;
  /** Drops every open connection and stops listening (new ones are refused) until `restore`. */
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A store outage as the services see it: every connection dies at once and new ones are refused,
 * as when the server's process stops, while the data behind it (FerretDB's PostgreSQL) is kept.
 */
export async function startCuttableProxy(target: { host: string; port: number }): Promise<CuttableProxy> {
  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(target);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on("close", () => open.delete(socket));
      socket.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) => new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", () => resolve()));
  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of open) socket.destroy();
    });
  await listen(0);
  const port = (server.address() as { port: number }).port;
  let listening = true;
  return {
    port,
    async cut() {
      listening = false;
      await stop();
    },
    async restore() {
      // The same port: the services know no other address.
      await listen(port);
      listening = true;
    },
    close: () => (listening ? stop() : Promise.resolve()),
  };
}
