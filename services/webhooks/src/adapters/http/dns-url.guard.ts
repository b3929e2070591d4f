import { AppError } from "@payrail/contracts";
import type { UrlGuardPort } from "../../domain/ports/url-guard.port.ts";
import { AddressNotAllowedError, hostOf, resolveAllowed } from "./guarded-lookup.ts";

/**
 * The URL check at registration (API.md §11): live mode takes only https URLs whose host
 * resolves, and only to public addresses; the sandbox also takes http and loopback or private
 * hosts (and hosts that do not resolve yet), but never link-local or metadata addresses.
 * Deliveries check the addresses again on each connection (guardedLookup).
 */
export class DnsUrlGuard implements UrlGuardPort {
  async check(raw: string, livemode: boolean): Promise<void> {
    const url = new URL(raw);
    if (livemode && url.protocol !== "https:") throw refused("live mode accepts only https URLs");
    try {
      await resolveAllowed(hostOf(url), livemode);
    } catch (err) {
      if (err instanceof AddressNotAllowedError) throw refused(err.message);
      if (livemode) throw refused(`${url.hostname} does not resolve`);
    }
  }
}

const refused = (message: string) => new AppError("parameter_invalid", message, { param: "url" });
