import { AppError, byCodeUnit } from "@payrail/contracts";
import { z } from "zod";
import type { CreateTransferInput, EnsureCustomerInput, TransferStatus } from "../../domain/transfers/ports/transfer.port.ts";

/*
 * Pure translations between the port and Dwolla's wire shapes (https://developers.dwolla.com/).
 * Answers are checked with zod before use: a malformed answer is a provider failure, not a crash.
 */

/** Dwolla's transfer statuses, explicitly. Anything else is `pending` (and logged by the adapter). */
export const DWOLLA_TRANSFER_STATUSES: Readonly<Record<string, TransferStatus>> = {
  pending: "pending",
  processed: "completed",
  failed: "failed",
  cancelled: "cancelled",
};

export function fromDwollaStatus(vendorStatus: string): { status: TransferStatus; known: boolean } {
  const status = Object.hasOwn(DWOLLA_TRANSFER_STATUSES, vendorStatus) ? DWOLLA_TRANSFER_STATUSES[vendorStatus] : undefined;
  return status ? { status, known: true } : { status: "pending", known: false };
}

/** Dwolla wants a decimal string ("10.05"); integer arithmetic keeps cents exact. */
export function toDwollaAmount(amountCents: number, currency: string): { value: string; currency: string } {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) {
    throw new AppError("amount_invalid", "transfer amount must be a positive whole number of cents", { param: "amountCents" });
  }
  const cents = String(amountCents % 100).padStart(2, "0");
  return { value: `${Math.floor(amountCents / 100)}.${cents}`, currency };
}

export type DwollaCustomerType = "unverified" | "receive-only";

/**
 * POST /customers. An unverified customer is the lightest type that can both send (pay a
 * merchant) and receive (a refund); Dwolla asks for a name and a unique email, of which we know
 * neither, so placeholders derived from our user id stand in unless the caller has real ones.
 */
export function toCreateCustomerBody(input: EnsureCustomerInput, type: DwollaCustomerType, emailDomain: string): Record<string, string> {
  const body: Record<string, string> = {
    firstName: input.firstName ?? "Payrail",
    lastName: input.lastName ?? "Customer",
    email: input.email ?? `user-${input.userId}@${emailDomain}`,
  };
  if (type === "receive-only") body.type = "receive-only";
  return body;
}

/** Dwolla's Idempotency-Key for a user's customer: one per user, whatever the call. */
export function customerIdempotencyKey(userId: string): string {
  return `payrail-customer-${userId}`;
}

export function toCreateTransferBody(input: CreateTransferInput): Record<string, unknown> {
  const body: Record<string, unknown> = {
    _links: { source: { href: input.sourceFundingSource }, destination: { href: input.destinationFundingSource } },
    amount: toDwollaAmount(input.amountCents, input.currency),
    // Searchable later (GET /customers/{id}/transfers?correlationId=): how a resume past the
    // 24-hour idempotency window finds the transfer the key made.
    correlationId: input.idempotencyKey,
  };
  if (input.metadata && Object.keys(input.metadata).length > 0) body.metadata = input.metadata;
  return body;
}

/** The id at the end of a Dwolla resource URL (`…/customers/{id}`), in Dwolla's id alphabet; null when `href` names no such resource. */
export function idIn(href: string | null | undefined, resource: string): string | null {
  return (typeof href === "string" ? new RegExp(`/${resource}/([0-9A-Za-z-]{1,64})/?$`).exec(href)?.[1] : undefined) ?? null;
}

/** The id at the end of a `Location` header (`…/transfers/{id}`); Dwolla's 201s have no body. */
export function idFromLocation(location: string | null | undefined, resource: string): string {
  const id = idIn(location, resource);
  if (!id) throw new AppError("provider_error", `the transfer provider answered no ${resource} location`, { providerCode: "invalid_response" });
  return id;
}

/** Our transfer ids go into URL paths: only Dwolla's id alphabet is accepted. */
export function isDwollaId(id: string): boolean {
  return /^[0-9A-Za-z-]{1,64}$/.test(id);
}

const TransferAnswer = z.object({
  id: z.string().min(1),
  status: z.string().min(1),
  _links: z.object({ failure: z.object({ href: z.string() }).optional() }).passthrough().optional(),
});
const FailureAnswer = z.object({ code: z.string().min(1), description: z.string().optional() });

export function fromTransferResponse(body: unknown): { transferId: string; vendorStatus: string; failureHref?: string } {
  const a = parseAnswer(TransferAnswer, body, "GET /transfers/{id}");
  const failureHref = a._links?.failure?.href;
  return { transferId: a.id, vendorStatus: a.status, ...(failureHref ? { failureHref } : {}) };
}

const FundingSourceAnswer = z.object({ id: z.string().min(1), fingerprint: z.string().min(1).max(128).optional() });

/** GET /funding-sources/{id}: the bank account's fingerprint (absent on some non-bank sources). */
export function fromFundingSourceResponse(body: unknown): { fingerprint: string | null } {
  return { fingerprint: parseAnswer(FundingSourceAnswer, body, "GET /funding-sources/{id}").fingerprint ?? null };
}

const FundingSourceLinks = z.object({
  _links: z.object({ customer: z.object({ href: z.string() }).optional(), account: z.object({ href: z.string() }).optional() }).passthrough(),
});

/** GET /funding-sources/{id}: whose it is, from `_links.customer` (a customer's) or `_links.account` (the platform account's); null when neither names one. */
export function fromFundingSourceOwner(body: unknown): { kind: "customers" | "accounts"; id: string } | null {
  const links = parseAnswer(FundingSourceLinks, body, "GET /funding-sources/{id}")._links;
  const customer = idIn(links.customer?.href, "customers");
  if (customer) return { kind: "customers", id: customer };
  const account = idIn(links.account?.href, "accounts");
  return account ? { kind: "accounts", id: account } : null;
}

/** GET /transfers/{id}/failure: the ACH return code (R01 insufficient funds, ...). */
export function fromFailureResponse(body: unknown): string {
  return parseAnswer(FailureAnswer, body, "GET /transfers/{id}/failure").code;
}

/** Dwolla's error body: a code, a message, and for ValidationError the list of field errors. */
export const DwollaErrorBody = z.object({
  code: z.string().min(1),
  message: z.string().optional(),
  _links: z.object({ about: z.object({ href: z.string() }).partial().optional() }).partial().optional(),
  _embedded: z
    .object({
      errors: z.array(
        z.object({
          code: z.string().optional(),
          message: z.string().optional(),
          path: z.string().optional(),
          _links: z.object({ about: z.object({ href: z.string() }).partial().optional() }).partial().optional(),
        }),
      ),
    })
    .partial()
    .optional(),
});

/** What failed, as plain values: the SDK's error objects are never logged or rethrown. */
export interface DwollaFailure {
  /** HTTP status when Dwolla answered. */
  status?: number | undefined;
  body?: unknown;
  /** OAuth error of the token endpoint (`invalid_client`, ...). */
  oauthError?: string | undefined;
  /** Node's network error code, or "timeout", when no (readable) answer came. */
  networkCode?: string | undefined;
}

/**
 * Every Dwolla refusal is a 502 carrying Dwolla's code, even a 4xx caused by what we sent (a
 * ValidationError on a funding source, InvalidResourceState): the merchant's request was fine,
 * the provider's step failed. No answer at all is `network_error`.
 */
export function toAppError(failure: DwollaFailure): AppError {
  if (failure.oauthError) {
    return new AppError("provider_error", `the transfer provider refused our credentials (${failure.oauthError})`, { providerCode: failure.oauthError });
  }
  const body = DwollaErrorBody.safeParse(failure.body);
  if (failure.status !== undefined && body.success) {
    const { code, message } = body.data;
    const details = (body.data._embedded?.errors ?? []).map((e) => `${e.message ?? e.code ?? "invalid"}${e.path ? ` (${e.path})` : ""}`);
    const text = details.length > 0 ? details.join("; ") : (message ?? code);
    return new AppError("provider_error", `the transfer provider refused the request (${code}): ${text}`, { providerCode: code });
  }
  if (failure.status !== undefined) {
    return new AppError("provider_error", `the transfer provider answered HTTP ${failure.status}`, { providerCode: `http_${failure.status}` });
  }
  if (failure.networkCode === "invalid_response") {
    return new AppError("provider_error", "the transfer provider sent an unreadable answer", { providerCode: "invalid_response" });
  }
  // No answer came: the request may still have taken effect at Dwolla. That is safe to retry
  // because every create carries an Idempotency-Key, so the retry answers the same resource.
  return new AppError("provider_error", `the transfer provider did not answer (${failure.networkCode ?? "no response"})`, {
    providerCode: "network_error",
  });
}

/**
 * Whether Dwolla refused a request for good: it answered 400 (ValidationError, InsufficientFunds
 * …), 403 (InvalidResourceState, a restricted account) or 404 (an unknown funding source) with
 * its error body. 401 (the SDK renews the token), 429 and 5xx pass, and no answer may not have
 * been seen at all: those are retried with the same idempotency key.
 */
export function isRefusedForGood(failure: DwollaFailure): boolean {
  return [400, 403, 404].includes(failure.status ?? 0) && DwollaErrorBody.safeParse(failure.body).success;
}

/**
 * The resource a create collided with, when Dwolla says it already exists: a customer with
 * this email (ValidationError → Duplicate on /email), or this bank on this customer
 * (DuplicateResource, whose `about` link may be empty while the message names the id).
 * Lets a create repeated after Dwolla's 24-hour idempotency window still answer the original.
 */
export function existingResourceHref(failure: DwollaFailure, apiUrl: string): string | undefined {
  const body = DwollaErrorBody.safeParse(failure.body);
  if (failure.status !== 400 || !body.success) return undefined;
  if (body.data.code === "DuplicateResource") {
    const href = body.data._links?.about?.href;
    if (href) return href;
    const id = /id=([0-9A-Za-z-]+)/.exec(body.data.message ?? "")?.[1];
    return id ? `${apiUrl}/funding-sources/${id}` : undefined;
  }
  if (body.data.code === "ValidationError") {
    const dup = body.data._embedded?.errors?.find((e) => e.code === "Duplicate" && e.path === "/email");
    return dup?._links?.about?.href || undefined;
  }
  return undefined;
}

function parseAnswer<S extends z.ZodType>(schema: S, data: unknown, endpoint: string): z.output<S> {
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new AppError("provider_error", `the transfer provider sent a malformed answer to ${endpoint}`, { providerCode: "invalid_response" });
  return parsed.data;
}

const TransferListAnswer = z.object({
  _embedded: z.object({ transfers: z.array(z.object({ id: z.string().min(1), status: z.string().min(1), created: z.string().optional() }).passthrough()) }),
});

/** GET /customers/{id}/transfers or /accounts/{id}/transfers, ?correlationId=: the oldest transfer listed (the one the key made first), if any. */
export function fromTransferListResponse(body: unknown): { transferId: string; vendorStatus: string } | null {
  const transfers = parseAnswer(TransferListAnswer, body, "GET /{owner}/{id}/transfers")._embedded.transfers;
  const oldest = [...transfers].sort((a, b) => byCodeUnit(a.created ?? "", b.created ?? ""))[0];
  return oldest ? { transferId: oldest.id, vendorStatus: oldest.status } : null;
}
