/**
 * The ceiling's front: bare fastify whose one route makes one RabbitMQ RPC (to
 * echo-service.server.ts) and returns the reply: the least any RabbitMQ-mode route can cost.
 *   PORT=3000 AMQP_URL=… node --import tsx bench/http/servers/echo-gateway.server.ts
 */
import Fastify from "fastify";
import { echoOp, echoTransport } from "./echo.op.ts";

const { config, transport } = await echoTransport();
const ctx = (requestId: string) => ({ requestId, principal: { kind: "anonymous" as const } });

const app = Fastify();
let n = 0;
app.get("/", async (request) => transport.call(echoOp, { n: n++ }, ctx(request.id)));
app.get("/readyz", async (request, reply) => {
  try {
    return await transport.call(echoOp, { n: -1 }, ctx(request.id), { timeoutMs: 2_000 });
  } catch {
    return reply.code(503).send({ status: "not_ready" });
  }
});
await app.listen({ host: config.HOST, port: config.PORT });
const stop = () => void app.close().then(() => transport.close()).then(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
