import type { Store } from "@payrail/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { storeWithFaults } from "../../../test/support/store-with-faults.ts";
import { ConsumerRepository } from "../src/data-access/consumer.repository.ts";

const variants = await infraVariants();

describe.each(variants)("notices' map of checkouts to consumers on $name", (variant) => {
  let consumers: ConsumerRepository;
  /** The collections each insert was sent to, refused ones included. */
  const inserts: string[] = [];

  beforeAll(async () => {
    if (variant.skipReason) return;
    const store: Store = await variant.store();
    consumers = new ConsumerRepository(storeWithFaults(store, { inserting: async (collection) => void inserts.push(collection) }));
  });
  afterAll(() => variant.cleanup());

  it.skipIf(!!variant.skipReason)("remembers a checkout's consumer with one insert, however many events name it", async () => {
    const id = `chk_consumer_${process.pid}_${Date.now()}`;
    expect(await consumers.userOf(id)).toBeNull();
    for (let i = 0; i < 3; i++) await consumers.remember(id, "usr_named");
    expect(await consumers.userOf(id)).toBe("usr_named");
    expect(inserts).toEqual(["notice_consumers"]);
  });

  it.skipIf(!!variant.skipReason)("keeps one consumer when events remember it at once", async () => {
    const id = `chk_consumer_race_${process.pid}_${Date.now()}`;
    await Promise.all(Array.from({ length: 5 }, () => consumers.remember(id, "usr_race")));
    expect(await consumers.userOf(id)).toBe("usr_race");
  });
});
