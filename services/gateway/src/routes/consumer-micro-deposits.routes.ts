import { BankAccountValidationState, parseOrThrow, StartMicroDepositsBody, VerifyMicroDepositsBody, startMicroDepositsOp, verifyMicroDepositsOp } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { userAuth } from "../auth/hooks.ts";
import { callService } from "@payrail/web";
import type { GatewayContext } from "../gateway-context.ts";
import { ConsumerHeaders, linkTokenFrom } from "./consumer-checkout.routes.ts";
import { ErrorBodySchema, errorResponses } from "./openapi-shared.ts";

/**
 * Account validation by micro-deposits (docs/api-notes.md, Account validation), for the
 * consumer: the two headers of bank linking, on the account linked to the link token's checkout.
 * Registered in the bank-linking routes' scope (app.ts), whose JSON parser takes an empty body as none.
 */
export function consumerMicroDepositRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["Consumer: bank linking"];
  const preValidation = userAuth(ctx);
  const responses = { 200: BankAccountValidationState, ...errorResponses, 403: ErrorBodySchema, 502: ErrorBodySchema };
  r.post(
    "/api/consumers/bank_account/micro_deposits",
    // No body schema: a body is optional here (the link token names the checkout), and a schema would require one.
    { preValidation, schema: { tags, summary: "Start micro-deposits to validate the linked bank account", headers: ConsumerHeaders, response: responses } },
    (request) => {
      const body = request.body === undefined || request.body === null ? undefined : parseOrThrow(StartMicroDepositsBody, request.body);
      return callService(ctx, request, startMicroDepositsOp, { ...(body?.checkout_id ? { checkout_id: body.checkout_id } : {}), link_token: linkTokenFrom(request) });
    },
  );
  r.post(
    "/api/consumers/bank_account/micro_deposits/verify",
    { preValidation, schema: { tags, summary: "Verify the two micro-deposit amounts", headers: ConsumerHeaders, body: VerifyMicroDepositsBody, response: responses } },
    (request) =>
      callService(ctx, request, verifyMicroDepositsOp, {
        ...(request.body.checkout_id ? { checkout_id: request.body.checkout_id } : {}),
        link_token: linkTokenFrom(request),
        amounts: request.body.amounts,
      }),
  );
}
