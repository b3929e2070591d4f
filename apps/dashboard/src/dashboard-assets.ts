import { hashedAsset, type StaticAsset } from "@payrail/web";
import { DASHBOARD_SCRIPT } from "./dashboard-script.ts";
import { DASHBOARD_STYLE } from "./dashboard-style.ts";

/** Named by content hash, so browsers may cache them for a year. */
export const STYLE = hashedAsset("dashboard", "css", DASHBOARD_STYLE.trim(), "text/css; charset=utf-8");
export const SCRIPT = hashedAsset("dashboard", "js", DASHBOARD_SCRIPT.trim(), "text/javascript; charset=utf-8");
export const DASHBOARD_ASSETS: ReadonlyMap<string, StaticAsset> = new Map([STYLE, SCRIPT].map((a) => [a.name, a]));

/**
 * The dashboard's Content-Security-Policy: only its own script and stylesheet, forms posting
 * only to itself, never framed, no other origin contacted.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");
