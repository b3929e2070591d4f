import { createHash } from "node:crypto";
import { DASHBOARD_SCRIPT } from "./dashboard-script.ts";
import { DASHBOARD_STYLE } from "./dashboard-style.ts";

export interface DashboardAsset {
  name: string;
  body: string;
  contentType: string;
}

function asset(stem: string, ext: string, body: string, contentType: string): DashboardAsset {
  const hash = createHash("sha256").update(body).digest("hex").slice(0, 12);
  return { name: `${stem}-${hash}.${ext}`, body, contentType };
}

/** Named by content hash, so browsers may cache them for a year. */
export const STYLE = asset("dashboard", "css", DASHBOARD_STYLE.trim(), "text/css; charset=utf-8");
export const SCRIPT = asset("dashboard", "js", DASHBOARD_SCRIPT.trim(), "text/javascript; charset=utf-8");
export const DASHBOARD_ASSETS: ReadonlyMap<string, DashboardAsset> = new Map([STYLE, SCRIPT].map((a) => [a.name, a]));

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
