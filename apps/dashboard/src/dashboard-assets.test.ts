import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { DASHBOARD_ASSETS, DASHBOARD_CSP } from "./dashboard-assets.ts";

describe("the dashboard's assets", () => {
  it("keeps every page's script and style under 100 KB gzipped, named by content hash", () => {
    let total = 0;
    for (const [name, asset] of DASHBOARD_ASSETS) {
      expect(name).toMatch(/^dashboard-[0-9a-f]{12}\.(css|js)$/);
      total += gzipSync(asset.body).length;
    }
    expect(total).toBeLessThan(100 * 1024);
  });

  it("allows no inline script or style and no other origin", () => {
    expect(DASHBOARD_CSP).toContain("default-src 'none'");
    expect(DASHBOARD_CSP).not.toMatch(/unsafe-|https?:|\*/);
  });
});
