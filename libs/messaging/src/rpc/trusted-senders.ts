import { serviceMayCall, type Principal } from "@payrail/contracts";

/**
 * Which broker users may speak for whom. RabbitMQ validates a message's `user_id` property
 * against the user its connection logged in as (a mismatch closes the channel), so on a
 * broker where each component has its own user, `user_id` says which component sent a request.
 *
 * - merchant and consumer (`user`) principals come only from `gateway` users, which check
 *   api-keys and tokens: no service passes on the principal it serves;
 * - the admin principal comes only from `gateway` users (the operator routes, behind
 *   ADMIN_TOKEN) and `admin` users (the CLI): no service ever acts as admin;
 * - a domain service's users send only `service` principals naming that service, and only to
 *   the operations it calls (`SERVICE_CALLS`): payments' user cannot act as refunds, and
 *   webhooks' user, which calls nothing, is refused everything;
 * - the anonymous principal from any user the broker let in but the services' (it claims
 *   nothing a caller of the public API could not, and a service never sends it), save a
 *   service's ping of itself: the readiness check of a process without the gateway
 *   (bin/observability/metrics-server.ts) asks whether its own services answer.
 *
 * So the CLI, and any other user on the broker (a monitoring probe, a leaked low-privilege
 * password), can never act for a merchant, a consumer or a service, and a leaked service
 * password reaches only the operations that service calls. Without a policy (one broker user
 * for everything, as in development) every sender is trusted, and nothing tells them apart.
 */
export interface TrustedSenders {
  gateway: readonly string[];
  /** Each domain service's broker users, by service name (`payments: ["payrail-payments"]`). */
  services: Readonly<Record<string, readonly string[]>>;
  admin: readonly string[];
}

/** The service whose broker user `sender` is, if any. */
export function serviceOfSender(trust: TrustedSenders, sender: string | undefined): string | undefined {
  if (sender === undefined) return undefined;
  return Object.keys(trust.services).find((service) => trust.services[service]!.includes(sender));
}

/** Why `principal` may not come from `sender` for `pattern`, or undefined when it may. */
export function refusedPrincipal(trust: TrustedSenders | undefined, sender: string | undefined, principal: Principal, pattern: string): string | undefined {
  if (!trust) return undefined;
  const among = (users: readonly string[]) => sender !== undefined && users.includes(sender);
  switch (principal.kind) {
    case "merchant":
    case "user":
      return among(trust.gateway) ? undefined : `a ${principal.kind} principal is accepted only from the gateway`;
    case "admin":
      return among(trust.gateway) || among(trust.admin) ? undefined : "the admin principal is accepted only from the gateway and the CLI";
    case "service":
      // One user may serve several services (all of them in one process): any of its own names.
      if (!among(trust.services[principal.service] ?? [])) return `a service principal for ${principal.service} is accepted only from that service's users`;
      return serviceMayCall(principal.service, pattern) ? undefined : `${principal.service} does not call ${pattern}`;
    case "anonymous":
      // A user that is also the gateway's (everything in one process) may: the gateway sends it.
      if (serviceOfSender(trust, sender) === undefined || among(trust.gateway)) return undefined;
      return Object.keys(trust.services).some((service) => pattern === `${service}.ping` && among(trust.services[service]!))
        ? undefined
        : "a service sends only its own service principal (and the anonymous one only to ping itself)";
  }
}

/**
 * Whether a request's `clientIp` may be believed: only the gateway sees the client, so an
 * address from any other sender (the CLI, a service, a forged message) is dropped before the
 * handler runs and the audit log says null rather than what that sender claimed. Without a
 * policy every sender is trusted.
 */
export function believesClientIp(trust: TrustedSenders | undefined, sender: string | undefined): boolean {
  return !trust || (sender !== undefined && trust.gateway.includes(sender));
}
