#!/usr/bin/env -S npx tsx
/**
 * The one launcher. `start` runs the services named in SERVICES in this process;
 * `merchant …` administers merchants and keys. commander checks every command's arguments
 * (and answers `--help`) before any action runs, so nothing opens the data directory for a
 * help page or a typo.
 *
 * Each command's module is loaded only when that command is the one run (issue 39): `payrail
 * --help` loads commander alone, `merchant keys` what the merchant commands use, and no command
 * loads the services, fastify or a database driver unless its action needs them. So this file
 * names every command with its one-line description, and the module named fills in the rest.
 */
import { Command } from "commander";

type Definition = { defineCommand(command: Command): void };

const COMMANDS: Record<string, { description: string; load: () => Promise<Definition> }> = {
  start: {
    description: "run the services named in SERVICES in this process (all of them by default)",
    load: () => import("./start.command.ts"),
  },
  merchant: {
    description: "administer merchants and their API keys (over RabbitMQ with AMQP_URL, else on the store directly)",
    load: () => import("./merchant.command.ts"),
  },
  users: {
    description: "a merchant's dashboard users (over RabbitMQ with AMQP_URL, beside a running Payrail through its admin routes, else on the store directly)",
    load: () => import("./users.command.ts"),
  },
  listen: {
    description: "forward the merchant's new events to a local URL, signed as Standard Webhooks deliveries (like stripe listen)",
    load: () => import("./listen.command.ts"),
  },
  trigger: {
    description: "make an event happen through the sandbox flow, with real linked objects (like stripe trigger)",
    load: () => import("./trigger.command.ts"),
  },
  compliance: {
    description: "the merchant's compliance evidence (NACHA fraud monitoring)",
    load: () => import("./compliance.command.ts"),
  },
  reconcile: {
    description: "run one reconciler pass now: bring what is pending to the provider's status, print what changed",
    load: () => import("./reconcile.command.ts"),
  },
  check: {
    description: "report every divergence between the services' records (exit 1 when any)",
    load: () => import("./check.command.ts"),
  },
  indexes: {
    description: "create the indexes every service queries by where missing, and nothing else (the chart's pre-upgrade Job)",
    load: () => import("./indexes.command.ts"),
  },
  events: {
    description: "domain events given up on: list and replay them (reads the store: the embedded one, or MONGODB_URL)",
    load: () => import("./events.command.ts"),
  },
};

/**
 * The command this run names: the first operand (`payrail` itself takes no option with a
 * value), or the one after `help` (`payrail help merchant`); undefined for none or a typo.
 */
function commandNamed(args: readonly string[]): string | undefined {
  const operands = args.filter((arg) => !arg.startsWith("-"));
  const name = operands[0] === "help" ? operands[1] : operands[0];
  return name !== undefined && Object.hasOwn(COMMANDS, name) ? name : undefined;
}

const program = new Command("payrail")
  .description("Payrail: bank-transfer checkout, subscription and refund service")
  .showHelpAfterError("(run with --help for usage)")
  .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2));

const commands = new Map(Object.entries(COMMANDS).map(([name, { description }]) => [name, program.command(name).description(description)]));

try {
  const chosen = commandNamed(process.argv.slice(2));
  if (chosen) (await COMMANDS[chosen]!.load()).defineCommand(commands.get(chosen)!);
  await program.parseAsync(process.argv);
} catch (err) {
  console.error(`payrail: ${(err as Error).message}`);
  process.exit(1);
}
