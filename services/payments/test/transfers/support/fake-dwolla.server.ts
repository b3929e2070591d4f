import { createHash, randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for Dwolla's API, answering its documented shapes: OAuth client-credentials
 * token, customers, funding sources (from a Plaid processor token, or the platform account's
 * own), transfers with Idempotency-Key replay, searches of a customer's or the account's
 * transfers, transfer status and failure, and Dwolla's error bodies.
 */
export interface FakeDwolla {
  url: string;
  key: string;
  secret: string;
  /** Every API request after the token (method, path, headers, parsed body). */
  requests: { method: string; path: string; query: string; headers: IncomingMessage["headers"]; body: unknown }[];
  tokenRequests: number;
  customers: Map<string, { email: string }>;
  transfers: Map<string, { status: string; failureCode?: string; body: unknown }>;
  /** The platform account's id: its funding sources are where a merchant's money is held and paid out from. */
  accountId: string;
  /** Adds a funding source (a bank, or the balance) to the platform account, as its dashboard does; answers its URL. */
  addAccountFundingSource(): string;
  /** Answers the next API request (not /token) with this status and body instead. */
  respondNext(status: number, body: unknown): void;
  /** Leaves the next API request unanswered (a hung connection). */
  hangNext(): void;
  /** Forgets idempotency keys, as Dwolla does after 24 hours. */
  forgetIdempotencyKeys(): void;
  close(): Promise<void>;
}

type Answer = { status: number; body?: unknown; location?: string };

export async function startFakeDwolla(): Promise<FakeDwolla> {
  const key = "test-key";
  const secret = `test-secret-${randomBytes(8).toString("hex")}`;
  const tokens = new Set<string>();
  const idempotency = new Map<string, Answer>();
  /** Each funding source's owner: a customer's (`customerId`) or the platform account's (`customerId` null). */
  const fundingSources = new Map<string, { customerId: string | null; plaidToken: string }>();
  const accountId = randomUUID();
  const canned: (Answer | "hang")[] = [];
  let url = "";

  const fake: FakeDwolla = {
    url,
    key,
    secret,
    requests: [],
    tokenRequests: 0,
    customers: new Map(),
    transfers: new Map(),
    accountId,
    addAccountFundingSource: () => {
      const id = randomUUID();
      fundingSources.set(id, { customerId: null, plaidToken: `account-bank-${id}` });
      return `${url}/funding-sources/${id}`;
    },
    respondNext: (status, body) => void canned.push({ status, body }),
    hangNext: () => void canned.push("hang"),
    forgetIdempotencyKeys: () => idempotency.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const validation = (code: string, message: string, path: string, about?: string): Answer => ({
    status: 400,
    body: {
      code: "ValidationError",
      message: "Validation error(s) present. See embedded errors list for more details.",
      _embedded: { errors: [{ code, message, path, _links: about ? { about: { href: about } } : {} }] },
    },
  });
  const notFound: Answer = { status: 404, body: { code: "NotFound", message: "The requested resource was not found." } };

  function route(method: string, path: string, body: Record<string, unknown>, query: URLSearchParams): Answer {
    let m: RegExpExecArray | null;
    if (method === "POST" && path === "/customers") {
      for (const field of ["firstName", "lastName", "email"]) {
        if (typeof body[field] !== "string" || body[field] === "") return validation("Required", `${field} is required.`, `/${field}`);
      }
      const existing = [...fake.customers].find(([, c]) => c.email === body.email);
      if (existing) return validation("Duplicate", "A customer with the specified email already exists.", "/email", `${url}/customers/${existing[0]}`);
      const id = randomUUID();
      fake.customers.set(id, { email: body.email as string });
      return { status: 201, location: `${url}/customers/${id}` };
    }
    if (method === "POST" && (m = /^\/customers\/([^/]+)\/funding-sources$/.exec(path))) {
      const customerId = m[1]!;
      if (!fake.customers.has(customerId)) return notFound;
      if (typeof body.plaidToken !== "string" || !body.plaidToken.startsWith("processor-")) {
        return validation("Invalid", "Invalid Plaid processor token.", "/plaidToken");
      }
      const same = [...fundingSources].find(([, f]) => f.customerId === customerId && f.plaidToken === body.plaidToken);
      if (same) {
        const about = { href: "", type: "application/vnd.dwolla.v1.hal+json", "resource-type": "funding-source" };
        return { status: 400, body: { code: "DuplicateResource", message: `Bank already exists: id=${same[0]}`, _links: { about } } };
      }
      const id = randomUUID();
      fundingSources.set(id, { customerId, plaidToken: body.plaidToken });
      return { status: 201, location: `${url}/funding-sources/${id}` };
    }
    if (method === "POST" && (m = /^\/funding-sources\/([^/]+)\/micro-deposits$/.exec(path))) {
      if (!fundingSources.has(m[1]!)) return notFound;
      // Initiation has no body; verification names both amounts. This fake always sends 0.03 and 0.09.
      if (body.amount1 === undefined) return { status: 201, location: `${url}/funding-sources/${m[1]}/micro-deposits` };
      const values = [body.amount1, body.amount2].map((a) => (a as { value?: unknown } | undefined)?.value).sort();
      if (values[0] === "0.03" && values[1] === "0.09") return { status: 200, body: { _links: {} } };
      return validation("Invalid", "Wrong amount(s).", "/amount1/value");
    }
    if (method === "GET" && (m = /^\/funding-sources\/([^/]+)$/.exec(path))) {
      const source = fundingSources.get(m[1]!);
      if (!source) return notFound;
      // Dwolla's fingerprint names the bank account; here the processor token stands for it.
      const fingerprint = createHash("sha256").update(source.plaidToken).digest("hex");
      const owner = source.customerId ? { customer: { href: `${url}/customers/${source.customerId}` } } : { account: { href: `${url}/accounts/${accountId}` } };
      return { status: 200, body: { id: m[1], status: "unverified", type: "bank", bankAccountType: "checking", name: "Checking", fingerprint, _links: { self: { href: `${url}/funding-sources/${m[1]}` }, ...owner } } };
    }
    if (method === "POST" && path === "/transfers") {
      const links = body._links as { source?: { href?: string }; destination?: { href?: string } } | undefined;
      for (const side of ["source", "destination"] as const) {
        const id = /\/funding-sources\/([^/]+)$/.exec(links?.[side]?.href ?? "")?.[1];
        if (!id || !fundingSources.has(id)) return validation("Invalid", "Invalid funding source.", `/_links/${side}/href`);
      }
      const amount = body.amount as { value?: string; currency?: string } | undefined;
      if (!/^\d+\.\d{2}$/.test(amount?.value ?? "") || amount?.currency !== "USD") return validation("Invalid", "Invalid amount.", "/amount/value");
      const id = randomUUID();
      fake.transfers.set(id, { status: "pending", body });
      return { status: 201, location: `${url}/transfers/${id}` };
    }
    if (method === "GET" && (m = /^\/(customers|accounts)\/([^/]+)\/transfers$/.exec(path))) {
      // Dwolla's "list and search a customer's (or the account's) transfers": those from or to its funding sources.
      const ownerId = m[1] === "customers" ? m[2]! : null;
      if (ownerId ? !fake.customers.has(ownerId) : m[2] !== accountId) return notFound;
      const own = (href: string | undefined) => fundingSources.get(/\/funding-sources\/([^/]+)$/.exec(href ?? "")?.[1] ?? "")?.customerId === ownerId;
      const correlationId = query.get("correlationId");
      const transfers = [...fake.transfers]
        .filter(([, t]) => {
          const b = t.body as { _links: { source: { href: string }; destination: { href: string } }; correlationId?: string };
          return (own(b._links.source.href) || own(b._links.destination.href)) && (!correlationId || b.correlationId === correlationId);
        })
        .map(([id, t]) => ({ id, status: t.status, created: new Date().toISOString(), _links: { self: { href: `${url}/transfers/${id}` } } }));
      return { status: 200, body: { _links: {}, _embedded: { transfers }, total: transfers.length } };
    }
    if (method === "GET" && (m = /^\/transfers\/([^/]+)(\/failure)?$/.exec(path))) {
      const id = m[1]!;
      const transfer = fake.transfers.get(id);
      if (!transfer) return notFound;
      if (m[2]) {
        if (!transfer.failureCode) return notFound;
        return { status: 200, body: { code: transfer.failureCode, description: "Insufficient Funds", explanation: "The available balance is not sufficient." } };
      }
      const self = `${url}/transfers/${id}`;
      const failure = transfer.status === "failed" ? { failure: { href: `${self}/failure` } } : {};
      return { status: 200, body: { id, status: transfer.status, amount: (transfer.body as { amount: unknown }).amount, created: new Date().toISOString(), _links: { self: { href: self }, ...failure } } };
    }
    return { status: 404, body: { code: "NotFound", message: "The requested resource was not found." } };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const path = (req.url ?? "/").split("?")[0]!;
    const send = (a: Answer) => {
      const headers: Record<string, string> = { "content-type": "application/vnd.dwolla.v1.hal+json" };
      if (a.location) headers.location = a.location;
      res.writeHead(a.status, headers).end(a.body === undefined ? "" : typeof a.body === "string" ? a.body : JSON.stringify(a.body));
    };
    if (req.method === "POST" && path === "/token") {
      fake.tokenRequests++;
      const form = new URLSearchParams(raw);
      if (form.get("grant_type") !== "client_credentials" || form.get("client_id") !== key || form.get("client_secret") !== secret) {
        return send({ status: 401, body: { error: "invalid_client", error_description: "Invalid client credentials." } });
      }
      const accessToken = randomBytes(24).toString("base64url");
      tokens.add(accessToken);
      return send({ status: 200, body: { access_token: accessToken, token_type: "bearer", expires_in: 3600 } });
    }
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    fake.requests.push({ method: req.method ?? "", path, query: (req.url ?? "").split("?")[1] ?? "", headers: req.headers, body });
    const next = canned.shift();
    if (next === "hang") return;
    if (next) return send(next);
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (!bearer || !tokens.has(bearer)) return send({ status: 401, body: { code: "InvalidAccessToken", message: "Invalid access token." } });
    const idemKey = req.headers["idempotency-key"];
    const memoKey = typeof idemKey === "string" ? `${path} ${idemKey}` : undefined;
    const replay = memoKey ? idempotency.get(memoKey) : undefined;
    if (replay) return send(replay);
    const answer = route(req.method ?? "", path, body, new URLSearchParams((req.url ?? "").split("?")[1] ?? ""));
    if (memoKey && answer.status === 201) idempotency.set(memoKey, answer);
    send(answer);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.url = url;
  return fake;
}
