import { reconcileOp } from "@payrail/contracts";
import type { Command } from "commander";
import { withAdminCalls } from "./admin-calls.ts";
import { DOMAIN_SERVICES } from "./domain-services.ts";
import { durationOption } from "./duration-option.ts";

/**
 * `payrail reconcile`: one reconciler pass now (docs/api-notes.md, Convergence with the provider): every transfer and refund payout
 * pending past RECONCILE_AFTER (or `--after`) is looked up at the provider and applied, and
 * every attempt stopped between the provider call and its record is finished. Prints what
 * changed. Over RabbitMQ the running payments service runs it; beside a `payrail start` on the
 * embedded store, that process does (through its admin route); else this process does.
 */
export function defineCommand(reconcile: Command): void {
  reconcile
    .option("--after <duration>", "look at what has been pending longer than this (default RECONCILE_AFTER)", durationOption)
    .action((o: { after?: number }) =>
      withAdminCalls(DOMAIN_SERVICES, async (call) => {
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
