import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readinessProbe, type Transport } from "@payrail/messaging";
import { prefixedHexId } from "@payrail/runtime";
import type { Registry } from "prom-client";

/**
 * `/healthz`, `/readyz` and `/metrics` of a process that runs no gateway (docs/api-notes.md, Operations): the
 * gateway serves them on its own port, every other process here. Ready means the broker is
 * connected and each service of this process answers its ping (which pings its database), or
 * answered one lately and is only slow now (readinessProbe).
 * Plain node:http: three fixed routes need no framework, and fastify stays in the gateway.
 */
export async function startMetricsServer(options: {
  port: number;
  host: string;
  registry: Registry;
  transport: Transport;
  services: readonly string[];
}): Promise<{ name: string; url: string; stop(): Promise<void> }> {
  const { registry, transport, services } = options;
  const probe = readinessProbe(transport, services);
  const server = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0]!.replace(/\/$/, "") || "/";
    const send = (status: number, body: unknown, type = "application/json") => {
      response.writeHead(status, { "content-type": type, ...(status === 503 ? { "retry-after": "1" } : {}) });
      response.end(typeof body === "string" ? body : JSON.stringify(body));
    };
    if (request.method !== "GET") return send(405, { error: { type: "invalid_request_error", code: "method_not_allowed", message: "GET only" } });
    if (path === "/healthz") return send(200, { status: "ok" });
    if (path === "/metrics") {
      registry.metrics().then((text) => send(200, text, registry.contentType), () => send(500, { error: { type: "api_error", code: "internal_error", message: "metrics failed" } }));
      return;
    }
    if (path === "/readyz") {
      probe(prefixedHexId("req_")).then(({ ready, checks }) => send(ready ? 200 : 503, { status: ready ? "ready" : "not_ready", checks }));
      return;
    }
    send(404, { error: { type: "not_found_error", code: "route_not_found", message: "only /healthz, /readyz and /metrics here" } });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return { name: "metrics-server", url: `http://${options.host}:${port}`, stop: () => close(server) };
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
