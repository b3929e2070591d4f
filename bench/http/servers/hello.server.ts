/**
 * The baseline: bare fastify answering `{"hello":"world"}`, no logger, no plugins. Every
 * embedded row is a fraction of this. Run by bench/http.bench.ts in its own process:
 *   PORT=3000 node --import tsx bench/http/servers/hello.server.ts
 */
import Fastify from "fastify";

const app = Fastify();
app.get("/", async () => ({ hello: "world" }));
app.get("/readyz", async () => ({ status: "ready" }));
await app.listen({ host: "127.0.0.1", port: Number(process.env["PORT"] ?? 3000) });
const stop = () => void app.close().then(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
