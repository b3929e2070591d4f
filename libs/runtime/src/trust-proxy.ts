import { isIP } from "node:net";
import { z } from "zod";

/** What fastify's `trustProxy` takes from TRUST_PROXY: off, a hop count, or the proxies' addresses. */
export type TrustProxy = false | number | string[];

/** proxy-addr's names for whole ranges. */
const NAMED_RANGES = new Set(["loopback", "linklocal", "uniquelocal"]);

function validEntry(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split("/");
  const family = isIP(address ?? "");
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY (docs/api-notes.md, Limits): unset or `false`, X-Forwarded-* are ignored and the client is the
 * socket's peer; a number, that many proxies in front are trusted (the address that many hops
 * from the right of X-Forwarded-For); otherwise a comma-separated list of proxy addresses, CIDRs
 * or proxy-addr's `loopback`, `linklocal`, `uniquelocal`. `true` (trust every hop) is refused:
 * the left of X-Forwarded-For is whatever the client wrote, so every per-address limit would
 * be the client's to choose.
 */
export const TrustProxySchema = z
  .string()
  .optional()
  .transform((raw, ctx): TrustProxy => {
    const value = raw?.trim() ?? "";
    if (value === "" || value === "false" || value === "0") return false;
    if (/^\d+$/.test(value)) return Number(value);
    if (value === "true") {
      ctx.addIssue({ code: "custom", message: "true would trust any client's X-Forwarded-For; give the proxies' addresses or a hop count" });
      return z.NEVER;
    }
    const entries = value.split(",").map((s) => s.trim()).filter(Boolean);
    const bad = entries.find((e) => !validEntry(e));
    if (bad !== undefined) {
      ctx.addIssue({ code: "custom", message: `"${bad}" is not an IP address, a CIDR, loopback, linklocal or uniquelocal` });
      return z.NEVER;
    }
    return entries;
  });
