import type { Logger } from "@payrail/runtime";
import { Configuration, PlaidApi, PlaidEnvironments, ProcessorTokenCreateRequestProcessorEnum } from "plaid";
import type { AccountDescription, BankDataPort, BankLinkToken, ExchangedItem, ProcessorToken } from "../../domain/bank-accounts/ports/bank-data.port.ts";
import {
  fromAccountsResponse,
  fromExchangeResponse,
  fromLinkTokenResponse,
  fromProcessorTokenResponse,
  toAppError,
  toLinkTokenRequest,
  type PlaidFailure,
} from "./plaid.transformers.ts";

export interface PlaidConfig {
  clientId: string;
  secret: string;
  env: "sandbox" | "production";
  /** Overrides the environment's URL (a proxy, or a local server in tests). */
  baseUrl?: string | undefined;
  /** Shown to the consumer in Plaid Link; at most 30 characters. */
  clientName?: string;
  /**
   * Per call. Under the 10 s RPC timeout, so that a slow Plaid gives the consumer a 502 from
   * us rather than a 503 timeout while the call still runs.
   */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 7_000;

/** Plaid through its official SDK. Stateless: Plaid holds the items. */
export class PlaidBankDataAdapter implements BankDataPort {
  readonly provider = "plaid" as const;
  private readonly api: PlaidApi;
  private readonly clientName: string;

  constructor(
    config: PlaidConfig,
    private readonly logger: Logger,
  ) {
    this.clientName = config.clientName ?? "Payrail";
    this.api = new PlaidApi(
      new Configuration({
        basePath: config.baseUrl ?? PlaidEnvironments[config.env],
        baseOptions: {
          timeout: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          headers: { "PLAID-CLIENT-ID": config.clientId, "PLAID-SECRET": config.secret },
        },
      }),
    );
  }

  async createLinkToken(input: { clientUserId: string; checkoutId: string }): Promise<BankLinkToken> {
    const request = toLinkTokenRequest(input, this.clientName);
    return fromLinkTokenResponse(await this.call("/link/token/create", () => this.api.linkTokenCreate(request)));
  }

  async exchangePublicToken(publicToken: string): Promise<ExchangedItem> {
    const data = await this.call("/item/public_token/exchange", () => this.api.itemPublicTokenExchange({ public_token: publicToken }));
    return fromExchangeResponse(data);
  }

  async createProcessorToken(input: { accessToken: string; accountId: string; processor: "dwolla" }): Promise<ProcessorToken> {
    const data = await this.call("/processor/token/create", () =>
      this.api.processorTokenCreate({
        access_token: input.accessToken,
        account_id: input.accountId,
        processor: ProcessorTokenCreateRequestProcessorEnum.Dwolla,
      }),
    );
    return fromProcessorTokenResponse(data);
  }

  async describeAccount(input: { accessToken: string; accountId: string }): Promise<AccountDescription> {
    const data = await this.call("/accounts/get", () =>
      this.api.accountsGet({ access_token: input.accessToken, options: { account_ids: [input.accountId] } }),
    );
    return fromAccountsResponse(data, input.accountId);
  }

  /**
   * Runs one SDK call and turns any failure into an AppError. The SDK's error object is never
   * logged or rethrown: its request config holds PLAID-SECRET and the request body (tokens).
   */
  private async call(endpoint: string, send: () => Promise<{ data: unknown }>): Promise<unknown> {
    try {
      return (await send()).data;
    } catch (err) {
      const failure = plainFailure(err);
      const error = toAppError(endpoint, failure);
      const body = failure.body as { request_id?: unknown } | undefined;
      this.logger.warn(
        { endpoint, status: failure.status, networkCode: failure.networkCode, providerCode: error.providerCode, providerRequestId: body?.request_id },
        "plaid call failed",
      );
      throw error;
    }
  }
}

function plainFailure(err: unknown): PlaidFailure {
  const e = err as { response?: { status?: unknown; data?: unknown }; code?: unknown } | null;
  return {
    status: typeof e?.response?.status === "number" ? e.response.status : undefined,
    body: e?.response?.data,
    networkCode: typeof e?.code === "string" ? e.code : undefined,
  };
}
