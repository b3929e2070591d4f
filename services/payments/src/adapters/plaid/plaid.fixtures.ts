/**
 * Plaid's documented answers (https://plaid.com/docs/api/), as the transformer tests and the
 * local test server use them.
 */
export const PLAID_FIXTURES = {
  linkTokenCreate: {
    link_token: "link-sandbox-af1a0311-da53-4636-b754-dd15cc058176",
    expiration: "2020-03-27T12:56:34Z",
    request_id: "XQVgFigpGHXkb0b",
  },
  publicTokenExchange: {
    access_token: "access-sandbox-de3ce8ef-33f8-452c-a685-8671031fc0f6",
    item_id: "M5eVJqLnv3tbzdngLDp9FL5OlDNxlNhlE55op",
    request_id: "Aim3b",
  },
  processorTokenCreate: {
    processor_token: "processor-sandbox-0asd1-a92nc",
    request_id: "xrQNYZ7Zoh6R7gV",
  },
  invalidPublicToken: {
    error_type: "INVALID_INPUT",
    error_code: "INVALID_PUBLIC_TOKEN",
    error_message: "provided public token is in an invalid format. expected format: public-<environment>-<identifier>",
    display_message: null,
    request_id: "cgOkrPWU5w6SnrC",
  },
  invalidApiKeys: {
    error_type: "INVALID_INPUT",
    error_code: "INVALID_API_KEYS",
    error_message: "invalid client_id or secret provided",
    display_message: null,
    request_id: "HNTDNrA8F1shFEW",
  },
  invalidAccountId: {
    error_type: "INVALID_INPUT",
    error_code: "INVALID_ACCOUNT_ID",
    error_message: "account_id is invalid or not associated with the item",
    display_message: null,
    request_id: "r8dbG7f4JNMoKCQ",
  },
  rateLimit: {
    error_type: "RATE_LIMIT_EXCEEDED",
    error_code: "RATE_LIMIT",
    error_message: "rate limit exceeded for attempts to access this item. please try again later",
    display_message: null,
    request_id: "uZ8cQ4Nz3eX0hAp",
  },
} as const;
