import { lookup, type LookupAddress, type LookupOptions } from "node:dns";
import { isIP } from "node:net";
import { addressAllowed } from "./address-policy.ts";

/** A host whose address the policy refuses. */
export class AddressNotAllowedError extends Error {
  override readonly name = "AddressNotAllowedError";
}

/** The URL's host without IPv6 brackets. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, "$1");

/** Every address a host resolves to (an IP literal is its own), refused when any is not allowed. */
export async function resolveAllowed(host: string, publicOnly: boolean): Promise<string[]> {
  const addresses = isIP(host) ? [host] : (await new Promise<LookupAddress[]>((resolve, reject) => lookup(host, { all: true }, (err, all) => (err ? reject(err) : resolve(all))))).map((a) => a.address);
  const refused = addresses.find((a) => !addressAllowed(a, publicOnly));
  if (refused !== undefined) throw new AddressNotAllowedError(`${host} resolves to ${refused}, which webhooks may not be sent to`);
  return addresses;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for node's http(s).request that refuses hosts resolving to a refused address: the
 * check happens on the very addresses the socket then connects to, so a DNS answer that
 * changes between a check and the connection (rebinding) cannot slip through.
 */
export function guardedLookup(publicOnly: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const refused = addresses.find((a) => !addressAllowed(a.address, publicOnly));
      if (refused) return callback(new AddressNotAllowedError(`${hostname} resolves to ${refused.address}, which webhooks may not be sent to`), []);
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}
