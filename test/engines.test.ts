import { readFileSync } from "node:fs";
import semver from "semver";
import { expect, it } from "vitest";

/**
 * `npm install` on the Node version `engines` names warns EBADENGINE for every installed package
 * whose own `engines.node` that version does not satisfy: a newcomer's first screen. Every
 * package of the lock must accept the lowest Node Payrail supports.
 */
it("installs no package whose engines refuse the Node version Payrail supports (no EBADENGINE on npm install)", () => {
  const root = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { engines: { node: string } };
  const lowest = semver.minVersion(root.engines.node)!.version;
  const lock = JSON.parse(readFileSync(new URL("../package-lock.json", import.meta.url), "utf8")) as {
    packages: Record<string, { version?: string; engines?: { node?: string } | string[]; optional?: boolean; dev?: boolean }>;
  };
  const refusing = Object.entries(lock.packages)
    .filter(([path, p]) => path !== "" && !Array.isArray(p.engines) && p.engines?.node !== undefined)
    .filter(([, p]) => !semver.satisfies(lowest, (p.engines as { node: string }).node, { includePrerelease: true }))
    .map(([path, p]) => `${path}@${p.version} wants node ${(p.engines as { node: string }).node}`);
  expect(refusing).toEqual([]);
});
