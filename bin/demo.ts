import { readDemoKey } from "./demo-merchant.ts";
import { walkThrough } from "./demo/walk-through.ts";

/**
 * `npm run demo`: the README's walk-through against a running Payrail (`npm start` in another
 * terminal). PAYRAIL_URL (default http://127.0.0.1:8080) says where; PAYRAIL_API_KEY which
 * merchant, else the demo merchant `npm start` created (DATA_DIR/demo-merchant.json).
 */
const baseUrl = process.env.PAYRAIL_URL ?? `http://127.0.0.1:${process.env.PORT ?? "8080"}`;
try {
  const apiKey = process.env.PAYRAIL_API_KEY ?? (await readDemoKey(process.env.DATA_DIR ?? ".data"));
  console.log(`Walking through Payrail at ${baseUrl}\n`);
  const result = await walkThrough(baseUrl, apiKey);
  console.log(`\nDone: checkout ${result.paidCheckout.id} ${result.paidCheckout.status}, subscription cancelled, refund ${result.completedRefund.id} ${result.completedRefund.status}.`);
} catch (err) {
  const cause = (err as { cause?: { code?: string } }).cause;
  const hint = cause?.code === "ECONNREFUSED" ? ` (is Payrail running? start it with \`npm start\`)` : "";
  console.error(`demo failed: ${(err as Error).message}${hint}`);
  process.exit(1);
}
