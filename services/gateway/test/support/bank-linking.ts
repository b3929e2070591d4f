import { randomInt } from "node:crypto";
import { sampleCheckout } from "../../../../test/support/fixtures.ts";
import type { Stack } from "../../../../test/support/stack.ts";

/** A fresh US mobile-looking number (resend limits are per phone, so each consumer gets its own). */
export function randomPhone(): string {
  return `+1415${randomInt(2, 10)}${String(randomInt(0, 1_000_000)).padStart(6, "0")}`;
}

/**
 * A consumer's auth token by the real flow (part A's identity): Send Code, the merchant's code
 * read back from the sandbox, Verify Code; the token reaches that merchant's records only.
 */
export async function consumerToken(stack: Stack, apiKey: string, phone = randomPhone()): Promise<{ token: string; userId: string; phone: string }> {
  const [consumer] = await consumerTokensAt(stack, [apiKey], phone);
  return consumer;
}

/**
 * One phone signed in at several merchants from one Send Code: each merchant reads back its own
 * code and the consumer verifies each, so each token reaches that merchant's records only
 * (docs/decisions/0001-sandbox-tenancy.md). In `apiKeys` order. `sent`: the code was sent
 * already (by the portal's sign-in form, say).
 */
export async function consumerTokensAt<const Keys extends readonly string[]>(
  stack: Stack,
  apiKeys: Keys,
  phone = randomPhone(),
  options: { sent?: boolean } = {},
): Promise<{ [K in keyof Keys]: Consumer }> {
  if (!options.sent) {
    const sent = await stack.app.inject({ method: "POST", url: "/api/verify_user/send_code", payload: { phone } });
    if (sent.statusCode !== 200) throw new Error(`send_code: ${sent.statusCode} ${sent.body}`);
  }
  const tokens: Consumer[] = [];
  for (const apiKey of apiKeys) tokens.push(await verifiedWith(stack, apiKey, phone));
  return tokens as { [K in keyof Keys]: Consumer };
}

type Consumer = { token: string; userId: string; phone: string };

async function verifiedWith(stack: Stack, apiKey: string, phone: string): Promise<Consumer> {
  const code = await stack.app.inject({ method: "GET", url: `/api/sandbox/verification_codes/${encodeURIComponent(phone)}`, headers: { "api-key": apiKey } });
  if (code.statusCode !== 200) throw new Error(`sandbox code: ${code.statusCode} ${code.body}`);
  const verified = await stack.app.inject({
    method: "POST",
    url: "/api/verify_user/verify_code",
    payload: { phone, verification_code: code.json().code },
  });
  if (verified.statusCode !== 200) throw new Error(`verify_code: ${verified.statusCode} ${verified.body}`);
  const data = verified.json().data as { auth_token: string; user_id: string };
  return { token: data.auth_token, userId: data.user_id, phone };
}

/** A merchant's checkout and its merchant link token, through the merchant endpoints. */
export async function checkoutWithLinkToken(stack: Stack, apiKey: string): Promise<{ id: string; linkToken: string }> {
  const created = await stack.app.inject({ method: "POST", url: "/api/merchants/checkout", payload: sampleCheckout(), headers: { "api-key": apiKey } });
  const id = created.json().id as string;
  const link = await stack.app.inject({ method: "GET", url: `/api/merchants/checkout/${id}/generate_link_token`, headers: { "api-key": apiKey } });
  return { id, linkToken: link.json().link_token as string };
}
