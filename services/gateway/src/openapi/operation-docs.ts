import type { ErrorCode } from "@payrail/contracts";

/** What the reference says about one operation beyond its schemas. */
export interface OperationDoc {
  operationId: string;
  description: string;
  /**
   * The business errors the operation itself can answer. Errors every operation of its kind
   * shares (credentials, a malformed body, rate limits, an unavailable service) are added by
   * `operation-errors.ts` from its security and schemas.
   */
  errors: readonly ErrorCode[];
}

/**
 * The reference text of each route, keyed `METHOD /path` as the OpenAPI document names it.
 * Meanings come from the specification and docs/api-notes.md; a route missing here still gets an
 * operationId (from its method and path) and its shared errors.
 */
export const OPERATION_DOCS: Record<string, OperationDoc> = {
  "post /api/merchants/checkout": {
    operationId: "createCheckout",
    description:
      "Creates a checkout from the merchant's checkout object. Amounts are decimals (numbers or numeric strings, at most 2 fraction digits); only USD can be transferred. `merchant_checkout_id` is unique per merchant. A subscription (`is_subscription: true`) needs a `plan_type`. Optional fields may be sent as `\"\"` or `null` where they do not apply; they are stored and echoed as sent.",
    errors: ["amount_invalid", "unsupported_currency", "duplicate_merchant_checkout_id"],
  },
  "get /api/merchants/checkout": {
    operationId: "listCheckouts",
    description:
      "The merchant's checkouts, newest first. Filter by `status`, `is_subscription`, `merchant_checkout_id`, `from` (inclusive) and `to` (exclusive) on `created_at`, and `amount_gte` / `amount_lte` (both inclusive, decimal strings such as `10.00`) on `amounts.total`; a malformed amount, or `amount_gte` above `amount_lte`, is 400 `amount_invalid`. Page with `limit` and `starting_after` (the last id of the previous page).",
    errors: [],
  },
  "get /api/merchants/checkout/{checkout_id}": {
    operationId: "getCheckout",
    description:
      "One checkout of the merchant: every key as it was sent, plus `id`, `status`, `subscription_status`, `transfer` and `amount_refunded`. Another merchant's checkout is a 404.",
    errors: ["checkout_not_found"],
  },
  "get /api/merchants/checkout/{checkout_id}/generate_link_token": {
    operationId: "generateLinkToken",
    description:
      "Issues a merchant link token for one checkout, valid 24 hours, for the consumer's bank linking. Earlier unexpired tokens stay valid. A paid checkout answers 409.",
    errors: ["checkout_not_found", "checkout_closed"],
  },
  "post /api/verify_user/send_code": {
    operationId: "sendCode",
    description:
      "Texts a 6-digit verification code, valid 10 minutes, to the phone (E.164 after normalisation). A new code replaces the old one; at most one per 30 seconds and 5 per hour per phone. In the sandbox the code is read with `getSandboxVerificationCode`.",
    errors: ["invalid_phone_number", "rate_limited", "provider_error"],
  },
  "post /api/verify_user/verify_code": {
    operationId: "verifyCode",
    description:
      "Exchanges a verification code for an auth token (valid 24 hours) and the user's id. The first verification of a phone creates its user. Five wrong attempts kill the code.",
    errors: ["invalid_phone_number", "invalid_verification_code", "verification_code_expired", "too_many_attempts"],
  },
  "post /api/verify_user/logout": {
    operationId: "logout",
    description: "Revokes the presented auth token.",
    errors: [],
  },
  "get /api/sandbox/verification_codes/{phone}": {
    operationId: "getSandboxVerificationCode",
    description:
      "Sandbox only: this merchant's own code for the phone's last send, so a test can verify it; the auth token it yields sees and changes this merchant's records only (the texted code itself is not accepted in the sandbox). Only for a phone that is nobody's yet, or the merchant's own consumer's (a bank account saved on one of its checkouts) or operator's; another merchant's consumer is 404.",
    errors: ["invalid_phone_number", "resource_missing"],
  },
  "get /api/consumers/checkout/{checkout_id}/create_link_token": {
    operationId: "createBankLinkToken",
    description:
      "Starts bank linking for the consumer: a bank-data provider link token. Needs the consumer's auth token and a merchant link token of this checkout; the first consumer to use a checkout claims it.",
    errors: ["checkout_not_found", "checkout_claimed", "checkout_closed", "provider_error"],
  },
  "post /api/consumers/checkout/{checkout_id}/create_link_token": {
    operationId: "createBankLinkTokenPost",
    description: "The same as `createBankLinkToken`, for clients that POST.",
    errors: ["checkout_not_found", "checkout_claimed", "checkout_closed", "provider_error"],
  },
  "post /api/consumers/checkout/{checkout_id}/exchange_public_token": {
    operationId: "exchangePublicToken",
    description:
      "Saves the consumer's bank account as the checkout's payment method: the provider's public token is exchanged for an access token kept encrypted at rest. With `mandate`, records the consumer's acceptance of the mandate text (from Get Mandate Text) with the request's client address and user agent; without it, the merchant attests the authorization at the first debit.",
    errors: ["checkout_not_found", "checkout_claimed", "checkout_closed", "mandate_text_outdated", "provider_error"],
  },
  "post /api/consumers/bank_account/micro_deposits": {
    operationId: "startMicroDeposits",
    description:
      "Validates the bank account linked to the link token's checkout when the bank-data provider could not (NACHA's WEB rule; the sandbox's \"Unverifiable Checking\"): two deposits under $1 described `ACCTVERIFY`, with a debit taking them back, go to the account through the transfer provider, once however many calls race; the consumer reads them on their statement (in the sandbox: `GET /api/sandbox/notices`, type `micro_deposits`). Answers where the account stands; a pair still open is answered as it is, one expired is replaced by a new pair. Needs the consumer's auth token and the merchant link token; the consumer must be the one who linked the account.",
    errors: ["checkout_not_found", "checkout_claimed", "payment_method_missing", "bank_account_already_validated", "micro_deposits_locked", "bank_account_blocked", "transfer_in_progress", "provider_error"],
  },
  "post /api/consumers/bank_account/micro_deposits/verify": {
    operationId: "verifyMicroDeposits",
    description:
      "Checks the two amounts the consumer read (in any order, decimal strings under 1.00: anything else is 400 naming `amounts`). The right pair validates the account (`validation.method: micro_deposits`, event `bank_account.validated`) and the checkout may be debited; a wrong pair is 400 `micro_deposit_amounts_mismatch` with the tries left; the third wrong pair locks the account (409 `micro_deposits_locked`, then and after: the consumer links another account). The amounts expire 10 days after they were sent (409 `micro_deposits_expired`: start again). An account validated already answers its state.",
    errors: ["checkout_not_found", "checkout_claimed", "payment_method_missing", "micro_deposit_amounts_mismatch", "micro_deposits_not_started", "micro_deposits_locked", "micro_deposits_expired", "transfer_in_progress", "provider_error"],
  },
  "get /api/consumers/checkout/{checkout_id}/mandate_text": {
    operationId: "getMandateText",
    description:
      "The debit authorization text for this checkout (merchant, amount, one-off or frequency, first debit date, how to revoke), to show before the consumer confirms, and its `text_version` to send back with Exchange Public Token. Same credentials as Create Link Token.",
    errors: ["checkout_not_found", "checkout_claimed", "checkout_closed"],
  },
  "get /api/consumers/subscriptions": {
    operationId: "listConsumerSubscriptions",
    description:
      "The consumer's subscriptions at every merchant, newest first: plan, amount, status (`incomplete` until the first charge settles), next charge, mandate and the bank account each draws on. `limit` (1–100, default 20) and `cursor` (the previous page's `next_cursor`) page through them. Only the caller's own subscriptions are ever listed.",
    errors: ["parameter_invalid"],
  },
  "get /api/merchants/mandates/{mandate_id}": {
    operationId: "getMandate",
    description:
      "One mandate (debit authorization) of the merchant's checkouts: when, from where and to which text the consumer agreed, or that the merchant attested it. Another merchant's mandate is a 404.",
    errors: ["mandate_not_found"],
  },
  "post /api/sandbox/public_token": {
    operationId: "createSandboxPublicToken",
    description: "Sandbox only: the public token (and accounts) a consumer would get from the bank-data provider's page for a bank-link token.",
    errors: ["route_not_found"],
  },
  "post /api/sandbox/consumers/public_token": {
    operationId: "createConsumerSandboxPublicToken",
    description:
      "Sandbox only: the public token (and accounts) for a bank-linking token issued to the calling consumer (from `POST /api/consumers/subscriptions/bank_account/link_token`), for a page without an api-key such as the consumer portal. Another consumer's token is refused like an unknown one.",
    errors: ["parameter_invalid", "route_not_found"],
  },
  "post /api/merchants/payment_preprocess/get_processor_token": {
    operationId: "executeTransfer",
    description:
      "Executes the checkout's transfer from the consumer's saved bank account. Any number of calls, concurrent or repeated, start at most one transfer per checkout and answer the same; a call that failed half-way resumes on the next one. An account that was never validated (the bank-data provider could not, and the consumer has not verified micro-deposits yet) is not debited: 409 `bank_account_not_validated`, nothing is sent, and the same call succeeds once the consumer verified them.",
    errors: [
      "checkout_not_found",
      "payment_method_missing",
      "checkout_closed",
      "transfer_in_progress",
      "destination_funding_source_missing",
      "mandate_required",
      "mandate_revoked",
      "bank_account_blocked",
      "bank_account_not_validated",
      "provider_error",
    ],
  },
  "post /api/consumers/subscriptions/bank_account/link_token": {
    operationId: "createSubscriptionRelinkToken",
    description:
      "For the consumer's own subscription (named by any of its records' `transaction_uuid`): a bank-linking token for the bank-data provider's account picker, and the recurring authorization text (merchant, amount, frequency, first debit) to show before the consumer confirms the new account. Another consumer's subscription is a 404; a cancelled one a 409.",
    errors: ["transaction_not_found", "not_a_subscription", "subscription_cancelled", "provider_error"],
  },
  "post /api/consumers/subscriptions/bank_account": {
    operationId: "relinkSubscriptionBankAccount",
    description:
      "Replaces the bank account the consumer's subscription draws on: exchanges the public token, adds the account at the transfer provider (an account blocked after a return is refused), records a new recurring mandate (`mandate.created`, in the change of account's own words: `text_version` of the link token's `mandate`) and revokes the previous one (`mandate.revoked`). An `unpaid` subscription becomes `active`; its next renewal, at its next period's start, draws on the new account; the unpaid period is not charged again. An account the bank could not validate (the sandbox's \"Unverifiable Checking\") is not refused: the change is kept pending (`message: \"Bank account change pending\"`, `validation.pending_change: true`), micro-deposits are sent to it and the subscription keeps drawing on its current account until the consumer enters the two amounts (`POST /api/consumers/subscriptions/bank_account/micro_deposits/verify`); then it switches as above. One re-link at a time: a concurrent one is 409 `transfer_in_progress`.",
    errors: [
      "transaction_not_found",
      "not_a_subscription",
      "subscription_cancelled",
      "mandate_text_outdated",
      "parameter_invalid",
      "bank_account_blocked",
      "transfer_in_progress",
      "provider_error",
    ],
  },
  "post /api/consumers/subscriptions/bank_account/micro_deposits": {
    operationId: "startSubscriptionMicroDeposits",
    description:
      "For the consumer's own subscription (named by any of its records' `transaction_uuid`) whose change of bank account is pending: sends the two micro-deposits to the new account, as Start Micro-deposits does for a checkout (once however many calls race; a pair still open is answered as it is, an expired one replaced by a new pair). The re-link sends the first pair itself; call this after the 10 days, or when the re-link stopped before the deposits went out. With no change pending it acts on the account the subscription draws on (validated: 409 `bank_account_already_validated`). Another consumer's subscription is a 404.",
    errors: [
      "transaction_not_found",
      "not_a_subscription",
      "subscription_cancelled",
      "payment_method_missing",
      "bank_account_already_validated",
      "micro_deposits_locked",
      "bank_account_blocked",
      "transfer_in_progress",
      "provider_error",
    ],
  },
  "post /api/consumers/subscriptions/bank_account/micro_deposits/verify": {
    operationId: "verifySubscriptionMicroDeposits",
    description:
      "Checks the two amounts sent to the pending account of the consumer's subscription, as Verify Micro-deposits does for a checkout (in any order; a wrong pair is 400 `micro_deposit_amounts_mismatch` with the tries left, the third locks the account: 409 `micro_deposits_locked`, link another; 10 days, then 409 `micro_deposits_expired`). The right pair validates the account once (`bank_account.validated`, `pending_change: true`) and the subscription switches to it under its new mandate (`mandate.created`, the previous one revoked; an `unpaid` one becomes `active`): the answer is then the subscription's account, `pending_change: false`. A switch that meets a renewal being charged is 409 `transfer_in_progress`; calling again finishes it.",
    errors: [
      "transaction_not_found",
      "not_a_subscription",
      "subscription_cancelled",
      "payment_method_missing",
      "micro_deposit_amounts_mismatch",
      "micro_deposits_not_started",
      "micro_deposits_locked",
      "micro_deposits_expired",
      "bank_account_blocked",
      "transfer_in_progress",
      "provider_error",
    ],
  },
  "get /api/merchants/manage_subscription/get_subscription_details": {
    operationId: "listTransactions",
    description: "The consumer's transaction records, newest first; `checkout_id` filters by checkout number.",
    errors: [],
  },
  "post /api/merchants/manage_subscription/subscription_cancel": {
    operationId: "cancelSubscription",
    description: "Cancels the subscription a transaction record of the consumer belongs to, and revokes its mandate: nothing more is debited. Repeating it answers the same.",
    errors: ["transaction_not_found", "not_a_subscription"],
  },
  "post /api/sandbox/transfers/{transaction_uuid}/simulate": {
    operationId: "simulateTransfer",
    description:
      "Sandbox only: settles (`completed`) or fails a pending transfer of the merchant, by `transaction_uuid` or a refund's `refund_transaction_id`, as the transfer provider would.",
    errors: ["transaction_not_found", "route_not_found"],
  },
  "post /api/sandbox/payouts/run": {
    operationId: "runSandboxPayouts",
    description:
      "Sandbox only: runs the payout pass now for the calling merchant and answers today's payout: made now from the available balance, or the one made earlier today (however many calls, one payout per merchant and day), or null when the available balance is not above zero.",
    errors: ["payout_in_progress", "permission_denied", "route_not_found"],
  },
  "post /api/sandbox/payouts/{id}/simulate": {
    operationId: "simulatePayout",
    description:
      "Sandbox only: settles (`completed`) or fails the pending transfer of one of the merchant's payouts, as the transfer provider would; the payout then becomes `paid` or `failed` (events `payout.paid`, `payout.failed`).",
    errors: ["payout_not_found", "permission_denied", "route_not_found"],
  },
  "post /api/sandbox/subscriptions/{transaction_uuid}/advance": {
    operationId: "advanceSubscriptionClock",
    description:
      "Sandbox only: moves the test clock of the subscription a transaction record belongs to forward to `to`, and runs every renewal charge and retry due by then. Answers the subscription's records; renewal transfers stay `pending` until simulated.",
    errors: ["transaction_not_found", "not_a_subscription", "parameter_invalid", "route_not_found"],
  },
  "get /api/consumers/checkout/{checkout_id}": {
    operationId: "getHostedCheckout",
    description: "The order as the consumer's hosted page shows it (merchant name, items, amounts, plan), for the holder of one of the checkout's link tokens.",
    errors: ["link_token_invalid", "link_token_expired", "link_token_mismatch", "checkout_not_found"],
  },
  "post /api/sandbox/consumers/checkout/{checkout_id}/public_token": {
    operationId: "sandboxConsumerPublicToken",
    description: "Sandbox only: the hosted page's simulated account picker. A public token and the accounts to choose from, for the consumer's bank-linking token.",
    errors: ["link_token_invalid", "link_token_expired", "link_token_mismatch", "parameter_invalid", "route_not_found"],
  },
  "get /api/merchants/notices": {
    operationId: "listNotices",
    description:
      "What Payrail told the merchant's consumers (authorization copies, receipts, failed payments, refund updates, cancelled subscriptions), newest first, one record per notice and channel, the recipient masked. `checkout_id` keeps one checkout's; page with `limit` and `starting_after`.",
    errors: ["parameter_invalid"],
  },
  "get /api/merchants/balance": {
    operationId: "getBalance",
    description:
      "The merchant's balance as signed decimals: `available` (what may be paid out now; a return after a payout can make it negative) and `pending` (settled debits waiting `FUNDS_AVAILABLE_DAYS` banking days; none with sandbox providers), and `currency`.",
    errors: [],
  },
  "get /api/merchants/balance_transactions": {
    operationId: "listBalanceTransactions",
    description:
      "Every money movement of the merchant, newest first: a settled debit (`debit`), a return (`return`, negative), a refund paid out (`refund`, negative), a payout (`payout`: negative, or positive when a failed payout's amount comes back). `from` (inclusive) and `to` (exclusive) bound `created_at` and take a date or an ISO 8601 time with offset; `type` and `payout_id` filter; `amount_gte` and `amount_lte` (both inclusive) bound the signed amount as listed, so they may carry a `-` (`amount_lte=-100.00`: movements that took 100.00 or more from the balance); a malformed amount, or `amount_gte` above `amount_lte`, is 400 `amount_invalid`. Page with `limit` and `starting_after`.",
    errors: ["parameter_invalid"],
  },
  "get /api/merchants/payouts": {
    operationId: "listPayouts",
    description:
      "The merchant's payouts, newest first: each sends the available balance of its UTC day to the merchant's bank (`PAYOUT_SCHEDULE`, daily by default; at most one a day). `pending` until the provider settles its transfer, then `paid` or `failed` (a failed payout's amount is back in the balance and goes with the next one). Page with `limit` and `starting_after`.",
    errors: ["parameter_invalid"],
  },
  "get /api/merchants/payouts/{id}": {
    operationId: "getPayout",
    description:
      "One payout with the balance transactions it contains, newest first: the reconciliation report to match against the bank statement. The movements it pays out add up to its `amount`, and its own `payout` row takes that amount from the balance; more than 100 rows page on with `GET /api/merchants/balance_transactions?payout_id=`.",
    errors: ["payout_not_found", "parameter_invalid"],
  },
  "get /api/merchants/audit_log": {
    operationId: "listAuditLog",
    description:
      "Every recorded state change of the merchant's, newest first: who made it (`actor`: an `api_key` by its prefix, a dashboard `user`, an `operator`, the `admin`), what it did (`action`, e.g. `refund.approved`), to what (`object`), from which client address (`ip_address`, null from the command line) and when. An entry is written in the same write as its change and appears within a moment of it; entries are kept two years. Filter by `action`, and `from` (inclusive) / `to` (exclusive) on `created_at`; page with `limit` and `starting_after`.",
    errors: ["parameter_invalid"],
  },
  "get /api/merchants/exports/balance_transactions.csv": {
    operationId: "exportBalanceTransactions",
    description:
      "Every balance transaction `GET /api/merchants/balance_transactions` lists for `from`, `to`, `amount_gte`, `amount_lte`, `type` and `payout_id` (a payout's reconciliation report), as RFC 4180 CSV streamed page by page: one header row with the JSON fields' names, amounts as signed decimals, times in UTC, an empty field for null.",
    errors: ["parameter_invalid"],
  },
  "get /api/merchants/exports/transactions.csv": {
    operationId: "exportTransactions",
    description:
      "Every transaction record of the merchant (first charges and renewals) created in `from` (inclusive) to `to` (exclusive), newest first, as RFC 4180 CSV streamed page by page: one header row, the record's fields with `amount` and `amount_refunded` as decimals, times in UTC, an empty field for none.",
    errors: ["parameter_invalid"],
  },
  "get /api/merchants/exports/checkouts.csv": {
    operationId: "exportCheckouts",
    description:
      "Every checkout of the merchant the list answers for `from` (inclusive), `to` (exclusive), `amount_gte` and `amount_lte` (both inclusive, on `amounts.total`), newest first, as RFC 4180 CSV streamed page by page: one header row, then per checkout its id, `merchant_checkout_id`, `merchant_user_id`, status, subscription fields, `amount` and `currency` (from `amounts`), `amount_refunded`, its first charge's `transaction_uuid` and `transfer_status`, `mandate_id`, `next_charge_at` and times in UTC; an empty field for none. The whole body stays Get Checkout's.",
    errors: ["parameter_invalid"],
  },
  "get /api/merchants/exports/refunds.csv": {
    operationId: "exportRefunds",
    description:
      "Every refund `GET /api/merchants/refunds` lists for `from`, `to`, `amount_gte` and `amount_lte`, newest first, as RFC 4180 CSV streamed page by page: one header row, the refund record's fields with `amount` as a decimal, times in UTC, an empty field for null.",
    errors: ["parameter_invalid"],
  },
  "get /api/sandbox/notices": {
    operationId: "listSandboxNotices",
    description: "Sandbox only: the outbox of consumer notices, the same records as `GET /api/merchants/notices` plus `body`, the text each said.",
    errors: ["parameter_invalid", "route_not_found"],
  },
  "get /api/merchants/events": {
    operationId: "listEvents",
    description: "The merchant's events of the last 30 days, newest first. `type` filters by a type or a `group.*` wildcard; page with `limit` and `starting_after`.",
    errors: ["parameter_invalid"],
  },
  "get /api/merchants/events/{id}": {
    operationId: "getEvent",
    description: "One of the merchant's events (kept 30 days), as webhooks deliver it.",
    errors: ["resource_missing"],
  },
  "post /api/merchants/events/{id}/redeliver": {
    operationId: "redeliverEvent",
    description: "Sends the event again to every enabled endpoint that takes its type, with the same `webhook-id`. Once per event per minute.",
    errors: ["resource_missing", "rate_limited"],
  },
  "post /api/merchants/webhook_endpoints": {
    operationId: "createWebhookEndpoint",
    description:
      "Registers a URL to receive the merchant's events as signed Standard Webhooks deliveries. The signing secret is shown in this answer (and on rotation) only. Live mode takes https URLs of public addresses only; the sandbox also takes loopback and private addresses unless `WEBHOOK_ALLOW_PRIVATE_URLS=false`, and keeps only the status of their answers. IPv6 forms of a refused IPv4 address (`[::127.0.0.1]`, NAT64, 6to4) are refused like it. At most 16 endpoints per merchant.",
    errors: ["parameter_invalid", "endpoint_limit_reached"],
  },
  "get /api/merchants/webhook_endpoints": {
    operationId: "listWebhookEndpoints",
    description: "The merchant's webhook endpoints, newest first (their secrets are never shown again).",
    errors: [],
  },
  "get /api/merchants/webhook_endpoints/{id}": {
    operationId: "getWebhookEndpoint",
    description: "One of the merchant's webhook endpoints.",
    errors: ["resource_missing"],
  },
  "post /api/merchants/webhook_endpoints/{id}": {
    operationId: "updateWebhookEndpoint",
    description: "Changes an endpoint's `url`, `enabled_events`, `description` or `status` (`enabled` / `disabled`).",
    errors: ["resource_missing", "parameter_invalid"],
  },
  "delete /api/merchants/webhook_endpoints/{id}": {
    operationId: "deleteWebhookEndpoint",
    description: "Deletes an endpoint: nothing more is delivered to it.",
    errors: ["resource_missing"],
  },
  "post /api/merchants/webhook_endpoints/{id}/rotate_secret": {
    operationId: "rotateWebhookSecret",
    description: "A new signing secret, shown once; the old one keeps signing alongside it for 24 hours.",
    errors: ["resource_missing", "parameter_invalid"],
  },
  "get /api/merchants/webhook_endpoints/{id}/deliveries": {
    operationId: "listWebhookDeliveries",
    description: "The endpoint's delivery attempts, newest first: event, status, HTTP code, duration and the next retry.",
    errors: ["resource_missing", "parameter_invalid"],
  },
  "post /api/sandbox/events": {
    operationId: "sendTestEvent",
    description:
      "Sandbox only: creates an event of `type` with a sample object and delivers it like any other. At most `SANDBOX_EVENTS_PER_MINUTE` (default 30) a minute per merchant, whichever key sends them; past that, 429 with `Retry-After`.",
    errors: ["parameter_invalid", "route_not_found", "rate_limited"],
  },
  "post /api/webhooks/transfers": {
    operationId: "receiveTransferWebhook",
    description: "The transfer provider's status webhooks (live mode), signed with `X-Request-Signature-SHA-256`. Not called by merchants.",
    errors: ["webhook_signature_invalid"],
  },
  "post /api/merchants/refund_request/consumer_refund_request": {
    operationId: "requestRefund",
    description:
      "The consumer asks for a refund of one of their transactions: all of what is still refundable, or `amount` of it. At most one open refund per transaction.",
    errors: ["transaction_not_found", "transaction_not_refundable", "refund_exists", "amount_exceeds_refundable", "amount_invalid"],
  },
  "get /api/merchants/refund_request/consumer_refund_list": {
    operationId: "listConsumerRefunds",
    description: "The consumer's refunds, newest first.",
    errors: [],
  },
  "post /api/merchants/refund_request/merchant_status_refund_request": {
    operationId: "decideRefund",
    description:
      "The merchant (api-key) or one of its operators (auth token) approves or rejects a pending refund. Repeating the same decision answers the same; a different one is 409.",
    errors: ["refund_not_found", "invalid_status", "invalid_refund_transition"],
  },
  "post /api/merchants/refund_request/initiate_refund_transfer": {
    operationId: "initiateRefundTransfer",
    description:
      "Sends an approved refund back to the consumer: one refund transfer however often it is called, once the original transfer is completed.",
    errors: ["refund_not_found", "invalid_status", "invalid_refund_transition", "transaction_not_settled", "amount_exceeds_refundable", "provider_error"],
  },
  "get /api/merchants/refunds": {
    operationId: "listMerchantRefunds",
    description:
      "The merchant's refunds, newest first, filtered by `status`, `transaction_uuid`, or `from` (inclusive) and `to` (exclusive) on when they were requested (a date or an ISO 8601 time with offset), and `amount_gte` / `amount_lte` (both inclusive, decimal strings such as `10.00`) on the refund's `amount`; a malformed amount, or `amount_gte` above `amount_lte`, is 400 `amount_invalid`.",
    errors: ["parameter_invalid"],
  },
  "get /api/merchants/refunds/{id}": {
    operationId: "getMerchantRefund",
    description: "One refund of the merchant's checkouts.",
    errors: ["refund_not_found"],
  },
  "get /api/merchants/return_rates": {
    operationId: "getReturnRates",
    description:
      "The merchant's ACH return rates over the last 60 days against NACHA's thresholds: unauthorized returns (R05, R07, R10, R11, R29; 0.5 %), administrative (R02, R03, R04; 3 %) and all returns (15 %). `merchant.return_rate_warning` is published when a rate reaches 80 % of its threshold.",
    errors: [],
  },
  "get /api/merchants/reviews": {
    operationId: "listReviews",
    description:
      "The merchant's fraud reviews, newest first, optionally of one `status` (`open`, `approved`, `cancelled`, `expired`). A review holds a debit a risk rule flagged before it was sent: its transaction record is `in_review` with `review_id` until the merchant decides.",
    errors: ["review_not_found"],
  },
  "get /api/merchants/reviews/{id}": {
    operationId: "getReview",
    description: "One fraud review: the held debit, the rules that fired with the facts they judged, and its outcome.",
    errors: ["review_not_found"],
  },
  "post /api/merchants/reviews/{id}/approve": {
    operationId: "approveReview",
    description:
      "Approves a held debit: it is sent to the transfer provider once, under the same lease as any transfer (concurrent approvals send one transfer); its record becomes `pending` with `transaction.created`, and `review.closed` reports the outcome. A review already decided or expired is 409 `review_closed`. A dashboard viewer may not.",
    errors: ["review_not_found", "review_closed"],
  },
  "post /api/merchants/reviews/{id}/cancel": {
    operationId: "cancelReview",
    description:
      "Cancels a held debit: no money moves, its record becomes `cancelled` (`failure_code: review_cancelled`, `transaction.failed`), the checkout ends `failed`. A review already decided or expired is 409 `review_closed`; an open review past `REVIEW_EXPIRES_HOURS` is cancelled as `expired` by Payrail. A dashboard viewer may not.",
    errors: ["review_not_found", "review_closed"],
  },
  "get /api/merchants/compliance/fraud_monitoring": {
    operationId: "getFraudMonitoring",
    description:
      "The evidence of the merchant's fraud monitoring (NACHA's risk-based screening of WEB debits) an auditor asks for: the rule sets in force and since when (each rule's version and thresholds), every review and its outcome, return rates per calendar month for the last 12 months, and the yearly reviews of the program. `payrail compliance export` writes the same as JSON and CSV files.",
    errors: [],
  },
  "post /api/merchants/compliance/annual_reviews": {
    operationId: "recordAnnualReview",
    description: "Records the merchant's yearly review of its fraud-monitoring program (NACHA asks for one at least every year): what was found and decided, in `notes`. A dashboard viewer may not.",
    errors: [],
  },
  "get /api/merchants/profile": {
    operationId: "getMerchantProfile",
    description: "The merchant: its name, its support email and phone (named in every consumer notice), its statement descriptor and its default transaction purpose.",
    errors: [],
  },
  "patch /api/merchants/profile": {
    operationId: "updateMerchantProfile",
    description:
      "Changes the fields sent; `null` clears a contact or the descriptor. `statement_descriptor` is the company entry description of debits whose purpose is not `goods` (at most 10 characters of letters, digits, spaces and `& * , - . /`, stored upper case); `default_transaction_purpose` (`goods`, `services`, `other`) applies to checkouts created without `transaction_purpose`. A dashboard viewer may not.",
    errors: [],
  },
  "post /api/admin/merchants": {
    operationId: "createMerchant",
    description: "Creates a merchant and its first API key. The key is shown here only.",
    errors: [],
  },
  "get /api/admin/merchants": {
    operationId: "listMerchants",
    description: "The installation's merchants, newest first (what `payrail merchant list` shows).",
    errors: [],
  },
  "patch /api/admin/merchants/{id}": {
    operationId: "updateMerchantFundingSources",
    description:
      "Changes the merchant's funding sources at the transfer provider (what `payrail merchant update` sends): `destination_funding_source`, where its debits land and its payouts leave from, and `payout_funding_source`, its bank, where payouts go. The fields sent change, `null` clears one; a call that sends neither, or only the values the merchant has, changes nothing. Debits and payouts not yet sent to the provider use the new values; a payout transfer already made keeps its bank. Answers the merchant.",
    errors: ["merchant_not_found"],
  },
  "get /api/admin/merchants/{id}/api_keys": {
    operationId: "listApiKeys",
    description: "The merchant's API keys by prefix, oldest first, revoked ones included; the keys themselves are never stored.",
    errors: ["merchant_not_found"],
  },
  "post /api/admin/merchants/{id}/generate_api_key": {
    operationId: "generateApiKey",
    description: "Issues another API key for the merchant (shown once); older keys stay valid until revoked.",
    errors: ["merchant_not_found"],
  },
  "delete /api/admin/merchants/{id}/api_keys/{key_prefix}": {
    operationId: "revokeApiKey",
    description: "Revokes one of the merchant's API keys, named by its prefix.",
    errors: ["merchant_not_found", "api_key_not_found"],
  },
  "post /api/merchants/subscriptions/{checkout_id}": {
    operationId: "updateSubscription",
    description:
      "The merchant changes the amount of one of its subscriptions, named by its checkout (`{\"amount\": \"12.00\"}`, strict as every amount, above 0). The new amount applies from the first renewal at least 10 days away (`amount_effective_at`) that is not already being charged, retried or announced, so the consumer's `upcoming_charge` notice goes 10 days before it with the new and the previous amount (Reg E 1005.10(d)); renewals before it keep `previous_amount`. A second change that would start at the same renewal replaces the first; one that would start later, while renewals at the old amount are still to come before the first change, is 409 `amount_change_pending` (one pending change at a time keeps every renewal's amount and its notice exact). One event, `subscription.updated`. A checkout of another merchant, or one never paid, is a 404; a one-off payment is 409 `not_a_subscription`; a cancelled subscription 409 `subscription_cancelled`; one whose first charge has not settled 409 `transaction_not_settled`.",
    errors: ["checkout_not_found", "not_a_subscription", "subscription_cancelled", "transaction_not_settled", "amount_invalid", "amount_change_pending", "transfer_in_progress"],
  },
  "post /api/merchants/subscriptions/{checkout_id}/cancel": {
    operationId: "cancelSubscriptionAsMerchant",
    description:
      "The merchant cancels one of its subscriptions, named by its checkout: no renewal is charged after this answer, and the subscription's mandate is revoked (`subscription.cancelled`, `mandate.revoked`). Cancelling again answers the same. A checkout of another merchant, or one never paid, is a 404; a one-off payment is 409 `not_a_subscription`.",
    errors: ["checkout_not_found", "not_a_subscription", "transfer_in_progress"],
  },
  "get /api/merchants/events/{id}/deliveries": {
    operationId: "listEventDeliveries",
    description: "The delivery attempts of one event to every endpoint (`endpoint_id`), newest first, at most 100: outcome, HTTP status, duration, next retry. Another merchant's event, or one past the 30 days, is a 404.",
    errors: ["resource_missing"],
  },
  "get /api/admin/merchants/{id}/users": {
    operationId: "listMerchantUsers",
    description: "The merchant's dashboard users, oldest first: id, email, role, and whether they are still invited or active (what `payrail users list` prints).",
    errors: ["merchant_not_found"],
  },
  "post /api/admin/merchants/{id}/users": {
    operationId: "inviteMerchantUser",
    description:
      "Invites a dashboard user with a role: `owner`, `admin` (both may change things) or `viewer` (reads only). Answers the invitation link (`url`, the token in its fragment), valid 7 days and shown once; the page it opens sets the user's password. Inviting a still-invited email again issues a new link.",
    errors: ["merchant_not_found", "merchant_user_exists"],
  },
  "post /api/admin/merchants/{id}/operators": {
    operationId: "addOperator",
    description: "Registers a user, by phone, as an operator of the merchant: their auth token may then decide and pay out the merchant's refunds.",
    errors: ["merchant_not_found", "invalid_phone_number"],
  },
  "get /api/admin/merchants/{id}/operators": {
    operationId: "listOperators",
    description: "The merchant's operators, oldest first.",
    errors: ["merchant_not_found"],
  },
  "post /api/admin/reconcile": {
    operationId: "reconcile",
    description:
      "One reconciler pass now (what `payrail reconcile` runs): every transfer and refund payout pending longer than `after_ms` (default `RECONCILE_AFTER`) is looked up at the provider and applied, and every charge stopped between the provider call and its record is finished. Answers what changed; `busy` when another pass was running (it then did nothing).",
    errors: [],
  },
  "delete /api/admin/merchants/{id}/operators/{phone}": {
    operationId: "removeOperator",
    description: "Removes an operator at once.",
    errors: ["merchant_not_found", "operator_not_found", "invalid_phone_number"],
  },
};
