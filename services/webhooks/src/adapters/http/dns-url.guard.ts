import { AppError } from "@payrail/contracts";
import type { UrlGuardPort, UrlRules } from "../../domain/ports/url-guard.port.ts";
import { AddressNotAllowedError, hostOf, resolveAllowed } from "./guarded-lookup.ts";

/**
 * The URL check at registration (docs/api-notes.md, Events and webhooks): live mode takes only https URLs whose host
 * resolves, and only to public addresses; the sandbox also takes http, loopback and private
 * hosts when WEBHOOK_ALLOW_PRIVATE_URLS allows them, and hosts that do not resolve yet, but
 * never link-local or metadata addresses. Deliveries check the addresses again on each
 * connection (guardedLookup).
 */
export class DnsUrlGuard implements UrlGuardPort {
  async check(raw: string, rules: UrlRules): Promise<void> {
    const url = new URL(raw);
    if (rules.httpsOnly && url.protocol !== "https:") throw refused("live mode accepts only https URLs");
    try {
      await resolveAllowed(hostOf(url), rules.publicOnly);
    } catch (err) {
      if (err instanceof AddressNotAllowedError) {
        const hint = rules.publicOnly && !rules.httpsOnly ? " (a sandbox takes loopback and private addresses only with WEBHOOK_ALLOW_PRIVATE_URLS=true)" : "";
        throw refused(`${err.message}${hint}`);
      }
      if (rules.httpsOnly) throw refused(`${url.hostname} does not resolve`);
    }
  }
}

const refused = (message: string) => new AppError("parameter_invalid", message, { param: "url" });
