import { AppError } from "@payrail/contracts";
import { CountryCode, Products, type LinkTokenCreateRequest } from "plaid";
import { z } from "zod";
import type { AccountDescription, BankLinkToken, ExchangedItem, ProcessorToken } from "../../domain/bank-accounts/ports/bank-data.port.ts";

/*
 * Pure translations between the port and Plaid's wire shapes (https://plaid.com/docs/api/).
 * Answers are checked with zod before use: a malformed answer is a provider failure, not a crash.
 */

/** /link/token/create for the ACH account picker: Auth, US banks, one consumer per token. */
export function toLinkTokenRequest(input: { clientUserId: string }, clientName: string): LinkTokenCreateRequest {
  return {
    client_name: clientName,
    language: "en",
    country_codes: [CountryCode.Us],
    products: [Products.Auth],
    user: { client_user_id: input.clientUserId },
  };
}

const LinkTokenAnswer = z.object({ link_token: z.string().min(1), expiration: z.string().min(1), request_id: z.string() });
const ExchangeAnswer = z.object({ access_token: z.string().min(1), item_id: z.string().min(1), request_id: z.string() });
const ProcessorTokenAnswer = z.object({ processor_token: z.string().min(1), request_id: z.string() });

export function fromLinkTokenResponse(data: unknown): BankLinkToken {
  const a = parseAnswer(LinkTokenAnswer, data, "/link/token/create");
  // Plaid writes `2020-03-27T12:56:34Z`; the API promises milliseconds (docs/api-notes.md, Identifiers and times).
  const expiration = Number.isNaN(Date.parse(a.expiration)) ? a.expiration : new Date(a.expiration).toISOString();
  return { linkToken: a.link_token, expiration, requestId: a.request_id };
}

export function fromExchangeResponse(data: unknown): ExchangedItem {
  const a = parseAnswer(ExchangeAnswer, data, "/item/public_token/exchange");
  return { accessToken: a.access_token, itemId: a.item_id, requestId: a.request_id };
}

const AccountsAnswer = z.object({
  accounts: z.array(z.object({ account_id: z.string(), mask: z.string().nullable().optional(), verification_status: z.string().nullable().optional() })),
  item: z.object({ institution_id: z.string().nullable().optional(), institution_name: z.string().nullable().optional() }).optional(),
});

/**
 * Plaid's `verification_status` of an account whose numbers it has validated: absent (`instant`,
 * Plaid Auth matched the login) or verified by one of its own flows. Anything else (pending
 * micro-deposits, `database_matched`, `unsent`, ...) is not validated.
 */
const VALIDATED = new Set(["instant", "automatically_verified", "manually_verified"]);

/** /accounts/get filtered to one account: its mask, the item's bank (name when Plaid gives one), and whether Plaid validated it. */
export function fromAccountsResponse(data: unknown, accountId: string): AccountDescription {
  const a = parseAnswer(AccountsAnswer, data, "/accounts/get");
  const account = a.accounts.find((x) => x.account_id === accountId);
  if (!account) throw new AppError("provider_error", "the bank-data provider does not know the chosen account", { providerCode: "INVALID_ACCOUNT_ID" });
  return {
    institution: a.item?.institution_name ?? a.item?.institution_id ?? null,
    mask: account.mask ?? null,
    validated: VALIDATED.has(account.verification_status ?? "instant"),
  };
}

export function fromProcessorTokenResponse(data: unknown): ProcessorToken {
  const a = parseAnswer(ProcessorTokenAnswer, data, "/processor/token/create");
  return { processorToken: a.processor_token, requestId: a.request_id };
}

/** Plaid's error body (https://plaid.com/docs/errors/). */
export const PlaidErrorBody = z.object({
  error_type: z.string(),
  error_code: z.string(),
  error_message: z.string().optional(),
  display_message: z.string().nullable().optional(),
  request_id: z.string().optional(),
});
export type PlaidErrorBody = z.infer<typeof PlaidErrorBody>;

/**
 * Refusals caused by a value the API caller sent, by endpoint: these are 400s naming that
 * value, not provider failures. A public token comes from the consumer's front end; one that is
 * used, expired or made up is the client's mistake and retrying it can never work.
 */
const CALLER_MISTAKES: Record<string, Record<string, { param: string; message: string }>> = {
  "/item/public_token/exchange": {
    INVALID_PUBLIC_TOKEN: { param: "public_token", message: "public_token is invalid, expired or already used" },
  },
};

/** What failed, as plain values (the SDK's error object carries our secret in its config). */
export interface PlaidFailure {
  status?: number | undefined;
  body?: unknown;
  /** Node's network error code (ECONNREFUSED, ECONNABORTED, ...) when no answer came. */
  networkCode?: string | undefined;
}

/** A failed Plaid call as the API's error: 400 for the caller's mistakes above, else 502. */
export function toAppError(endpoint: string, failure: PlaidFailure): AppError {
  const body = PlaidErrorBody.safeParse(failure.body);
  if (!body.success) {
    const why = failure.status ? `answered HTTP ${failure.status}` : `did not answer (${failure.networkCode ?? "no response"})`;
    return new AppError("provider_error", `the bank-data provider ${why}`);
  }
  const { error_code: code, error_type: type } = body.data;
  const mistake = CALLER_MISTAKES[endpoint]?.[code];
  if (mistake) return new AppError("parameter_invalid", mistake.message, { param: mistake.param, providerCode: code });
  return new AppError("provider_error", `the bank-data provider refused the request (${type} ${code})`, { providerCode: code });
}

function parseAnswer<S extends z.ZodType>(schema: S, data: unknown, endpoint: string): z.output<S> {
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new AppError("provider_error", `the bank-data provider sent a malformed answer to ${endpoint}`);
  return parsed.data;
}
