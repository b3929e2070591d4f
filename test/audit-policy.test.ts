import { describe, expect, it } from "vitest";
import { judgeAudit } from "../bin/audit/audit-policy.ts";

/** The shape of `npm audit --json` (report version 2), trimmed to what the policy reads. */
const report = {
  auditReportVersion: 2,
  vulnerabilities: {
    "fast-xml": {
      name: "fast-xml",
      severity: "high",
      via: [{ source: 1, name: "fast-xml", title: "Prototype pollution", url: "https://github.com/advisories/GHSA-aaaa-bbbb-cccc", severity: "high", range: "<4.2.5" }],
    },
    "sdk-using-fast-xml": { name: "sdk-using-fast-xml", severity: "high", via: ["fast-xml"] },
    "tiny-glob": {
      name: "tiny-glob",
      severity: "moderate",
      via: [{ source: 2, name: "tiny-glob", title: "ReDoS", url: "https://github.com/advisories/GHSA-dddd-eeee-ffff", severity: "moderate" }],
    },
    "old-jwt": {
      name: "old-jwt",
      severity: "critical",
      via: [{ source: 3, name: "old-jwt", title: "Signature bypass", url: "https://github.com/advisories/GHSA-gggg-hhhh-iiii", severity: "critical" }],
    },
  },
  metadata: { vulnerabilities: { info: 0, low: 0, moderate: 1, high: 2, critical: 1, total: 4 } },
};

describe("the audit step's policy (npm audit --omit=dev against audit-allowlist.json)", () => {
  it("fails on every high or critical advisory, once per advisory and package, and lets moderate ones pass", () => {
    const verdict = judgeAudit(report, []);
    expect(verdict.kind).toBe("report");
    if (verdict.kind !== "report") return;
    expect(verdict.failing.map((f) => [f.advisory, f.package, f.severity]).sort()).toEqual([
      ["GHSA-aaaa-bbbb-cccc", "fast-xml", "high"],
      ["GHSA-gggg-hhhh-iiii", "old-jwt", "critical"],
    ]);
  });

  it("tolerates exactly the allow-listed advisory in its package, and names list entries no longer reported", () => {
    const verdict = judgeAudit(report, [
      { advisory: "GHSA-aaaa-bbbb-cccc", package: "fast-xml", reason: "the parser never sees untrusted XML" },
      { advisory: "GHSA-gggg-hhhh-iiii", package: "another-jwt", reason: "listed for another package" },
      { advisory: "GHSA-zzzz-zzzz-zzzz", package: "gone", reason: "fixed upstream since" },
    ]);
    if (verdict.kind !== "report") throw new Error(verdict.kind);
    expect(verdict.allowed.map((f) => f.advisory)).toEqual(["GHSA-aaaa-bbbb-cccc"]);
    expect(verdict.failing.map((f) => f.advisory)).toEqual(["GHSA-gggg-hhhh-iiii"]);
    expect(verdict.stale.map((a) => a.advisory)).toEqual(["GHSA-gggg-hhhh-iiii", "GHSA-zzzz-zzzz-zzzz"]);
  });

  it("passes a clean report", () => {
    expect(judgeAudit({ auditReportVersion: 2, vulnerabilities: {}, metadata: {} }, [])).toEqual({ kind: "report", failing: [], allowed: [], stale: [] });
  });

  it("tells an advisory service that did not answer from a clean report", () => {
    // What npm printed on this machine, whose registry mirror refuses the bulk advisory POST.
    const refused = { message: "405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk", statusCode: 405, error: { summary: "", detail: "" } };
    expect(judgeAudit(refused, [])).toEqual({ kind: "unavailable", reason: refused.message });
    expect(judgeAudit({ error: { code: "ENOTFOUND", summary: "getaddrinfo ENOTFOUND registry.npmjs.org" } }, [])).toMatchObject({ kind: "unavailable" });
    expect(judgeAudit(null, [])).toMatchObject({ kind: "unavailable" });
  });
});
