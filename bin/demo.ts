import { walkThrough } from "./demo/walk-through.ts";
import { whyFetchFailed } from "./fetch-failure.ts";
import { payrailApiKey, payrailUrl } from "./payrail-target.ts";

/**
 * `npm run demo`: the walk-through (docs/guide/walk-through.md) against a running Payrail (`npm start` in another
 * terminal). PAYRAIL_URL (or PAYRAIL_API; default http://127.0.0.1:8080) says where;
 * PAYRAIL_API_KEY which merchant, else the demo merchant `npm start` created.
 */
const baseUrl = payrailUrl();
try {
  const apiKey = await payrailApiKey();
  if (!apiKey) {
    throw new Error(`no PAYRAIL_API_KEY and no demo merchant in ${process.env.DATA_DIR || ".data"}: start Payrail with \`npm start\` first, or set PAYRAIL_API_KEY`);
  }
  console.log(`Walking through Payrail at ${baseUrl}\n`);
  const result = await walkThrough(baseUrl, apiKey);
  console.log(`\nDone: checkout ${result.paidCheckout.id} ${result.paidCheckout.status}, subscription cancelled, refund ${result.completedRefund.id} ${result.completedRefund.status}.`);
  console.log(`Refund ${result.pendingRefund.id} (${result.pendingRefund.amount}) waits for a decision: approve and pay it out at ${baseUrl}/dashboard/refunds`);
} catch (err) {
  const unreachable = (err as { cause?: unknown }).cause !== undefined && (err as Error).message === "fetch failed";
  const why = unreachable ? `Payrail at ${baseUrl} did not answer: ${whyFetchFailed(err)} (is it running? start it with \`npm start\`)` : (err as Error).message;
  console.error(`demo failed: ${why}`);
  process.exit(1);
}
