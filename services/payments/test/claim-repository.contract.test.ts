import type { Store } from "@payrail/store";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { storeWithFaults } from "../../../test/support/store-with-faults.ts";
import { ClaimRepository } from "../src/data-access/claim.repository.ts";

const variants = await infraVariants();

describe.each(variants)("checkout claims on $name", (variant) => {
  let claims: ClaimRepository;
  /** The collections each insert was sent to, refused ones included. */
  const inserts: string[] = [];
  let n = 0;
  const checkoutId = () => `chk_claim_${process.pid}_${Date.now()}_${n++}`;
  const claim = (id: string, userId: string) => claims.claim({ _id: id, userId, claimedAt: new Date().toISOString() });

  beforeAll(async () => {
    if (variant.skipReason) return;
    const store: Store = await variant.store();
    claims = new ClaimRepository(storeWithFaults(store, { inserting: async (collection) => void inserts.push(collection) }));
  });
  afterAll(() => variant.cleanup());
  beforeEach(() => void (inserts.length = 0));

  it.skipIf(!!variant.skipReason)("claims a checkout with one insert, and a second call of its consumer finds it without another", async () => {
    const id = checkoutId();
    expect(await claim(id, "usr_first")).toBe("usr_first");
    expect(inserts).toEqual(["checkout_claims"]);
    expect(await claim(id, "usr_first")).toBe("usr_first");
    expect(await claim(id, "usr_second")).toBe("usr_first");
    expect(inserts).toEqual(["checkout_claims"]);
  });

  it.skipIf(!!variant.skipReason)("gives a checkout to one of 10 consumers claiming it at once", async () => {
    const id = checkoutId();
    const holders = await Promise.all(Array.from({ length: 10 }, (_, i) => claim(id, `usr_${i}`)));
    expect(new Set(holders).size).toBe(1);
    expect(holders[0]).toMatch(/^usr_\d$/);
  });
});
