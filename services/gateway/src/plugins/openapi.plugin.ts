import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
import "../openapi/components.ts";
import { DOCS_PAGE_SCRIPT, DOCS_UI_CONFIG } from "../openapi/docs-page.ts";
import { DOCS_THEME_CSS } from "../openapi/docs-theme.ts";
import { docsDocument } from "../openapi/docs-try-it.ts";
import { finishDocument } from "../openapi/finish-document.ts";

/**
 * The policy of `/docs` (swagger-ui sets it on its own routes only). Its page loads its scripts
 * from files under /docs (no inline script, so `'self'` suffices), while its React components
 * write inline styles, hence `'unsafe-inline'` for styles only. Nobody may frame the page
 * (clickjacking). swagger-ui's default policy is not used: its `upgrade-insecure-requests`
 * would break the page on a plain-http gateway.
 */
const DOCS_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const TAGS = [
  { name: "Merchant: checkout", description: "Create checkouts and hand the consumer a link token (api-key)." },
  { name: "Consumer: identity", description: "Phone verification: a code by text message, exchanged for an auth token." },
  { name: "Consumer: bank linking", description: "The consumer links a bank account to a checkout (auth token and link token)." },
  { name: "Merchant: transfers", description: "Execute the payment of a checkout whose bank account is saved." },
  { name: "Merchant: profile", description: "Support contacts named in consumer notices, and how the merchant's debits are described (api-key)." },
  { name: "Consumer: subscriptions", description: "The consumer's transaction records; cancel a subscription." },
  { name: "Refunds", description: "The consumer asks, the merchant or its operator decides and pays out." },
  { name: "Mandates", description: "Debit authorizations: what the consumer accepted before a debit, or the merchant attested (api-key)." },
  { name: "Notices", description: "What Payrail told the merchant's consumers by SMS and email (api-key)." },
  { name: "Books", description: "The merchant's balance, its balance transactions and CSV exports (api-key)." },
  { name: "Audit log", description: "Who changed what of the merchant's: keys, endpoints, refunds, checkouts, subscriptions, the team (api-key)." },
  { name: "Sandbox", description: "Stand-ins for the consumer's phone, bank and the transfer provider (PROVIDERS=sandbox only)." },
  { name: "Admin", description: "Merchants, API keys and operators (x-admin-token; off unless ADMIN_TOKEN is set)." },
  { name: "Webhooks", description: "Inbound provider webhooks." },
];

/**
 * `/openapi.json` is generated from the same zod schemas that validate requests, so the
 * reference cannot drift from the behaviour; `/docs` renders it (assets ship in the package).
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Payrail API",
        version: "0.1.0",
        description:
          "Bank-transfer checkout, subscription and refund service. Merchants authenticate with `api-key`, consumers with `Authorization: Token <auth_token>` (from Verify Code). Every error has the body `{error: {type, code, message, param, request_id}}`; each operation lists the codes it can answer. Sandbox routes exist only with PROVIDERS=sandbox, admin routes only when ADMIN_TOKEN is set.",
        license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
      },
      // Relative: Try-it calls the gateway that served the page, wherever it runs.
      servers: [{ url: "/", description: "This gateway" }],
      tags: TAGS,
      components: {
        securitySchemes: {
          apiKey: { type: "apiKey", in: "header", name: "api-key", description: "The merchant's API key (`sk_test_…` in the sandbox)." },
          authToken: {
            type: "apiKey",
            in: "header",
            name: "Authorization",
            description: "A consumer's (or operator's) auth token from Verify Code: `Token <auth_token>`, `Bearer <auth_token>` or the bare token.",
          },
          linkToken: { type: "apiKey", in: "header", name: "link-token", description: "The merchant link token of the checkout (Generate Link Token)." },
          adminToken: { type: "apiKey", in: "header", name: "x-admin-token", description: "The ADMIN_TOKEN of the deployment." },
        },
        headers: {
          RetryAfter: { description: "Seconds to wait before retrying.", schema: { type: "integer", minimum: 1 } },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: (document) => finishDocument(jsonSchemaTransformObject(document)),
  });
  await app.register(swaggerUi, {
    routePrefix: "/docs",
    staticCSP: DOCS_CSP,
    uiConfig: DOCS_UI_CONFIG,
    theme: {
      title: "Payrail API reference",
      css: [{ filename: "payrail.css", content: DOCS_THEME_CSS }],
      js: [{ filename: "payrail.js", content: DOCS_PAGE_SCRIPT }],
    },
    // Per render (the json /docs loads), not /openapi.json: Try-it's example and no servers (docs-try-it.ts).
    transformSpecification: (document) => docsDocument(document),
  });
  app.get("/openapi.json", { schema: { hide: true } as Record<string, unknown> }, async () => app.swagger());
}
