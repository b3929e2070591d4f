import type { Config } from "@payrail/runtime";

/**
 * What `NODE_ENV=production` asks of a start (issue 24): providers chosen out loud, never by
 * PROVIDERS' sandbox default, and no demo merchant. Answers why the start is refused, in one
 * line, or null.
 */
export function productionRefusal(env: NodeJS.ProcessEnv, config: Pick<Config, "DEMO_MERCHANT">): string | null {
  if (env.NODE_ENV !== "production") return null;
  if (!env.PROVIDERS?.trim()) {
    return "NODE_ENV=production needs PROVIDERS chosen explicitly: PROVIDERS=live with the providers' credentials, or PROVIDERS=sandbox to run on the simulators (no money moves)";
  }
  if (config.DEMO_MERCHANT === "on") return "NODE_ENV=production never creates a demo merchant: unset DEMO_MERCHANT or set it to off";
  return null;
}

/** NODE_ENV=production: no demo merchant, and `/metrics` only on METRICS_PORT, never on the API port. */
export const isProduction = (env: NodeJS.ProcessEnv = process.env) => env.NODE_ENV === "production";
