/**
 * How long a Create row's events take to reach their subscribers after the row, and what that
 * costs. A Create is not done when it answers: its `checkout.created` still has to leave the
 * outbox and be recorded by the webhooks service. A server whose relay falls behind answers
 * creates cheaply during the row and pays for their events after it (or never, under a load
 * that lasts), so the row's own CPU per request understates what a create costs.
 *
 * After the row one more checkout is created (the marker); the relays send oldest first, so
 * when the marker's event is in the merchant's event log (`GET /api/merchants/events`, newest
 * first), the row's events are too. The marker is looked for among the newest 100, not as the
 * newest: the row's requests still in flight when its load stopped (up to one a connection) may
 * be answered after it, and on a slow machine they were, so the newest never was the marker.
 */
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { checkoutBody } from "./checkout-body.ts";

const POLL_MS = 50;
const GIVE_UP_MS = 180_000;

/** Seconds from the call until the marker's event is listed; null when it never is (within 3 minutes). */
export async function eventsCaughtUp(url: string, apiKey: string, tag: string): Promise<number | null> {
  const started = performance.now();
  const headers = { "api-key": apiKey, "content-type": "application/json" };
  const created = await fetch(`${url}/api/merchants/checkout`, { method: "POST", headers, body: JSON.stringify(checkoutBody(`${tag}-marker`)) });
  if (created.status !== 200) throw new Error(`marker checkout: ${created.status} ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  while (performance.now() - started < GIVE_UP_MS) {
    const res = await fetch(`${url}/api/merchants/events?type=checkout.created&limit=100`, { headers: { "api-key": apiKey } });
    const page = (await res.json()) as { data?: { data?: { object?: { id?: string } } }[] };
    if (page.data?.some((event) => event.data?.object?.id === id)) return (performance.now() - started) / 1000;
    await sleep(POLL_MS);
  }
  return null;
}
