import { describe, expect, it } from "vitest";
import { addressAllowed } from "./address-policy.ts";

const REFUSED_LIVE = [
  "127.0.0.1",
  "10.1.2.3",
  "172.16.0.1",
  "192.168.1.1",
  "169.254.169.254",
  "100.64.0.1",
  "0.0.0.0",
  "224.0.0.1",
  "255.255.255.255",
  "::1",
  "::",
  "fe80::1",
  "fc00::1",
  "fd00:ec2::254",
  "::ffff:127.0.0.1",
  "::ffff:169.254.169.254",
  "not-an-ip",
];

describe("addressAllowed", () => {
  it.each(REFUSED_LIVE)("refuses %s in live mode", (address) => {
    expect(addressAllowed(address, true)).toBe(false);
  });

  it.each(["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111"])("accepts the public %s in live mode", (address) => {
    expect(addressAllowed(address, true)).toBe(true);
  });

  it("accepts loopback and private addresses in the sandbox", () => {
    for (const address of ["127.0.0.1", "::1", "10.1.2.3", "192.168.1.1", "::ffff:127.0.0.1"]) expect(addressAllowed(address, false)).toBe(true);
  });

  it("refuses metadata and link-local addresses even in the sandbox", () => {
    for (const address of ["169.254.169.254", "fe80::1", "fd00:ec2::254", "::ffff:169.254.169.254"]) expect(addressAllowed(address, false)).toBe(false);
  });
});
