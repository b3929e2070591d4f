/**
 * The one registry of error codes (docs/api-notes.md, Answers and errors). Services raise codes; only the gateway turns
 * them into HTTP, using the status and type recorded here.
 */
export const ERROR_TYPES = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  405: "invalid_request_error",
  409: "conflict_error",
  413: "invalid_request_error",
  414: "invalid_request_error",
  415: "invalid_request_error",
  429: "rate_limit_error",
  500: "api_error",
  502: "provider_error",
  503: "api_error",
} as const;

export type HttpErrorStatus = keyof typeof ERROR_TYPES;

export const ERROR_CODES = {
  // 400
  invalid_json: 400,
  invalid_request: 400,
  parameter_missing: 400,
  parameter_invalid: 400,
  amount_invalid: 400,
  unsupported_currency: 400,
  invalid_phone_number: 400,
  invalid_status: 400,
  idempotency_key_reused: 400,
  mandate_text_outdated: 400,
  /** The two amounts are not the micro-deposits sent (a try is counted). */
  micro_deposit_amounts_mismatch: 400,
  // 401
  api_key_missing: 401,
  api_key_invalid: 401,
  auth_token_missing: 401,
  auth_token_invalid: 401,
  link_token_missing: 401,
  link_token_invalid: 401,
  link_token_expired: 401,
  invalid_verification_code: 401,
  verification_code_expired: 401,
  admin_token_invalid: 401,
  webhook_signature_invalid: 401,
  invalid_credentials: 401,
  invitation_invalid: 401,
  session_invalid: 401,
  invalid_two_factor_code: 401,
  reset_link_invalid: 401,
  // 403
  permission_denied: 403,
  link_token_mismatch: 403,
  // 404
  route_not_found: 404,
  resource_missing: 404,
  checkout_not_found: 404,
  transaction_not_found: 404,
  merchant_not_found: 404,
  api_key_not_found: 404,
  refund_not_found: 404,
  payout_not_found: 404,
  review_not_found: 404,
  operator_not_found: 404,
  mandate_not_found: 404,
  merchant_user_not_found: 404,
  // 405
  method_not_allowed: 405,
  // 409
  duplicate_merchant_checkout_id: 409,
  checkout_closed: 409,
  checkout_claimed: 409,
  payment_method_missing: 409,
  transfer_in_progress: 409,
  payout_in_progress: 409,
  destination_funding_source_missing: 409,
  not_a_subscription: 409,
  transaction_not_refundable: 409,
  refund_exists: 409,
  amount_exceeds_refundable: 409,
  invalid_refund_transition: 409,
  transaction_not_settled: 409,
  transaction_returned: 409,
  idempotency_key_in_use: 409,
  endpoint_limit_reached: 409,
  mandate_required: 409,
  mandate_revoked: 409,
  /** The bank account had a return that forbids further debits (docs/api-notes.md, Returns and blocked bank accounts). */
  bank_account_blocked: 409,
  review_closed: 409,
  /** No debit from a bank account that was not validated (docs/api-notes.md, Account validation): micro-deposits first. */
  bank_account_not_validated: 409,
  bank_account_already_validated: 409,
  micro_deposits_not_started: 409,
  /** Three wrong pairs of amounts: the account cannot be used; the consumer links another. */
  micro_deposits_locked: 409,
  /** The amounts were sent more than 10 days ago: start again for a new pair. */
  micro_deposits_expired: 409,
  subscription_cancelled: 409,
  amount_change_pending: 409,
  merchant_user_exists: 409,
  last_owner: 409,
  two_factor_enabled: 409,
  two_factor_not_started: 409,
  // 413 / 414 / 415
  body_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  // 429
  rate_limited: 429,
  too_many_attempts: 429,
  // 502
  provider_error: 502,
  // 503
  service_unavailable: 503,
  service_timeout: 503,
  database_unavailable: 503,
  // 500
  internal_error: 500,
} as const satisfies Record<string, HttpErrorStatus>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(ERROR_CODES, value);
}

export function statusOf(code: ErrorCode): HttpErrorStatus {
  return ERROR_CODES[code];
}

/** What crosses the wire and what the gateway renders: never a stack trace. */
export interface ErrorPayload {
  code: ErrorCode;
  message: string;
  param?: string;
  /** Seconds, for 429 and 503. */
  retryAfter?: number;
  /** The provider's own code, for 502. */
  providerCode?: string;
  /** The resource a 409 duplicate collides with (docs/api-notes.md, Answers and errors: `error.existing_id`). */
  existingId?: string;
}

/**
 * A business error raised by a use case or an adapter. It travels as an `{ok:false}` reply,
 * never as a nack, and the gateway renders it with the status of its code.
 */
export class AppError extends Error {
  override readonly name = "AppError";
  readonly code: ErrorCode;
  readonly param: string | undefined;
  readonly retryAfter: number | undefined;
  readonly providerCode: string | undefined;
  readonly existingId: string | undefined;

  constructor(code: ErrorCode, message: string, extra: Omit<ErrorPayload, "code" | "message"> = {}) {
    super(message);
    this.code = code;
    this.param = extra.param;
    this.retryAfter = extra.retryAfter;
    this.providerCode = extra.providerCode;
    this.existingId = extra.existingId;
  }

  get status(): HttpErrorStatus {
    return ERROR_CODES[this.code];
  }

  toPayload(): ErrorPayload {
    const payload: ErrorPayload = { code: this.code, message: this.message };
    if (this.param !== undefined) payload.param = this.param;
    if (this.retryAfter !== undefined) payload.retryAfter = this.retryAfter;
    if (this.providerCode !== undefined) payload.providerCode = this.providerCode;
    if (this.existingId !== undefined) payload.existingId = this.existingId;
    return payload;
  }

  static fromPayload(payload: ErrorPayload): AppError {
    const { code, message, ...extra } = payload;
    return new AppError(isErrorCode(code) ? code : "internal_error", message, extra);
  }
}
