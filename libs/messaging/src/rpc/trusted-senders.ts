import type { Principal } from "@payrail/contracts";

/**
 * Which broker users may speak for whom. RabbitMQ validates a message's `user_id` property
 * against the user its connection logged in as (a mismatch closes the channel), so on a
 * broker where each component has its own user, `user_id` says which component sent a request.
 *
 * - merchant and consumer (`user`) principals come from `gateway` users, which check api-keys
 *   and tokens, and from `services` users, which pass on the principal of the request they are
 *   serving so that the next service enforces the tenant boundary itself (payments asks
 *   checkout as the merchant; refunds asks payments as the consumer);
 * - the admin principal comes only from `gateway` users (the operator routes, behind
 *   ADMIN_TOKEN) and `admin` users (the CLI): no service ever acts as admin;
 * - a service principal only from the users of the service it names (payments' user cannot
 *   act as refunds): it opens internal operations (a refund payout, a transfer for a renewal)
 *   that neither the gateway nor the CLI ever calls;
 * - the anonymous principal from any user the broker let in: it claims nothing a caller of
 *   the public API could not.
 *
 * So the CLI, and any other user on the broker (a monitoring probe, a leaked low-privilege
 * password), can never act for a merchant, a consumer or a service. Without a policy (one
 * broker user for everything, as in development) every sender is trusted, and nothing tells
 * them apart.
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

/** Why `principal` may not come from `sender`, or undefined when it may. */
export function refusedPrincipal(trust: TrustedSenders | undefined, sender: string | undefined, principal: Principal): string | undefined {
  if (!trust) return undefined;
  const among = (users: readonly string[]) => sender !== undefined && users.includes(sender);
  const service = serviceOfSender(trust, sender);
  switch (principal.kind) {
    case "merchant":
    case "user":
      return among(trust.gateway) || service !== undefined ? undefined : `a ${principal.kind} principal is accepted only from the gateway and the services`;
    case "admin":
      return among(trust.gateway) || among(trust.admin) ? undefined : "the admin principal is accepted only from the gateway and the CLI";
    case "service":
      if (service === undefined) return "a service principal is accepted only from the services";
      // One user may serve several services (all of them in one process): any of its own names.
      return among(trust.services[principal.service] ?? []) ? undefined : `a service principal for ${principal.service} is accepted only from that service's users`;
    case "anonymous":
      return undefined;
  }
}
