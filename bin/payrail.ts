#!/usr/bin/env -S npx tsx
/**
 * The one launcher. `start` runs the services named in SERVICES in this process;
 * `merchant …` administers merchants and keys. commander checks every command's arguments
 * (and answers `--help`) before any action runs, so nothing opens the data directory for a
 * help page or a typo.
 */
import { Command } from "commander";
import { registerEventsCommands } from "./events.command.ts";
import { registerListenCommand } from "./listen.command.ts";
import { registerMerchantCommands } from "./merchant.command.ts";
import { registerUsersCommands } from "./users.command.ts";
import { registerReconcileCommand } from "./reconcile.command.ts";
import { registerCheckCommand } from "./check.command.ts";
import { runStart } from "./start.command.ts";
import { registerTriggerCommand } from "./trigger.command.ts";
import { registerComplianceCommands } from "./compliance.command.ts";

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

const program = new Command("payrail")
  .description("Payrail: bank-transfer checkout, subscription and refund service")
  .showHelpAfterError("(run with --help for usage)")
  .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2));

program
  .command("start")
  .description("run the services named in SERVICES in this process (all of them by default)")
  .addHelpText("after", ENVIRONMENT)
  .action(() => runStart());

registerMerchantCommands(program);
registerUsersCommands(program);
registerListenCommand(program);
registerTriggerCommand(program);
registerComplianceCommands(program);
registerReconcileCommand(program);
registerCheckCommand(program);
registerEventsCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  console.error(`payrail: ${(err as Error).message}`);
  process.exit(1);
}
