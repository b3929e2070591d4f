import ipaddr from "ipaddr.js";

/** Cloud metadata services that sit outside the link-local range (AWS's IPv6 one). */
const METADATA = new Set(["fd00:ec2:0:0:0:0:0:254"]);

/** The last four bytes, where most forms put the IPv4 address. */
const LAST_FOUR = [12, 13, 14, 15] as const;
/**
 * The local-use NAT64 prefix (RFC 8215) leaves the prefix length to the operator: the IPv4
 * address sits where any /48 or longer puts it (RFC 6052's layouts skip byte 8, the "u" octet).
 */
const NAT64_LOCAL_USE = [[6, 7, 9, 10], [7, 9, 10, 11], [9, 10, 11, 12], LAST_FOUR] as const;

/**
 * Whether a webhook may be sent to this IP address. Live mode (`publicOnly`): only public
 * unicast addresses, so no loopback, private, carrier-grade NAT, link-local (cloud metadata at
 * 169.254.169.254), unique-local, multicast or reserved ones. Sandbox: anything but link-local
 * and metadata addresses, so a receiver on localhost or the local network works during
 * development. An IPv6 address that carries an IPv4 one (IPv4-compatible `::/96`, mapped
 * `::ffff:0:0/96`, translated, NAT64, 6to4, Teredo) is refused whenever that IPv4 address
 * would be: `[::127.0.0.1]` reaches loopback as surely as `127.0.0.1` does.
 */
export function addressAllowed(address: string, publicOnly: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.parse(address);
  if (ip.kind() === "ipv4") return ipv4Allowed(ip as ipaddr.IPv4, publicOnly);
  const v6 = ip as ipaddr.IPv6;
  // A mapped address is its IPv4 address on the wire: judged as that alone.
  if (v6.isIPv4MappedAddress()) return ipv4Allowed(v6.toIPv4Address(), publicOnly);
  const range = v6.range();
  const ownAllowed = publicOnly ? range === "unicast" : range !== "linkLocal" && !METADATA.has(v6.toNormalizedString());
  return ownAllowed && embeddedIPv4(v6).every((v4) => ipv4Allowed(v4, publicOnly));
}

function ipv4Allowed(ip: ipaddr.IPv4, publicOnly: boolean): boolean {
  const range = ip.range();
  return publicOnly ? range === "unicast" : range !== "linkLocal";
}

/** Every IPv4 address this IPv6 address carries (none for most). */
export function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4[] {
  const bytes = ip.toByteArray();
  const at = (offsets: readonly number[]) => new ipaddr.IPv4(offsets.map((i) => bytes[i]!));
  // IPv4-compatible (::a.b.c.d): deprecated by RFC 4291, still routed by some stacks.
  if (bytes.slice(0, 12).every((b) => b === 0)) return [at(LAST_FOUR)];
  switch (ip.range()) {
    case "rfc6145":
      return [at(LAST_FOUR)];
    case "rfc6052":
      // 64:ff9b::/96 (well-known) or 64:ff9b:1::/48 (local use).
      return bytes[5] === 1 ? NAT64_LOCAL_USE.map(at) : [at(LAST_FOUR)];
    case "6to4":
      return [at([2, 3, 4, 5])];
    case "teredo":
      // The server, and the client's address (stored with its bits inverted).
      return [at([4, 5, 6, 7]), new ipaddr.IPv4(bytes.slice(12).map((b) => b ^ 0xff))];
    default:
      return [];
  }
}
