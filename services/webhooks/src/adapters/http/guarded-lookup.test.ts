import dns, { type LookupAddress } from "node:dns";
import { syncBuiltinESMExports } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardedLookup, resolveAllowed } from "./guarded-lookup.ts";

/** What the resolver answers for each name in these tests (the dotted spellings libuv prints). */
const ANSWERS: Record<string, LookupAddress[]> = {
  "compat.test": [{ address: "::127.0.0.1", family: 6 }],
  "nat64.test": [{ address: "64:ff9b::a9fe:a9fe", family: 6 }],
  "mixed.test": [
    { address: "93.184.216.34", family: 4 },
    { address: "::a00:1", family: 6 },
  ],
  "public.test": [{ address: "2606:4700:4700::1111", family: 6 }],
};

/**
 * The resolver answers from ANSWERS while this file runs. Replaced on node:dns itself (and synced
 * into its ES module's named exports) rather than with vi.mock: the main project shares one module
 * registry across files, where a module mock would reach only the first file to load the module.
 */
const realLookup = dns.lookup;
beforeAll(() => {
  const fake = (host: string, _options: unknown, callback: (err: Error | null, addresses: LookupAddress[]) => void) => callback(null, ANSWERS[host] ?? []);
  dns.lookup = fake as unknown as typeof dns.lookup;
  syncBuiltinESMExports();
});
afterAll(() => {
  dns.lookup = realLookup;
  syncBuiltinESMExports();
});

const lookupAll = (host: string) =>
  new Promise<string[]>((resolve, reject) =>
    guardedLookup(true)(host, { all: true }, (err, addresses) => (err ? reject(err) : resolve((addresses as LookupAddress[]).map((a) => a.address)))),
  );

describe("guardedLookup and resolveAllowed", () => {
  it.each(["compat.test", "nat64.test", "mixed.test"])("refuses %s, whose DNS answer holds an IPv6 form of a private address", async (host) => {
    await expect(lookupAll(host)).rejects.toThrow(/may not be sent to/);
    await expect(resolveAllowed(host, true)).rejects.toThrow(/may not be sent to/);
  });

  it("answers a host whose every address is public", async () => {
    expect(await lookupAll("public.test")).toEqual(["2606:4700:4700::1111"]);
    expect(await resolveAllowed("public.test", true)).toEqual(["2606:4700:4700::1111"]);
  });
});
