import type { InjectOptions } from "fastify";
import { sampleCheckout } from "../../../../test/support/fixtures.ts";
import type { Stack } from "../../../../test/support/stack.ts";
import { consumerToken } from "./bank-linking.ts";

export interface LinkedCheckout {
  id: string;
  consumer: { token: string; userId: string; phone: string };
  /** The merchant link token the consumer used (the consumer routes' `link-token`). */
  linkToken: string;
}

/**
 * A checkout whose consumer has verified a phone and linked a bank account, through the real
 * endpoints: the state in which the merchant may call Get Processor Token.
 */
export async function linkedCheckout(
  stack: Stack,
  apiKey: string,
  overrides: Record<string, unknown> = {},
  /**
   * An existing consumer (else a new one), which of the sandbox item's accounts to link (0:
   * checking, 1: savings, 2: "Unverifiable Checking", which needs micro-deposits), and whether to accept the checkout's mandate text as the hosted page
   * does (else the merchant attests it at the debit).
   */
  options: { consumer?: LinkedCheckout["consumer"]; account?: number; acceptMandate?: boolean } = {},
): Promise<LinkedCheckout> {
  const inject = async (options: InjectOptions, what: string) => {
    const reply = await stack.app.inject(options);
    if (reply.statusCode !== 200) throw new Error(`${what}: ${reply.statusCode} ${reply.body}`);
    return reply.json();
  };
  const merchant = { "api-key": apiKey };
  const { id } = await inject({ method: "POST", url: "/api/merchants/checkout", payload: sampleCheckout(overrides), headers: merchant }, "create");
  const { link_token: linkToken } = await inject({ url: `/api/merchants/checkout/${id}/generate_link_token`, headers: merchant }, "link token");
  const consumer = options.consumer ?? (await consumerToken(stack, apiKey));
  const headers = { authorization: `Token ${consumer.token}`, "link-token": linkToken };
  const bank = await inject({ method: "POST", url: `/api/consumers/checkout/${id}/create_link_token/`, headers }, "create_link_token");
  const sandbox = await inject({ method: "POST", url: "/api/sandbox/public_token", payload: { link_token: bank.link_token }, headers: merchant }, "public token");
  const mandate = options.acceptMandate ? { mandate: { text_version: (await inject({ url: `/api/consumers/checkout/${id}/mandate_text`, headers }, "mandate text")).text_version } } : {};
  await inject(
    {
      method: "POST",
      url: `/api/consumers/checkout/${id}/exchange_public_token/`,
      payload: { public_token: sandbox.public_token, bankdata_account_id: sandbox.accounts[options.account ?? 0].account_id, ...mandate },
      headers,
    },
    "exchange",
  );
  return { id, consumer, linkToken };
}
