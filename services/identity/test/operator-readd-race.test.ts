import type { DomainEvent } from "@payrail/contracts";
import { silentLogger } from "@payrail/runtime";
import { createEmbeddedStore, type Collection, type Store } from "@payrail/store";
import { describe, expect, it } from "vitest";
import { OPERATORS_COLLECTION, OperatorRepository } from "../src/data-access/operator.repository.ts";
import { operatorId, type OperatorRecord } from "../src/domain/operator.entity.ts";

const merchantId = `mer_${"1".repeat(32)}`;
const phone = "+15555550123";
const record = (): OperatorRecord => ({ _id: operatorId(merchantId, phone), merchantId, phone, createdAt: new Date().toISOString() });
const entry = (action: string): DomainEvent[] => [{ id: `evt_${action}`, type: "audit.entry", created_at: new Date().toISOString(), data: { action } } as unknown as DomainEvent];

/**
 * A store whose operators collection lets `beforeRevive` run just before the repository's first
 * conditional revive: where the outbox relay's delete of a published tombstone can land.
 */
function storeWithGap(store: Store, beforeRevive: () => Promise<void>): Store {
  let fired = false;
  return new Proxy(store, {
    get(target, key, receiver) {
      if (key !== "collection") return Reflect.get(target, key, receiver);
      return (name: string) => {
        const col = target.collection(name);
        if (name !== OPERATORS_COLLECTION) return col;
        return new Proxy(col, {
          get(c, k, r) {
            if (k !== "findOneAndUpdate") return Reflect.get(c, k, r);
            return async (...args: Parameters<Collection<OperatorRecord>["findOneAndUpdate"]>) => {
              if (!fired) {
                fired = true;
                await beforeRevive();
              }
              return (c as unknown as Collection<OperatorRecord>).findOneAndUpdate(...args);
            };
          },
        });
      };
    },
  });
}

describe("adding an operator again just after its removal", () => {
  it("registers it when the relay deletes the tombstone between the failed insert and the revive", async () => {
    const store = createEmbeddedStore({ logger: silentLogger() });
    const plain = new OperatorRepository(store);
    await plain.ensureIndexes();
    expect(await plain.add(record(), entry("added"))).toBe(true);
    expect(await plain.remove(merchantId, phone, entry("removed"))).toBe(true);
    expect(await plain.isOperator(merchantId, phone)).toBe(false);

    // The tombstone is there when the insert fails, gone when the revive looks for it.
    const raced = new OperatorRepository(storeWithGap(store, async () => void (await store.collection(OPERATORS_COLLECTION).deleteOne({ _id: operatorId(merchantId, phone) }))));
    expect(await raced.add(record(), entry("added-again"))).toBe(true);
    expect(await plain.isOperator(merchantId, phone)).toBe(true);
    await store.close();
  });

  it("answers 'already registered' without writing when the operator is live", async () => {
    const store = createEmbeddedStore({ logger: silentLogger() });
    const repo = new OperatorRepository(store);
    await repo.ensureIndexes();
    expect(await repo.add(record(), entry("added"))).toBe(true);
    expect(await repo.add(record(), entry("added-twice"))).toBe(false);
    expect(await repo.isOperator(merchantId, phone)).toBe(true);
    await store.close();
  });
});
