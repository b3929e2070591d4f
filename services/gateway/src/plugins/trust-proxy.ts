/** What fastify's `trustProxy` takes: a predicate on (address, hop), or proxy-addr's list. */
type FastifyTrustProxy = boolean | string | string[] | ((address: string, hop: number) => boolean);

/**
 * TRUST_PROXY as fastify should apply it. A hop count becomes a predicate trusting that many
 * hops from the socket's peer (Express's meaning): fastify 5.12 itself turns a number into
 * "trust nothing", since a client that reaches the gateway directly could then write its own
 * X-Forwarded-For. A hop count is for gateways reachable only through the proxies; a list of
 * the proxies' addresses holds either way (docs/decisions/0015-request-limits.md).
 */
export function fastifyTrustProxy(setting: boolean | number | string | string[] | undefined): FastifyTrustProxy {
  if (setting === undefined) return false;
  if (typeof setting === "number") return setting > 0 ? (_address, hop) => hop < setting : false;
  return setting;
}
