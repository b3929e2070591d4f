/** One advisory `npm audit` reports, as its JSON (report version 2) gives it in a package's `via`. */
interface Advisory {
  source?: number;
  name?: string;
  title?: string;
  url?: string;
  severity?: string;
  range?: string;
}

/** An advisory the project accepts, with the reason docs/decisions/0029-developer-tooling.md gives at length. */
export interface AllowedAdvisory {
  /** The GitHub advisory id, `GHSA-xxxx-xxxx-xxxx`. */
  advisory: string;
  /** The package it is reported in. */
  package: string;
  reason: string;
}

export interface Finding {
  advisory: string;
  package: string;
  severity: string;
  title: string;
  url: string;
}

export type AuditVerdict =
  /** The advisory service could not be asked (an error body instead of a report). */
  | { kind: "unavailable"; reason: string }
  | { kind: "report"; failing: Finding[]; allowed: Finding[]; stale: AllowedAdvisory[] };

/** Severities that fail the lint (`--audit-level=high`). */
const FAILING = new Set(["high", "critical"]);

const advisoryId = (a: Advisory) => a.url?.split("/").pop() ?? `npm-${a.source ?? "unknown"}`;

/**
 * Reads `npm audit --omit=dev --json` against the allow-list: every high or critical advisory
 * not on the list fails; a listed one is tolerated (for that package only); a listed one the
 * report no longer names is stale (the list should shrink with it).
 */
export function judgeAudit(report: unknown, allowList: readonly AllowedAdvisory[]): AuditVerdict {
  const body = report as { vulnerabilities?: Record<string, { via?: unknown[] }>; error?: { summary?: string; code?: string }; message?: string } | null;
  if (!body || typeof body !== "object" || typeof body.vulnerabilities !== "object" || body.vulnerabilities === null) {
    const reason = body?.message ?? body?.error?.summary ?? body?.error?.code ?? "npm audit answered no report";
    return { kind: "unavailable", reason: reason || "npm audit answered no report" };
  }
  const seen = new Map<string, Finding>();
  for (const [pkg, entry] of Object.entries(body.vulnerabilities)) {
    for (const via of entry.via ?? []) {
      // A string names another vulnerable package: its own entry reports the advisory.
      if (typeof via !== "object" || via === null) continue;
      const advisory = via as Advisory;
      const severity = advisory.severity ?? "unknown";
      if (!FAILING.has(severity)) continue;
      const finding = { advisory: advisoryId(advisory), package: advisory.name ?? pkg, severity, title: advisory.title ?? "", url: advisory.url ?? "" };
      seen.set(`${finding.advisory} ${finding.package}`, finding);
    }
  }
  const isAllowed = (f: Finding) => allowList.some((a) => a.advisory === f.advisory && a.package === f.package);
  const findings = [...seen.values()];
  return {
    kind: "report",
    failing: findings.filter((f) => !isAllowed(f)),
    allowed: findings.filter(isAllowed),
    stale: allowList.filter((a) => !findings.some((f) => f.advisory === a.advisory && f.package === a.package)),
  };
}
