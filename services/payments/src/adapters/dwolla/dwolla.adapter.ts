import { AppError } from "@payrail/contracts";
import type { Logger } from "@payrail/runtime";
import { Client } from "dwolla-v2";
import {
  TransferRefused,
  type CreatedTransfer,
  type CreateFundingSourceInput,
  type CreateTransferInput,
  type EnsureCustomerInput,
  type FindTransferInput,
  type FundingSource,
  type MicroDeposits,
  type TransferCustomer,
  type TransferPort,
  type TransferState,
} from "../../domain/transfers/ports/transfer.port.ts";
import { verifyDwollaSignature } from "./dwolla-webhook.signature.ts";
import {
  customerIdempotencyKey,
  existingResourceHref,
  fromFundingSourceOwner,
  fromFundingSourceResponse,
  fromDwollaStatus,
  fromFailureResponse,
  fromTransferListResponse,
  fromTransferResponse,
  idFromLocation,
  idIn,
  isDwollaId,
  isRefusedForGood,
  toAppError,
  toCreateCustomerBody,
  toCreateTransferBody,
  type DwollaCustomerType,
  type DwollaFailure,
} from "./dwolla.transformers.ts";
import { plainFailure, type SdkResponse } from "./dwolla.sdk-failure.ts";
import { isWrongMicroDepositAmounts, toVerifyMicroDepositsBody } from "./dwolla-micro-deposits.transformers.ts";

/** What the adapter needs; the config schema fills it from the DWOLLA_* variables. */
export interface DwollaConfig {
  /** DWOLLA_KEY */
  key: string;
  /** DWOLLA_SECRET */
  secret: string;
  /** DWOLLA_ENV */
  env: "sandbox" | "production";
  /** DWOLLA_BASE_URL: overrides the environment's API and token URLs (a proxy, or a local server in tests). */
  baseUrl?: string | undefined;
  /** DWOLLA_WEBHOOK_SECRET: the secret given when the webhook subscription was created. */
  webhookSecret?: string | undefined;
  /** Default `unverified` (can send and receive); `receive-only` cannot pay a merchant. */
  customerType?: DwollaCustomerType;
  /** Domain of the placeholder emails of customers we know no email for. */
  customerEmailDomain?: string;
  /** Per call, token fetch included. Under the 10 s RPC timeout, so a slow Dwolla is our 502, not a 503. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 7_000;

/** The fields dwolla-v2 reads on every request (src/dwolla/Client.js sets them from `environment`). */
interface SdkUrls {
  apiUrl: string;
  tokenUrl: string;
}

/** Dwolla through its official SDK, which fetches and renews the OAuth client token. Stateless. */
export class DwollaTransferAdapter implements TransferPort {
  readonly provider = "dwolla" as const;
  private readonly client: Client;
  private readonly apiUrl: string;

  constructor(
    private readonly config: DwollaConfig,
    private readonly logger: Logger,
  ) {
    this.client = new Client({ key: config.key, secret: config.secret, environment: config.env });
    const urls = this.client as unknown as SdkUrls;
    if (config.baseUrl) {
      // The SDK accepts only its two named environments, but reads these fields at call time.
      const base = config.baseUrl.replace(/\/+$/, "");
      urls.apiUrl = base;
      urls.tokenUrl = `${base}/token`;
    }
    this.apiUrl = urls.apiUrl;
  }

  async ensureCustomer(input: EnsureCustomerInput): Promise<TransferCustomer> {
    const body = toCreateCustomerBody(input, this.config.customerType ?? "unverified", this.config.customerEmailDomain ?? "customers.payrail.example");
    const op = "POST /customers";
    const r = await this.attempt(op, () => this.client.post("/customers", body, { "Idempotency-Key": customerIdempotencyKey(input.userId) }));
    if ("failure" in r) {
      // Past Dwolla's 24-hour idempotency window the repeat collides on the email instead.
      const existing = existingResourceHref(r.failure, this.apiUrl);
      if (existing) return { customerUrl: existing };
      throw this.fail(op, r.failure);
    }
    return { customerUrl: this.location(r.res, "customers") };
  }

  async createFundingSource(input: CreateFundingSourceInput): Promise<FundingSource> {
    const customerId = idIn(input.customerUrl, "customers");
    if (!customerId) throw new AppError("parameter_invalid", "customerUrl is not a Dwolla customer URL", { param: "customerUrl" });
    const op = "POST /customers/{id}/funding-sources";
    const r = await this.attempt(op, () =>
      this.client.post(
        `/customers/${customerId}/funding-sources`,
        { plaidToken: input.processorToken, name: input.name.slice(0, 50) },
        { "Idempotency-Key": checkedKey(input.idempotencyKey) },
      ),
    );
    let fundingSourceUrl: string;
    if ("failure" in r) {
      const existing = existingResourceHref(r.failure, this.apiUrl);
      if (!existing) throw this.fail(op, r.failure);
      fundingSourceUrl = existing;
    } else {
      fundingSourceUrl = this.location(r.res, "funding-sources");
    }
    // The 201 has no body: the fingerprint is read from the funding source itself.
    const id = idFromLocation(fundingSourceUrl, "funding-sources");
    const res = await this.send("GET /funding-sources/{id}", () => this.client.get(`/funding-sources/${id}`));
    return { fundingSourceUrl, fingerprint: fromFundingSourceResponse(res.body).fingerprint };
  }

  async createTransfer(input: CreateTransferInput): Promise<CreatedTransfer> {
    const body = toCreateTransferBody(input);
    const op = "POST /transfers";
    const r = await this.attempt(op, () => this.client.post("/transfers", body, { "Idempotency-Key": checkedKey(input.idempotencyKey) }));
    if ("failure" in r) {
      const error = this.fail(op, r.failure);
      throw isRefusedForGood(r.failure) ? new TransferRefused(error.message, error.providerCode ?? "refused") : error;
    }
    const transferUrl = this.location(r.res, "transfers");
    // The 201 has no body. A new transfer is pending; a repeated key answers the original's
    // Location, whose later status getTransfer (or a webhook) reports.
    return { transferId: idFromLocation(transferUrl, "transfers").toLowerCase(), transferUrl, status: "pending" };
  }

  async getTransfer(transferId: string): Promise<TransferState> {
    if (!isDwollaId(transferId)) throw new AppError("parameter_invalid", "transfer id is malformed", { param: "transferId" });
    const id = transferId.toLowerCase();
    const res = await this.send("GET /transfers/{id}", () => this.client.get(`/transfers/${id}`));
    const transfer = fromTransferResponse(res.body);
    const { status, known } = fromDwollaStatus(transfer.vendorStatus);
    if (!known) this.logger.warn({ transferId: id, vendorStatus: transfer.vendorStatus.slice(0, 40) }, "unknown Dwolla transfer status, treated as pending");
    if (status !== "failed") return { transferId: id, status };
    const failureCode = await this.failureCode(id);
    return { transferId: id, status, ...(failureCode ? { failureCode } : {}) };
  }

  async findTransfer(input: FindTransferInput): Promise<CreatedTransfer | null> {
    const customerId = idIn(input.customerUrl, "customers");
    let owner: TransferOwner | null = customerId ? { kind: "customers", id: customerId } : null;
    if (!input.customerUrl && input.fundingSourceUrl) owner = await this.fundingSourceOwner(input.fundingSourceUrl);
    if (!owner) throw new AppError("parameter_invalid", "finding a transfer needs the Dwolla customer or funding source it involves", { param: "customerUrl" });
    const res = await this.send(`GET /${owner.kind}/{id}/transfers`, () =>
      this.client.get(`/${owner.kind}/${owner.id}/transfers`, { correlationId: checkedKey(input.idempotencyKey), limit: "25" }),
    );
    const found = fromTransferListResponse(res.body);
    if (!found) return null;
    const id = found.transferId.toLowerCase();
    return { transferId: id, transferUrl: `${this.apiUrl}/transfers/${id}`, status: fromDwollaStatus(found.vendorStatus).status };
  }

  /** Who holds a funding source (its `_links`): a customer, or the platform's own account (a merchant's balance or payout bank attached there). */
  private async fundingSourceOwner(fundingSourceUrl: string): Promise<TransferOwner> {
    const id = idFromLocation(fundingSourceUrl, "funding-sources");
    const res = await this.send("GET /funding-sources/{id}", () => this.client.get(`/funding-sources/${id}`));
    const owner = fromFundingSourceOwner(res.body);
    if (!owner) throw new AppError("provider_error", "Dwolla named no customer or account for the funding source", { providerCode: "invalid_response" });
    return owner;
  }

  /**
   * `POST /funding-sources/{id}/micro-deposits` with no body: Dwolla sends two deposits under
   * $0.10 (described ACCTVERIFY on the statement) and withdraws them; they settle in 1–2 banking
   * days. The key makes a repeat answer the same initiation.
   */
  async initiateMicroDeposits(input: { fundingSourceUrl: string; idempotencyKey: string }): Promise<MicroDeposits> {
    const id = idFromLocation(input.fundingSourceUrl, "funding-sources");
    const op = "POST /funding-sources/{id}/micro-deposits";
    await this.send(op, () => this.client.post(`/funding-sources/${id}/micro-deposits`, {}, { "Idempotency-Key": checkedKey(input.idempotencyKey) }));
    return { reference: `${this.apiUrl}/funding-sources/${id}/micro-deposits` };
  }

  /** The same path with `amount1` and `amount2`: 200 verifies the funding source; a wrong pair is a 400 ValidationError. */
  async verifyMicroDeposits(input: { fundingSourceUrl: string; reference: string; amountsCents: readonly [number, number] }): Promise<"verified" | "wrong"> {
    const id = idFromLocation(input.fundingSourceUrl, "funding-sources");
    const op = "POST /funding-sources/{id}/micro-deposits (verify)";
    const r = await this.attempt(op, () => this.client.post(`/funding-sources/${id}/micro-deposits`, toVerifyMicroDepositsBody(input.amountsCents)));
    if (!("failure" in r)) return "verified";
    if (isWrongMicroDepositAmounts(r.failure)) return "wrong";
    const error = this.fail(op, r.failure);
    throw isRefusedForGood(r.failure) ? new TransferRefused(error.message, error.providerCode ?? "refused") : error;
  }

  /** Whether a webhook request really comes from Dwolla (header `X-Request-Signature-SHA-256`). */
  verifyWebhook(rawBody: Buffer | string, signatureHeader: string | undefined): boolean {
    return verifyDwollaSignature(this.config.webhookSecret ?? "", rawBody, signatureHeader);
  }

  /** The ACH return code; a failed transfer without a failure record yet (404) has none. */
  private async failureCode(id: string): Promise<string | undefined> {
    const op = "GET /transfers/{id}/failure";
    const r = await this.attempt(op, () => this.client.get(`/transfers/${id}/failure`));
    if ("failure" in r) {
      if (r.failure.status === 404) return undefined;
      throw this.fail(op, r.failure);
    }
    return fromFailureResponse(r.res.body);
  }

  private location(res: SdkResponse, resource: string): string {
    const location = res.headers?.get("location") ?? null;
    idFromLocation(location, resource);
    return location as string;
  }

  private async send(op: string, request: () => Promise<SdkResponse>): Promise<SdkResponse> {
    const r = await this.attempt(op, request);
    if ("failure" in r) throw this.fail(op, r.failure);
    return r.res;
  }

  /**
   * Runs one SDK call under the timeout. The SDK's error objects are reduced to plain values
   * at once and never logged or rethrown: they can carry request details.
   */
  private async attempt(op: string, request: () => Promise<SdkResponse>): Promise<{ res: SdkResponse } | { failure: DwollaFailure }> {
    const call = Promise.resolve().then(request);
    // After a timeout the SDK's promise still settles; its late rejection is expected, not unhandled.
    call.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new CallTimeout()), this.config.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    });
    try {
      return { res: await Promise.race([call, timeout]) };
    } catch (err) {
      return { failure: err instanceof CallTimeout ? { networkCode: "timeout" } : plainFailure(err) };
    } finally {
      clearTimeout(timer);
    }
  }

  private fail(op: string, failure: DwollaFailure): AppError {
    const error = toAppError(failure);
    this.logger.warn({ op, status: failure.status, networkCode: failure.networkCode, providerCode: error.providerCode }, "dwolla call failed");
    return error;
  }
}

class CallTimeout extends Error {}

/** Dwolla takes keys of at most 255 characters; a longer or empty one is our bug. */
function checkedKey(key: string): string {
  if (typeof key !== "string" || key.length === 0 || key.length > 255) {
    throw new AppError("internal_error", "idempotency key must be 1 to 255 characters");
  }
  return key;
}

/** Whose transfers Dwolla lists: `/customers/{id}/transfers` or `/accounts/{id}/transfers`. */
type TransferOwner = { kind: "customers" | "accounts"; id: string };
