import ipaddr from "ipaddr.js";

/**
 * The bucket a client address is limited by (send_code budgets, sign-in attempts, anonymous requests): an IPv4 address itself, an IPv6 address by its /64
 * (one subscriber's usual allocation: counting single IPv6 addresses would hand each client
 * 2^64 budgets). IPv4-mapped IPv6 forms count as the IPv4 address. Null when there is none.
 */
export function addressBucket(address: string | undefined): string | null {
  if (!address || !ipaddr.isValid(address)) return null;
  const ip = ipaddr.process(address);
  if (ip.kind() === "ipv4") return `ip4:${ip.toString()}`;
  const parts = (ip as ipaddr.IPv6).parts.slice(0, 4);
  return `ip6:${parts.map((p) => p.toString(16)).join(":")}::/64`;
}
