import { describe, expect, it } from "vitest";
import ipaddr from "ipaddr.js";
import { addressAllowed, embeddedIPv4 } from "./address-policy.ts";

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

  // Each form, in the spelling URLs normalise to and in the dotted one DNS answers may use.
  const EMBEDDING_LOOPBACK = ["::7f00:1", "::127.0.0.1", "::ffff:7f00:1", "::ffff:0:7f00:1", "64:ff9b::7f00:1", "64:ff9b:1:7f00:1::", "2002:7f00:1::", "2001:0:7f00:1::"];
  const EMBEDDING_METADATA = ["::a9fe:a9fe", "::169.254.169.254", "::ffff:a9fe:a9fe", "64:ff9b::a9fe:a9fe", "64:ff9b:1::a9fe:a9fe", "2002:a9fe:a9fe::1", "2001:0:a9fe:a9fe::", "2001:0:4136:e378::5601:5601"];

  it.each([...EMBEDDING_LOOPBACK, ...EMBEDDING_METADATA, "::a00:1", "::10.0.0.1", "::c0a8:101", "2002:a00:1::"])("refuses %s, an IPv6 form of a refused IPv4 address, in live mode", (address) => {
    expect(addressAllowed(address, true)).toBe(false);
  });

  it.each(EMBEDDING_METADATA)("refuses %s, an IPv6 form of a link-local address, even in the sandbox", (address) => {
    expect(addressAllowed(address, false)).toBe(false);
  });

  it("accepts the IPv6 forms of loopback in the sandbox, as it accepts 127.0.0.1", () => {
    for (const address of EMBEDDING_LOOPBACK) expect(addressAllowed(address, false), address).toBe(true);
  });

  it("finds the IPv4 address each form carries", () => {
    const embedded = (address: string) => embeddedIPv4(ipaddr.IPv6.parse(address)).map(String);
    expect(embedded("::7f00:1")).toEqual(["127.0.0.1"]);
    expect(embedded("64:ff9b::808:808")).toEqual(["8.8.8.8"]);
    // A /48 local-use prefix: the address around the "u" octet (byte 8).
    expect(embedded("64:ff9b:1:a9fe:a9:fe00::")).toContain("169.254.169.254");
    expect(embedded("2002:c000:204::1")).toEqual(["192.0.2.4"]);
    // RFC 4380's example: server 65.54.227.120, client 192.0.2.45 (inverted in the address).
    expect(embedded("2001:0:4136:e378:8000:63bf:3fff:fdd2")).toEqual(["65.54.227.120", "192.0.2.45"]);
    expect(embedded("2606:4700:4700::1111")).toEqual([]);
  });
});
