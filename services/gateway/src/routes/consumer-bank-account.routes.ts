import {
  BankAccountValidationState,
  RelinkBankAccountBody,
  RelinkMicroDepositsBody,
  VerifyRelinkMicroDepositsBody,
  startRelinkMicroDepositsOp,
  verifyRelinkMicroDepositsOp,
  RelinkBankAccountResponse,
  RelinkTokenBody,
  RelinkTokenResponse,
  createRelinkTokenOp,
  relinkBankAccountOp,
} from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { userAuth } from "../auth/hooks.ts";
import { callService, mandateClient } from "@payrail/web";
import type { GatewayContext } from "../gateway-context.ts";
import { AuthorizationHeader, ErrorBodySchema, errorResponses } from "./openapi-shared.ts";

/**
 * The consumer links another bank account to one of their subscriptions (docs/api-notes.md, Returns and blocked bank accounts): a bank-linking token with the recurring authorization text, then the
 * exchange that replaces the account, or keeps the change pending on an account the bank could
 * not validate until the consumer verifies its micro-deposits (docs/api-notes.md, Account
 * validation). The consumer's `Authorization` only; another consumer's subscription is a 404.
 */
export async function consumerBankAccountRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["Consumer: subscriptions"];
  const preValidation = userAuth(ctx);
  r.post(
    "/api/consumers/subscriptions/bank_account/link_token",
    {
      preValidation,
      schema: {
        tags,
        summary: "A bank-linking token to link another account to a subscription, with the mandate text",
        headers: AuthorizationHeader,
        body: RelinkTokenBody,
        response: { 200: RelinkTokenResponse, ...errorResponses, 502: ErrorBodySchema },
      },
    },
    (request) => callService(ctx, request, createRelinkTokenOp, request.body),
  );
  r.post(
    "/api/consumers/subscriptions/bank_account",
    {
      preValidation,
      schema: {
        tags,
        summary: "Link another bank account to a subscription (a new recurring mandate)",
        headers: AuthorizationHeader,
        body: RelinkBankAccountBody,
        response: { 200: RelinkBankAccountResponse, ...errorResponses, 502: ErrorBodySchema },
      },
    },
    (request) =>
      callService(ctx, request, relinkBankAccountOp, {
        ...request.body,
        client: mandateClient(request),
      }),
  );
  const validationResponses = { 200: BankAccountValidationState, ...errorResponses, 502: ErrorBodySchema };
  r.post(
    "/api/consumers/subscriptions/bank_account/micro_deposits",
    {
      preValidation,
      schema: { tags, summary: "Send micro-deposits to a subscription's pending bank account", headers: AuthorizationHeader, body: RelinkMicroDepositsBody, response: validationResponses },
    },
    (request) => callService(ctx, request, startRelinkMicroDepositsOp, request.body),
  );
  r.post(
    "/api/consumers/subscriptions/bank_account/micro_deposits/verify",
    {
      preValidation,
      schema: { tags, summary: "Verify the micro-deposits of a subscription's pending bank account", headers: AuthorizationHeader, body: VerifyRelinkMicroDepositsBody, response: validationResponses },
    },
    (request) => callService(ctx, request, verifyRelinkMicroDepositsOp, request.body),
  );
}
