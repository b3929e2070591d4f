import type { Command } from "commander";

const ENVIRONMENT = `
Environment (see docs/guide/operator.md):
  PORT, HOST        gateway address (default 127.0.0.1:8080)
  SERVICES          services this process runs (default: all)
  AMQP_URL          RabbitMQ; unset: the in-process bus
  AMQP_GATEWAY_USERS, AMQP_SERVICE_USERS, AMQP_ADMIN_USERS
                    the broker trust boundary: which RabbitMQ users may act for whom
                    and publish which events (AMQP_SERVICE_USERS as service:user,…)
  MONGODB_URL       MongoDB; unset: the embedded store under DATA_DIR (default ./.data)
  ADMIN_TOKEN       enables the admin routes (x-admin-token)
  TRUST_PROXY       the proxies (addresses, CIDRs or a hop count) whose X-Forwarded-For names the client
  PROVIDERS         sandbox (default) or live; NODE_ENV=production needs it set
  METRICS_PORT      /healthz, /readyz and /metrics of a process without the gateway
                    (and of every process with NODE_ENV=production; default 9464)
  DEFAULT_PHONE_COUNTRY  the country of phone numbers written without +… (default US)
  EVENT_RETRY_HOURS how long a failing event is retried before it is dead-lettered (default 24)
  LOG_LEVEL, LOG_FORMAT`;

/** `payrail start`: its help here; the services and their wiring are loaded only when it runs (run-start.ts). */
export function defineCommand(start: Command): void {
  start.addHelpText("after", ENVIRONMENT).action(async () => (await import("./run-start.ts")).runStart());
}
