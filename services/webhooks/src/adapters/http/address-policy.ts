import ipaddr from "ipaddr.js";

/** Cloud metadata services that sit outside the link-local range (AWS's IPv6 one). */
const METADATA = new Set(["fd00:ec2:0:0:0:0:0:254"]);

/**
 * Whether a webhook may be sent to this IP address. Live mode (`publicOnly`): only public
 * unicast addresses, so no loopback, private, carrier-grade NAT, link-local (cloud metadata at
 * 169.254.169.254), unique-local, multicast or reserved ones, IPv4-mapped IPv6 forms included.
 * Sandbox: anything but link-local and metadata addresses, so a receiver on localhost or the
 * local network works during development.
 */
export function addressAllowed(address: string, publicOnly: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  // process() turns an IPv4-mapped IPv6 address (::ffff:127.0.0.1) into the IPv4 one.
  const ip = ipaddr.process(address);
  const range = ip.range();
  if (publicOnly) return range === "unicast";
  return range !== "linkLocal" && !METADATA.has(ip.toNormalizedString());
}
