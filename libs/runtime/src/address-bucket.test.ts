import { describe, expect, it } from "vitest";
import { addressBucket } from "./address-bucket.ts";

describe("addressBucket", () => {
  it("counts an IPv4 address as itself, mapped forms included", () => {
    expect(addressBucket("203.0.113.7")).toBe("ip4:203.0.113.7");
    expect(addressBucket("::ffff:203.0.113.7")).toBe("ip4:203.0.113.7");
  });

  it("counts every IPv6 address of one /64 as one client", () => {
    expect(addressBucket("2001:db8:1:2::1")).toBe("ip6:2001:db8:1:2::/64");
    expect(addressBucket("2001:db8:1:2:ffff:ffff:ffff:fffe")).toBe("ip6:2001:db8:1:2::/64");
    expect(addressBucket("2001:db8:1:3::1")).not.toBe(addressBucket("2001:db8:1:2::1"));
  });

  it("has no bucket without an address", () => {
    expect(addressBucket(undefined)).toBeNull();
    expect(addressBucket("not an address")).toBeNull();
  });
});
