import { reconcileOp } from "@payrail/contracts";
import { type Command, InvalidArgumentError } from "commander";
import { DOMAIN_SERVICES, withServices } from "./cli-services.ts";

const duration = (value: string) => {
  const match = /^(\d+)(ms|s|m|h|d)?$/.exec(value.trim());
  if (!match) throw new InvalidArgumentError("a duration such as 0, 30s, 15m or 1h");
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] ?? "ms"]!;
  return Number(match[1]) * unit;
};

/**
 * `payrail reconcile`: one reconciler pass now (API.md §12): every transfer and refund payout
 * pending past RECONCILE_AFTER (or `--after`) is looked up at the provider and applied, and
 * every attempt stopped between the provider call and its record is finished. Prints what
 * changed. Over RabbitMQ the running payments service runs it; without, this process does.
 */
export function registerReconcileCommand(program: Command): void {
  program
    .command("reconcile")
    .description("run one reconciler pass now: bring what is pending to the provider's status, print what changed")
    .option("--after <duration>", "look at what has been pending longer than this (default RECONCILE_AFTER)", duration)
    .action((o: { after?: number }) =>
      withServices(DOMAIN_SERVICES, async ({ call }) => {
        const report = await call(reconcileOp, o.after !== undefined ? { after_ms: o.after } : {});
        if (report.busy) {
          console.log("another reconciler pass is running; nothing done");
          return;
        }
        for (const c of report.changes) console.log(`${c.kind} ${c.id}: ${c.from} → ${c.to}`);
        console.log(`checked ${report.checked}, changed ${report.changes.length}, errors ${report.errors}`);
        if (report.errors > 0) process.exitCode = 1;
      }),
    );
}
