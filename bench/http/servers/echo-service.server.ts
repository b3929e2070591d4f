/**
 * The ceiling's back end: a process serving `bench.echo` over RabbitMQ with the transport
 * and defaults the domain services use (see bin/wiring.ts openTransport).
 *   AMQP_URL=amqp://guest:guest@127.0.0.1:5672 node --import tsx bench/http/servers/echo-service.server.ts
 */
import { handle } from "@payrail/messaging";
import { echoOp, echoTransport } from "./echo.op.ts";

const { transport } = await echoTransport();
await transport.serve("bench", [handle(echoOp, async ({ n }) => ({ n }))]);
console.log("echo service running");
const stop = () => void transport.close().then(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
