import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedVariant } from "../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";

const PROXY = "10.1.0.1";
const BAD_KEY = "sk_test_nolongervalid0000";

/**
 * TRUST_PROXY decides the client address the failed-authentication limit counts (docs/api-notes.md, Limits),
 * seen here through that limit: 3 failures of one key from one client address block that key there.
 */
describe.each([
  { name: "behind a trusted proxy (TRUST_PROXY=10.1.0.1)", trustProxy: [PROXY] as string[] | number | undefined, trusted: true },
  { name: "behind a trusted proxy (TRUST_PROXY=1, one hop)", trustProxy: 1, trusted: true },
  { name: "without TRUST_PROXY", trustProxy: undefined, trusted: false },
])("the client address $name", ({ trustProxy, trusted }) => {
  const variant = embeddedVariant();
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack(variant, { authFailuresPerMinute: 3, gateway: { trustProxy } });
  });
  afterAll(async () => {
    await stack.close();
    await variant.cleanup();
  });

  const viaProxy = (forwardedFor: string, key = BAD_KEY, remoteAddress = PROXY) =>
    stack.app.inject({ url: "/api/merchants/checkout", headers: { "api-key": key, "x-forwarded-for": forwardedFor }, remoteAddress });
  const failThrice = async (forwardedFor: string) => {
    for (let i = 0; i < 3; i++) expect((await viaProxy(forwardedFor)).statusCode).toBe(401);
    expect((await viaProxy(forwardedFor)).statusCode).toBe(429);
  };

  it(trusted ? "is X-Forwarded-For's: one client's failures do not block the key for another client" : "is the proxy's: X-Forwarded-For changes nothing", async () => {
    await failThrice("203.0.113.7");
    expect((await viaProxy("203.0.113.8")).statusCode).toBe(trusted ? 401 : 429);
    // A client cannot pick its address by writing X-Forwarded-For itself: the trusted proxy appends the real one.
    expect((await viaProxy("203.0.113.8, 203.0.113.7")).statusCode).toBe(429);
  });

  it("ignores X-Forwarded-For from a peer that is not the proxy", async () => {
    const stranger = "198.51.100.20";
    for (let i = 0; i < 3; i++) expect((await viaProxy(`203.0.113.${50 + i}`, BAD_KEY, stranger)).statusCode).toBe(401);
    const blocked = await viaProxy("203.0.113.99", BAD_KEY, stranger);
    // With a hop count every peer is taken for a proxy (that is what a hop count means).
    expect(blocked.statusCode).toBe(trustProxy === 1 ? 401 : 429);
  });

  it("lets a good key through from the proxy's address after 20 bad keys through it", async () => {
    const good = await stack.merchant("Behind the proxy");
    for (let i = 0; i < 20; i++) expect((await viaProxy("203.0.113.30", `sk_test_guess${i}`)).statusCode).toBe(401);
    for (let i = 0; i < 5; i++) await viaProxy("203.0.113.30", "sk_test_samebad");
    expect((await viaProxy("203.0.113.30", good.apiKey)).statusCode).toBe(200);
    expect((await viaProxy("203.0.113.31", good.apiKey)).statusCode).toBe(200);
  });
});
