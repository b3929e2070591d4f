import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { ADMIN_TOKEN, type Stack } from "../../../../test/support/stack.ts";
import { linkedCheckout, type LinkedCheckout } from "./payment-flow.ts";

export interface Payment {
  checkoutId: string;
  uuid: string;
  consumer: LinkedCheckout["consumer"];
}

/** The refund endpoints of spec 11–14 and the sandbox simulation, as a client calls them. */
export function refundClient(stack: Stack) {
  const send = (options: InjectOptions) => stack.app.inject(options);
  return {
    request: (headers: Record<string, string>, body: unknown, slash = "/") =>
      send({ method: "POST", url: `/api/merchants/refund_request/consumer_refund_request${slash}`, payload: body as object, headers }),
    list: (headers: Record<string, string>, slash = "/") => send({ url: `/api/merchants/refund_request/consumer_refund_list${slash}`, headers }),
    decide: (headers: Record<string, string>, id: string, status: string, slash = "/") =>
      send({ method: "POST", url: `/api/merchants/refund_request/merchant_status_refund_request${slash}`, payload: { id, status }, headers }),
    initiate: (headers: Record<string, string>, id: string, slash = "/") =>
      send({ method: "POST", url: `/api/merchants/refund_request/initiate_refund_transfer${slash}`, payload: { id, status: "approved" }, headers }),
    simulate: (apiKey: string, id: string, status: "completed" | "failed") =>
      send({ method: "POST", url: `/api/sandbox/transfers/${id}/simulate`, payload: { status }, headers: { "api-key": apiKey } }),
  };
}

/**
 * A payment through the real endpoints (one-off, or what `overrides` make it), left pending or
 * settled by the sandbox; `options` as linkedCheckout's.
 */
export async function payment(
  stack: Stack,
  apiKey: string,
  status: "pending" | "completed" | "failed" = "completed",
  overrides: Record<string, unknown> = {},
  options: Parameters<typeof linkedCheckout>[3] = {},
): Promise<Payment> {
  const { id, consumer } = await linkedCheckout(stack, apiKey, overrides, options);
  const pt = await stack.app.inject({
    method: "POST",
    url: "/api/merchants/payment_preprocess/get_processor_token",
    payload: { checkout_id: id },
    headers: { "api-key": apiKey },
  });
  ok(pt, "get_processor_token");
  const uuid = pt.json().transaction_uuid as string;
  if (status !== "pending") ok(await refundClient(stack).simulate(apiKey, uuid, status), "simulate");
  return { checkoutId: id, uuid, consumer };
}

/** Registers `phone` as an operator of the merchant (the admin route); the reply. */
export function addOperator(stack: Stack, merchantId: string, phone: string): Promise<LightMyRequestResponse> {
  return stack.app.inject({ method: "POST", url: `/api/admin/merchants/${merchantId}/operators`, headers: { "x-admin-token": ADMIN_TOKEN }, payload: { phone } });
}

/** A refund the consumer requested for `p`; the record. */
export async function requested(stack: Stack, p: Payment): Promise<{ id: string; status: string; refund_transaction_id: string | null }> {
  const reply = await refundClient(stack).request({ authorization: `Token ${p.consumer.token}` }, { transaction_uuid: p.uuid });
  ok(reply, "consumer_refund_request");
  return reply.json().refund;
}

function ok(reply: LightMyRequestResponse, what: string): void {
  if (reply.statusCode !== 200) throw new Error(`${what}: ${reply.statusCode} ${reply.body}`);
}
