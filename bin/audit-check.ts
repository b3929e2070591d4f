import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { judgeAudit, type AllowedAdvisory } from "./audit/audit-policy.ts";

/*
 * `npm run lint:audit`: `npm audit --omit=dev` with a high or critical advisory failing the lint,
 * except those named in audit-allowlist.json (each explained in docs/decisions/0029-developer-tooling.md). When the
 * advisory service cannot be asked, the step fails too, unless AUDIT_UNAVAILABLE=warn: a check
 * that did not run must not read as passed.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const allowList = JSON.parse(readFileSync(join(root, "audit-allowlist.json"), "utf8")) as AllowedAdvisory[];
const run = spawnSync("npm", ["audit", "--omit=dev", "--json"], { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
let report: unknown = null;
try {
  report = JSON.parse(run.stdout);
} catch {
  report = { message: (run.stderr || run.error?.message || "npm audit printed no JSON").trim().split("\n").pop() };
}
const verdict = judgeAudit(report, allowList);

if (verdict.kind === "unavailable") {
  const warnOnly = process.env.AUDIT_UNAVAILABLE === "warn";
  console.error(`npm audit could not check the dependencies: ${verdict.reason}`);
  console.error(warnOnly ? "AUDIT_UNAVAILABLE=warn: going on without the audit." : "Failing (set AUDIT_UNAVAILABLE=warn where the advisory service cannot be reached).");
  process.exit(warnOnly ? 0 : 1);
}
for (const f of verdict.allowed) console.log(`allowed ${f.severity} ${f.advisory} in ${f.package}: ${f.title} (audit-allowlist.json)`);
for (const a of verdict.stale) console.log(`note: ${a.advisory} in ${a.package} is no longer reported; remove it from audit-allowlist.json and docs/decisions/0029-developer-tooling.md`);
for (const f of verdict.failing) console.error(`${f.severity} ${f.advisory} in ${f.package}: ${f.title} ${f.url}`);
if (verdict.failing.length > 0) {
  console.error(`npm audit: ${verdict.failing.length} high or critical advisories in production dependencies. Upgrade, or explain each in docs/decisions/0029-developer-tooling.md and audit-allowlist.json.`);
  process.exit(1);
}
console.log("npm audit: no high or critical advisory in production dependencies beyond the allow-list.");
