import type { CountryCode } from "libphonenumber-js";
import type { MerchantUsersDeps } from "../../domain/merchant-users.deps.ts";
import type { AuthTokensPort } from "../../domain/ports/auth-tokens.port.ts";
import type { ConsumerMerchantsPort } from "../../domain/ports/consumer-merchants.port.ts";
import type { MerchantsPort } from "../../domain/ports/merchants.port.ts";
import type { OperatorsPort } from "../../domain/ports/operators.port.ts";
import type { RequestBudgetsPort } from "../../domain/ports/request-budgets.port.ts";
import type { SendBudgetsPort } from "../../domain/ports/send-budgets.port.ts";
import type { SendCodeBudgets, SendCodeLimitStats } from "../../domain/send-code-limits.ts";
import type { SmsOutboxPort, SmsPort } from "../../domain/ports/sms.port.ts";
import type { UsersPort } from "../../domain/ports/users.port.ts";
import type { VerificationCodesPort } from "../../domain/ports/verification-codes.port.ts";

/** What the identity handlers need, built by the composition root. */
export interface IdentityDeps extends MerchantUsersDeps {
  merchants: MerchantsPort;
  /** Users (by phone) who may act on a merchant's refunds with their auth token. */
  operators: OperatorsPort;
  /** Live installations issue `sk_live_` keys, sandbox ones `sk_test_`. */
  livemode: boolean;
  /** Readiness: resolves when this service's database answers. */
  ping(): Promise<void>;
  users: UsersPort;
  /** Which merchants each consumer pays (from payments' events): whose sandbox codes a merchant may read. */
  consumerMerchants: ConsumerMerchantsPort;
  codes: VerificationCodesPort;
  authTokens: AuthTokensPort;
  sms: SmsPort;
  /** The sandbox outbox; null in live mode, where codes cannot be read back. */
  outbox: SmsOutboxPort | null;
  /** send_code counters per client address and in total (docs/api-notes.md, Limits). */
  budgets: SendBudgetsPort;
  limits: SendCodeBudgets;
  /** The gateways' shared request counters (docs/decisions/0049-shared-request-limits.md). */
  requestBudgets: RequestBudgetsPort;
  stats: SendCodeLimitStats;
  /** HMAC key of verification codes. */
  codeKey: Buffer;
  authTokenTtlMs: number;
  /** DEFAULT_PHONE_COUNTRY: the country of phone numbers written without their country code. */
  defaultPhoneCountry: CountryCode;
  /** Milliseconds since the epoch; tests move it instead of sleeping. */
  now(): number;
}
